"""``mcbews-repl replay CAPTURE --url ws://...`` and ``mcbews-repl redact CAPTURE [OUT]``."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from ..cleantext import clean_text
from ..exceptions import CaptureError
from ..limits import CAPTURE_READ_MAX_BYTES, MIB
from .records import Capture, read_capture
from .redact import redact
from .replay import ReplayGame

__all__ = ["redact_main", "replay_main"]

_DONE_POLL_SECONDS = 0.05


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcbews-repl replay",
        description="Play the game from a capture: connect to a bridge as /connect would, "
        "answer each request with the recorded answer for the same command (ids aside, "
        "docs/captures.md), send the recorded events with their timing, and report the "
        "requests the capture has no answer for.",
    )
    parser.add_argument("capture", help="a capture file (mc.record, %%mc record, the doctor)")
    parser.add_argument("--url", required=True, help="the bridge URL, path token included")
    parser.add_argument("--fast", action="store_true", help="answer at once, without the "
                        "recorded delays")  # fmt: skip
    parser.add_argument("--connection", type=int, default=None, metavar="N",
                        help="replay only recorded connection N (default: every one)")  # fmt: skip
    parser.add_argument("--until-done", action="store_true",
                        help="exit once every recorded answer and event was used")  # fmt: skip
    _add_max_mb(parser)
    return parser


def _add_max_mb(parser: argparse.ArgumentParser) -> None:
    default = CAPTURE_READ_MAX_BYTES // MIB
    parser.add_argument("--max-mb", type=int, default=default, metavar="N",
                        help=f"read a capture of up to N MiB (default {default}); its "
                        "lines stay within their own bound")  # fmt: skip


def _read(args: argparse.Namespace) -> Capture:
    return read_capture(args.capture, max_bytes=args.max_mb * MIB)


def _about(capture: Capture) -> str:
    started = dt.datetime.fromtimestamp(capture.header.started).strftime("%Y-%m-%d %H:%M")
    redacted = ", redacted" if capture.header.redacted else ""
    return f"recorded {started} by {capture.header.package}{redacted}"


async def _replay(args: argparse.Namespace, capture: Capture) -> int:
    conns = capture.connections() if args.connection is None else [args.connection]
    games: list[ReplayGame] = []
    for conn in conns:

        def say(line: str, conn: int = conn) -> None:
            # A recorded command may name a player as the game spelt it: shown cleaned.
            print(clean_text(f"game #{conn}: no recorded answer for /{line[:200]}"), flush=True)

        game = ReplayGame(capture, conn, fast=args.fast, on_unanswered=say)
        print(game.script.describe(), flush=True)
        await game.connect(args.url)
        games.append(game)
    print(f"Connected to {args.url}; Ctrl-C stops.", flush=True)
    announced = False
    try:
        while not all(g.closed.is_set() for g in games):
            if not announced and all(g.done() for g in games):
                announced = True
                print("Every recorded answer and event was used.", flush=True)
                if args.until_done:
                    break
            await asyncio.sleep(_DONE_POLL_SECONDS)
    finally:
        for conn, game in zip(conns, games, strict=True):
            await game.close()
            print(f"game #{conn}: {game.finish().describe()}", flush=True)
    return 0 if not any(g.unanswered for g in games) else 3


def replay_main(argv: Sequence[str] | None = None) -> int:
    """``mcbews-repl replay``; exit code 3 when some request had no recorded answer."""
    args = _replay_parser().parse_args(argv)
    try:
        capture = _read(args)
        if args.connection is not None and args.connection not in capture.connections():
            raise CaptureError(
                f"{args.capture} has no connection #{args.connection} "
                f"(it has {capture.connections() or 'none'})"
            )
    except CaptureError as exc:
        print(f"mcbews-repl replay: {exc}")
        return 2
    print(f"Replaying {args.capture}, {_about(capture)}.", flush=True)
    try:
        return asyncio.run(_replay(args, capture))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"mcbews-repl replay: cannot connect to {args.url}: {exc}")
        return 1


def redact_main(argv: Sequence[str] | None = None) -> int:
    """``mcbews-repl redact CAPTURE [OUT]``: write a redacted copy to share."""
    parser = argparse.ArgumentParser(
        prog="mcbews-repl redact",
        description="Write a copy of a capture with player names, chat texts, the path "
        "token and addresses replaced by stable placeholders (docs/captures.md).",
    )
    parser.add_argument("capture", help="the capture to redact (left as it is)")
    parser.add_argument("out", nargs="?", help="where to write (default: NAME.redacted.jsonl)")
    parser.add_argument("--overwrite", action="store_true", help="replace OUT if it exists")
    _add_max_mb(parser)
    args = parser.parse_args(argv)
    source = Path(args.capture)
    target = Path(args.out) if args.out else source.with_name(f"{source.stem}.redacted.jsonl")
    try:
        if target.exists() and not args.overwrite:
            raise CaptureError(f"{target} already exists; choose another name or --overwrite")
        redacted = redact(_read(args))
        redacted.write(target)
    except (CaptureError, OSError) as exc:
        print(f"mcbews-repl redact: {exc}")
        return 2
    print(f"Wrote {target}: player names, chat texts, the token and addresses replaced.")
    for note in redacted.header.notes:
        print(f"  note: {note}")
    return 0
