"""The ``mc`` object a notebook or IPython user holds.

Every call is scheduled on the runtime's loop thread and returns a :class:`Pending`: ``await
mc.player()`` in a cell, ``mc.player().result()`` in plain code, or just ``mc.player()`` at
the end of a cell (the result is displayed once it arrives).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from ...cleantext import clean_text
from ...exceptions import BridgeStopped, NotConnected, wrong_type
from ...gateway import Bridge, CommandResult, GameConnection, UiChat
from ...gateway.delivery import Progress
from ...gateway.game_calls import GameCalls, check_command, check_send_text, same_call
from ...limits import CALLBACK_FAILURES_KEPT, CALLBACK_FAILURES_PRINTED
from ..runtime import Pending, Runtime
from ..show import (
    CallResult,
    PlayerSnapshot,
    Status,
    caps_frame,
    events_frame,
    inventory_frame,
    player_rows,
    players_frame,
    progress_bar,
    until_cancelled,
)
from ._addon_dev import AddonDev
from ._classroom import ManyWorlds
from ._connections import Connection, ConnectionRef, resolve
from ._counters import counter_rows
from ._diagnose import Diagnosis
from ._fanout import snapshot_everyone
from ._recording import Recordings
from ._toolkit import Explore
from ._watch import Watch
from ._world import BoundWorld
from ._worlds import CALLED, Roster, RoutedBridge, WorldRecord, call_text

if TYPE_CHECKING:
    import pandas as pd

    from ...toolkit.live import LiveEvents

__all__ = ["CallbackFailure", "Minecraft", "UiMessage"]

T = TypeVar("T")
# What mc adds to every game call (gateway/game_calls.py).
_IN_THE_NOTEBOOK = (
    "On ``mc``: ``connection`` picks the game (a handle or its id; default: the only one,"
    " and with several WhichWorld asks which: mc.world(NAME));"
    " returns a Pending (await it, or .result() in a script)."
)
UiCallback = Callable[["UiMessage"], Any]
# The capabilities of the addon this package ships (addon/src/capabilities/index.ts).
SHIPPED_CAPABILITIES = (
    "get_player_snapshot",
    "get_inventory_snapshot",
    "run_world_command",
    "describe_entities",
    "get_blocks",
    "list_capabilities",
)


# Seconds allowed for the server to close its connections when the bridge stops.
CLOSE_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True)
class UiMessage:
    """A UI chat message as a notebook callback sees it.

    ``connection`` is the game it came from and ``world`` its world (``mc`` bound to it,
    so ``msg.world.command(...)`` acts there); ``reply`` answers there, in the same
    conversation, and is safe on any loop.
    """

    player: str
    message: str
    conversation_id: str | None
    message_id: str
    connection: Connection | None = field(default=None, repr=False, compare=False)
    world: Any = field(default=None, repr=False, compare=False)

    def reply(self, text: str, *, role: str = "assistant") -> Pending[int]:
        """Answer in the player's panel: ``await msg.reply("...")`` or ``.result()``."""
        if self.connection is None:
            raise ValueError("this message is not tied to a game connection")
        return self.connection.send_text(
            self.player, text, role=role, conversation_id=self.conversation_id
        )


@dataclass(frozen=True)
class CallbackFailure:
    callback: str
    player: str
    message: str
    error: str
    traceback: str = field(repr=False)


# The variables a script's (mcbews_repl.start()) simulated world reads; IPython takes them
# through its McbewsRepl settings (ipython/_config.py), which %config can also set.
_SIM_ENV = {"pack": "MCBEWS_SIM_PACK", "beta_apis": "MCBEWS_SIM_BETA_APIS",
            "edition": "MCBEWS_SIM_EDITION"}  # fmt: skip


def _sim_defaults_from(env: Mapping[str, str]) -> dict[str, Any]:
    """``simulate``'s pack, Beta APIs and edition from ``MCBEWS_SIM_*`` (unset: defaults)."""
    return {key: env[var].lower() for key, var in _SIM_ENV.items() if env.get(var)}


