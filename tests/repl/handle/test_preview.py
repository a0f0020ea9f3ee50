"""``mc.map(preview=..., at=...)`` as a user sees it at the IPython prompt (a real
InteractiveShell with the simulated world): the headline with how many blocks would change,
the columns that would change drawn as characters, the before and after pictures in HTML,
and nothing written; a picture from pixel_art previewed where it lies, then built as shown."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit import WritePreview, cuboid, pixel_art


def test_a_preview_shows_what_would_change_and_writes_nothing(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    world = mc.sim.raw.world
    blocks_before = dict(world.blocks)
    wall = np.full((6, 3, 1), "red_wool", dtype=object)
    preview = mc.map(preview=wall, at=(0, 140, 4))
    assert isinstance(preview, WritePreview)
    text = shell.display_formatter.format(preview)[0]["text/plain"]
    assert text.splitlines()[:4] == [
        "WritePreview preview of 6x3x1 blocks at (0, 140, 4) in overworld: 18 would change, "
        "0 already so",
        "+------+",
        "|######|",
        "+------+",
    ]
    assert "# a column that would change, . one that would not" in text
    page = shell.display_formatter.formatters["text/html"].lookup(preview)(preview)
    assert "<b>WritePreview</b> preview of 6x3x1 blocks" in page
    assert [alt in page for alt in ("alt='before'", "alt='after'", "alt='what changes'")] == [
        True, True, True,
    ]  # fmt: skip
    assert dict(world.blocks) == blocks_before  # nothing was written


def test_a_shape_previews_where_it_stands_and_only_its_changes_count(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    mc.fill((30, 140, 30), (32, 140, 32), "stone").result()
    preview = mc.map(preview=cuboid((30, 140, 30), (34, 140, 30), "stone"))
    assert (preview.change, preview.already) == (2, 3)
    assert preview.text_map() == ["...##"]


def test_a_region_without_an_origin_needs_at(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    with pytest.raises(InvalidArgument, match="at=None: is needed"):
        mc.map(preview=np.full((1, 1, 1), "stone", dtype=object))


def test_a_picture_previews_where_it_lies_then_builds_as_shown(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    image = np.zeros((2, 3, 3), dtype=np.uint8)
    image[0] = (176, 46, 38)  # red, on the north row
    image[1] = (234, 236, 237)  # white
    art = pixel_art(image, (40, 140, 40), palette="wool", plane="ground")
    preview = mc.map(preview=art)
    assert (preview.change, preview.already) == (6, 0)
    assert preview.text_map() == ["###", "###"]
    surface = np.asarray(preview.after.palette, dtype=object)[preview.after.surface()]
    assert surface.T.tolist() == [["minecraft:red_wool"] * 3, ["minecraft:white_wool"] * 3]
    written = mc.build(art).result()
    assert written.complete and written.describe().startswith(
        "3x1x2 blocks at (40, 140, 40) in overworld: 6 written"
    )
    again = mc.map(preview=art)
    assert (again.change, again.already) == (0, 6)  # read back: as the preview drew it
