"""``mcbews-repl doctor``: start a bridge, print the /connect line, wait for a game, check it.

The whole session is recorded from the first frame (the encryption handshake included)
and the capture's path printed with the table. Exit code: 0 when nothing failed, 1 when a
check failed, 2 when no game connected in time.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from ..capture import start_recording
from ..cleantext import clean_text
from ..exceptions import AddressInUse, CaptureError, RequestTimeout
from ..gateway import Bridge, serve
from .probe import PROBE_WARNING
from .report import DoctorReport
from .run import default_capture_path, describe_game, run_doctor
from .view import report_plain

__all__ = ["doctor_main"]

_DEFAULT_PORT = 19131
_ENCRYPT = {"auto": "auto", "on": True, "off": False}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcbews-repl doctor",
        description="Start a bridge, print the /connect line, wait for a game, then check it "
        "step by step (connection, commands, events, the addon, text, optionally the "
        "command limits) and say what to do about what fails. The session is saved as a "
        "capture (redacted) to attach to a bug report.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (0.0.0.0 for a game on another device)",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"default {_DEFAULT_PORT}, or a free one if it is busy; 0 picks a free one",
    )
    parser.add_argument(
        "--token", default="auto", help="the /connect path token (default: a random one)"
    )
    parser.add_argument("--no-token", action="store_true", help="accept any /connect path")
    parser.add_argument("--encrypt", choices=sorted(_ENCRYPT), default="auto")
    parser.add_argument(
        "--wait",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="how long to wait for a game (default 300)",
    )
    parser.add_argument(
        "--probe-limits",
        action="store_true",
        help="also find the largest command line and frame the game accepts "
        "(the game may close the connection)",
    )
    parser.add_argument(
        "--capture",
        default=None,
        metavar="PATH",
        help="where to save the session (default: mcbews-doctor-<time>.jsonl in the "
        "doctor folder of the user's cache folder; the output says where)",
    )
    parser.add_argument(
        "--no-redact", action="store_true", help="keep player names and chat in the capture"
    )
    return parser


async def _listen(args: argparse.Namespace) -> Bridge:
    token = None if args.no_token else args.token
    port = _DEFAULT_PORT if args.port is None else args.port
    bridge = serve(args.host, port, token, encrypt=_ENCRYPT[args.encrypt])
    try:
        return await bridge.start()
    except AddressInUse:
        if args.port is not None:
            raise
    print(f"Port {port} is busy (a notebook's bridge?); using a free port instead.")
    return await serve(args.host, 0, bridge.token, settings=bridge.settings).start()


def _show(report: DoctorReport) -> None:
    try:
        from rich.console import Console

        from .view import report_table
    except ImportError:
        print(report_plain(report))
        return
    Console(highlight=False).print(report_table(report))


async def _run(args: argparse.Namespace) -> int:
    bridge = await _listen(args)
    path = Path(args.capture).expanduser() if args.capture else default_capture_path()
    try:
        recorder = start_recording(bridge, path, redact=not args.no_redact)
    except CaptureError as exc:
        await bridge.close()
        print(f"mcbews-repl doctor: {exc}")
        return 2
    try:
        print(f"mcbews doctor: a bridge listens on {bridge.url}")
        print(f"In Minecraft (cheats on, operator) type:\n\n    {bridge.connect_command}\n")
        print(f"Waiting for a game (up to {args.wait:g} s; Ctrl-C stops) ...", flush=True)
        try:
            game = await bridge.wait_connected(timeout=args.wait)
        except RequestTimeout:
            print(f"No game connected within {args.wait:g} s.")
            return 2
        print(clean_text(f"Checking {describe_game(game)} ..."), flush=True)  # a player's name
        if args.probe_limits:
            print(f"Warning: {PROBE_WARNING}", flush=True)
        report = await run_doctor(bridge, game, probe_limits=args.probe_limits, save=False)
    finally:
        recorder.stop()
        await bridge.close()
    report.capture = path
    report.capture_note = recorder.finish_error or (
        "not redacted: it holds names and chat" if args.no_redact else "redacted"
    )
    _show(report)
    return 0 if report.ok else 1


def doctor_main(argv: Sequence[str] | None = None) -> int:
    """The ``mcbews-repl doctor`` command: wait for a game, run the checks, print the
    report; returns the exit status.
    """
    args = _parser().parse_args(argv)
    try:
        return asyncio.run(_run(args))
    except KeyboardInterrupt:
        return 130
    except (OSError, ValueError) as exc:
        print(f"mcbews-repl doctor: {exc}", file=sys.stderr)
        return 2
