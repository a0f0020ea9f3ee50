"""``%mc`` and ``%%mc``: the world from the IPython prompt.

Each sub-command parses its arguments, calls the ``mc`` handle and returns something that
displays well. Mistakes raise ``UsageError`` (a message, no traceback). Minecraft syntax
(``{``, ``$``, ``@``) passes through untouched: the magics do no variable expansion.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class, no_var_expand

from ...cleantext import clean_text
from ...exceptions import AddressInUse, McbewsError, UnknownEvent
from ...gametext import strip_codes
from ...optional import needs
from ..handle import AnyHandle, Minecraft
from ..runtime import Pending
from ..show import tag
from ._addon_magics import AddonMagics
from ._config import encrypt_policy
from ._magicargs import parse_value
from ._toolkit_magics import ToolkitMagics
from ._usage import BY_NAME, SUBCOMMANDS, help_text, subcommand_help
from ._world_magics import WorldMagics

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell


__all__ = ["McMagics", "parse_value"]


class BridgeKeeper(Protocol):
    """What the magics ask of the extension that registered them: its ``mc`` and the
    bridge's start and stop (the extension is this; the magics need no more of it)."""

    mc: Minecraft | None

    def restart_bridge(
        self, host: str | None, port: int | None, token: str | bool | None,
        encrypt: bool | str | None,
    ) -> Minecraft: ...  # fmt: skip

    def stop_bridge(self) -> None: ...


