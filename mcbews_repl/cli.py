"""The ``mcbews-repl`` command: lab, docs, demo, sim, doctor, replay, redact and addon export."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import sys
from collections.abc import Sequence

from . import __version__, bundled
from .cleantext import clean_text
from .exceptions import MissingDependency, PackError
from .gametext import strip_codes, to_ansi
from .sansio import (
    BRIDGE_PLAYER,
    BridgeProtocol,
    Channel,
    command_frame_bytes,
    encode_text_response,
    format_chunk,
    split_payload,
)
from .vocabulary import Capability, ChatType

__all__ = ["main"]

# What `mcbews-repl --help` says (plain text: argparse shows it as it is).
DESCRIPTION = (
    "Script a Minecraft Bedrock world from Python. lab: the notebooks in JupyterLab, copied "
    "to a folder of yours; docs: where the docs are; demo: a bridge and a simulated world "
    "talking in this terminal; sim: connect a simulated world to a bridge URL; doctor: check a "
    "game step by step and say what to do about what fails; replay: play "
    "the game from a capture; redact: a copy of a capture to share; mcp: the tools for AI "
    "assistants (Model Context Protocol), guarded; addon export: write the "
    "behavior pack to import into Minecraft. In IPython or Jupyter: %load_ext mcbews_repl."
)


def game_text(text: str) -> str:
    """Game text as the player sees it: colours on a terminal, the bare words elsewhere
    (control characters made visible in both)."""
    return to_ansi(text) if sys.stdout.isatty() else clean_text(strip_codes(text))


def _chat_frame(sender: str, message: str) -> str:
    body = {"message": message, "receiver": sender, "sender": sender, "type": ChatType.TELL}
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360}
    return json.dumps({"header": header, "body": body}, ensure_ascii=False)


async def live_demo() -> int:
    """A bridge and a simulated world running the real addon, talking over loopback."""
    from . import serve
    from .sim import SimWorld

    async with serve(port=0) as mc, SimWorld(fast=True) as sim:
        print(f"Bridge listening; a real player would type: {mc.connect_command}")
        await sim.connect(mc.url)
        game = await mc.wait_connected(timeout=30)
        print(clean_text(f"A simulated game connected as {game.local_player}.\n"))
        result = await mc.command("list")
        print(f"/list -> {game_text(result.status_message)}")
        snap = await mc.call(Capability.GET_PLAYER_SNAPSHOT, target="@a")
        for p in snap["players"]:
            loc = p["location"]
            print(clean_text(
                f"  {p['name']:6} at {loc['x']:.1f} {loc['y']:.1f} {loc['z']:.1f} in "
                f"{p['dimension']}, health {p['health']['current']}"
            ))  # fmt: skip
        inv = await mc.call(Capability.GET_INVENTORY_SNAPSHOT, target="Steve")
        items = inv["players"][0]["slots"]
        print(
            f"Steve carries {len(items)} stacks, e.g. "
            + ", ".join(f"{i['amount']}x {i['typeId'].split(':')[1]}" for i in items[:4])
        )
        frames = await mc.send_text("Steve", "Hello Steve! 你好 @a §c", role="assistant")
        shown = game_text(sim.inbox("Steve")[-1])
        print(f"Sent Steve a text response in {frames} frame(s); he sees: {shown}")
    print(f"\n{next_steps()}")
    return 0


def next_steps() -> str:
    """The demo's last line: the notebooks next (what to install first if JupyterLab is
    missing), then IPython, then where the docs are."""
    import importlib.util

    lab = "mcbews-repl lab opens the notebooks in JupyterLab"
    if importlib.util.find_spec("jupyterlab") is None:
        lab = f'python -m pip install "mcbews-repl[lab]", then {lab}'
    return (
        f"Next: {lab}; or in IPython: %load_ext mcbews_repl then %mc sim. "
        f"The docs: {bundled.root() / 'docs'} (mcbews-repl docs lists them)"
    )


def demo() -> int:
    """Walk one capability call and one text response through the sans-I/O core."""
    proto = BridgeProtocol()
    request = proto.capability_request(Capability.GET_PLAYER_SNAPSHOT, {"target": "@a"}, now=0.0)
    print("1. Python asks the addon (this command line goes to the game):")
    print("  ", request.command_line)
    answer = json.dumps({"ok": True, "result": {"players": [{"name": "Steve", "health": 20}]}})
    chunks = split_payload(Channel.BRIDGE, request.request_id, answer, max_code_points=24)
    print(f"\n2. The addon answers in {len(chunks)} chat chunks from {BRIDGE_PLAYER}:")
    for chunk in reversed(chunks):  # out of order on purpose: reassembly sorts them
        print("  ", format_chunk(chunk))
    print("\n3. The core reassembles them into events:")
    for chunk in reversed(chunks):
        for event in proto.receive_text(_chat_frame(BRIDGE_PLAYER, format_chunk(chunk)), 0.1):
            print("  ", event)
    lines = encode_text_response("Steve", "你好, Steve! " * 30, response_id="r1")
    print(f"\n4. A text response to Steve travels as {len(lines)} command lines, each filled")
    print("   to the game's ceilings (461 bytes of line, 661 bytes of frame as sent):")
    for line in lines:
        print(
            f"   [{len(line.encode())} B line, {command_frame_bytes(line)} B frame] {line[:70]}..."
        )
    return 0


EXPORTED = {
    False: (
        "the stable pack, which needs no experiments (Minecraft Education 1.21.132 or later, "
        "Bedrock 1.21.130 or later).",
        "Open it to import it, then apply it to the world (cheats on).",
        "The pack that can also answer through a simulated player's chat (it needs Beta "
        "APIs): mcbews-repl addon export --beta",
    ),
    True: (
        "the beta pack, which needs Experiments -> Beta APIs on (without them it does not "
        "load at all).",
        "Open it to import it, then apply it to the world (cheats on).",
        "Worlds that cannot turn experiments on, Minecraft Education among them, take the "
        "stable pack: mcbews-repl addon export",
    ),
}


def export(path: str | None, *, beta: bool) -> int:
    """``mcbews-repl addon export``: write a pack and say what to do with it."""
    from .addon import export_mcaddon

    written = export_mcaddon(path, pack="beta" if beta else "stable")
    what, how, other = EXPORTED[beta]
    readme = bundled.path("addon/README.md")
    print(f"Wrote {written}: {what}\n{how} More in {readme}\n{other}")
    return 0


def show_docs(name: str | None, *, open_it: bool) -> int:
    """``mcbews-repl docs [PAGE]``: the path of a page (opened with --open), or every page."""
    if name is None:
        print(f"The docs of mcbews-repl {__version__}, in {bundled.root()}:")
        for page_name in bundled.page_names():
            print(f"  {page_name:13} {bundled.page(page_name)}")
        notebooks = bundled.root() / "notebooks"
        print(f"  {'notebooks':13} {notebooks} (mcbews-repl lab copies them to a folder of yours)")
        print("mcbews-repl docs PAGE prints one page's path; --open opens it.")
        return 0
    try:
        found = bundled.page(name)
    except LookupError as exc:
        print(f"mcbews-repl docs: {exc.args[0]}", file=sys.stderr)
        return 2
    print(found)
    if open_it:
        import webbrowser

        webbrowser.open(found.as_uri())
    return 0


def _never_fail_on_encoding() -> None:
    """Output redirected to a file on Windows is in the code page (cp1252 ...), which lacks
    characters the demo prints (its Chinese greeting): a ``?`` for each rather than stop with
    UnicodeEncodeError (docs/windows.md; UTF-8 mode, PYTHONUTF8=1, writes them all)."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")


