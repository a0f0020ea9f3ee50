"""``saveCheckpoint`` and ``restoreCheckpoint``: the program's writes since a mark, taken back.

Minecraft Pi's checkpoint is a snapshot of the whole world; Bedrock keeps none. What a lesson
relies on is narrower: ``restoreCheckpoint`` puts back everything the program changed since
``saveCheckpoint``. The toolkit's :class:`~mcbews_repl.toolkit.Builder` (toolkit/undo.py)
already keeps what each write replaced, within ``undo_max_bytes``; so while a checkpoint is
set, the facade writes through it with undo, and a :class:`Journal` holds only the keys those
writes are kept under, oldest first. Restoring takes them back newest first
(``Builder.undo(key=...)``); a write the history no longer keeps (dropped for its bound, or
taken back by ``mc.undo()``) is counted, and the restore raises
:class:`~mcbews_repl.exceptions.CheckpointIncomplete` saying how many. Without a checkpoint
the facade writes with no undo, as it always did: no read before each write.

Everything here runs on the bridge's loop (the facade submits it there), so the journal
needs no lock.
"""

from __future__ import annotations

import itertools
from typing import Any

from ..exceptions import CheckpointIncomplete, NothingToUndo
from ..toolkit import Builder, PlannedWrite, WriteResult

__all__ = ["Journal"]

Key = tuple[str, int]


class Journal:
    """One world's checkpoint: the undo keys of the facade's writes since it was saved."""

    def __init__(self) -> None:
        self.keys: list[Key] | None = None  # None: no checkpoint saved
        self._restored = 0  # of a restore that stopped part way, counted on
        self._lost = 0
        self._count = itertools.count(1)

    @property
    def saved(self) -> bool:
        """Whether a checkpoint is saved (the facade's writes are then kept for undo)."""
        return self.keys is not None

    def mark(self) -> None:
        """Save a checkpoint here: the writes from now on are the ones a restore takes back
        (a second mark replaces the first, as on the Pi)."""
        self.keys = []
        self._restored = self._lost = 0

    async def write(
        self, builder: Builder, caller: Any, planned: PlannedWrite, what: str, connection: Any
    ) -> WriteResult:
        """Write ``planned`` through ``builder``: kept for undo while a checkpoint is saved.

        Raises:
            CapabilityError, RequestTimeout, NotConnected: as ``Builder.write``.
        """
        if self.keys is None:
            return await builder.write(caller, planned, what=what, undo=False, force=True,
                                       connection=connection)  # fmt: skip
        key = ("mcpi", next(self._count))
        try:
            result = await builder.write(caller, planned, what=what, undo=True, force=True,
                                         connection=connection, key=key)  # fmt: skip
        except BaseException:
            # Kept only when it failed part way (it may have written some): else nothing
            # was written, and a restore has nothing to take back for it.
            if builder.history.get(key) is not None:
                self.keys.append(key)
            raise
        self.keys.append(key)  # also when too large to keep: the restore counts it lost
        return result

    async def restore(self, builder: Builder, caller: Any, connection: Any) -> int:
        """Take back every write since the mark, newest first; the checkpoint stays saved
        (the next restore goes back to it again). The answer: how many writes were taken back.

        Raises:
            NothingToUndo: no checkpoint is saved.
            CheckpointIncomplete: some writes were no longer kept (the rest were put back).
            CapabilityError, RequestTimeout, NotConnected: a write back failed; the writes not
                yet taken back stay journalled, so restoring again goes on from there.
        """
        if self.keys is None:
            raise NothingToUndo(
                "restoreCheckpoint: no checkpoint is saved in this world; call "
                "mc.saveCheckpoint() first, at the point restoreCheckpoint() goes back to"
            )
        while self.keys:
            key = self.keys[-1]
            if builder.history.get(key) is None:
                self._lost += 1
            else:
                await builder.undo(caller, key=key, connection=connection)  # kept if it fails
                self._restored += 1
            self.keys.pop()
        restored, lost = self._restored, self._lost
        self._restored = self._lost = 0
        if lost:
            raise CheckpointIncomplete(
                f"restoreCheckpoint put back {restored} of the {restored + lost} block writes "
                f"made since saveCheckpoint(); {lost} could not be, and the blocks they changed "
                "stay as the program left them: the undo history no longer kept them (it keeps "
                f"at most {builder.history.max_bytes:,} bytes of what writes replaced, "
                "undo_max_bytes, dropping the oldest first; or mc.undo() took them back). "
                "Save the checkpoint closer to the restore, or around a smaller build",
                restored=restored,
                lost=lost,
            )
        return restored
