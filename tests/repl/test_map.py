"""The map: what it draws (pure), what ``mc.map()`` and ``%mc map`` show in a shell against
the simulated world, and that the picture follows the world when someone moves."""

from __future__ import annotations

import re
import struct
import zlib
from typing import Any

import numpy as np
import pytest
from IPython.core.error import UsageError

from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.show._livemap import StaticMap
from mcbews_repl.repl.show._mapdraw import (
    Bounds,
    MapPoint,
    MapSnapshot,
    fit_bounds,
    map_html,
    map_text,
)
from mcbews_repl.toolkit.region import BlockRegion
from mcbews_repl.toolkit.regionplot import surface_png

STEVE = MapPoint("player", "Steve", "minecraft:player", 0.5, 64, 0.5, yaw=0)
ALEX = MapPoint("player", "§bAlex", "minecraft:player", 12.5, 70, -8.5, yaw=90)
COW = MapPoint("entity", "", "minecraft:cow", 5, 64, 5)
BOB = MapPoint("entity", "Bob <3", "minecraft:villager_v2", 3, 64, -6)
NETHER = MapPoint("player", "Kai", "minecraft:player", 1, 70, 1, "nether")
SNAPSHOT = MapSnapshot((STEVE, ALEX, COW, BOB, NETHER), 0.0)


def mc_of(shell: Any) -> Minecraft:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft)
    return mc


def labels(html: str) -> list[str]:
    return re.findall(r"class='label'[^>]*>([^<]*)</text>", html)


def test_the_picture_labels_players_and_names_entities_by_type() -> None:
    bounds = fit_bounds([(p.x, p.z) for p in SNAPSHOT.here()])
    html = map_html(SNAPSHOT, bounds)
    assert labels(html) == ["cow", "Bob &lt;3", "Steve", "Alex"]  # players drawn last, on top
    assert "data-where='12.5, 70, -8.5'" in html and "§" not in html
    assert "cow &#215;1" in html and "villager_v2 &#215;1" in html  # the legend counts types
    assert "Kai is in the nether" in html and "'Kai'" not in html
    assert f"{bounds.step} blocks</text>" in html and "N &#8593;" in html  # scale and north
    assert bounds.describe() in html and "grid every" in html


def test_the_scale_bar_and_the_north_arrow_hide_nothing() -> None:
    """Whoever stands in a corner of the area drawn (a zombie at the edge of the terrain)
    stays in sight: the scale bar and the north arrow sit in a strip under the map."""
    corners = [(x, z) for x in (-20.0, 60.0) for z in (-30.0, 14.0)]
    points = tuple(MapPoint("entity", "", "minecraft:zombie", x, 64, z) for x, z in corners)
    snapshot = MapSnapshot(points, 0.0)
    html = map_html(snapshot, fit_bounds(corners))
    area = re.search(r"<rect x='28' y='28' width='[\d.]+' height='([\d.]+)'", html)
    assert area is not None
    bottom = 28 + float(area.group(1))
    dots = [float(y) for y in re.findall(r"<circle cx='[\d.-]+' cy='([\d.-]+)'", html)]
    assert len(dots) == 4 and max(dots) <= bottom
    key = html.split("<g class='scale'>", 1)[1].split("</g>", 1)[0]
    heights = [float(v) for v in re.findall(r"\by[12]?='([\d.-]+)'", key)]
    assert heights and min(heights) > bottom, (bottom, heights)  # below every dot
    view = re.search(r"viewBox='0 0 (\d+) ([\d.]+)'", html)
    assert view is not None and max(heights) <= float(view.group(2))  # inside the picture