def build_parser() -> argparse.ArgumentParser:
    """The ``mcbews-repl`` command line: every sub-command and its options."""
    parser = argparse.ArgumentParser(prog="mcbews-repl", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"mcbews-repl {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    _add_lab_and_docs(commands)
    demo_cmd = commands.add_parser("demo", help="a bridge and a simulated world, talking")
    demo_cmd.add_argument(
        "--protocol", action="store_true", help="instead, walk one call through the sans-I/O core"
    )
    commands.add_parser("sim", help="connect a simulated world to a bridge URL", add_help=False)
    commands.add_parser("doctor", help="check a game step by step", add_help=False)
    commands.add_parser("replay", help="play the game from a capture", add_help=False)
    commands.add_parser("redact", help="a copy of a capture to share", add_help=False)
    commands.add_parser(
        "mcp", help="the tools for AI assistants (Model Context Protocol), guarded", add_help=False
    )
    addon = commands.add_parser("addon", help="the companion behavior pack")
    addon_cmds = addon.add_subparsers(dest="addon_command", required=True)
    export_cmd = addon_cmds.add_parser(
        "export",
        help="write the .mcaddon to import into Minecraft",
        description="Write the stable pack (no experiments needed; Minecraft Education "
        "1.21.132+ and Bedrock 1.21.130+), or with --beta the pack that also answers through "
        "a simulated player's chat and needs Beta APIs.",
    )
    export_cmd.add_argument(
        "path",
        nargs="?",
        help="file or folder (default: ./mcbews_bridge.mcaddon, or "
        "./mcbews_bridge_beta.mcaddon with --beta)",
    )
    export_cmd.add_argument(
        "--beta", action="store_true", help="the beta pack instead (needs Beta APIs)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The ``mcbews-repl`` command: parse ``argv`` (the process's arguments when None), run
    the sub-command, return the exit status; a missing extra or a held pack file is printed
    to stderr as one line and gives 1, not a traceback."""
    _never_fail_on_encoding()
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    try:
        return _dispatch(parser, args, rest)
    except (MissingDependency, PackError) as exc:  # a missing extra; a pack held open
        print(f"mcbews-repl: {exc}", file=sys.stderr)
        return 1


def _add_lab_and_docs(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from .lab import DEFAULT_FOLDER_NAME

    lab = commands.add_parser(
        "lab",
        help="the notebooks in JupyterLab, copied to a folder of yours",
        description="Copy the notebooks (and the docs they link to) into FOLDER, keeping "
        "every file already there, then start JupyterLab on the getting-started notebook, "
        "which connects a simulated world. Other options go to JupyterLab as they are "
        "(--port=8890 ...).",
    )
    lab.add_argument("folder", nargs="?", help=f"where (default: ~/{DEFAULT_FOLDER_NAME})")
    lab.add_argument("--no-browser", action="store_true", help="print the URL, open no browser")
    docs = commands.add_parser(
        "docs",
        help="where the docs installed with the package are",
        description="Without PAGE: every page and its path. With PAGE (windows, repl, addon, "
        "license ...): that page's path.",
    )
    docs.add_argument("page", nargs="?", help="a page's short name")
    docs.add_argument("--open", action="store_true", help="open the page as well")


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace, rest: list[str]) -> int:
    if args.command == "sim":
        from .sim import cli_main

        return cli_main(rest)
    if args.command == "doctor":
        from .doctor.cli import doctor_main

        return doctor_main(rest)
    if args.command == "mcp":
        from .mcpserver import mcp_main

        return mcp_main(rest)
    if args.command in ("replay", "redact"):
        from .capture.cli import redact_main, replay_main

        return (replay_main if args.command == "replay" else redact_main)(rest)
    if args.command == "lab":
        from pathlib import Path

        from .lab import run_lab

        folder = Path(args.folder).expanduser() if args.folder else None
        return run_lab(folder, [*(["--no-browser"] if args.no_browser else []), *rest])
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if args.command == "demo":
        return demo() if args.protocol else asyncio.run(live_demo())
    if args.command == "addon":
        return export(args.path, beta=args.beta)
    if args.command == "docs":
        return show_docs(args.page, open_it=args.open)
    parser.error(f"unknown command {args.command!r}")
    return 2  # pragma: no cover - parser.error exits
