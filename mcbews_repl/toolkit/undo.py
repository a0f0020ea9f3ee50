"""Undo for writes, and checkpoints: what a write replaced, kept per world within a byte bound.

A :class:`Builder` belongs to one world. Its :meth:`Builder.write` reads the box first (with
states), writes, and keeps what the positions it wrote held before (:class:`Saved`: a
palette index a position, two bytes each, ``<keep>`` where nothing was written), newest
last, within ``undo_max_bytes`` (limits.py): past it the oldest are dropped first, and the
write that dropped them says so in its :attr:`WriteResult.notes`. :meth:`Builder.undo`
writes the newest back (only where the write changed something) and says what it undid;
a write kept under a ``key`` of the caller's (``write(key=...)``) is taken back by that key
(``undo(key=...)``: mcbews_repl.mcpi's restoreCheckpoint takes back its own writes so).
:meth:`Builder.checkpoint` saves a box by name (within ``checkpoint_max_bytes``, the oldest
dropped first, with a note); :meth:`Builder.restore` writes it back as a write of its own,
which ``undo`` takes back too.

A write that would set more than ``confirm_above`` blocks (``confirm_above_blocks``,
limits.py) is refused before anything is sent unless ``force=True``; the message says how
many. A write that fails or is cancelled part way still keeps what its box held, so
``undo`` puts back whatever it reached. numpy is needed.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..exceptions import InvalidArgument, NothingToUndo
from ..gameids import short_id
from ..limits import CHECKPOINT_MAX_BYTES, CONFIRM_ABOVE_BLOCKS, UNDO_MAX_BYTES
from ..vocabulary import Capability
from .blocks import Caller, read_blocks
from .boxes import OUT_OF_WORLD, UNLOADED, Box
from .region import BlockRegion
from .writes import KEEP, STATUS, Entry, PlannedWrite, WriteResult, send_write

__all__ = ["Builder", "Saved", "Store", "blocks_set", "check_force"]

Progress = Callable[[int, int], None]
_WRITTEN = STATUS.index("written")
_ENTRY_BYTES = 64  # what one palette entry is counted as, beside its two bytes a position


def blocks_set(planned: PlannedWrite) -> int:
    """How many positions a planned write sets (those that are not ``<keep>``)."""
    keep = np.array([name == KEEP for name, _ in planned.entries], dtype=bool)
    return int((~keep[planned.ids]).sum())


def check_force(planned: PlannedWrite, confirm_above: int, force: bool) -> int:
    """The blocks the write sets; refused when more than ``confirm_above`` without ``force``.

    Raises:
        InvalidArgument: over ``confirm_above`` blocks and ``force`` is False (nothing sent).
    """
    count = blocks_set(planned)
    if count > confirm_above and not force:
        sx, sy, sz = planned.box.size
        raise InvalidArgument(
            "force", force,
            f"this write would set {count:,} blocks ({sx}x{sy}x{sz}), more than the "
            f"{confirm_above:,} a write sets without asking",
            "pass force=True to write them (mc.undo() takes them back), or write a smaller "
            "box; %config McbewsRepl.confirm_above_blocks changes the limit",
        )  # fmt: skip
    return count


@dataclass(frozen=True, eq=False)
class Saved:
    """A box of blocks kept to be written back: ``ids[x, y, z]`` indexes ``entries``."""

    label: str
    origin: tuple[int, int, int]
    dimension: str  # short: overworld, nether, the_end
    ids: np.ndarray[Any, np.dtype[np.uint16]]
    entries: tuple[Entry, ...]

    @property
    def nbytes(self) -> int:
        """What it is counted as against its bound."""
        return int(self.ids.nbytes) + _ENTRY_BYTES * len(self.entries)

    @property
    def box(self) -> Box:
        sx, sy, sz = self.ids.shape
        return Box(self.origin, (int(sx), int(sy), int(sz)))

    def planned(self) -> PlannedWrite:
        """The write that puts it back."""
        return PlannedWrite(self.origin, self.ids.astype(np.int64), list(self.entries),
                            self.dimension)  # fmt: skip


def saved_from(label: str, before: BlockRegion, where: np.ndarray[Any, Any]) -> Saved:
    """What ``before`` (read with states) held where ``where`` is True; ``<keep>`` elsewhere
    and at positions that could not be read."""
    assert before.state_ids is not None and before.state_palette is not None
    entries: list[Entry] = [
        (KEEP, None) if block in (UNLOADED, OUT_OF_WORLD) else (block, dict(states) or None)
        for block, states in before.state_palette
    ]
    keep = len(entries)
    entries.append((KEEP, None))
    ids = np.where(where, before.state_ids, keep).astype(np.uint16)
    return Saved(label, before.origin, before.dimension.removeprefix("minecraft:"), ids,
                 tuple(entries))  # fmt: skip


class Store:
    """Saved boxes by key, newest last, within ``max_bytes``: the oldest go first."""

    def __init__(self, max_bytes: int, what: str) -> None:
        if max_bytes < 1:
            raise ValueError(f"max_bytes must be at least 1, not {max_bytes}")
        self.max_bytes = max_bytes
        self.what = what  # "undo" or "checkpoint", for the notes
        self._held: OrderedDict[Any, Saved] = OrderedDict()
        self.nbytes = 0

    def __len__(self) -> int:
        return len(self._held)

    def keys(self) -> list[Any]:
        return list(self._held)

    def get(self, key: Any) -> Saved | None:
        return self._held.get(key)

    def put(self, key: Any, saved: Saved) -> list[str]:
        """Keep ``saved`` as the newest; the notes say what had to go (or that it could not
        be kept at all, being larger than the whole bound)."""
        self.pop(key)
        if saved.nbytes > self.max_bytes:
            return [
                f"{saved.label} is not kept for {self.what}: {saved.nbytes:,} bytes, more than "
                f"the {self.max_bytes:,} of {self.what}_max_bytes"
            ]
        notes = []
        while self._held and self.nbytes + saved.nbytes > self.max_bytes:
            _, old = self._held.popitem(last=False)
            self.nbytes -= old.nbytes
            notes.append(
                f"dropped the oldest {self.what}, {old.label}, to stay within "
                f"{self.max_bytes:,} bytes ({self.what}_max_bytes)"
            )
        self._held[key] = saved
        self.nbytes += saved.nbytes
        return notes

    def pop(self, key: Any = None) -> Saved | None:
        """Take ``key``'s (default: the newest) out; None when there is none."""
        if not self._held:
            return None
        if key is None:
            key = next(reversed(self._held))
        saved = self._held.pop(key, None)
        if saved is not None:
            self.nbytes -= saved.nbytes
        return saved


