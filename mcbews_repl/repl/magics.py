"""``%mc`` and ``%%mc``: the world from the IPython prompt.

Each sub-command parses its arguments, calls the ``mc`` handle and returns something that
displays well. Mistakes raise ``UsageError`` (a message, no traceback). Minecraft syntax
(``{``, ``$``, ``@``) passes through untouched: the magics do no variable expansion.
"""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand

from ..sansio.wire import BRIDGE_PLAYER
from .explore_magics import ExploreMagics
from .handle import SHIPPED_CAPABILITIES, Minecraft
from .runtime import Pending

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from .extension import Extension

__all__ = ["SUBCOMMANDS", "McMagics", "complete"]

SUBCOMMANDS = [
    "serve",
    "stop",
    "connect",
    "sim",
    "cmd",
    "player",
    "players",
    "inv",
    "caps",
    "events",
    "call",
    "tell",
    "status",
    "count",
    "scores",
    "entities",
    "tools",
]
COMMON_COMMANDS = [
    "say",
    "tell",
    "tellraw",
    "give",
    "clear",
    "tp",
    "gamemode",
    "tag",
    "scoreboard",
    "testfor",
    "querytarget",
    "list",
    "time",
    "weather",
    "summon",
    "kill",
    "setblock",
    "fill",
    "scriptevent",
    "getlocalplayername",
]


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting the kernel."""

    def error(self, message: str) -> Any:
        raise UsageError(f"%mc {self.prog}: {message}\n{self.format_usage()}")

    def exit(self, status: int = 0, message: str | None = None) -> Any:
        raise UsageError(message or self.format_help())


def _parser(name: str, *args: tuple[tuple[str, ...], dict[str, Any]]) -> _Parser:
    parser = _Parser(prog=name, add_help=False)
    for flags, options in args:
        parser.add_argument(*flags, **options)
    return parser


def parse_value(text: str) -> Any:
    """``key=value`` values: JSON where it parses (numbers, true, lists), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


