"""Consecutive ``setBlock`` calls gathered into few ``set_blocks`` writes.

A lesson's ``for`` loop calls ``setBlock`` thousands of times; one request each would take
minutes. :class:`Batch` keeps the blocks asked for (the last one asked for a position wins)
and writes them together: when a read or a chat post needs the world as the program left
it, when :data:`FLUSH_AFTER_SECONDS` pass without one, and when :data:`BATCH_MAX_BLOCKS`
wait. A box as dense as :data:`DENSE_FACTOR` allows goes as one write with the positions
between left as they are; a sparse batch goes cell by cell (:data:`CELL_BLOCKS`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["BATCH_MAX_BLOCKS", "CELL_BLOCKS", "DENSE_FACTOR", "FLUSH_AFTER_SECONDS", "Batch"]

# Seconds a block may wait for the next setBlock before it is written anyway: short enough
# that a player watching sees a slow loop build as it goes, long enough that a fast one's
# blocks travel together (a tick is 0.05 s; the simulated world writes 20x20x20 in < 1 s).
FLUSH_AFTER_SECONDS = 0.2
# Blocks held before a write is sent without waiting: 8 of the addon's 4096-block sections
# (toolkit/writes.py WRITE_TILE_BLOCKS), so a held batch stays a few requests.
BATCH_MAX_BLOCKS = 32768
# A batch is written as one box when the box holds at most this many positions per block
# asked for (the rest are sent as "leave as it is", a run each, which costs little).
DENSE_FACTOR = 8
# The cell edge a sparse batch is split by: a 16-block cube, a chunk section.
CELL_BLOCKS = 16

Entry = tuple[str, dict[str, Any] | None]
Position = tuple[int, int, int]
# write(origin, size, {position: entry}) writes the blocks (absolute positions).
Writer = Callable[[Position, Position, dict[Position, Entry]], None]


class Batch:
    """Blocks waiting to be written (absolute positions), and when to write them."""

    def __init__(self, write: Writer, flush_after: float = FLUSH_AFTER_SECONDS) -> None:
        self._write = write
        self._flush_after = flush_after
        self._pending: dict[Position, Entry] = {}
        self._lock = threading.Lock()  # guards _pending and _timer
        self._flushing = threading.Lock()  # one flush at a time, in order
        self._timer: threading.Timer | None = None
        self._failure: BaseException | None = None  # a timed flush's error, raised next
        self.writes = 0  # boxes written
        self.blocks = 0  # blocks written

    def __len__(self) -> int:
        return len(self._pending)

    def add(self, position: Position, entry: Entry) -> None:
        """Hold one block; write the batch now if it is full."""
        self.raise_failure()
        with self._lock:
            self._pending.pop(position, None)  # a later write of a position comes last
            self._pending[position] = entry
            full = len(self._pending) >= BATCH_MAX_BLOCKS
            if not full and self._timer is None:
                self._timer = threading.Timer(self._flush_after, self._timed)
                self._timer.daemon = True
                self._timer.start()
        if full:
            self.flush()

    def _timed(self) -> None:
        with self._lock:
            self._timer = None
        try:
            self.flush()
        except BaseException as exc:  # handed to the program's next call
            self._failure = exc

    def raise_failure(self) -> None:
        """Raise what a timed write met, once, in the program's own thread."""
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure

    def flush(self) -> None:
        """Write every block held (in the order asked for), and wait until they are."""
        with self._flushing:
            with self._lock:
                pending, self._pending = self._pending, {}
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            if pending:
                for origin, size, blocks in boxes(pending):
                    self._write(origin, size, blocks)
                    self.writes += 1
                    self.blocks += len(blocks)
        self.raise_failure()

    def cancel(self) -> None:
        """Stop the timer (the held blocks stay held)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None


def _bounds(positions: list[Position]) -> tuple[Position, Position]:
    xs, ys, zs = zip(*positions, strict=True)
    low = (min(xs), min(ys), min(zs))
    size = (max(xs) - low[0] + 1, max(ys) - low[1] + 1, max(zs) - low[2] + 1)
    return low, size


def boxes(pending: dict[Position, Entry]) -> list[tuple[Position, Position, dict[Position, Entry]]]:
    """The writes of a batch: one box when it is dense, else one box per cell it touches
    (each holding that cell's blocks), in the order their first block was asked for."""
    low, size = _bounds(list(pending))
    if size[0] * size[1] * size[2] <= DENSE_FACTOR * len(pending):
        return [(low, size, pending)]
    cells: dict[Position, dict[Position, Entry]] = {}
    for (x, y, z), entry in pending.items():
        cell = (x // CELL_BLOCKS, y // CELL_BLOCKS, z // CELL_BLOCKS)
        cells.setdefault(cell, {})[(x, y, z)] = entry
    out = []
    for blocks in cells.values():
        origin, cell_size = _bounds(list(blocks))
        out.append((origin, cell_size, blocks))
    return out
