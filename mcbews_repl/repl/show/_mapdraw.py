"""Pictures of where everyone is: a top-down SVG for notebooks and a text map for terminals.

Pure functions of a :class:`MapSnapshot` (plain data: players and entities with positions);
the live map (``_livemap.py``) refreshes them, the static fallbacks show them once. x grows
to the east (right), z to the south (down), as in the game; north is up. Game text (names,
name tags) is shown without its ``§`` codes, cleaned (``mcbews_repl.cleantext``) and escaped.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ...cleantext import clean_text, escape_html
from ...gametext import strip_codes
from ._style import MUTED, MUTED_COLOUR

__all__ = [
    "MAP_HEIGHT_PX",
    "MAP_WIDTH_PX",
    "Bounds",
    "MapPoint",
    "MapSnapshot",
    "fit_bounds",
    "map_html",
    "map_text",
]

MAP_WIDTH_PX, MAP_HEIGHT_PX = 640, 400  # the picture; it shrinks with a narrow notebook
_MARGIN_PX = 28  # room for the coordinate labels along the top and the left
# A strip under the area drawn, for the scale bar and the north arrow: on the map itself
# they hid whoever stood in that corner (a zombie at the edge of a region's terrain).
_KEY_STRIP_PX = 30
MIN_SPAN_BLOCKS = 16  # the smallest area a map shows, so one player is not a blur
_PAD_BLOCKS = 4.0  # room kept around every point
_NICE_STEPS = (1, 2, 5)  # grid steps are these times a power of ten
LABELLED_ENTITIES = 40  # past this many entities only the dots and the legend name them
PLAYER_COLOURS = ("#d1242f", "#0969da", "#8250df", "#bf3989", "#1a7f37", "#9a6700")
_ENTITY_COLOURS = {
    "cow": "#8b5a2b", "pig": "#f4a6b4", "sheep": "#bdbdbd", "chicken": "#f2e35c",
    "zombie": "#2e7d32", "skeleton": "#9e9e9e", "creeper": "#4caf50", "spider": "#5d4037",
    "villager": "#a1887f", "villager_v2": "#a1887f", "wolf": "#78909c", "horse": "#6d4c41",
    "item": "#ffb300", "xp_orb": "#c6ff00", "armor_stand": "#795548",
}  # fmt: skip


@dataclass(frozen=True)
class MapPoint:
    """A player or an entity where the map draws it."""

    kind: str  # "player" or "entity"
    label: str  # the player's name, or the entity's name tag ("" when it has none)
    type: str  # minecraft:cow ... (minecraft:player for players)
    x: float
    y: float
    z: float
    dimension: str = "overworld"
    yaw: float | None = None

    @property
    def short_type(self) -> str:
        """The type without its ``minecraft:`` prefix (``cow``)."""
        return self.type.removeprefix("minecraft:")

    def where(self) -> str:
        """The position as ``x, y, z`` (whole blocks, else one decimal)."""
        return f"{_coord(self.x)}, {_coord(self.y)}, {_coord(self.z)}"


@dataclass(frozen=True)
class MapSnapshot:
    """What one look at the world saw; ``dimension`` is the one drawn."""

    points: tuple[MapPoint, ...]
    taken_at: float
    dimension: str = "overworld"
    complete: bool = True  # False: more entities matched than one query returns
    note: str = ""  # why the picture may be out of date (no game, an error)
    source: str = ""  # where the positions came from when not from this look (pushes)

    def here(self) -> list[MapPoint]:
        """The players and entities in the dimension drawn."""
        return [p for p in self.points if p.dimension == self.dimension]

    def elsewhere(self) -> list[MapPoint]:
        """The players in other dimensions (the legend names them; the map cannot)."""
        return [p for p in self.points if p.kind == "player" and p.dimension != self.dimension]


@dataclass(frozen=True)
class Bounds:
    """The area shown: x from ``x0`` to ``x1``, z from ``z0`` to ``z1`` (blocks)."""

    x0: float
    z0: float
    x1: float
    z1: float
    step: int = 10  # the grid's spacing in blocks
    terrain: tuple[float, float, float, float] | None = field(default=None, compare=False)

    def contains(self, x: float, z: float, margin: float = 1.0) -> bool:
        return (
            self.x0 + margin <= x <= self.x1 - margin and self.z0 + margin <= z <= self.z1 - margin
        )

    def describe(self) -> str:
        return f"x {_coord(self.x0)} to {_coord(self.x1)}, z {_coord(self.z0)} to {_coord(self.z1)}"


def _coord(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def nice_step(span: float, lines: int = 6) -> int:
    """A grid step (1, 2, 5, 10, 20, 50 ...) that cuts ``span`` into about ``lines`` parts."""
    rough = max(span / lines, 1.0)
    power = 10 ** math.floor(math.log10(rough))
    return int(next((n * power for n in _NICE_STEPS if n * power >= rough), 10 * power))


def fit_bounds(
    points: Iterable[tuple[float, float]],
    *,
    previous: Bounds | None = None,
    box: tuple[float, float, float, float] | None = None,
    aspect: float = MAP_WIDTH_PX / MAP_HEIGHT_PX,
) -> Bounds:
    """Bounds that hold every point (and ``box``: x0, z0, x1, z1) with room around them.

    They keep ``previous`` while everything still fits in it, so a live map does not jump
    while people walk about; they widen to ``aspect`` so blocks stay square.
    """
    given = [(float(x), float(z)) for x, z in points]
    if previous is not None and all(previous.contains(x, z) for x, z in given):
        return previous
    # room around each point for its dot and label; the terrain box is drawn as it is
    xs = [x + d for x, _ in given for d in (-_PAD_BLOCKS, _PAD_BLOCKS)]
    zs = [z + d for _, z in given for d in (-_PAD_BLOCKS, _PAD_BLOCKS)]
    if box is not None:
        xs += [box[0], box[2]]
        zs += [box[1], box[3]]
    if not xs:
        xs, zs = [-_PAD_BLOCKS, _PAD_BLOCKS], [-_PAD_BLOCKS, _PAD_BLOCKS]
    x0, x1, z0, z1 = min(xs), max(xs), min(zs), max(zs)
    height = math.ceil(max(z1 - z0, (x1 - x0) / aspect, MIN_SPAN_BLOCKS / aspect))
    width = math.ceil(height * aspect)
    left, top = math.floor((x0 + x1 - width) / 2), math.floor((z0 + z1 - height) / 2)
    return Bounds(left, top, left + width, top + height, nice_step(width), box)


def type_colour(short_type: str) -> str:
    """An entity type's colour: a familiar one for common mobs, else one from its name."""
    known = _ENTITY_COLOURS.get(short_type)
    if known is not None:
        return known
    digest = hashlib.sha256(short_type.encode(errors="surrogatepass")).digest()  # any text
    return "#" + "".join(f"{40 + b % 150:02x}" for b in digest[:3])


