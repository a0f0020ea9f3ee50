"""BlockRegion's views, on small regions built by hand: counts, frames, heightmaps and the
pictures, with unknown positions kept apart from air in each of them."""

from __future__ import annotations

import math
import struct
from typing import Any

import numpy as np
import pytest
from matplotlib.text import Text

from mcbews_repl.toolkit.blocks import OUT_OF_WORLD, UNLOADED
from mcbews_repl.toolkit.region import BlockRegion
from mcbews_repl.toolkit.regionplot import (
    PICTURE_DPI,
    PICTURE_FIGSIZE,
    PLOT_DPI,
    colour_of,
    picture_png,
    plot_region,
)
from mcbews_repl.toolkit.shapes import block_colours

PALETTE = ("minecraft:air", "minecraft:stone", "minecraft:water", UNLOADED, OUT_OF_WORLD)
AIR, STONE, WATER, GONE, OUT = range(5)


def region() -> BlockRegion:
    """3 columns along x (z = 0), y 10..13, origin (5, 10, 7):
    x=5: stone, stone, air, air      -> top 11
    x=6: stone, water, water, air    -> top 12 (11 ignoring water)
    x=7: air, stone, unloaded, air   -> unknown: an unread position above the stone
    """
    ids = np.array(
        [[[STONE], [STONE], [AIR], [AIR]],
         [[STONE], [WATER], [WATER], [AIR]],
         [[AIR], [STONE], [GONE], [AIR]]], dtype=np.uint16,
    )  # fmt: skip
    return BlockRegion((5, 10, 7), ids, PALETTE)


def test_shape_and_lookup() -> None:
    r = region()
    assert (r.size, r.volume) == ((3, 4, 1), 12)
    assert r.block(6, 11, 7) == "minecraft:water"
    with pytest.raises(IndexError):
        r.block(8, 10, 7)
    assert r.mask("stone").sum() == 4 and r.mask("minecraft:water", "air").sum() == 7
    assert r.known.sum() == 11


def test_counts_keep_unknown_as_itself() -> None:
    counts = region().counts()
    assert counts.to_dict() == {
        "air": 5, "stone": 4, "water": 2, UNLOADED: 1,
    }  # fmt: skip
    assert counts.name == "count" and counts.index.name == "block"
    assert OUT_OF_WORLD not in counts  # a palette entry never met is not counted


def test_to_frame_one_row_per_block_in_reading_order() -> None:
    frame = region().to_frame()
    assert list(frame.columns) == ["x", "y", "z", "block", "blockId"] and len(frame) == 12
    assert list(frame.x[:3]) == [5, 6, 7] and list(frame.y[:3]) == [10, 10, 10]
    assert list(frame.block[frame.y == 12]) == ["air", "water", UNLOADED]
    assert list(frame.blockId[frame.y == 12]) == ["minecraft:air", "minecraft:water", UNLOADED]
    with pytest.raises(ValueError, match="states=True"):
        region().to_frame(states=True)


def test_heightmap_nan_for_unknown_minus_inf_for_empty() -> None:
    r = region()
    assert r.heightmap()[:, 0].tolist()[:2] == [11.0, 12.0]
    assert math.isnan(r.heightmap()[2, 0])
    assert r.heightmap(ignore=["minecraft:water"])[1, 0] == 10.0
    empty = BlockRegion((0, 0, 0), np.zeros((2, 3, 2), dtype=np.uint16), PALETTE)
    assert (empty.heightmap() == -np.inf).all()
    assert r.surface().tolist() == [[STONE], [WATER], [-2]]


def test_describe_names_the_unknown() -> None:
    assert repr(region()) == (
        "<BlockRegion 3x4x1 blocks at (5, 10, 7) in overworld: 3 kinds, 1 unknown>"
    )


def test_plot_draws_both_views_and_names_unknown_in_the_legend() -> None:
    fig = region().plot(z=7)
    top, side = fig.axes
    assert top.get_title().startswith("top-down") and side.get_title() == "cross-section at z = 7"
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "<unloaded>" in labels and "stone" in labels and "water" in labels
    with pytest.raises(ValueError, match="outside the region"):
        region().plot(z=99)
    assert picture_png(region()).startswith(b"\x89PNG")


def _smallest_text_px(fig: Any, dpi: float) -> float:
    """The smallest word on a figure, in pixels of the picture saved at ``dpi``."""
    fig.canvas.draw()
    ticks = [t for ax in fig.axes for t in [*ax.get_xticklabels(), *ax.get_yticklabels()]]
    texts = [t for t in [*fig.findobj(Text), *ticks] if t.get_visible() and t.get_text().strip()]
    assert len(ticks) > 8 and len(texts) > 12  # titles, labels, ticks and the legend
    return min(float(t.get_fontsize()) for t in texts) * dpi / 72


def test_the_pictures_words_are_readable_where_they_are_shown() -> None:
    many = BlockRegion((0, 0, 0), np.arange(30, dtype=np.uint16).reshape(5, 3, 2),
                       tuple(f"minecraft:block_{k}" for k in range(30)))  # fmt: skip
    for shown in (region(), many):
        # the picture beside the counts, shown at its own size: 10 px or more
        picture = plot_region(shown, figsize=PICTURE_FIGSIZE)
        assert _smallest_text_px(picture, PICTURE_DPI) >= 10
        png = picture_png(shown)
        width, height = struct.unpack(">II", png[16:24])
        assert (width, height) == (640, 272)
        # .plot() in a notebook, at the dpi it is shown with
        assert _smallest_text_px(shown.plot(), PLOT_DPI) >= 10
    legend = plot_region(many, figsize=PICTURE_FIGSIZE).legends[0]
    assert legend._ncols >= 2  # 30 kinds: the legend takes a second column to fit


def test_colours_are_stable_and_unknown_stands_out() -> None:
    assert colour_of("minecraft:deepslate_diamond_ore") == colour_of("minecraft:diamond_ore")
    assert colour_of("custom:thing") == colour_of("custom:thing") != colour_of("custom:other")
    assert colour_of(UNLOADED) not in (colour_of("minecraft:air"), colour_of("minecraft:stone"))
    # wool, concrete and terracotta in their texture's colour, as pixel art chose them
    assert colour_of("minecraft:white_wool") == "#eaeced"
    assert colour_of("minecraft:black_concrete") == "#{:02x}{:02x}{:02x}".format(
        *block_colours()["minecraft:black_concrete"]
    )
