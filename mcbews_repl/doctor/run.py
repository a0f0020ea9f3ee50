"""One doctor session: record it, run the checks, say where the capture went.

The doctor's own traffic (and anything else on that game meanwhile) is recorded as a
capture, redacted by default since it is meant to be attached to a bug report; the report
names the file. Without a connected game the report says how to connect and checks
nothing else.
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
import time
from pathlib import Path

from ..capture import Recorder, start_recording
from ..exceptions import CaptureError
from ..gateway import Bridge, GameConnection
from .checks import CHECK_NAMES, Doctor, Waits
from .report import Check, DoctorReport

__all__ = ["default_capture_path", "describe_game", "no_game", "run_doctor"]


def default_capture_path(folder: str | Path | None = None) -> Path:
    """``mcbews-doctor-<date>-<time>.jsonl`` in ``folder``, else here if writable, else the
    system's temporary folder."""
    name = f"mcbews-doctor-{dt.datetime.now():%Y%m%d-%H%M%S}.jsonl"
    if folder is not None:
        return Path(folder) / name
    here = Path.cwd()
    return (here if os.access(here, os.W_OK) else Path(tempfile.gettempdir())) / name


def describe_game(game: GameConnection) -> str:
    who = f"{game.local_player}'s game" if game.local_player else "a game"
    return f"{who} from {game.peer} (connection #{game.id})"


def no_game(bridge: Bridge) -> DoctorReport:
    """The report when nothing is connected: how to connect, nothing else checked."""
    advice = (
        f"in Minecraft (cheats on, operator) type: {bridge.connect_command}; "
        "no Minecraft at hand? %mc sim connects a simulated world"
    )
    first = Check(1, "The connection", "failed", "no game is connected", advice)
    rest = [Check(n, name, "unsure", "not run: no game") for n, name in CHECK_NAMES[1:]]
    return DoctorReport("no game", [first, *rest], capture_note="nothing to record")


def _record(
    bridge: Bridge, game: GameConnection, path: Path, redact: bool
) -> tuple[Recorder | None, str]:
    try:
        return start_recording(bridge, path, redact=redact, connection=game), ""
    except CaptureError as exc:
        return None, str(exc)


async def run_doctor(
    bridge: Bridge,
    connection: GameConnection | None = None,
    *,
    probe_limits: bool = False,
    capture: str | Path | None = None,
    save: bool = True,
    redact: bool = True,
    waits: Waits | None = None,
) -> DoctorReport:
    """Check ``connection`` (default: the newest game) step by step; see checks.py.

    The session is saved to ``capture`` (default: a dated file, see
    :func:`default_capture_path`), redacted unless ``redact=False``; ``save=False`` keeps
    no capture. Call it on the bridge's event loop.
    """
    game = connection or (bridge.connections[-1] if bridge.connections else None)
    if game is None:
        return no_game(bridge)
    path = Path(capture).expanduser() if capture is not None else default_capture_path()
    recorder, problem = _record(bridge, game, path, redact) if save else (None, "not asked")
    start = time.monotonic()
    doctor = Doctor(bridge, game, probe=probe_limits, waits=waits, capture=lambda: str(path))
    try:
        checks = await doctor.run()
    finally:
        if recorder is not None:
            recorder.stop()
    report = DoctorReport(describe_game(game), checks, elapsed=time.monotonic() - start)
    if recorder is None:
        report.capture_note = problem
    elif recorder.finish_error:
        report.capture, report.capture_note = path, recorder.finish_error
    else:
        report.capture = path
        report.capture_note = "redacted" if redact else "not redacted: it holds names and chat"
    return report