# --- SVG ------------------------------------------------------------------------------------


class _Canvas:
    """Block coordinates to pixels for one picture."""

    def __init__(self, bounds: Bounds) -> None:
        self.b = bounds
        self.scale = (MAP_WIDTH_PX - _MARGIN_PX) / (bounds.x1 - bounds.x0)

    def px(self, x: float, z: float) -> tuple[float, float]:
        return (
            _MARGIN_PX + (x - self.b.x0) * self.scale,
            _MARGIN_PX + (z - self.b.z0) * self.scale,
        )

    @property
    def height(self) -> float:
        return _MARGIN_PX + (self.b.z1 - self.b.z0) * self.scale


def _grid(canvas: _Canvas) -> list[str]:
    b, step, parts = canvas.b, canvas.b.step, []
    muted = f"fill:{MUTED_COLOUR}"
    # labels keep clear of the picture's right edge, where they would be cut
    for x in range(math.ceil(b.x0 / step) * step, math.floor(b.x1 - step / 4) + 1, step):
        left, _ = canvas.px(x, b.z0)
        parts.append(f"<line x1='{left:.1f}' y1='{_MARGIN_PX}' x2='{left:.1f}' "
                     f"y2='{canvas.height:.1f}' class='grid'/>"
                     f"<text x='{left:.1f}' y='{_MARGIN_PX - 8}' text-anchor='middle' "
                     f"style='{muted}'>{x}</text>")  # fmt: skip
    for z in range(math.ceil(b.z0 / step) * step, math.floor(b.z1) + 1, step):
        _, top = canvas.px(b.x0, z)
        parts.append(f"<line x1='{_MARGIN_PX}' y1='{top:.1f}' x2='{MAP_WIDTH_PX}' "
                     f"y2='{top:.1f}' class='grid'/>"
                     f"<text x='{_MARGIN_PX - 4}' y='{top + 4:.1f}' text-anchor='end' "
                     f"style='{muted}'>{z}</text>")  # fmt: skip
    return parts


