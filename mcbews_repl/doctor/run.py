"""One doctor session: record it, run the checks, say where the capture went.

The doctor's own traffic (and anything else on that game meanwhile) is recorded as a
capture, redacted by default since it is meant to be attached to a bug report; the report
names the file. Without a connected game the report says how to connect and checks
nothing else.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import tempfile
import time
from pathlib import Path

from ..capture import Recorder, start_recording
from ..exceptions import CaptureError
from ..gateway import Bridge, GameConnection
from ..limits import DOCTOR_CAPTURES_KEPT
from ..userdirs import user_cache_dir
from .checks import CHECK_NAMES, Doctor, Waits
from .report import Check, DoctorReport
from .view import report_printed

__all__ = ["captures_folder", "default_capture_path", "describe_game", "no_game", "run_doctor"]


def captures_folder() -> Path:
    """Where the doctor's captures go unless told: ``doctor`` in the user's cache folder
    (``%LOCALAPPDATA%\\mcbews-repl\\Cache\\doctor`` on Windows, ``~/.cache/mcbews-repl/doctor``
    on Linux: :func:`mcbews_repl.userdirs.user_cache_dir`), created; the system's temporary
    folder when that cannot be made."""
    return _cache_or_temporary()[0]


def _cache_or_temporary() -> tuple[Path, bool]:
    folder = user_cache_dir() / "doctor"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path(tempfile.gettempdir()), False
    return folder, True


def default_capture_path(folder: str | Path | None = None) -> Path:
    """A new ``mcbews-doctor-<date>-<time>.jsonl`` in ``folder``, else in
    :func:`captures_folder` (where only the newest ``DOCTOR_CAPTURES_KEPT`` are kept)."""
    where, ours = (Path(folder), False) if folder is not None else _cache_or_temporary()
    stem = f"mcbews-doctor-{dt.datetime.now():%Y%m%d-%H%M%S}"
    path, n = where / f"{stem}.jsonl", 1
    while path.exists():  # two runs within a second
        n += 1
        path = where / f"{stem}-{n}.jsonl"
    if ours:  # the cache folder only: the doctor's files elsewhere are the user's
        _prune(where, keep=DOCTOR_CAPTURES_KEPT - 1)
    return path


def _prune(folder: Path, keep: int) -> None:
    """Delete the oldest of the doctor's captures in ``folder`` past the ``keep`` newest."""
    try:
        found = sorted(folder.glob("mcbews-doctor-*.jsonl"), key=lambda p: p.stat().st_mtime)
    except OSError:
        return
    for old in found[: max(len(found) - keep, 0)]:
        with contextlib.suppress(OSError):  # open elsewhere (Windows): the next run tries
            old.unlink(missing_ok=True)


def describe_game(game: GameConnection) -> str:
    """Who a report is about: ``Steve's game from 127.0.0.1:5000 (connection #1)``."""
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
    return DoctorReport(
        "no game", [first, *rest], capture_note="nothing to record", printer=report_printed
    )


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
    path = None if not save else (
        Path(capture).expanduser() if capture is not None else default_capture_path())  # fmt: skip
    recorder, problem = _record(bridge, game, path, redact) if path else (None, "not asked")
    start = time.monotonic()
    named = (lambda: str(path)) if path else (lambda: "a capture (%mc record PATH)")
    doctor = Doctor(bridge, game, probe=probe_limits, waits=waits, capture=named)
    try:
        checks = await doctor.run()
    finally:
        if recorder is not None:
            recorder.stop()
    took = time.monotonic() - start
    report = DoctorReport(describe_game(game), checks, elapsed=took, printer=report_printed)
    if recorder is None:
        report.capture_note = problem
    elif recorder.finish_error:
        report.capture, report.capture_note = path, recorder.finish_error
    else:
        report.capture = path
        report.capture_note = "redacted" if redact else "not redacted: it holds names and chat"
    return report