def _label(planned: PlannedWrite, what: str) -> str:
    sx, sy, sz = planned.box.size
    return f"{what} {sx}x{sy}x{sz} at {planned.origin} in {short_id(planned.dimension)}"


class Builder:
    """One world's writes, kept to be undone, and its checkpoints."""

    def __init__(self, *, undo_max_bytes: int = UNDO_MAX_BYTES,
                 checkpoint_max_bytes: int = CHECKPOINT_MAX_BYTES) -> None:  # fmt: skip
        self.history = Store(undo_max_bytes, "undo")
        self.checkpoints = Store(checkpoint_max_bytes, "checkpoint")
        self._writes = 0

    @property
    def newest(self) -> Saved | None:
        """What ``undo`` would write back, or None."""
        keys = self.history.keys()
        return self.history.get(keys[-1]) if keys else None

    @property
    def undoable(self) -> list[str]:
        """What ``undo`` would take back, newest first."""
        keys = reversed(self.history.keys())
        return [saved.label for key in keys if (saved := self.history.get(key)) is not None]

    async def write(
        self,
        caller: Caller,
        planned: PlannedWrite,
        *,
        what: str = Capability.SET_BLOCKS,
        undo: bool = True,
        force: bool = False,
        confirm_above: int = CONFIRM_ABOVE_BLOCKS,
        timeout: float | None = None,
        connection: Any = None,
        progress: Progress | None = None,
        key: Any = None,
    ) -> WriteResult:
        """Write ``planned``; with ``undo``, read the box first and keep what the write
        replaced, under ``key`` (hashable, not an int; default: the next number), which
        ``undo(key=...)`` takes back. The answer's ``notes`` say what an older undo had to
        make room for.

        Raises:
            InvalidArgument: more than ``confirm_above`` blocks without ``force``, or ``key``
                is a number (the numbers are the history's own).
            CapabilityError, RequestTimeout, NotConnected: as ``send_write``.
        """
        if isinstance(key, int):
            raise InvalidArgument("key", key, "is a number, as the history numbers its own",
                                  "a key of another kind, such as ('mine', 1)")  # fmt: skip
        check_force(planned, confirm_above, force)
        if not undo:
            return await send_write(caller, planned, timeout=timeout, connection=connection,
                                    progress=progress)  # fmt: skip
        volume = planned.box.volume

        def reading(done: int, total: int) -> None:
            if progress is not None:
                progress(done, 2 * volume)

        def writing(done: int, total: int) -> None:
            if progress is not None:
                progress(volume + done, 2 * volume)

        box = planned.box
        corner2 = tuple(o + s - 1 for o, s in zip(box.origin, box.size, strict=True))
        before = await read_blocks(caller, box.origin, corner2, planned.dimension, states=True,
                                   timeout=timeout, connection=connection,
                                   progress=reading)  # fmt: skip
        label = _label(planned, what)
        self._writes += 1
        key = self._writes if key is None else key
        keep = np.array([name == KEEP for name, _ in planned.entries], dtype=bool)
        try:
            result = await send_write(caller, planned, timeout=timeout, connection=connection,
                                      progress=writing)  # fmt: skip
        except BaseException:
            # How far it got is unknown: keep the whole box it meant to write.
            self.history.put(key, saved_from(label + " (stopped part way)", before,
                                             ~keep[planned.ids]))  # fmt: skip
            raise
        notes = self.history.put(key, saved_from(label, before, result.status == _WRITTEN))
        return replace(result, notes=tuple(notes)) if notes else result

    async def undo(
        self,
        caller: Caller,
        *,
        timeout: float | None = None,
        connection: Any = None,
        progress: Progress | None = None,
        key: Any = None,
    ) -> WriteResult:
        """Write back what the newest kept write (or the one kept under ``key``) replaced;
        its ``notes`` say which write that was. It is then no longer kept (a second undo
        takes back the one before).

        Raises:
            NothingToUndo: no write of this world is kept (or none under ``key``).
            CapabilityError, RequestTimeout, NotConnected: as ``send_write`` (the write
                stays kept, so ``undo`` can be tried again).
        """
        saved = self.history.pop(key)
        if saved is None:
            raise NothingToUndo(
                "nothing to undo in this world: no write since the bridge started is kept "
                "(writes with undo=False are not)"
                if key is None
                else f"no write of this world is kept under {key!r} (dropped for "
                f"undo_max_bytes, or undone already)"
            )
        try:
            result = await send_write(caller, saved.planned(), timeout=timeout,
                                      connection=connection, progress=progress)  # fmt: skip
        except BaseException:
            self.history.put(("again", saved.label, id(saved)) if key is None else key, saved)
            raise
        return replace(result, notes=(f"undid {saved.label}",))

    async def checkpoint(
        self,
        caller: Caller,
        name: str,
        corner1: Sequence[int],
        corner2: Sequence[int],
        dimension: str = "overworld",
        *,
        timeout: float | None = None,
        connection: Any = None,
        progress: Progress | None = None,
    ) -> list[str]:
        """Save the box between two corners as ``name`` (replacing one of that name); the
        notes say what it saved and what older checkpoint had to make room.

        Raises:
            InvalidArgument: ``name`` is empty or not a string, or a corner is not a point.
        """
        if not isinstance(name, str) or not name.strip():
            raise InvalidArgument("name", name, "is not a name", "a name such as 'before'")
        region = await read_blocks(caller, corner1, corner2, dimension, states=True,
                                   timeout=timeout, connection=connection,
                                   progress=progress)  # fmt: skip
        sx, sy, sz = region.size
        label = (f"checkpoint {name!r}: {sx}x{sy}x{sz} at {region.origin} in "
                 f"{short_id(region.dimension)}")  # fmt: skip
        saved = saved_from(label, region, np.ones(region.size, dtype=bool))
        notes = self.checkpoints.put(name, saved)
        return [f"saved {label}", *notes]

    async def restore(
        self,
        caller: Caller,
        name: str,
        *,
        timeout: float | None = None,
        connection: Any = None,
        progress: Progress | None = None,
    ) -> WriteResult:
        """Write the checkpoint ``name`` back, as a write of its own (``undo`` takes it
        back); it stays saved. Its notes say which checkpoint it was.

        Raises:
            InvalidArgument: there is no checkpoint of that name (the message lists them).
        """
        saved = self.checkpoint_named(name)
        result = await self.write(caller, saved.planned(), what=f"restore {name!r}", force=True,
                                  timeout=timeout, connection=connection,
                                  progress=progress)  # fmt: skip
        return replace(result, notes=(f"restored {saved.label}", *result.notes))

    def checkpoint_named(self, name: str) -> Saved:
        """The checkpoint called ``name``.

        Raises:
            InvalidArgument: there is none (the message lists those there are).
        """
        saved = self.checkpoints.get(name)
        if saved is None:
            names = self.checkpoints.keys()
            held = ", ".join(repr(k) for k in names) or "none yet"
            raise InvalidArgument(
                "name", name, "is not a checkpoint of this world",
                f"one of: {held} (mc.checkpoint(name, corner1, corner2) saves one)",
            )  # fmt: skip
        return saved

    def forget(self, name: str) -> None:
        """Drop the checkpoint called ``name``.

        Raises:
            InvalidArgument: there is none.
        """
        self.checkpoint_named(name)
        self.checkpoints.pop(name)