def _scale_bar(canvas: _Canvas) -> str:
    """The scale bar and the north arrow, in the strip under the area drawn (nothing on the
    map is under them)."""
    step, length = canvas.b.step, canvas.b.step * canvas.scale
    x, y = _MARGIN_PX, canvas.height + _KEY_STRIP_PX - 8
    return (
        f"<g class='scale'><line x1='{x}' y1='{y}' x2='{x + length:.1f}' y2='{y}' "
        "style='stroke:var(--jp-ui-font-color1, #222);stroke-width:2'/>"
        f"<line x1='{x}' y1='{y - 4}' x2='{x}' y2='{y + 2}' style='stroke:var(--jp-ui-font-color1,"
        f" #222);stroke-width:2'/><line x1='{x + length:.1f}' y1='{y - 4}' x2='{x + length:.1f}'"
        f" y2='{y + 2}' style='stroke:var(--jp-ui-font-color1, #222);stroke-width:2'/>"
        f"<text x='{x + length + 6:.1f}' y='{y + 4}'>{step} blocks</text>"
        f"<text x='{MAP_WIDTH_PX - 4}' y='{y + 4}' text-anchor='end' "
        "font-weight='bold'>N &#8593;</text></g>"
    )


def _name(point: MapPoint) -> str:
    """The point's label as shown: its words without § codes, control characters visible."""
    return clean_text(strip_codes(point.label))


def _point(canvas: _Canvas, point: MapPoint, colour: str, labelled: bool) -> str:
    cx, cy = canvas.px(point.x, point.z)
    name = escape_html(_name(point))
    tip = escape_html(f"{_name(point) or point.short_type} ({point.short_type}) "
                      f"at {point.where()}")  # fmt: skip
    if point.kind == "player":
        facing = ""
        if point.yaw is not None:  # yaw 0 faces south (+z), 90 west (-x)
            dx, dz = -math.sin(math.radians(point.yaw)), math.cos(math.radians(point.yaw))
            tip_x, tip_y = cx + 13 * dx, cy + 13 * dz
            facing = (f"<line x1='{cx:.1f}' y1='{cy:.1f}' x2='{tip_x:.1f}' y2='{tip_y:.1f}' "
                      f"style='stroke:{colour};stroke-width:3'/>")  # fmt: skip
        return (
            f"<g class='player' data-name='{name}' data-where='{point.where()}'>"
            f"<title>{tip}</title>{facing}<circle cx='{cx:.1f}' cy='{cy:.1f}' r='7' "
            f"style='fill:{colour};stroke:#fff;stroke-width:2'/><text x='{cx + 10:.1f}' "
            f"y='{cy - 8:.1f}' class='label' font-weight='bold' style='fill:{colour}'>{name}"
            "</text></g>"
        )
    words = name or escape_html(point.short_type)
    text = (f"<text x='{cx + 7:.1f}' y='{cy + 4:.1f}' class='label' font-size='11'>{words}"
            "</text>") if labelled else ""  # fmt: skip
    return (
        f"<g class='entity' data-type='{escape_html(point.short_type)}'><title>{tip}</title>"
        f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='5' style='fill:{colour};stroke:#fff;"
        f"stroke-width:1.5'/>{text}</g>"
    )


def player_colours(names: Iterable[str]) -> dict[str, str]:
    """Each player's colour, the same on the map and in the charts (by name, sorted)."""
    return {n: PLAYER_COLOURS[k % len(PLAYER_COLOURS)] for k, n in enumerate(sorted(set(names)))}


def _player_names(points: Sequence[MapPoint]) -> list[str]:
    return [p.label for p in points if p.kind == "player"]


def _svg(snapshot: MapSnapshot, bounds: Bounds, terrain_png: bytes | None) -> str:
    canvas = _Canvas(bounds)
    here = snapshot.here()
    players = player_colours(_player_names(snapshot.points))
    entities = [p for p in here if p.kind == "entity"]
    labelled = len(entities) <= LABELLED_ENTITIES
    parts = [_terrain(canvas, terrain_png), *_grid(canvas)]
    parts += [_point(canvas, p, type_colour(p.short_type), labelled) for p in entities]
    parts += [_point(canvas, p, players[p.label], True) for p in here if p.kind == "player"]
    parts.append(_scale_bar(canvas))
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {MAP_WIDTH_PX} "
        f"{canvas.height + _KEY_STRIP_PX:.0f}' style='width:100%;max-width:{MAP_WIDTH_PX}px;"
        "display:block;"
        "font-family:var(--jp-ui-font-family, sans-serif);font-size:12px;"
        "fill:var(--jp-ui-font-color1, #222)'>"
        "<style>.grid{stroke:rgba(128,128,128,.25);stroke-width:1}"
        ".label{paint-order:stroke;stroke:var(--jp-layout-color0, #fff);stroke-width:3px}</style>"
        f"<rect x='{_MARGIN_PX}' y='{_MARGIN_PX}' width='{MAP_WIDTH_PX - _MARGIN_PX}' "
        f"height='{canvas.height - _MARGIN_PX:.1f}' style='fill:rgba(128,128,128,.06)'/>"
        + "".join(parts)
        + "</svg>"
    )