@magics_class
class McMagics(ExploreMagics, Magics):
    def __init__(self, shell: InteractiveShell, extension: Extension) -> None:
        super().__init__(shell)
        self.ext = extension

    @property
    def handle(self) -> Minecraft:
        if self.ext.mc is None:
            raise UsageError("the bridge is stopped; start it with %mc serve")
        return self.ext.mc

    @no_var_expand
    @line_cell_magic
    def mc(self, line: str, cell: str | None = None) -> Any:
        """Talk to the connected Minecraft world.

        %mc                          status: address, /connect line, games, recent events
        %mc serve [--host H] [--port P] [--token T | --no-token] [--encrypt auto|on|off]
        %mc stop                     stop the bridge
        %mc connect                  print the /connect line to type in Minecraft
        %mc sim [--players Steve,Alex] [--legacy] [--addon sim_bundle.js]   simulated world
        %mc /<command>               run one command (also: %mc cmd <command>)
        %mc player [name]            a player's card (default: the connected player)
        %mc players                  every player as a DataFrame
        %mc inv [name]               inventories as a DataFrame
        %mc caps                     the capabilities the world's addon offers
        %mc events [--last N]        the event log as a DataFrame
        %mc call <capability> key=value ...   call a capability (values read as JSON)
        %mc tell <player> <text>     show text in the player's addon panel
        %mc count <player> <item> [--data N]   how many of an item (removes nothing)
        %mc scores [holder] [-o objective]     scores of a holder, an objective, or objectives
        %mc entities [--type T] [--name N] [--tag T] [--players] [--near X Y Z] [--radius R]
        %mc tools [--schema | <tool> key=value ...]   the agent tools: list, schema, or call

        %%mc runs one command per line and shows a table of the results.
        """
        if cell is not None:
            return self._cell(line, cell)
        line = line.strip()
        if not line:
            return self.handle.status()
        if line.startswith("/"):
            return self._cmd(line[1:])
        word, _, rest = line.partition(" ")
        handler: Callable[[str], Any] | None = getattr(self, f"_sub_{word}", None)
        if handler is None:
            raise UsageError(
                f"unknown %mc sub-command {word!r}; try one of: "
                f"{', '.join(SUBCOMMANDS)} or %mc /<command>. %mc? shows help."
            )
        return handler(rest.strip())

    # --- sub-commands -------------------------------------------------------------------

    def _sub_status(self, rest: str) -> Any:
        return self.handle.status()

    def _sub_serve(self, rest: str) -> Any:
        args = _parser(
            "serve",
            (("--host",), {}),
            (("--port",), {"type": int}),
            (("--token",), {}),
            (("--no-token",), {"action": "store_true"}),
            (("--encrypt",), {"choices": ["auto", "on", "off"], "default": None}),
        ).parse_args(shlex.split(rest))
        token: str | bool | None = False if args.no_token else (args.token or True)
        if args.encrypt is not None:
            from .config import encrypt_policy

            self.ext.encrypt = encrypt_policy(args.encrypt)
        self.ext.stop_bridge()
        mc = self.ext.start_bridge(args.host, args.port, token)
        print(f"Bridge listening. In Minecraft type: {mc.connect_command}")
        return mc.status()

    def _sub_stop(self, rest: str) -> None:
        self.ext.stop_bridge()
        print("Bridge stopped; %mc serve starts it again.")

    def _sub_connect(self, rest: str) -> None:
        print(self.handle.connect_command)

    def _sub_sim(self, rest: str) -> Any:
        args = _parser(
            "sim",
            (("--players",), {"default": None}),
            (("--legacy",), {"action": "store_true"}),
            (("--addon",), {"default": None}),
        ).parse_args(shlex.split(rest))
        from .simulate import start_sim

        names = [n.strip() for n in args.players.split(",") if n.strip()] if args.players else None
        if args.addon is not None and not Path(args.addon).is_file():
            raise UsageError(f"--addon {args.addon}: no such simulator bundle (sim_bundle.js)")
        start_sim(self.handle, names, legacy=args.legacy, addon=args.addon).result(60)
        return self.handle.status()

    def _sub_cmd(self, rest: str) -> Any:
        return self._cmd(rest)

    def _cmd(self, command: str) -> Any:
        if not command.strip():
            raise UsageError("write a command after the slash, e.g. %mc /say hi")
        return self._wait(self.handle.command(command))

    def _sub_player(self, rest: str) -> Any:
        return self._wait(self.handle.player(rest or None))

    def _sub_players(self, rest: str) -> Any:
        return self._wait(self.handle.players())

    def _sub_inv(self, rest: str) -> Any:
        return self._wait(self.handle.inventory(rest or None))

    def _sub_caps(self, rest: str) -> Any:
        return self._wait(self.handle.caps())

    def _sub_events(self, rest: str) -> Any:
        args = _parser(
            "events",
            (("--last",), {"type": int, "default": 20}),
            (("--since",), {"type": int, "default": None}),
        ).parse_args(shlex.split(rest))
        return self._wait(self.handle.events(since=args.since, last=args.last))

    def _sub_call(self, rest: str) -> Any:
        capability, _, params = rest.partition(" ")
        if not capability:
            raise UsageError("usage: %mc call <capability> key=value ...  (see %mc caps)")
        payload: dict[str, Any] = {}
        for item in shlex.split(params):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise UsageError(
                    f"{item!r} is not key=value; e.g. %mc call {capability} target=Steve"
                )
            payload[key] = parse_value(value)
        return self._wait(self.handle.call(capability, payload))

    def _sub_tell(self, rest: str) -> Any:
        player, _, text = rest.partition(" ")
        if not player or not text.strip():
            raise UsageError("usage: %mc tell <player> <text>")
        frames = self._wait(self.handle.send_text(player, text))
        print(f"Sent to {player} in {frames} frame(s).")

    def _cell(self, line: str, cell: str) -> Any:
        import pandas as pd

        commands = [c.strip().removeprefix("/") for c in cell.splitlines()]
        pendings = [self.handle.command(c) for c in commands if c and not c.startswith("#")]
        rows = []
        for pending in pendings:
            r = self._wait(pending)
            rows.append(
                {
                    "command": r.command,
                    "ok": r.ok,
                    "status": r.status_code,
                    "message": r.status_message,
                }
            )
        return pd.DataFrame(rows, columns=["command", "ok", "status", "message"])

    @staticmethod
    def _wait(pending: Pending[Any]) -> Any:
        return pending.result()


def complete(shell: Any, event: Any) -> list[str]:
    """Tab completion for ``%mc``: sub-commands, then commands, capabilities, players."""
    from .extension import active

    words = event.line.split()
    ext = active(shell)
    mc = ext.mc if ext is not None else None
    if len(words) <= 1 or (len(words) == 2 and not event.line.endswith(" ")):
        return SUBCOMMANDS + ["/" + c for c in COMMON_COMMANDS]
    sub = words[1]
    if sub == "cmd":
        return COMMON_COMMANDS
    if sub in {"player", "inv", "tell", "count", "scores"} and mc is not None:
        return _player_names(mc)
    if sub == "tools":
        from ..toolkit.catalogue import CATALOGUE

        return [spec.name for spec in CATALOGUE]
    if sub == "call":
        return _capability_names(mc)
    return []


def _player_names(mc: Minecraft) -> list[str]:
    names = {c.local_player for c in mc.connections if c.local_player} | mc.seen_players
    if mc.sim is not None:
        names |= set(mc.sim.world.players)
    names.discard(BRIDGE_PLAYER)  # the addon's own simulated player is not a person
    return sorted(names)


def _capability_names(mc: Minecraft | None) -> list[str]:
    return list(mc.capability_names) if mc is not None else list(SHIPPED_CAPABILITIES)
