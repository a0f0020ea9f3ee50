"""What a write would change, before it is written: ``mc.map(preview=region, at=origin)``.

:func:`preview_write` takes the box as it is now (a ``BlockRegion`` read with ``mc.blocks``)
and a planned write, and answers a :class:`WritePreview`: the box as it would be after
(``after``), where it would change (``changed[x, y, z]``), and how many positions would be
set, are so already, are left as they are, or could not be written (unloaded, outside the
height range). Nothing is sent. numpy is needed; its pictures are drawn by the REPL
(repl/show/_previewview.py): before and after from above, the columns that change marked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..gameids import short_id
from .boxes import OUT_OF_WORLD, UNLOADED
from .region import BlockRegion
from .writes import KEEP, PlannedWrite

__all__ = ["WritePreview", "preview_write"]


def _full(name: str) -> str:
    return name if ":" in name or name.startswith("<") else f"minecraft:{name}"


@dataclass(frozen=True, eq=False)
class WritePreview:
    """A write's effect on the box it covers, worked out before anything is written."""

    before: BlockRegion
    after: BlockRegion
    changed: np.ndarray[Any, np.dtype[np.bool_]]  # [x, y, z]: the block would be another
    kept: int  # positions the write leaves as they are (holes)
    unknown: int  # positions it would write that could not be read: unloaded or out of world

    @property
    def change(self) -> int:
        """Positions whose block would change."""
        return int(self.changed.sum())

    @property
    def already(self) -> int:
        """Positions the write sets that hold that block already."""
        return self.before.volume - self.change - self.kept - self.unknown

    @property
    def columns(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """``[x, z]``: True where a column of the box would change somewhere."""
        return np.asarray(self.changed.any(axis=1), dtype=bool)

    def describe(self) -> str:
        """One line: how many would change, be so already, stay, and not be written."""
        sx, sy, sz = self.before.size
        where = short_id(self.before.dimension)
        line = (f"preview of {sx}x{sy}x{sz} blocks at {self.before.origin} in {where}: "
                f"{self.change:,} would change, {self.already:,} already so")  # fmt: skip
        if self.kept:
            line += f", {self.kept:,} left as is"
        if self.unknown:
            line += f"; {self.unknown:,} could not be written (unloaded or outside the world)"
        return line

    def text_map(self, width: int = 64, height: int = 32) -> list[str]:
        """The box from above (x across, z down, north up): ``#`` where a column changes,
        ``.`` where it does not; a box wider than ``width`` or ``height`` is shown in cells
        of several columns (``#`` when any of them changes)."""
        cols = self.columns
        sx, sz = cols.shape
        step = max(1, -(-sx // width), -(-sz // height))
        rows = []
        for z in range(0, sz, step):
            cells = (
                "#" if cols[x : x + step, z : z + step].any() else "." for x in range(0, sx, step)
            )
            rows.append("".join(cells))
        return rows

    def __repr__(self) -> str:
        return f"<WritePreview {self.describe()}>"


def preview_write(before: BlockRegion, planned: PlannedWrite) -> WritePreview:
    """``before`` (the box ``planned`` covers, as read now) as it would be after the write.

    Raises:
        ValueError: ``before`` is not the box the write covers.
    """
    if before.origin != planned.origin or before.size != planned.box.size:
        raise ValueError(
            f"the box read ({before.size} at {before.origin}) is not the write's "
            f"({planned.box.size} at {planned.origin})"
        )
    names = [_full(name) for name, _ in planned.entries]
    palette = list(before.palette)
    index = {name: i for i, name in enumerate(palette)}
    for name in names:
        if name != KEEP and name not in index:
            index[name] = len(palette)
            palette.append(name)
    to_after = np.array([index.get(name, -1) for name in names], dtype=np.int64)
    wanted = to_after[planned.ids]  # -1: keep
    old = before.ids.astype(np.int64)
    unknown_ids = [i for i, b in enumerate(before.palette) if b in (UNLOADED, OUT_OF_WORLD)]
    unreadable = np.isin(old, unknown_ids)
    writes = wanted >= 0
    sets = writes & ~unreadable
    after = np.where(sets, wanted, old).astype(np.uint16)
    changed = sets & (wanted != old)
    region = BlockRegion(before.origin, after, tuple(palette), before.dimension)
    return WritePreview(before, region, changed, int((~writes).sum()),
                        int((writes & unreadable).sum()))  # fmt: skip
