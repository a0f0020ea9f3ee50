"""Structures on the ``mc`` handle: ``.mcstructure`` files and the world's own store.

``save_structure`` reads a box (with its states) and writes it to a file; ``load_structure``
reads a file and writes its blocks through ``set_blocks``, so its answer is a
``WriteResult``; ``structure_command`` runs ``/structure save|load|delete`` on a structure
the world keeps itself (which a file written here never is: docs/toolkit.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...exceptions import StructureError
from ...optional import needs
from ...toolkit import read_blocks
from ..runtime import Pending
from ._connections import ConnectionRef, resolve
from ._toolkit import ToolkitCalls

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence

    from ...gateway import CommandResult
    from ...toolkit import Structure, WriteResult

__all__ = ["StructureCalls"]


class StructureCalls(ToolkitCalls):
    """``save_structure``, ``load_structure`` and ``structure_command``."""

    def save_structure(
        self,
        path: str | os.PathLike[str],
        corner1: Sequence[int],
        corner2: Sequence[int],
        *,
        dimension: str = "overworld",
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[Structure]:
        """Read the blocks between two corners (inclusive, with their states) and write them
        to a ``.mcstructure`` file at ``path``; the answer is the ``Structure`` saved.
        Unloaded or out-of-world positions are saved as no block (loading leaves them).

        Raises:
            StructureError: the file's folder does not exist (before anything is read), or
                the file cannot be written.
        """
        with needs():
            from ...toolkit import Structure, write_structure

        target = Path(path).expanduser()
        if not target.parent.is_dir():
            raise StructureError(f"{target}: its folder {target.parent} does not exist")
        limit = self._bridge.settings.call_timeout if timeout is None else timeout

        async def run() -> Structure:
            chosen = resolve(self._bridge, connection)
            region = await read_blocks(self._bridge, corner1, corner2, dimension, states=True,
                                       timeout=limit, connection=chosen)  # fmt: skip
            structure = Structure.from_region(region)
            write_structure(target, structure)
            return structure

        self._check_running()
        return self._submit(run(), f"save_structure {target.name}", "save_structure(...)")

    def load_structure(
        self,
        path: str | os.PathLike[str],
        origin: Sequence[int],
        *,
        blocks_only: bool = False,
        dimension: str = "overworld",
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[WriteResult]:
        """Write the blocks of a ``.mcstructure`` file with its lowest corner at ``origin``,
        through ``set_blocks``: the answer says what was written, already so and not written.
        Positions with no block in the file are left as they are.

        A write places blocks only: a file that also holds entities, block entities (a
        chest's items) or waterlogged blocks' water is refused unless ``blocks_only=True``
        says to write its blocks without them.

        Raises:
            StructureError: the file cannot be read or is not a structure, or holds what a
                write does not place and ``blocks_only`` is False (nothing was sent).
        """
        with needs():
            from ...toolkit import read_structure

        structure = read_structure(path)
        left = structure.not_placed()
        if left and not blocks_only:
            what = ", ".join(f"{n:,} {w}" for w, n in left.items())
            raise StructureError(
                f"{Path(path).name} holds {what}, which writing its blocks does not place; "
                "load_structure(..., blocks_only=True) writes its blocks without them"
            )
        return self.set_blocks(origin, structure, dimension=dimension, timeout=timeout,
                               connection=connection)  # fmt: skip

    def structure_command(
        self,
        action: str,
        name: str,
        *points: Any,
        save_mode: str = "disk",
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[CommandResult]:
        """``/structure`` on a structure the world keeps itself: ``("save", name, corner1,
        corner2)`` (``save_mode`` "disk", the world's file, or "memory"), ``("load", name,
        origin)`` or ``("delete", name)``. The answer is the command's result.

        ``/structure load`` reads the world's store, never a file on this machine: a file
        from ``save_structure`` goes back with ``load_structure``.

        Raises:
            InvalidArgument: an unknown action, a name it does not take, or the wrong points.
        """
        with needs():
            from ...toolkit import structure_command_line

        line = structure_command_line(action, name, *points, save_mode=save_mode)

        async def run() -> CommandResult:
            chosen = resolve(self._bridge, connection)
            return await self._bridge.command(line, timeout=timeout, connection=chosen)

        return self._submit(run(), f"/{line[:40]}", f"structure_command({action!r}, ...)")
