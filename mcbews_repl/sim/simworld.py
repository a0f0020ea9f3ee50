"""``SimWorld``: the simulated game in one object, the way a test or the REPL drives it.

It wires the world state, the command interpreter, the tick clock, the addon's script host
and the WebSocket game client together. Everything runs on the event loop that calls
:meth:`SimWorld.start`, so it can live as a task on any running loop (the REPL's runtime
thread included): ``asyncio.run_coroutine_threadsafe(sim.run(url), loop)``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
from collections import deque
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

from ..exceptions import PackError
from .client import GameClient
from .clock import ClockMode, TickClock
from .cmd_chat import player_chat
from .commands import CommandOutcome, Effects, Interpreter
from .custom import run_custom_command
from .defaults import default_world
from .doings import PlayerDoings
from .facts import CUSTOM_COMMAND_FAILURE, ENGLISH, MODERN_EVENT_VERSION, speaking, text
from .host import HANG_THRESHOLD_MS, ScriptHost, Watchdog, bundled_addon, declared_dependencies
from .hostapi import HostApi, HostOptions
from .lively import Lively
from .model import ChatLine, WorldState
from .packs import LoadedPack, find_script_pack, load_pack, reload_handler
from .selectors import CommandOrigin

__all__ = ["Edition", "Pack", "ScriptEventSource", "SimWorld"]

log = logging.getLogger("mcbews_repl.sim")
CHAT_PANEL_COMMAND = "mcbews:chat"  # the addon's command a player types (not a request)
_T = TypeVar("_T")

# How a /scriptevent run over the WebSocket reaches scripts: it may arrive (docs/protocol.md)
# with sourceType Entity (the connected player) rather than Server; both are selectable.
ScriptEventSource = Literal["Entity", "Server"]
# The addon's two packs (addon/README.md): stable modules only, or with the beta gametest one.
Pack = Literal["stable", "beta"]
# Bedrock, or a Minecraft Education world: no experiments toggle, so never Beta APIs.
Edition = Literal["bedrock", "education"]


class SimWorld(PlayerDoings):
    """A simulated Bedrock world that hosts the real addon and connects like the game.
    Its players' doings (``break_block``, ``walk`` ...) come from :class:`PlayerDoings`;
    ``lively=True`` (or a rate) or :meth:`lively` has them act by themselves (lively.py)."""

    def __init__(
        self,
        world: WorldState | None = None,
        *,
        fast: bool = False,
        clock: ClockMode | None = None,
        addon: str | os.PathLike[str] | bool | None = True,
        legacy_events: bool = False,
        event_version: int = MODERN_EVENT_VERSION,
        scriptevent_source: ScriptEventSource = "Entity",
        pack: Pack = "stable",
        beta_apis: bool = False,
        edition: Edition = "bedrock",
        seed: int = 0,
        require_encryption: bool = False,
        legacy_encryption: bool = False,
        offer_encryption: bool = True,
        report_simulated_chat: bool = True,
        report_custom_command_messages: bool = True,
        script_error: bool = False,
        behavior_packs: str | Path | None = None,
        hang_threshold_ms: int = HANG_THRESHOLD_MS,
        watchdog: Watchdog = "engine",
        language: str = ENGLISH,
        lively: bool | float = False,
    ) -> None:
        if addon is not None and not isinstance(addon, bool | str | os.PathLike):
            raise TypeError(
                "addon must be False (no addon), True or None (the shipped pack), or the path "
                f"of a simulator bundle (.js) or a pack folder, not {addon!r}"
            )
        if pack not in ("stable", "beta"):
            raise ValueError(f"pack must be 'stable' or 'beta', not {pack!r}")
        if edition == "education" and beta_apis:
            raise ValueError("Minecraft Education has no experiments toggle: beta_apis=False")
        if edition not in ("bedrock", "education"):
            raise ValueError(f"edition must be 'bedrock' or 'education', not {edition!r}")
        # The client's language (en_US, zh_CN ... the game's language files): every text
        # the game writes answers in it; ValueError names the languages for an unknown one.
        with speaking(language):
            self.external_sender = text("commands.origin.external")
        self.language = language
        self.pack: Pack = pack
        self.edition: Edition = edition
        self.beta_apis = beta_apis
        # Why the addon did not load, when it did not (a beta pack without Beta APIs).
        self.addon_refused: str | None = None
        self.world = world or default_world()
        self.clock = TickClock(clock or ("fast" if fast else "realtime"))
        self.legacy_events = legacy_events
        self.event_version = event_version  # header.version of modern events (or 16842752)
        # The game's "Require Encrypted Websockets" setting; an old client that only knows
        # the enableencryption command; a client that does not offer the subprotocol.
        self.encryption_options = {
            "require_encryption": require_encryption,
            "legacy_encryption": legacy_encryption,
            "offer_encryption": offer_encryption,
        }
        self.scriptevent_source: ScriptEventSource = scriptevent_source
        # False plays a game that does not report a simulated player's chat (the bridge
        # player's `tell @s`) to WebSocket subscribers: the one step no capture confirms.
        self.report_simulated_chat = report_simulated_chat
        # False plays a game that runs a custom command over the WebSocket but does not
        # return its result's message as statusMessage: what the pull transport rests on.
        self.report_custom_command_messages = report_custom_command_messages
        # True plays an addon whose script fails on every request it is sent (its script
        # event listener, and its custom commands other than the chat panel's): a script error.
        self.script_error = script_error
        self.chat_log: list[ChatLine] = []
        effects = Effects(
            chat=self._on_chat,
            script_event=self._on_script_event,
            close_websocket=self._on_close_websocket,
            custom_command=self._on_custom_command,
        )
        self.interpreter = Interpreter(self.world, effects, seed)
        self.interpreter.handlers["reload"] = reload_handler(self.reload_scripts)
        # The development behavior packs folder: a script pack there runs instead of the
        # bundled addon, and /reload loads it again (packs.py, docs/sim.md).
        self.behavior_packs = None if behavior_packs is None else Path(behavior_packs)
        self.hang_threshold_ms = hang_threshold_ms
        if watchdog not in ("engine", "loops"):
            raise ValueError(f"watchdog must be 'engine' or 'loops', not {watchdog!r}")
        self._watchdog: Watchdog = watchdog
        self.api = HostApi(self.world, self._run_as, HostOptions(beta_apis=beta_apis))
        self.host: ScriptHost | None = None
        self.client: GameClient | None = None
        # False: no addon; True: the shipped pack; a path: a bundle or a pack folder.
        self._addon: Path | bool = (
            addon is not False if addon is None or isinstance(addon, bool) else Path(addon)
        )
        self._active = False  # something happened this tick: fast mode ticks again at once
        self._started = False
        self.loop: asyncio.AbstractEventLoop | None = None  # set by start()
        # The players acting by themselves (lively.py): True, or a rate in doings a second.
        self.liveliness = Lively(self, seed)
        if lively is not False:
            self.lively(True, None if lively is True else float(lively))

    @property
    def hosts_addon(self) -> bool:
        """False for a world made with ``addon=False``, which runs no addon at all."""
        return self._addon is not False

    # --- lifecycle ------------------------------------------------------------------
    async def __aenter__(self) -> SimWorld:
        await self.start()
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def start(self) -> None:
        """Load the addon (startup, then worldLoad) and start the tick clock."""
        if self._started:
            return
        self._started = True
        self.loop = asyncio.get_running_loop()
        if self._addon is not False:
            with speaking(self.language):
                self._load_addon()
        self.clock.add_listener(self._tick)
        self.clock.add_listener(self.liveliness.on_tick)
        self.clock.start()

    def _load_addon(self) -> None:
        """Load the pack as the game would: not at all when it declares a beta module and the
        world has no Beta APIs (facts.json ``beta_pack_without_beta_apis``)."""
        pack = self._folder_pack()
        if pack is not None:
            dependencies = pack.dependencies
        else:
            path = bundled_addon(self.pack) if self._addon is True else Path(str(self._addon))
            source = path.read_text(encoding="utf-8")
            dependencies = declared_dependencies(source)
        beta = [d for d in dependencies if "beta" in str(d.get("version"))]
        if beta and not self.beta_apis:
            names = ", ".join(f"{d.get('module_name')} {d.get('version')}" for d in beta)
            where = (
                "Minecraft Education has no experiments"
                if self.edition == "education"
                else "the Beta APIs experiment is off"
            )
            self.addon_refused = f"the pack depends on {names}, a beta module, and {where}"
            log.warning("sim: the addon is not loaded: %s", self.addon_refused)
            return
        if pack is not None:
            self.host = load_pack(self.api, pack, hang_threshold_ms=self.hang_threshold_ms,
                                  watchdog=self._watchdog)  # fmt: skip
        else:
            self.host = ScriptHost(self.api, source, hang_threshold_ms=self.hang_threshold_ms,
                                   watchdog=self._watchdog)  # fmt: skip
        self.host.startup()
        self.host.world_load()

    def _folder_pack(self) -> LoadedPack | None:
        """The script pack of the development folder, else of ``addon`` when it is a folder."""
        if self.behavior_packs is not None and self.behavior_packs.is_dir():
            found = find_script_pack(self.behavior_packs)
            if found is not None:
                return found
        if isinstance(self._addon, str | Path) and Path(self._addon).is_dir():
            found = find_script_pack(Path(self._addon))
            if found is None:
                raise PackError(f"{self._addon} holds no behavior pack with a script module")
            return found
        return None

    def reload_scripts(self) -> str | None:
        """``/reload``: start the scripts over from the packs as they are now (the world and
        its dynamic properties stay); return why they did not load, or None."""
        if self._addon is False:
            return None
        if self.host is not None:
            self.host.close()
        self.host, self.addon_refused = None, None
        self.api.custom_commands.clear()  # the new scripts register theirs at startup
        self.api.bare_names.clear()
        try:
            with speaking(self.language):
                self._load_addon()
        except PackError as exc:
            log.error("sim: /reload: %s", exc)
            return str(exc)
        self.clock.request_tick()
        return None

    async def connect(self, url: str) -> None:
        """``/connect <url>``: a new connection replaces the old one, as in the game."""
        await self.start()
        if self.client is not None:
            await self.client.close()
        self.client = GameClient(
            self._run_ws_command,
            self.clock.request_tick,
            legacy_events=self.legacy_events,
            event_version=self.event_version,
            language=self.language,
            **self.encryption_options,
        )
        await self.client.connect(url)

    async def disconnect(self) -> None:
        """Close the WebSocket to the bridge, as a player leaving the world does; the
        world and its clock stay, so :meth:`connect` can dial again."""
        if self.client is not None:
            await self.client.close()

    async def wait_disconnected(self) -> None:
        """Return once the connection to the bridge has closed (at once if never opened)."""
        if self.client is not None:
            await self.client.closed.wait()

    async def run(self, url: str) -> None:
        """Connect and stay until the bridge (or ``closewebsocket``) closes the connection."""
        await self.connect(url)
        try:
            await self.wait_disconnected()
        finally:
            await self.close()

    async def close(self) -> None:
        """Disconnect, stop the clock and shut the script host down (for good)."""
        await self.disconnect()
        await self.clock.stop()
        if self.host is not None:
            self.host.close()  # joins its watchdog thread

    async def advance(self, ticks: int = 1) -> None:
        """Fast-forward: run ``ticks`` ticks now (any clock mode)."""
        await self.clock.advance(ticks)

    def call_threadsafe(self, fn: Callable[..., _T], *args: Any) -> concurrent.futures.Future[_T]:
        """Run ``fn(*args)`` (``sim.ui_chat``, a world edit...) on the sim's loop from another
        thread, e.g. a notebook kernel while the sim lives on the REPL's runtime thread. The
        world and its QuickJS context are not thread-safe: touch them only on that loop.

        Raises:
            RuntimeError: the SimWorld is not started (it has no loop yet).
        """
        if self.loop is None:
            raise RuntimeError("the SimWorld is not started")

        async def call() -> _T:
            return fn(*args)

        return asyncio.run_coroutine_threadsafe(call(), self.loop)

    # --- driving it from Python -----------------------------------------------------
    def run_command(self, line: str, as_player: str | None = None) -> CommandOutcome:
        """Run a command as a player (default: the local player), like typing it in chat."""
        name = as_player or self.world.local_player
        origin = CommandOrigin(name, self.world.players.get(name))
        return self._run_as(line, origin)

    def ui_chat(self, player: str, message: str) -> None:
        """``player`` opens the addon's chat panel (``/mcbews:chat``) and submits ``message``.

        Raises:
            RuntimeError: the world runs without the addon (``addon=False``), or the addon
                refused ``/mcbews:chat`` for ``player`` (e.g. no such player).
        """
        if self.host is None:
            raise RuntimeError("ui_chat needs the addon: start SimWorld with addon=True")
        self.api.form_answers.setdefault(player, deque()).append([message])
        result = self.run_command("mcbews:chat", as_player=player)
        if result.status_code != 0:
            raise RuntimeError(f"/mcbews:chat failed for {player}: {result.status_message}")
        self.clock.request_tick()

    def chat(self, player: str, message: str) -> None:
        """``player`` types ``message`` in the game's chat: every player sees
        ``<player> message`` and the WebSocket gets a PlayerMessage of type ``chat``."""
        with speaking(self.language):
            player_chat(self.world, self.interpreter.effects, player, message)

    def inbox(self, player: str) -> list[str]:
        """Everything ``player`` has been shown: text responses, tells, tellraw, say."""
        return list(self.world.players[player].inbox)

    def lively(
        self, on: bool = True, rate: float | None = None, players: list[str] | None = None
    ) -> Lively:
        """Let the players act by themselves at random (walk, break and place blocks, fight,
        get hurt, eat), ``rate`` doings a second each (default 1), or stop them; ``players``
        chooses who (default: everyone). Seeded by the world's ``seed`` (lively.py).

        Raises:
            ValueError: a rate that is not a positive number up to 200, or an unknown player.
        """
        self.liveliness.set(on, rate, players)
        return self.liveliness

    @property
    def watchdog(self) -> Watchdog:
        """Which watchdog bounds the scripts: ``"engine"`` (QuickJS's own interrupt, and the
        loops' checks) or ``"loops"`` (only the loops of modules it loads; docs/sim.md)."""
        return self.host.watchdog if self.host is not None else self._watchdog

    @property
    def script_errors(self) -> list[str]:
        """Every error the addon's scripts threw so far: where, message and stack."""
        return [
            f"{e.where}: {e.message}\n{e.stack}" for e in (self.host.errors if self.host else [])
        ]

    # --- internals ------------------------------------------------------------------
    def _run_as(self, line: str, origin: CommandOrigin) -> CommandOutcome:
        self._active = True
        with speaking(self.language):  # nested (a script's runCommand in a tick): the same
            return self.interpreter.execute(line, origin)

    def _run_ws_command(self, line: str) -> CommandOutcome:
        local = self.world.players.get(self.world.local_player)
        return self._run_as(line, CommandOrigin(self.external_sender, local))

    def _tick(self, tick: int) -> int | None:
        with speaking(self.language):  # the scripts' ticks and the commands they run
            return self._tick_in_language(tick)

    def _tick_in_language(self, tick: int) -> int | None:
        self._active = False
        self.world.absolute_time += 1
        self.world.time_of_day = (self.world.time_of_day + 1) % 24000
        pending = self.client.on_tick(tick) if self.client else None
        due = self.host.tick(tick) if self.host else None
        if self._active:
            return tick + 1
        candidates = [t for t in (pending, due) if t is not None]
        return min(candidates) if candidates else None

    def _on_chat(self, line: ChatLine) -> None:
        self._active = True
        self.chat_log.append(line)
        sender = self.world.players.get(line.sender)
        if not self.report_simulated_chat and sender is not None and sender.simulated:
            return  # a game that keeps simulated players' chat from WebSocket subscribers
        if self.client is not None:
            self.client.report_chat(line)

    def _on_script_event(self, event_id: str, message: str, origin: CommandOrigin) -> None:
        if self.host is None:
            return
        if self.script_error:
            self.host.fail("scriptEventReceive", f"Error: simulated script error on {event_id}")
            return
        if origin.name == self.external_sender:
            source = self.scriptevent_source
            player = origin.entity.name if source == "Entity" and origin.entity else None
        else:
            player = origin.entity.name if origin.entity and origin.entity.is_player else None
            source = "Entity" if player else "Server"
        self.host.script_event(event_id, message, source, player)

    def _on_close_websocket(self) -> None:
        if self.client is not None:
            self.client.request_close()

    def _on_custom_command(
        self, name: str, origin: CommandOrigin, rest: str
    ) -> CommandOutcome | None:
        host, spec = self.host, self.api.custom_command(name)  # "mcbews:ask" or "ask"
        if host is None or spec is None:
            return None
        name = spec.name
        if self.script_error and name != CHAT_PANEL_COMMAND:
            host.fail(f"custom command {name}", f"Error: simulated script error in {name}")
            return CommandOutcome(CUSTOM_COMMAND_FAILURE, "", success_count=0)
        player = origin.entity.name if origin.entity and origin.entity.is_player else None
        result = run_custom_command(
            spec, rest, lambda n, args: host.custom_command(n, player, args)
        )
        if not self.report_custom_command_messages and result.status_code == 0:
            result.status_message = ""  # it ran; its message does not come back
        return result