@magics_class
class McMagics(ToolkitMagics, AddonMagics, WorldMagics, Magics):
    """``%mc`` and ``%%mc``: each line's sub-command run on the extension's ``mc`` (or, with
    ``--world NAME``, on that world's handle); ``%mc?`` lists the sub-commands."""

    def __init__(self, shell: InteractiveShell, extension: BridgeKeeper) -> None:
        super().__init__(shell)
        self.ext = extension

    @property
    def handle(self) -> AnyHandle:
        """The handle this line talks to: the world ``--world NAME`` chose, else ``mc``.

        Raises:
            UsageError: the bridge is not running (``%mc serve`` starts it).
        """
        if self._bound is not None:
            return self._bound  # %mc --world NAME ...: this line talks to that world
        if self.ext.mc is None:
            raise UsageError("the bridge is not running; start it with %mc serve")
        return self.ext.mc  # a stopped one says so on every call

    @no_var_expand
    @line_cell_magic
    def mc(self, line: str, cell: str | None = None) -> Any:
        if cell is not None:
            return self._cell(line, cell)
        line = line.strip()
        if not line:
            return self.handle.status()
        if line.startswith("/"):
            return self._cmd(line[1:])
        if line.startswith("--"):
            return self._routed(line)
        word, _, rest = line.partition(" ")
        handler: Callable[[str], Any] | None = getattr(self, f"_sub_{word}", None)
        if word not in BY_NAME or handler is None:
            raise UsageError(
                f"unknown %mc sub-command {word!r}; try one of: "
                f"{', '.join(s.name for s in SUBCOMMANDS)} or %mc /<command>. %mc? shows help."
            )
        return handler(rest.strip())

    # --- sub-commands -------------------------------------------------------------------

    def _sub_status(self, rest: str) -> Any:
        return self.handle.status()

    def _sub_help(self, rest: str) -> None:
        # printed, not returned: the words as %mc? shows them, with no Out[] prompt
        print(subcommand_help(rest) if rest else help_text())

    def _sub_serve(self, rest: str) -> Any:
        args = BY_NAME["serve"].parse(rest)
        token: str | bool | None = False if args.no_token else (args.token or True)
        encrypt = None if args.encrypt is None else encrypt_policy(args.encrypt)
        try:
            mc = self.ext.restart_bridge(args.host, args.port, token, encrypt)
        except (OSError, ValueError) as exc:
            still = self.ext.mc
            kept = "" if still is None or still.stopped else f"; still listening on {still.url}"
            # A busy port, in the words of this magic's own options (--port 0, not port=0).
            said = exc.advice("--port 0") if isinstance(exc, AddressInUse) else str(exc)
            raise UsageError(f"%mc serve: {said}{kept}") from None
        print(f"Bridge listening. In Minecraft type: {mc.connect_command}")
        return mc.status()

    def _sub_stop(self, rest: str) -> None:
        mc = self.ext.mc
        if mc is None or mc.stopped:
            print("The bridge is already stopped; %mc serve starts a new one.")
            return
        self.ext.stop_bridge()
        print("Bridge stopped; %mc serve starts a new one.")

    def _sub_connect(self, rest: str) -> None:
        print(self.handle.connect_command)

    def _sub_sim(self, rest: str) -> Any:
        args = BY_NAME["sim"].parse(rest)
        names = [n.strip() for n in args.players.split(",") if n.strip()] if args.players else None
        if args.addon is not None and not Path(args.addon).exists():
            raise UsageError(f"--addon {args.addon}: no such simulator bundle (sim_stable.js) "
                             "or pack folder")  # fmt: skip
        if args.no_addon and args.addon is not None:
            raise UsageError("%mc sim: --addon or --no-addon, not both")
        try:
            pending = self.handle.simulate(
                names,
                worlds=args.worlds,
                legacy=args.legacy,
                addon=False if args.no_addon else args.addon,
                pack=args.pack,
                beta_apis=args.beta_apis,
                edition=args.edition,
                language=args.language,
            )
        except ValueError as exc:
            raise UsageError(f"%mc sim: {exc}") from None
        started = pending.result(60)
        if args.lively is not None:
            self._lively(started, args.lively)
        refused = self.handle.sim.addon_refused if self.handle.sim is not None else None
        if refused:
            print(f"The simulated world did not load its pack: {refused}. Try %mc sim "
                  "--beta-apis on, or --pack stable.")  # fmt: skip
        return self.handle.status()

    def _lively(self, started: Any, rate: float) -> None:
        """``--lively [RATE]``: the new world's players (every world's) act by themselves."""
        worlds = started if isinstance(started, list) else [started]
        try:
            for world in worlds:
                world.lively(True, rate)
        except ValueError as exc:
            raise UsageError(f"%mc sim --lively: {exc}") from None

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
        args = BY_NAME["events"].parse(rest)
        words: list[str] = args.words
        handle = self.handle
        rate: int | None = args.rate
        if rate is not None and words[:1] != ["on"]:
            raise UsageError("%mc events: --rate goes with on, e.g. %mc events on "
                             "PlayerTravelled --rate 2")  # fmt: skip
        try:
            match words:
                case []:
                    return self._wait(handle.events(since=args.since, last=args.last))
                case ["list"]:
                    return handle.subscriptions
                case ["on", name]:
                    asked = handle.subscribe(name, unknown_ok=args.unknown_ok, rate=rate)
                    heard = self._wait(asked)
                    kept = f" (at most {rate} a second per player)" if rate else ""
                    print(f"Subscribed to {name}{kept}; this world now hears "
                          f"{', '.join(sorted(heard))}.")  # fmt: skip
                    return None  # what it hears, said: `%mc events list` is the whole table
                case ["off", name]:
                    heard = self._wait(handle.unsubscribe(name))
                    print(f"Unsubscribed from {name}; this world hears {', '.join(sorted(heard))}.")
                    return None
                case [name]:
                    return self._wait(handle.events(since=args.since, last=args.last, kind=name))
        except UnknownEvent as exc:
            raise UsageError(f"%mc events: {exc}") from None
        except ValueError as exc:
            if isinstance(exc, McbewsError):
                raise
            raise UsageError(f"%mc events: {exc}") from None
        raise UsageError("usage: %mc events [list | on EVENT [--rate N] | off EVENT | EVENT] "
                         "[--last N] [--since CURSOR]")  # fmt: skip

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
        print(clean_text(f"Sent to {player} in {frames} frame(s)."))

    def _sub_doctor(self, rest: str) -> Any:
        args = BY_NAME["doctor"].parse(rest)
        mc = self.handle
        games = mc.connections
        if games:
            who = mc._local_player() or "the connected game"  # several: WhichWorld says so
            print(clean_text(f"Checking {who}'s game; this takes a few seconds (more when "
                             "something fails)."))  # fmt: skip
        if args.probe_limits:
            from ...doctor import PROBE_WARNING

            print(f"Warning: {PROBE_WARNING}")
        return self._wait(
            mc.doctor(args.probe_limits, capture=args.capture, redact=not args.no_redact)
        )

    def _sub_record(self, rest: str) -> Any:
        target, _, flags = rest.partition(" ")
        if target.startswith("-"):
            target, flags = "", rest
        args = BY_NAME["record"].parse(flags)
        current = self.handle.recording
        if target in ("", "stop"):
            if flags.strip():
                raise UsageError(
                    "%mc record: options go with a PATH, e.g. %mc record s.jsonl --redact"
                )
            if current is None:
                print("Not recording; %mc record PATH starts a recording.")
                return None
            return current.stop() if target == "stop" else current
        limit = {} if args.max_mb is None else {"max_bytes": int(args.max_mb * (1 << 20))}
        try:
            return self.handle.record(target, args.redact, overwrite=args.overwrite, **limit)
        except ValueError as exc:
            if isinstance(exc, McbewsError):
                raise
            raise UsageError(f"%mc record: {exc}") from None

    def _cell(self, line: str, cell: str) -> Any:
        if line.split(maxsplit=1)[:1] == ["capability"]:
            return self._cell_capability(line.strip().removeprefix("capability"), cell)
        with needs():
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
                    "message": strip_codes(r.status_message),  # the words, not § codes
                }
            )
        return tag(pd.DataFrame(rows, columns=["command", "ok", "status", "message"]), "commands")

    @staticmethod
    def _wait(pending: Pending[Any]) -> Any:
        return pending.result()


McMagics.mc.__doc__ = help_text()  # what %mc? shows, from the one table in _usage.py
