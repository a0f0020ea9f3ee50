"""``mcbews-repl sim --url ws://...``: connect a simulated world to a running bridge."""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import Sequence

from ..cleantext import clean_text
from .facts import ENGLISH, languages
from .lively import LIVELY_RATE
from .simworld import SimWorld

__all__ = ["cli_main"]


class _CleanFormatter(logging.Formatter):
    """Log lines with control characters made visible: at DEBUG they quote what the bridge
    sent (commands naming players), and they go to a terminal."""

    def format(self, record: logging.LogRecord) -> str:
        return clean_text(super().format(record))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcbews-repl sim",
        description="Connect a simulated Bedrock world (running the real addon) to a bridge URL, "
        "as the game's /connect would, and stay until the bridge closes the connection.",
    )
    parser.add_argument("--url", required=True, help="the bridge URL, path token included")
    parser.add_argument("--fast", action="store_true", help="tick at once when work is due")
    parser.add_argument(
        "--legacy-events", action="store_true", help="send PlayerMessage in the legacy shape"
    )
    parser.add_argument("--no-addon", action="store_true", help="run without the addon")
    parser.add_argument(
        "--pack", choices=["stable", "beta"], default="stable", help="which of the addon's packs"
    )
    parser.add_argument(
        "--beta-apis", action="store_true", help="the world's Beta APIs experiment is on"
    )
    parser.add_argument(
        "--no-bridge-chat",
        action="store_true",
        help="play a game that does not report the bridge player's chat to WebSocket "
        "subscribers (every capability call goes unanswered)",
    )
    parser.add_argument(
        "--no-custom-command-messages",
        action="store_true",
        help="play a game that does not return a custom command's message as its "
        "statusMessage (the pull transport gets no answers)",
    )
    parser.add_argument(
        "--script-error",
        action="store_true",
        help="play an addon whose script fails on every request",
    )
    parser.add_argument(
        "--language",
        choices=languages(),
        default=ENGLISH,
        metavar="CODE",
        help=f"the game's language, which all its text is in ({', '.join(languages())}; "
        f"default {ENGLISH})",
    )
    parser.add_argument(
        "--lively",
        nargs="?",
        type=float,
        const=LIVELY_RATE,
        default=None,
        metavar="RATE",
        help="the players act by themselves at random: RATE doings a second each "
        f"(default {LIVELY_RATE:g})",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="the seed of the world's random choices (0)"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log the simulator's work")
    return parser


async def _serve(args: argparse.Namespace) -> None:
    sim = SimWorld(
        fast=args.fast,
        legacy_events=args.legacy_events,
        addon=not args.no_addon,
        pack=args.pack,
        beta_apis=args.beta_apis,
        report_simulated_chat=not args.no_bridge_chat,
        report_custom_command_messages=not args.no_custom_command_messages,
        script_error=args.script_error,
        language=args.language,
        seed=args.seed,
        lively=False if args.lively is None else args.lively,
    )
    await sim.run(args.url)


def cli_main(argv: Sequence[str] | None = None) -> int:
    """Entry point for the ``sim`` sub-command; returns the process exit code."""
    args = _parser().parse_args(argv)
    to_terminal = logging.StreamHandler()
    to_terminal.setFormatter(_CleanFormatter(logging.BASIC_FORMAT))
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        handlers=[to_terminal])  # fmt: skip
    try:
        asyncio.run(_serve(args))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"mcbews-repl sim: cannot connect to {args.url}: {exc}")
        return 1
    return 0
