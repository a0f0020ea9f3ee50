"""``mc.doctor()`` and ``%mc doctor``: the doctor's checks on a connected game, as a card.

The checks run on the runtime thread's loop (doctor/checks.py); the report comes back as a
:class:`~mcbews_repl.doctor.DoctorReport`, which shows as a card in notebooks and as a table
at the terminal. The session is saved as a capture (redacted unless asked not to) and the
report says where.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..runtime import Pending
from ._connections import ConnectionRef, resolve
from ._core import Handle

if TYPE_CHECKING:
    from ...doctor import DoctorReport

__all__ = ["Diagnosis"]

T = TypeVar("T")


class Diagnosis(Handle):
    """``mc.doctor``, a part of the handle."""

    def doctor(
        self,
        probe_limits: bool = False,
        *,
        capture: str | Path | None = None,
        redact: bool = True,
        save: bool = True,
        connection: ConnectionRef | None = None,
    ) -> Pending[DoctorReport]:
        """Check the connected game step by step (connection, commands, events, the addon,
        text; ``probe_limits=True`` also finds the largest command line and frame it takes,
        and the game may close the connection) and say what to do about what fails.

        The session is saved to ``capture`` (default: ``mcbews-doctor-<time>.jsonl`` in the
        user's cache folder, ``mcbews_repl.doctor.captures_folder()``),
        redacted unless ``redact=False`` (``save=False``: no capture); the report names
        the file.
        """

        # The doctor (and the capture it records) is loaded when first asked for: it is
        # not needed to start the extension.
        from ...doctor import run_doctor

        async def run() -> DoctorReport:
            game = resolve(self._bridge, connection)
            return await run_doctor(
                self._bridge,
                game,
                probe_limits=probe_limits,
                capture=capture,
                redact=redact,
                save=save,
            )

        return self._submit(run(), "doctor", "doctor()")