def test_bounds_hold_everyone_keep_still_and_widen_when_someone_leaves() -> None:
    first = fit_bounds([(0.5, 0.5), (12.5, -8.5)])
    assert first.x0 <= 0.5 - 4 and first.x1 >= 12.5 + 4 and first.z0 <= -8.5 - 4
    assert (first.x1 - first.x0) / (first.z1 - first.z0) == pytest.approx(1.6, abs=0.05)
    assert all(float(v).is_integer() for v in (first.x0, first.z0, first.x1, first.z1))
    assert fit_bounds([(1.5, 0.5), (11.5, -7.5)], previous=first) is first  # a step: no jump
    wider = fit_bounds([(0.5, 0.5), (80.5, 40.5)], previous=first)
    assert wider.x1 >= 84 and wider.step >= first.step
    alone = fit_bounds([(0.0, 0.0)])
    assert alone.x1 - alone.x0 >= 16  # one player is not a blur


def test_the_text_map_puts_initials_where_things_are() -> None:
    bounds = Bounds(-10, -10, 14, 5)
    text = map_text(SNAPSHOT, bounds, width=24, height=15)
    rows = text.splitlines()[2:17]
    assert rows[10][11] == "S" and rows[1][23] == "A"  # x 0.5 → column 10; Alex at the edge
    assert "  S  Steve at 0.5, 64, 0.5" in text and "  A  Alex at 12.5, 70, -8.5" in text
    assert "  v  Bob <3 (villager_v2) at 3, 64, -6" in text
    assert "Kai is in the nether" in text


def test_terrain_is_drawn_under_the_map() -> None:
    ids = np.zeros((4, 3, 2), dtype=np.uint16)  # all stone ...
    ids[0, 2, 0] = 1  # ... a grass top at x 0, z 0
    ids[3, :, 1] = 2  # ... and a column of air at x 3, z 1
    region = BlockRegion((10, 60, 20), ids, ("minecraft:stone", "minecraft:grass_block",
                                             "minecraft:air"))  # fmt: skip
    png = surface_png(region)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (4, 2)  # x across, z down
    raw = zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])
    rows = [raw[1 + r * 17 : 1 + r * 17 + 16] for r in range(2)]
    assert rows[0][:4] == bytes((0x5C, 0x9E, 0x3A, 255))  # grass green at x 0, z 0
    assert rows[1][12:16] == bytes((0, 0, 0, 0))  # the air column is see-through
    bounds = fit_bounds([(11, 21)], box=(10, 20, 14, 22))
    assert "<image href='data:image/png;base64," in map_html(SNAPSHOT, bounds, png)


# --- against the simulated world --------------------------------------------------------


def test_map_in_a_terminal_is_a_text_map_without_the_bridge_player(shell: Any) -> None:
    shown = shell.run_line_magic("mc", "map")
    assert isinstance(shown, StaticMap)
    text = repr(shown)
    assert "S  Steve at 0.5, 64, 0.5" in text and "A  Alex at 12.5, 70, -8.5" in text
    assert "Bob (villager_v2)" in text and "cow at 5, 64, 5" in text
    assert "MCBEWS_BRIDGE" not in text and "player at" not in text
    assert "MCBEWS_BRIDGE" not in shown.html() and "Steve</text>" in shown.html()


def test_the_map_follows_the_world(shell: Any) -> None:
    mc = mc_of(shell)
    picture = mc.map(live=False)
    assert "Alex at 12.5, 70, -8.5" in repr(picture)
    mc.command("tp Alex -30 64 25").result(10)
    try:
        assert "Alex at -29.5, 64, 25.5" in repr(picture.refresh())
        assert picture.bounds is not None and picture.bounds.contains(-29.5, 25.5)
    finally:
        mc.command("tp Alex 12.5 70 -8.5").result(10)


def test_map_mistakes_are_usage_errors(shell: Any) -> None:
    with pytest.raises(UsageError, match="invalid float value"):
        shell.run_line_magic("mc", "map --every often")
    with pytest.raises(RuntimeError, match="a live map needs a notebook with widgets"):
        mc_of(shell).map(live=True)  # a terminal shell has no widgets
