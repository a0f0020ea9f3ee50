"""What a write would change, worked out from the box as read (toolkit/preview.py): counts,
the box after, the columns that change, and the character map of them."""

from __future__ import annotations

import numpy as np
import pytest

from mcbews_repl.toolkit.preview import preview_write
from mcbews_repl.toolkit.region import BlockRegion
from mcbews_repl.toolkit.writes import plan_write

PALETTE = ("minecraft:air", "minecraft:stone", "<unloaded>")


def test_a_preview_counts_what_would_change_and_draws_the_columns() -> None:
    ids = np.zeros((4, 2, 3), dtype=np.uint16)
    ids[0, 0, :] = 1  # stone along the first column's floor
    ids[3, :, 2] = 2  # an unloaded corner
    before = BlockRegion((10, 64, 0), ids, PALETTE)
    names = np.full((4, 2, 3), None, dtype=object)
    names[0, 0, :] = "stone"  # already so
    names[1, :, 0] = "glass"  # two changes in one column
    names[3, 0, 2] = "glass"  # unloaded: cannot be written
    preview = preview_write(before, plan_write((10, 64, 0), names))
    assert (preview.change, preview.already, preview.kept, preview.unknown) == (2, 3, 18, 1)
    assert preview.after.block(11, 65, 0) == "minecraft:glass"
    assert preview.after.block(13, 64, 2) == "<unloaded>"
    assert preview.text_map() == [".#..", "....", "...."]
    assert preview.describe() == (
        "preview of 4x2x3 blocks at (10, 64, 0) in overworld: 2 would change, 3 already so, "
        "18 left as is; 1 could not be written (unloaded or outside the world)"
    )


def test_a_wide_box_is_drawn_in_cells_of_several_columns() -> None:
    before = BlockRegion((0, 0, 0), np.zeros((200, 1, 10), dtype=np.uint16), PALETTE)
    names = np.full((200, 1, 10), None, dtype=object)
    names[199, 0, 9] = "stone"
    rows = preview_write(before, plan_write((0, 0, 0), names)).text_map(width=50)
    assert len(rows[0]) == 50 and rows[-1].endswith("#") and rows[0] == "." * 50


def test_a_preview_of_another_box_is_refused() -> None:
    before = BlockRegion((0, 0, 0), np.zeros((2, 2, 2), dtype=np.uint16), PALETTE)
    with pytest.raises(ValueError, match="is not the write's"):
        preview_write(before, plan_write((1, 0, 0), np.full((2, 2, 2), "stone", dtype=object)))
