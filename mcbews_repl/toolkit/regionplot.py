"""Pictures of a ``BlockRegion``: a top-down map and a cross-section, with matplotlib.

Each block id gets a colour (familiar ones a colour like the block's, others one derived
from the name, the same on every run); air is white; positions that could not be read are
drawn hatched in their own colours and named in the legend, never as air. matplotlib is
imported when a picture is asked for (``pip install mcbews-repl[lab]``).
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..optional import needs
from .boxes import OUT_OF_WORLD, UNLOADED
from .colours import block_colours

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


class Pictured(Protocol):
    """What a picture reads of a region: region.py's BlockRegion, named by what it has so
    that this module, which region.py imports to draw, does not import it back."""

    @property
    def origin(self) -> tuple[int, int, int]: ...

    @property
    def ids(self) -> np.ndarray[Any, np.dtype[np.uint16]]: ...

    @property
    def palette(self) -> tuple[str, ...]: ...

    @property
    def size(self) -> tuple[int, int, int]: ...

    def surface(self, ignore: Iterable[str] = ()) -> np.ndarray[Any, np.dtype[np.int64]]: ...


__all__ = [
    "FONT_PT",
    "PICTURE_DPI",
    "PICTURE_FIGSIZE",
    "PLOT_DPI",
    "colour_of",
    "picture_png",
    "plot_region",
    "shown_figure",
    "surface_png",
]

# Every word on a picture (ticks, labels, the legend) is at least FONT_PT points, which at
# the resolutions below is 11 pixels or more where it is shown at its own size: at 60 dpi
# with matplotlib's "small" legend the words were about 6 pixels, too small to read.
FONT_PT = 10
TITLE_PT = 11
# The picture beside a region's counts (8 x 3.4 in at 80 dpi: 640 x 272 px), and .plot()'s
# figure in a notebook (10 x 4.2 in at 80 dpi: 800 x 336 px).
PICTURE_FIGSIZE, PICTURE_DPI = (8.0, 3.4), 80
PLOT_FIGSIZE, PLOT_DPI = (10.0, 4.2), 80
# Legend entries a column holds before the legend takes another (it must fit the height).
_LEGEND_ROWS = 14

_COLOURS = {
    "minecraft:air": "#ffffff", "minecraft:stone": "#8a8a8a", "minecraft:deepslate": "#4d4d55",
    "minecraft:dirt": "#8b5a3c", "minecraft:grass_block": "#5c9e3a", "minecraft:sand": "#e3d59a",
    "minecraft:gravel": "#9a918c", "minecraft:water": "#3f6fe0", "minecraft:lava": "#f06a14",
    "minecraft:bedrock": "#2b2b2b", "minecraft:oak_log": "#6b5132",
    "minecraft:oak_leaves": "#3a7a2a", "minecraft:coal_ore": "#303030",
    "minecraft:iron_ore": "#d8af93", "minecraft:copper_ore": "#c8703e",
    "minecraft:gold_ore": "#f5d64a", "minecraft:redstone_ore": "#c81e1e",
    "minecraft:lapis_ore": "#2545a8", "minecraft:diamond_ore": "#4ee4df",
    "minecraft:glass": "#c8e8f0", "minecraft:gold_block": "#f8d030",
    UNLOADED: "#b000b0", OUT_OF_WORLD: "#ff8c00",
}  # fmt: skip
_UNKNOWN = (UNLOADED, OUT_OF_WORLD)


def colour_of(block: str) -> str:
    """The colour a block is drawn in; deepslate ores take their ore's colour, wool, concrete
    and terracotta their texture's (pixel art's palette, ``block_colours.json``)."""
    known = _COLOURS.get(block) or _COLOURS.get(block.replace("deepslate_", ""))
    if known is not None:
        return known
    textured = _textured().get(block)
    if textured is not None:
        return "#{:02x}{:02x}{:02x}".format(*textured)
    digest = hashlib.sha256(block.encode()).digest()
    return "#" + "".join(f"{64 + b % 160:02x}" for b in digest[:3])


@cache
def _textured() -> dict[str, tuple[int, int, int]]:
    return block_colours()


def _palette_image(indices: np.ndarray[Any, Any], palette: tuple[str, ...]) -> np.ndarray[Any, Any]:
    """RGB image of palette indices; -1 (nothing) white, -2 (unknown top) the unloaded colour."""
    with needs():
        from matplotlib.colors import to_rgb

    colours = np.array(
        [to_rgb(colour_of(b)) for b in palette] + [(1, 1, 1), to_rgb(_COLOURS[UNLOADED])]
    )
    safe = np.where(indices >= 0, indices, len(palette) + (-indices - 1))
    picked: np.ndarray[Any, Any] = colours[safe]
    return picked


def _hatch_unknown(ax: Axes, unknown: np.ndarray[Any, Any], left: int, bottom: int) -> None:
    """Hatch the unknown cells: row ``r`` of ``unknown`` spans ``bottom + r`` to the next
    whole number in the axes' data, one rectangle per run of neighbours in a row."""
    with needs():
        from matplotlib.patches import Rectangle

    for row, cells in enumerate(unknown):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], cells.astype(np.int8), [0]))))
        for start, stop in zip(edges[::2], edges[1::2], strict=True):
            y = bottom + row
            ax.add_patch(Rectangle((left + start, y), stop - start, 1, fill=False, hatch="xx",
                                   linewidth=0, edgecolor="black"))  # fmt: skip


