"""Every ``%mc`` sub-command defined once: its words, options and one-line summary.

From this table come the argument parsers, the ``%mc?`` help, Tab completion and the
README's ``%mc`` table (``python -m mcbews_repl.repl.usage`` prints it; a test fails when
the README drifts). A sub-command is added here, then given a ``_sub_<name>`` method.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any

from IPython.core.error import UsageError

__all__ = [
    "ALL_USAGE",
    "CELL_USAGE",
    "SUBCOMMANDS",
    "WORLD_USAGE",
    "Option",
    "SubCommand",
    "help_text",
    "markdown_table",
    "subcommand_help",
]

_PORT_MAX = 65535


def port_number(text: str) -> int:
    """``--port``: an integer 0..65535 (0 picks a free port)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= _PORT_MAX:
        raise argparse.ArgumentTypeError(
            f"{port} is not a port (0..{_PORT_MAX}; 0 picks a free one)"
        )
    return port


@dataclass(frozen=True)
class Option:
    """One argparse argument: ``flags`` without dashes make it a positional word."""

    flags: tuple[str, ...]
    metavar: str | tuple[str, ...] | None = None  # None: a switch (store_true)
    options: dict[str, Any] = field(default_factory=dict)  # more argparse keywords

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")

    def synopsis(self) -> str:
        if self.positional and isinstance(self.metavar, tuple):
            return " ".join(self.metavar)  # several words, each named
        if self.positional:
            word = f"<{self.flags[0]}>"
            return f"[{self.flags[0]}]" if self.options.get("nargs") == "?" else word
        if self.metavar is None:
            return f"[{self.flags[0]}]"
        shown = " ".join(self.metavar) if isinstance(self.metavar, tuple) else self.metavar
        return f"[{self.flags[0]} {shown}]"

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        if self.positional:
            parser.add_argument(self.flags[0], **self.options)
            return
        extra = dict(self.options)
        if self.metavar is None:
            extra.setdefault("action", "store_true")
        else:
            extra.setdefault("metavar", self.metavar)
        parser.add_argument(*self.flags, **extra)