def _terrain(canvas: _Canvas, png: bytes | None) -> str:
    if png is None or canvas.b.terrain is None:
        return ""
    x0, z0, x1, z1 = canvas.b.terrain
    left, top = canvas.px(x0, z0)
    right, bottom = canvas.px(x1, z1)
    data = base64.b64encode(png).decode("ascii")
    return (
        f"<image href='data:image/png;base64,{data}' x='{left:.1f}' y='{top:.1f}' "
        f"width='{right - left:.1f}' height='{bottom - top:.1f}' preserveAspectRatio='none' "
        "style='image-rendering:pixelated;opacity:0.85'/>"
    )


def _legend(snapshot: MapSnapshot) -> str:
    here = snapshot.here()
    colours = player_colours(_player_names(snapshot.points))
    swatch = "<span style='color:{};font-size:1.2em'>&#9679;</span> {}"
    players = [swatch.format(colours[p.label], f"<b>{escape_html(_name(p))}</b> "
                             f"{p.where()}") for p in here if p.kind == "player"]  # fmt: skip
    counts: dict[str, int] = {}
    for p in here:
        if p.kind == "entity":
            counts[p.short_type] = counts.get(p.short_type, 0) + 1
    kinds = [swatch.format(type_colour(t), f"{escape_html(t)} &#215;{n}")
             for t, n in sorted(counts.items())]  # fmt: skip
    away = [f"{escape_html(_name(p))} is in the {escape_html(p.dimension)}"
            for p in snapshot.elsewhere()]  # fmt: skip
    return " &#183; ".join(players + kinds + away)


def map_html(snapshot: MapSnapshot, bounds: Bounds, terrain_png: bytes | None = None) -> str:
    """The picture, a legend (each player with their position, entity types and counts) and
    a line with the area shown, the grid's scale and when the picture was taken."""
    taken = dt.datetime.fromtimestamp(snapshot.taken_at).strftime("%H:%M:%S")
    more = "" if snapshot.complete else " &#183; more entities than one query returns (64)"
    note = f" &#183; {escape_html(snapshot.note)}" if snapshot.note else ""
    if snapshot.source:
        note = f" &#183; {escape_html(snapshot.source)}{note}"
    return (
        "<div class='mcbews-map' style='font-family:var(--jp-ui-font-family, sans-serif)'>"
        f"{_svg(snapshot, bounds, terrain_png)}"
        f"<div class='mcbews-map-legend' style='margin-top:4px'>{_legend(snapshot)}</div>"
        f"<div class='mcbews-map-footer' style='{MUTED};"
        f"font-size:0.85em'>{escape_html(snapshot.dimension)}, {bounds.describe()} &#183; "
        f"grid every {bounds.step} blocks &#183; seen at {taken}{more}{note}</div></div>"
    )


# --- text -------------------------------------------------------------------------------


def _mark(point: MapPoint) -> str:
    if point.kind == "player":
        return (_name(point)[:1] or "P").upper()
    return (clean_text(point.short_type)[:1] or "e").lower()


def map_text(snapshot: MapSnapshot, bounds: Bounds, width: int = 60, height: int = 18) -> str:
    """A small map in characters: players as their initial in capitals, entities as their
    type's initial, ``*`` where several share a cell; the legend below names them."""
    grid = [[" "] * width for _ in range(height)]
    cell_x = (bounds.x1 - bounds.x0) / width
    cell_z = (bounds.z1 - bounds.z0) / height
    ordered = sorted(snapshot.here(), key=lambda p: p.kind == "player")  # players on top
    taken: dict[tuple[int, int], str] = {}
    for point in ordered:
        col = min(width - 1, max(0, int((point.x - bounds.x0) / cell_x)))
        row = min(height - 1, max(0, int((point.z - bounds.z0) / cell_z)))
        mark = _mark(point)
        grid[row][col] = mark if taken.get((row, col), mark) == mark else "*"
        taken[(row, col)] = grid[row][col]
    lines = [f"{clean_text(snapshot.dimension)}, {bounds.describe()} (north is up; one "
             f"character is {cell_x:.1f} blocks across)", "+" + "-" * width + "+"]  # fmt: skip
    lines += ["|" + "".join(row) + "|" for row in grid]
    lines.append("+" + "-" * width + "+")
    for p in snapshot.here():
        name, kind = _name(p), clean_text(p.short_type)
        what = f"{name} ({kind})" if p.kind == "entity" and name else name or kind
        lines.append(f"  {_mark(p)}  {what} at {p.where()}")
    lines += [f"  {_name(p)} is in the {clean_text(p.dimension)}" for p in snapshot.elsewhere()]
    if snapshot.source:
        lines.append(f"  ({clean_text(snapshot.source)})")
    if snapshot.note:
        lines.append(f"  ({clean_text(snapshot.note)})")
    return "\n".join(lines)