def _legend(fig: Figure, region: Pictured, shown: set[int]) -> None:
    with needs():
        from matplotlib.patches import Patch

    names = [region.palette[i] for i in sorted(shown) if i >= 0]
    handles = [
        Patch(facecolor=colour_of(n), edgecolor="#555555", label=n.removeprefix("minecraft:"),
              hatch="xx" if n in _UNKNOWN else None)
        for n in names
    ]  # fmt: skip
    columns = 1 + (len(handles) - 1) // _LEGEND_ROWS if handles else 1
    fig.legend(handles=handles, loc="outside right upper", fontsize=FONT_PT, frameon=False,
               ncols=columns)  # fmt: skip


def shown_figure(**options: Any) -> Figure:
    """A figure that shows itself when a notebook cell returns it, without pyplot (whose
    figures a notebook would also show at the end of the cell: twice)."""
    with needs():
        from matplotlib.figure import Figure

    class RegionFigure(Figure):
        def _repr_png_(self) -> bytes:
            buffer = io.BytesIO()
            self.savefig(buffer, format="png", dpi=PLOT_DPI)
            return buffer.getvalue()

    return RegionFigure(**options)


def _readable(ax: Axes, title: str, xlabel: str, ylabel: str) -> None:
    """Words at FONT_PT (a title a point larger): readable where the picture is shown."""
    ax.set_title(title, fontsize=TITLE_PT)
    ax.set_xlabel(xlabel, fontsize=FONT_PT)
    ax.set_ylabel(ylabel, fontsize=FONT_PT)
    ax.tick_params(labelsize=FONT_PT)


def plot_region(
    region: Pictured,
    *,
    z: int | None = None,
    ignore: tuple[str, ...] = (),
    figsize: tuple[float, float] = PLOT_FIGSIZE,
) -> Figure:
    """Top-down map (x across, z down) and the cross-section at world ``z`` (x across, y up)."""
    (x0, y0, z0), (sx, sy, sz) = region.origin, region.size
    cut = z0 + sz // 2 if z is None else z
    if not z0 <= cut < z0 + sz:
        raise ValueError(f"z={cut} is outside the region (z {z0}..{z0 + sz - 1})")
    fig = shown_figure(figsize=figsize, layout="constrained")
    top_ax, side_ax = fig.subplots(1, 2, width_ratios=[1, max(1.0, sx / max(sz, 1))])
    top = region.surface(ignore).T  # rows z, columns x
    top_extent = [x0, x0 + sx, z0 + sz, z0]
    top_ax.imshow(_palette_image(top, region.palette), extent=top_extent, interpolation="nearest")
    _hatch_unknown(top_ax, top == -2, x0, z0)
    top_ax.axhline(cut + 0.5, color="black", linewidth=0.8, linestyle="--")
    _readable(top_ax, "top-down: each column's top block", "x", "z")
    section = region.ids[:, :, cut - z0].T.astype(np.int64)  # rows y, columns x
    side_extent = [x0, x0 + sx, y0, y0 + sy]
    side_ax.imshow(_palette_image(section, region.palette), extent=side_extent, origin="lower",
                   interpolation="nearest", aspect="auto")  # fmt: skip
    unknown = np.isin(section, [i for i, p in enumerate(region.palette) if p in _UNKNOWN])
    _hatch_unknown(side_ax, unknown, x0, y0)
    _readable(side_ax, f"cross-section at z = {cut}", "x", "y")
    _legend(fig, region, set(np.unique(top).tolist()) | set(np.unique(section).tolist()))
    return fig


def picture_png(region: Pictured) -> bytes:
    """The plot as a small PNG (what a notebook shows for a region, at its own size)."""
    buffer = io.BytesIO()
    plot_region(region, figsize=PICTURE_FIGSIZE).savefig(buffer, format="png", dpi=PICTURE_DPI)
    return buffer.getvalue()


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def surface_png(region: Pictured, ignore: tuple[str, ...] = ()) -> bytes:
    """Each column's top block seen from above, one pixel per block (x across, z down),
    as PNG bytes; columns of air are transparent, unknown tops the unloaded colour. Made
    with the standard library alone, so a live map can show terrain without matplotlib."""
    top = region.surface(ignore).T  # rows z, columns x
    # -1 (only air) is transparent, -2 (an unknown top) the unloaded colour
    extra = [(0, 0, 0, 0), (*_rgb(_COLOURS[UNLOADED]), 255)]
    colours = np.array([(*_rgb(colour_of(b)), 255) for b in region.palette] + extra, np.uint8)
    pixels = colours[np.where(top >= 0, top, len(region.palette) + (-top - 1))]
    height, width = top.shape
    rows = b"".join(b"\x00" + pixels[r].tobytes() for r in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
            + chunk(b"IEND", b""))  # fmt: skip