@dataclass(frozen=True)
class SubCommand:
    """``%mc <name> ...``: what it takes and what it does."""

    name: str
    summary: str
    options: tuple[Option, ...] = ()
    words: str = ""  # the synopsis of words the sub-command reads itself (not argparse)
    completes: str | None = None  # what Tab offers for its words: players, commands ...

    def synopsis(self) -> str:
        parts = [f"%mc {self.name}", self.words, *(o.synopsis() for o in self.options)]
        return " ".join(p for p in parts if p)

    def parser(self) -> _Parser:
        parser = _Parser(prog=self.name, add_help=False)
        if self.words:  # words the sub-command reads itself still belong in its usage line
            parser.usage = self.synopsis().removeprefix("%mc ")
        for option in self.options:
            option.add_to(parser)
        return parser

    def parse(self, rest: str) -> argparse.Namespace:
        import shlex

        try:
            words = shlex.split(rest)
        except ValueError as exc:
            raise UsageError(f"%mc {self.name}: {exc} (unbalanced quotes?)") from None
        return self.parser().parse_args(words)

    def flags(self) -> list[str]:
        return [f for o in self.options if not o.positional for f in o.flags]


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting the kernel."""

    def error(self, message: str) -> Any:
        raise UsageError(f"%mc {self.prog}: {message}\nusage: %mc {self.format_usage()[7:]}")

    def exit(self, status: int = 0, message: str | None = None) -> Any:
        raise UsageError(message or self.format_help())


_TYPE = Option(("--type",), "T", {"dest": "entity_type", "default": None})
SUBCOMMANDS: tuple[SubCommand, ...] = (
    SubCommand(
        "status",
        "the status panel: address, /connect line, games, what was dropped or refused, "
        "recent events",
    ),
    SubCommand("help", "this help (the same as %mc?), or one sub-command's", words="[sub-command]",
               completes="subcommands"),
    SubCommand(
        "serve",
        "start a new bridge; if it cannot start, the old one keeps running",
        (
            Option(("--host",), "H"),
            Option(("--port",), "P", {"type": port_number}),
            Option(("--token",), "T"),
            Option(("--no-token",)),
            Option(("--encrypt",), "auto|on|off", {"choices": ["auto", "on", "off"]}),
        ),
    ),
    SubCommand("stop", "stop the bridge (mc then says so; %mc serve starts a new one)"),
    SubCommand("connect", "print the /connect line to type in Minecraft"),
    SubCommand(
        "sim",
        "connect a simulated world running the addon: the stable pack without Beta APIs unless "
        "told (or your own build of it, or none: --no-addon); --lively: its players act by "
        "themselves, RATE doings a second each",
        (
            Option(("--players",), "Steve,Alex", {"default": None}),
            Option(("--worlds",), "N", {"type": int, "default": None}),
            Option(("--pack",), "stable|beta", {"choices": ["stable", "beta"], "default": None}),
            Option(
                ("--beta-apis",),
                "auto|on|off",
                {"choices": ["auto", "on", "off"], "default": None},
            ),
            Option(
                ("--edition",),
                "bedrock|education",
                {"choices": ["bedrock", "education"], "default": None},
            ),
            Option(("--language",), "en_US|zh_CN|ja_JP...", {"default": None}),
            Option(("--legacy",)),
            Option(("--addon",), "sim_stable.js|PACK_FOLDER", {"default": None}),
            Option(("--no-addon",)),
            # --lively alone: the simulated world's LIVELY_RATE (a test holds them equal).
            Option(("--lively",), "[RATE]",
                   {"nargs": "?", "type": float, "const": 1.0, "default": None}),
        ),
    ),
    SubCommand("worlds", "the worlds as a DataFrame: name, address, players, the latest event; "
               "who is connected and who dropped"),
    SubCommand("cmd", "run one command (also %mc /<command>); {, $ and @ pass through untouched",
               words="<command>", completes="commands"),
    SubCommand("player", "a player's card (default: the connected player)", words="[name]",
               completes="players"),
    SubCommand("players", "every player as a DataFrame"),
    SubCommand("inv", "inventories as a DataFrame, one row per stack", words="[name]",
               completes="players"),
    SubCommand("caps", "the capabilities this world's addon offers, with their parameters"),
    SubCommand(
        "events",
        "the event log as a DataFrame (the last N entries, or those after a cursor); "
        "EVENT: that game event's table; list: every game event and whether it is "
        "subscribed; on/off EVENT: subscribe or unsubscribe (--rate N with on: at most N "
        "a second per player)",
        (
            Option(("words",), ("[list | on EVENT | off EVENT | EVENT]",), {"nargs": "*"}),
            Option(("--last",), "N", {"type": int, "default": 20}),
            Option(("--since",), "CURSOR", {"type": int, "default": None}),
            Option(("--rate",), "N", {"type": int, "default": None}),
            Option(("--unknown-ok",), None, {"dest": "unknown_ok"}),
        ),
        completes="events",
    ),
    SubCommand("call", "call a capability; values are read as JSON where they parse",
               words="<capability> [key=value ...]", completes="capabilities"),
    SubCommand("tell", "show text in the player's addon panel", words="<player> <text>",
               completes="players"),
    SubCommand(
        "count",
        "how many of an item a player holds (counted with clear ... 0: nothing is removed)",
        (
            Option(("player",)),
            Option(("item",)),
            Option(("--data",), "N", {"type": int, "default": -1}),
        ),
        completes="players",
    ),
    SubCommand(
        "scores",
        "the objectives, a holder's scores, or one objective's scores as a DataFrame",
        (
            Option(("holder",), options={"nargs": "?"}),
            Option(("--objective", "-o"), "NAME", {"default": None}),
        ),
        completes="players",
    ),
    SubCommand(
        "entities",
        "entities as a DataFrame: id, type (typeId), name, dimension (dimensionId), x, y, z, yaw",
        (
            _TYPE,
            Option(("--name",), "N", {"default": None}),
            Option(("--tag",), "T", {"default": None}),
            Option(("--players",)),
            Option(("--near",), ("X", "Y", "Z"), {"nargs": 3, "type": float, "default": None}),
            Option(("--radius",), "R", {"type": float, "default": None}),
            Option(("--limit",), "N", {"type": int, "default": 64}),
        ),
    ),
    SubCommand(
        "map",
        "a top-down map of the players and entities: live while on screen in a notebook "
        "with widgets, a text map in a terminal",
        (
            Option(("--every",), "SECONDS", {"type": float, "default": 1.0}),
            Option(("--dimension",), "D", {"default": None,
                                           "choices": ["overworld", "nether", "the_end"]}),
            Option(("--no-entities",)),
            Option(("--static",)),
        ),
    ),
    SubCommand(
        "blocks",
        "the blocks between two corners: a picture, counts, and a BlockRegion (ids, palette)",
        (
            Option(("corners",), ("x1", "y1", "z1", "x2", "y2", "z2"), {"nargs": "*"}),
            Option(("--dimension",), "D", {"default": "overworld",
                                           "choices": ["overworld", "nether", "the_end"]}),
            Option(("--states",)),
        ),
    ),
    SubCommand("tools", "the agent tools: the list, one tool call, or the JSON Schema export",
               words="[<tool> key=value ... | --schema]", completes="tools"),
    SubCommand(
        "doctor",
        "check the connected game step by step (connection, commands, events, the addon, "
        "text) and say what to do about what fails; saves the session as a capture",
        (
            Option(("--probe-limits",)),
            Option(("--capture",), "PATH", {"default": None}),
            Option(("--no-redact",)),
        ),
    ),
    SubCommand(
        "addon",
        "prototype capabilities (%%mc capability NAME defines one): list or remove them, "
        "export a .mcaddon with them, deploy it to a development folder, /reload",
        words="[prototypes | remove NAME | export [PATH] [--with NAME ...] | deploy [FOLDER] "
        "[--with NAME ...] | reload]",
    ),
    SubCommand(
        "record",
        "record every frame both ways and every call's result to a capture file (JSON Lines; "
        "docs/captures.md); %mc record stop ends it, %mc record shows it",
        (
            Option(("--redact",)),
            Option(("--max-mb",), "N", {"type": float, "default": None}),
            Option(("--overwrite",)),
        ),
        words="[PATH | stop]",
        completes="record",
    ),
)  # fmt: skip
CELL_USAGE = ("%%mc", "one command per line (# comments allowed); a table of the results")
# The many-worlds prefixes (_world_magics.py reads them).
ALL_USAGE = (
    "%mc --all players | inv [name] | /<command>",
    "the same on every connected world at once: one table with a world column, and an "
    "error column for a world that failed or timed out",
)
WORLD_USAGE = ("%mc --world NAME <sub-command>", "any sub-command on one world (name or id)")
CAPABILITY_CELL = SubCommand(
    "capability",
    "the cell is a JavaScript capability module, registered at once in the simulated world's "
    "addon as a prototype (--ts: TypeScript, when Node and the addon's toolchain are there)",
    (Option(("name",)), Option(("--ts",))),
)
BY_NAME = {s.name: s for s in SUBCOMMANDS}


def _rows() -> list[tuple[str, str]]:
    rows = [("%mc [status]", BY_NAME["status"].summary)]
    rows += [(s.synopsis(), s.summary) for s in SUBCOMMANDS if s.name != "status"]
    capability = ("%" + CAPABILITY_CELL.synopsis(), CAPABILITY_CELL.summary)
    return [*rows, WORLD_USAGE, ALL_USAGE, CELL_USAGE, capability]


def help_text() -> str:
    """What ``%mc?`` shows."""
    lines = ["Talk to the connected Minecraft world.", ""]
    for synopsis, summary in _rows():
        lines += [synopsis, f"    {summary}"]
    lines += [
        "",
        "Tab completes sub-commands, options, command names, players and capabilities.",
        "Failures from the game are short red errors.",
        "",
        "Raises:",
        "    UsageError: a mistake in the line (an unknown sub-command, a bad option or",
        "        value), as a short message that says what to fix.",
    ]
    return "\n".join(lines)


def subcommand_help(name: str) -> str:
    """``%mc help NAME``: one sub-command's usage and what it does.

    Raises:
        UsageError: no sub-command is called ``name`` (the message lists them).
    """
    sub = BY_NAME.get(name)
    if sub is None:
        raise UsageError(f"%mc help: no sub-command {name!r}; one of: {', '.join(BY_NAME)}")
    return f"{sub.synopsis()}\n    {sub.summary}"


def markdown_table() -> str:
    """The README's ``%mc`` table."""
    lines = ["| magic | does |", "|---|---|"]
    for synopsis, summary in _rows():
        escaped = synopsis.replace("|", "\\|")
        lines.append(f"| `{escaped}` | {summary} |")
    return "\n".join(lines)