class Minecraft(Explore, Watch, Recordings, Diagnosis, ManyWorlds):
    """The handle to the world: ``await mc.command("say hi")``, ``await mc.players()`` ...

    The toolkit's queries, scoreboard, contexts and agent tools come from :class:`Explore`;
    the live map, tracks and interactive tables from :class:`Watch`; ``record()`` and
    ``recording`` from :class:`Recordings`; ``doctor()`` from :class:`Diagnosis`;
    ``worlds``, ``world()`` and ``each`` from :class:`ManyWorlds`. With several worlds
    connected, a call that needs one and was not told which raises ``WhichWorld``.
    """

    def __init__(
        self,
        runtime: Runtime,
        bridge: Bridge,
        kernel_loop: asyncio.AbstractEventLoop | None = None,
        call_timeout: float | None = None,
        *,
        owns_runtime: bool = False,
    ) -> None:
        self._runtime = runtime
        # Calls go to the only connected world; with several, they ask which (_worlds.py).
        self._roster = Roster(bridge, time.time)
        bridge.log.add_listener(self._roster.on_entry)
        self._bridge: Bridge = RoutedBridge(bridge, self._roster.only_one)
        self._kernel_loop = kernel_loop
        self._call_timeout = call_timeout
        self._owns_runtime = owns_runtime  # mcbews_repl.start(): close() also ends the thread
        self._stopped = False
        self._wrappers: dict[UiCallback, Callable[[UiChat], asyncio.Future[None]]] = {}
        # The newest failures; callback_failure_count counts them all (limits.py).
        self.callback_failures: deque[CallbackFailure] = deque(maxlen=CALLBACK_FAILURES_KEPT)
        self.callback_failure_count = 0
        self._callback_tasks: set[asyncio.Task[None]] = set()
        self.sim: Any = None  # the simulated world, once `%mc sim` started one
        self.sims: list[Any] = []  # the simulated class of mc.simulate(worlds=N)
        # Which pack and world %mc sim makes when not told (simulate.SimOptions' fields):
        # the MCBEWS_SIM_* variables, or the extension's McbewsRepl settings.
        self.sim_defaults: dict[str, Any] = _sim_defaults_from(os.environ)
        # What Tab completion offers: names seen in answers so far, and the capabilities the
        # shipped addon has until mc.caps() tells what this world's addon really offers.
        self.seen_players: set[str] = set()
        self.capability_names: list[str] = list(SHIPPED_CAPABILITIES)
        self._described: dict[str, dict[str, Any]] = {}  # entity types a live map has seen
        self.addon = AddonDev(self)  # prototypes in the simulated world; export, deploy

    # --- plumbing ---------------------------------------------------------------------------

    def _submit(self, coro: Coroutine[Any, Any, T], label: str, called: str = "") -> Pending[T]:
        """Run ``coro`` on the bridge's thread; ``called`` is the call as the user wrote it
        (``inventory()``), which WhichWorld repeats when it asks which world."""
        if self._stopped:
            coro.close()
            raise self._stopped_error(f"{label or 'this call'} cannot reach a game")
        return self._runtime.submit(_calling(coro, called) if called else coro, label)

    def _stopped_error(self, consequence: str) -> BridgeStopped:
        return BridgeStopped(
            f"the bridge that listened on {self._bridge.url} is stopped, so {consequence}"
        )

    @property
    def stopped(self) -> bool:
        """True once the bridge was stopped (``%mc stop``, ``close()``, leaving ``with``)."""
        return self._stopped

    def close(self) -> None:
        """Stop the bridge and the simulated world; every later call raises BridgeStopped."""
        if self._stopped:
            return
        self.off_ui_chat()
        try:
            if self.recording is not None:
                self.recording.stop()  # the capture is finished before the bridge goes
            if self._runtime.running:
                self._runtime.run(self._close(), CLOSE_TIMEOUT_SECONDS)
        except TimeoutError:
            print("The bridge took too long to close; its thread will be stopped anyway.")
        finally:
            self._stopped = True
            if self._owns_runtime:
                self._runtime.stop()

    async def _close(self) -> None:
        if self.sim is not None:
            await self.sim.close()
        await asyncio.gather(*(sim.close() for sim in self.sims))
        await self._bridge.close()

    def __enter__(self) -> Minecraft:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _done(self, value: T, label: str) -> Pending[T]:
        async def now() -> T:
            return value

        return self._submit(now(), label)

    @property
    def bridge(self) -> Bridge:
        """The gateway object underneath (an asyncio API living on the runtime thread)."""
        return self._bridge

    @property
    def url(self) -> str:
        """The WebSocket URL the game connects to."""
        self._check_running()
        return self._bridge.url

    @property
    def connect_command(self) -> str:
        """What the player types in Minecraft (cheats on, operator)."""
        self._check_running()
        return self._bridge.connect_command

    def _check_running(self) -> None:
        if self._stopped:
            raise self._stopped_error("no game can connect to it")

    @property
    def connections(self) -> list[Connection]:
        """The open game connections, oldest first, as thread-safe handles."""
        if self._stopped:
            return []
        return [Connection(c, self._submit) for c in self._bridge.connections]

    def simulate(
        self,
        players: list[Any] | None = None,
        *,
        worlds: int | None = None,
        legacy: bool = False,
        addon: str | os.PathLike[str] | bool | None = None,
        pack: str | None = None,
        beta_apis: bool | str | None = None,
        edition: str | None = None,
    ) -> Pending[Any]:
        """Connect a simulated world (what ``%mc sim`` does). ``pack``: ``"stable"`` (no
        experiments, the default) or ``"beta"``; ``beta_apis``: True, False or ``"auto"`` (on
        with the beta pack); ``edition``: ``"bedrock"`` or ``"education"`` (no Beta APIs);
        ``addon``: False for a world without the addon (as ``SimWorld(addon=False)``), True
        or None for the shipped pack, or the path of your own build's simulator bundle
        (``sim_stable.js``) or of a pack folder.

        ``worlds=N`` starts a simulated class instead: N worlds, each hosted by its own
        student (``players``: a host name per world, or a list of names per world; default
        Ana, Ben, Chloe ...), each with its own seed; the Pending gives their sim handles.

        Raises:
            TypeError: an argument of the wrong type (the message says what it takes).
            ValueError: a pack, edition or Beta APIs choice that does not exist or fit.
            FileNotFoundError: ``addon`` names a path where nothing is.
        """
        from ._classroom import start_classroom
        from ._simulate import SimOptions, addon_choice, check_names, start_sim

        hosted = addon_choice(addon)  # a wrong choice raises here, before anything starts
        given = {"pack": pack, "beta_apis": beta_apis, "edition": edition}
        chosen = {**self.sim_defaults, **{k: v for k, v in given.items() if v is not None}}
        options = SimOptions(**chosen)
        options.resolved()
        if worlds is not None:
            if isinstance(worlds, bool) or not isinstance(worlds, int):
                raise wrong_type("worlds must be a whole number of worlds (worlds=5)", worlds)
            if legacy or hosted is not True:
                raise ValueError("worlds= starts the shipped pack's modern worlds only")
            if isinstance(players, str):
                check_names(players)  # says how to write one name
            return start_classroom(self, worlds, players, options)
        return start_sim(self, check_names(players), legacy=legacy, addon=hosted, options=options)

    # --- the calls --------------------------------------------------------------------------

    def wait_connected(self, timeout: float | None = 60) -> Pending[Connection]:
        """The newest game connection, once a game has connected and finished its handshake."""

        async def run() -> Connection:
            return Connection(await self._bridge.wait_connected(timeout), self._submit)

        return self._submit(run(), "wait_connected")

    @same_call(GameCalls.command, _IN_THE_NOTEBOOK)
    def command(
        self, line: str, *, timeout: float | None = None, connection: ConnectionRef | None = None
    ) -> Pending[CommandResult]:
        check_command(line)

        async def run() -> CommandResult:
            chosen = resolve(self._bridge, connection)
            return await self._bridge.command(line, timeout=timeout, connection=chosen)

        return self._submit(run(), f"/{line[:40]}", call_text("command", line))

    @same_call(GameCalls.call, _IN_THE_NOTEBOOK + " The answer shows as a card, a table or a tree.")
    def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
        **fields: Any,
    ) -> Pending[dict[str, Any]]:
        timeout = self._call_timeout if timeout is None else timeout

        async def run() -> dict[str, Any]:
            chosen = resolve(self._bridge, connection)
            answer = await self._bridge.call(
                capability, payload, timeout=timeout, connection=chosen, **fields
            )
            return CallResult(capability, answer)

        return self._submit(run(), capability, call_text("call", capability))

    @same_call(GameCalls.send_text, _IN_THE_NOTEBOOK + " Without ``progress``, a bar shows.")
    def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        progress: Progress | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[int]:
        check_send_text(player, text)
        bar = progress_bar(len(text)) if progress is None else None

        async def run() -> int:
            sending = self._bridge.send_text(
                player, text, role=role, progress=progress or bar,
                conversation_id=conversation_id, title=title,
                connection=resolve(self._bridge, connection),
            )  # fmt: skip
            return await until_cancelled(sending, lambda: bar)

        return self._submit(run(), f"send_text to {player}", call_text("send_text", player, "..."))

    def player(self, name: str | None = None) -> Pending[PlayerSnapshot]:
        """One player's snapshot (default: the player whose game is connected)."""
        called = call_text("player", *([name] if name else []))
        return self._submit(self._player(name), f"player {name or ''}".strip(), called)

    async def _player(self, name: str | None) -> PlayerSnapshot:
        game = self._bridge.pick()
        target = name or game.local_player or "@a"
        rows = player_rows(await self._call("get_player_snapshot", target=target, game=game))
        if not rows:
            raise LookupError(f"no player {target!r} in the world; try mc.players()")
        return rows[0]

    def players(self) -> Pending[pd.DataFrame]:
        async def run() -> pd.DataFrame:
            game = self._bridge.pick()
            frame = players_frame(await self._call("get_player_snapshot", target="@a", game=game))
            self.seen_players.update(str(name) for name in frame["name"])  # for Tab
            self._roster.saw_players(game, (str(n) for n in frame["name"]))  # mc.worlds
            return frame

        return self._submit(run(), "players", "players()")

    def inventory(self, name: str | None = None, *, raw: bool = False) -> Pending[pd.DataFrame]:
        """One row per stack: ``item`` (the short name), ``typeId``, ``amount`` ... shown as a
        friendly table; ``raw=True``: the addon's fields alone, shown as pandas does."""

        async def run() -> pd.DataFrame:
            if name:
                answer = await self._call("get_inventory_snapshot", target=name)
            else:  # one call per player, gathered: no answer grows with the class
                answer = await snapshot_everyone(self._call, "get_inventory_snapshot")
            return inventory_frame(answer, raw=raw)

        return self._submit(run(), "inventory", call_text("inventory", *([name] if name else [])))

    def caps(self) -> Pending[pd.DataFrame]:
        async def run() -> pd.DataFrame:
            frame = caps_frame(await self._call("list_capabilities"))
            self.capability_names = [str(name) for name in frame["name"]]  # for Tab
            return frame

        return self._submit(run(), "caps", "caps()")

    @overload
    def events(
        self, since: int | None = None, last: int | None = None, *, follow: Literal[False] = ...
    ) -> Pending[pd.DataFrame]: ...
    @overload
    def events(
        self, since: int | None = None, last: int | None = None, *, follow: Literal[True]
    ) -> LiveEvents: ...
    def events(
        self, since: int | None = None, last: int | None = None, *, follow: bool = False
    ) -> Pending[pd.DataFrame] | LiveEvents:
        """The event log as a DataFrame: entries after cursor ``since``, or the ``last`` N.

        ``follow=True`` shows one table that refreshes as events arrive (in a notebook) and
        returns its controller; ``.stop()`` ends the updates.
        """
        if follow:
            return self._follow_events(since, 20 if last is None else last)
        entries = self._bridge.events(since or 0)
        if last is not None:
            entries = entries[-last:] if last > 0 else []
        players = {c.id: c.local_player or "" for c in self._bridge.connections}
        return self._done(events_frame(entries, players), "events")

    async def _call(
        self, capability: str, *, game: GameConnection | None = None, **payload: Any
    ) -> dict[str, Any]:
        return await self._bridge.call(
            capability, payload, timeout=self._call_timeout, connection=game
        )

    def _bound_world(self, record: WorldRecord) -> World:
        """The handle ``mc.world(...)`` gives (World is made below, over this class)."""
        return World(self, record)

    def _local_player(self) -> str | None:
        """The host of the world calls go to (None: no game yet, so the call says so)."""
        try:
            return self._bridge.pick().local_player
        except NotConnected:
            return None

    # --- UI chat ----------------------------------------------------------------------------

    def on_ui_chat(self, callback: UiCallback) -> UiCallback:
        """Call ``callback(msg)`` for every UI chat message (usable as a decorator).

        In a notebook the callback runs on the kernel's own loop, between or during awaits of
        your cells, never in parallel with them. At most 4 messages of a game are served at
        once and 256 wait; beyond that they are dropped and counted (``%mc`` shows it). The
        first failures are printed, all are counted (``callback_failure_count``) and the
        newest 100 are kept in ``mc.callback_failures``.
        """
        if self._stopped:
            raise self._stopped_error("no UI chat can arrive")
        wrapper = self._wrap(callback)
        self._wrappers[callback] = wrapper
        self._runtime.call_soon(lambda: self._bridge.on_ui_chat(wrapper))
        return callback

    def off_ui_chat(self, callback: UiCallback | None = None) -> None:
        """Remove one callback, or all of them."""
        chosen = list(self._wrappers) if callback is None else [callback]
        for cb in chosen:
            wrapper = self._wrappers.pop(cb, None)
            if wrapper is not None:
                self._runtime.call_soon(partial(self._bridge.off_ui_chat, wrapper))

    def _wrap(self, callback: UiCallback) -> Callable[[UiChat], asyncio.Future[None]]:
        # The bridge awaits what deliver() returns, so its bounded UI chat queue counts a
        # message as running until the callback has finished on whichever loop it runs.
        def deliver(message: UiChat) -> asyncio.Future[None]:
            finished = asyncio.get_running_loop().create_future()
            loop = self._kernel_loop
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(self._invoke, callback, message, loop, finished)
            else:
                self._invoke(callback, message, asyncio.get_running_loop(), finished)
            return finished

        return deliver

    def _invoke(
        self,
        callback: UiCallback,
        message: UiChat,
        loop: asyncio.AbstractEventLoop,
        finished: asyncio.Future[None],
    ) -> None:
        # Hand the callback a message whose reply() goes through the runtime thread, to the
        # game it came from: the gateway's UiChat.reply() must only run on the bridge's loop.
        raw = message.connection
        source = Connection(raw, self._submit) if isinstance(raw, GameConnection) else None
        mine = UiMessage(
            message.player, message.message, message.conversation_id, message.message_id, source,
            self._world_of_id(raw.id if isinstance(raw, GameConnection) else None),
        )  # fmt: skip
        try:
            outcome = callback(mine)
        except Exception as exc:
            self._report(callback, message, exc)
            outcome = None
        if not asyncio.iscoroutine(outcome):
            _settle(finished)
            return
        task = loop.create_task(self._await_callback(callback, message, outcome))
        self._callback_tasks.add(task)  # referenced until it ends
        task.add_done_callback(self._callback_tasks.discard)
        task.add_done_callback(lambda _task: _settle(finished))

    async def _await_callback(
        self, callback: UiCallback, message: UiChat, outcome: Coroutine[Any, Any, Any]
    ) -> None:
        try:
            await outcome
        except Exception as exc:
            self._report(callback, message, exc)

    def _report(
        self, callback: UiCallback, message: UiChat, exc: BaseException, what: str = "UI chat"
    ) -> None:
        name = getattr(callback, "__qualname__", repr(callback))
        text = "".join(traceback.format_exception(exc))
        self.callback_failures.append(
            CallbackFailure(name, message.player, message.message, repr(exc), text)
        )
        self.callback_failure_count += 1
        if self.callback_failure_count > CALLBACK_FAILURES_PRINTED:
            return  # counted, shown by %mc, the newest kept: a flood must not flood the cell
        said = f"{what} callback {name} failed on {message.player}'s message "
        # The player's name and the traceback's message come from the game: cleaned.
        print(clean_text(f"{said}{message.message[:200]!r}:\n{text}"), file=sys.stderr)
        if self.callback_failure_count == CALLBACK_FAILURES_PRINTED:
            print(
                f"UI chat callbacks failed {CALLBACK_FAILURES_PRINTED} times; later failures "
                f"are not printed: %mc counts them and mc.callback_failures keeps the newest "
                f"{CALLBACK_FAILURES_KEPT}.",
                file=sys.stderr,
            )

    # --- status -----------------------------------------------------------------------------

    def status(self) -> Status:
        """Where the bridge listens, the connected games, the latest events, the bounds."""
        if self._stopped:
            return Status.of(self._bridge, stopped=True)
        limits = counter_rows(self._bridge, self.callback_failure_count, CALLBACK_FAILURES_KEPT)
        return Status.of(self._bridge, limits=limits, worlds=self._roster.status_rows())

    def __repr__(self) -> str:
        s = self.status()
        if s.stopped:
            return f"<mc stopped (was {s.url}); %mc serve or mcbews_repl.start() starts a new one>"
        return (
            f"<mc {s.url}: {len(s.connections)} game(s) connected, {s.pending} pending; "
            f"connect with {s.connect_command}>"
        )


async def _calling(coro: Coroutine[Any, Any, T], called: str) -> T:
    """``coro``, with the call's words where the world is chosen (_worlds.py): the task
    that runs it has a context of its own, so this call's words stay with this call."""
    CALLED.set(called)
    return await coro


def _settle(finished: asyncio.Future[None]) -> None:
    """Tell the bridge's loop (from any thread) that a callback has finished."""

    def settle() -> None:
        if not finished.done():
            finished.set_result(None)

    loop = finished.get_loop()
    if not loop.is_closed():
        loop.call_soon_threadsafe(settle)


class World(BoundWorld, Minecraft):
    """``mc`` bound to one world: ``await mc.world("Ana").inventory()`` (_world.py)."""
