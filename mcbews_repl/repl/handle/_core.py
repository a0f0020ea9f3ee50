"""What ``mc`` and every world handle made from it share, and the base both are built on.

:class:`Core` is the state of one ``mc``: the runtime thread, the bridge seen through the
roster ("the only world"), the callbacks, the simulated worlds, what Tab completion has
seen. ``mc`` is a :class:`Handle` over a core; ``mc.world("Ana")`` is another handle over
the same core whose bridge goes to Ana's world. Neither borrows from the other: each part
of the handle (the toolkit, the live map, the worlds ...) is a mixin on :class:`Handle`
and reads only what it declares.

:class:`WorldHandle` is the one small protocol of what the parts ask of a world's handle
(``mc.each`` calls it on every world), so no module needs the type of ``Minecraft``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ...exceptions import BridgeStopped, NotConnected
from ...gateway import Bridge, CommandResult, GameConnection
from ...limits import CONFIRM_ABOVE_BLOCKS
from ...vocabulary import Capability
from ..runtime import Pending, Runtime
from ..show import Status
from ._callbacks import CallbackRunner
from ._counters import counter_rows
from ._events import EventCallbacks
from ._pushed import PushedPositions
from ._ui_chat import UiChatCallbacks
from ._worlds import CALLED, Roster, RoutedBridge, WorldRecord, WorldRef

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Core", "Handle", "WorldHandle"]

T = TypeVar("T")


class WorldHandle(Protocol):
    """What the parts ask of a world's handle (``mc`` itself, or ``mc.world(...)``)."""

    @property
    def name(self) -> str: ...
    def players(self) -> Pending[pd.DataFrame]: ...
    def inventory(self, name: str | None = None) -> Pending[pd.DataFrame]: ...
    def command(self, line: str, *, timeout: float | None = None) -> Pending[CommandResult]: ...
    def call(
        self, capability: str, payload: Mapping[str, Any] | None = None, /, **fields: Any
    ) -> Pending[dict[str, Any]]: ...


class Core:
    """The state one ``mc`` and all its world handles share.

    ``bind`` makes the handle of one world (``mc.world(...)``); ``mc`` gives it, so that
    this module needs no handle class.
    """

    def __init__(
        self,
        runtime: Runtime,
        bridge: Bridge,
        kernel_loop: asyncio.AbstractEventLoop | None,
        call_timeout: float | None,
        *,
        owns_runtime: bool,
        bind: Callable[[Core, WorldRecord], WorldHandle],
    ) -> None:
        self.runtime = runtime
        # Calls go to the only connected world; with several, they ask which (_worlds.py).
        self.roster = Roster(bridge, time.time)
        bridge.log.add_listener(self.roster.on_entry)
        self.bridge: Bridge = RoutedBridge(bridge, self.roster.only_one)
        self.kernel_loop = kernel_loop
        self.call_timeout = call_timeout
        self.owns_runtime = owns_runtime  # mcbews_repl.start(): close() also ends the thread
        self.stopped = False
        self._bind = bind
        self.callbacks = CallbackRunner(kernel_loop)
        self.ui_chat = UiChatCallbacks(
            self.callbacks, runtime, self.bridge, self.submit, self.world_of_id
        )
        self.events = EventCallbacks(self.bridge.log, self.callbacks, self.world_of_id)
        # Players' positions from the events that push them: what maps and tracks read
        # instead of asking the world, while they cover everyone (_pushed.py).
        self.positions = PushedPositions()
        bridge.log.add_listener(self.positions.on_entry)
        self.sim: Any = None  # the simulated world, once `%mc sim` started one
        self.sims: list[Any] = []  # the simulated class of mc.simulate(worlds=N)
        self.sim_defaults: dict[str, Any] = {}
        # What Tab completion offers: names seen in answers so far, and the capabilities the
        # shipped addon has until mc.caps() tells what this world's addon really offers.
        self.seen_players: set[str] = set()
        self.capability_names: list[str] = [str(c) for c in Capability]
        self.described: dict[str, dict[str, Any]] = {}  # entity types a live map has seen
        self.recording: Any = None  # the latest mc.record(...), running or stopped
        self.addon: Any = None  # mc.addon, made by mc
        # A write setting more blocks than this asks for force=True (%config, _toolkit.py).
        self.confirm_above_blocks = CONFIRM_ABOVE_BLOCKS
        self.builders: dict[int, Any] = {}  # undo of a connection the roster has no record of

    def submit(self, coro: Coroutine[Any, Any, T], label: str, called: str = "") -> Pending[T]:
        """Run ``coro`` on the bridge's thread; ``called`` is the call as the user wrote it
        (``inventory()``), which WhichWorld repeats when it asks which world.

        Raises:
            BridgeStopped: the bridge was stopped.
        """
        if self.stopped:
            coro.close()
            raise self.stopped_error(f"{label or 'this call'} cannot reach a game")
        return self.runtime.submit(_calling(coro, called) if called else coro, label)

    def stopped_error(self, consequence: str) -> BridgeStopped:
        return BridgeStopped(
            f"the bridge that listened on {self.bridge.url} is stopped, so {consequence}"
        )

    def world(self, ref: WorldRef) -> WorldHandle:
        """The handle of one world, by name or connection id (NotConnected: none)."""
        return self._bind(self, self.roster.find(ref))

    def world_of_id(self, connection_id: int | None) -> WorldHandle | None:
        """The handle of the world ``connection_id`` belongs to (None: none, or forgotten)."""
        try:
            return None if connection_id is None else self.world(connection_id)
        except NotConnected:
            return None

    def connected_worlds(self) -> list[WorldHandle]:
        return [self._bind(self, r) for r in self.roster.connected()]

    def sims_by_host(self) -> dict[str, Any]:
        """The simulated worlds of ``mc.simulate(worlds=N)`` by their host's name."""
        return {str(s.world.local_player): s for s in self.sims}

    def status(self) -> Status:
        """Where the bridge listens, the connected games, the latest events, the bounds."""
        if self.stopped:
            return Status.of(self.bridge, stopped=True)
        failures = self.callbacks.failure_count
        limits = counter_rows(self.bridge, failures, self.callbacks.failures.maxlen or 0)
        return Status.of(self.bridge, limits=limits, worlds=self.roster.status_rows())


async def _calling(coro: Coroutine[Any, Any, T], called: str) -> T:
    """``coro``, with the call's words where the world is chosen (_worlds.py): the task
    that runs it has a context of its own, so this call's words stay with this call."""
    CALLED.set(called)
    return await coro


class Handle:
    """The base of ``mc`` and of every world handle: a shared :class:`Core`, and the bridge
    this handle's calls go through (the only world for ``mc``, one world for a world's)."""

    def __init__(self, core: Core, bridge: Bridge) -> None:
        self._core = core
        self._bridge = bridge

    # --- what the parts read, from the core ------------------------------------------------

    @property
    def _runtime(self) -> Runtime:
        return self._core.runtime

    @property
    def _roster(self) -> Roster:
        return self._core.roster

    @property
    def _kernel_loop(self) -> asyncio.AbstractEventLoop | None:
        return self._core.kernel_loop

    @property
    def _call_timeout(self) -> float | None:
        return self._core.call_timeout

    @property
    def _described(self) -> dict[str, dict[str, Any]]:
        return self._core.described

    @property
    def stopped(self) -> bool:
        """True once the bridge was stopped (``%mc stop``, ``close()``, leaving ``with``)."""
        return self._core.stopped

    @property
    def recording(self) -> Any:
        """The latest recording (``mc.record(...)``), running or stopped, or None."""
        return self._core.recording

    @recording.setter
    def recording(self, value: Any) -> None:
        self._core.recording = value

    @property
    def sims(self) -> list[Any]:
        """The simulated class of ``mc.simulate(worlds=N)``."""
        return self._core.sims

    @property
    def sim_defaults(self) -> dict[str, Any]:
        """Which pack and world ``%mc sim`` makes when not told (``SimOptions``' fields)."""
        return self._core.sim_defaults

    @sim_defaults.setter
    def sim_defaults(self, value: dict[str, Any]) -> None:
        self._core.sim_defaults = value

    @property
    def seen_players(self) -> set[str]:
        """Player names seen in answers so far (Tab completion offers them)."""
        return self._core.seen_players

    @property
    def capability_names(self) -> list[str]:
        """The capabilities Tab completion offers (the addon's, once ``mc.caps()`` ran)."""
        return self._core.capability_names

    @capability_names.setter
    def capability_names(self, value: list[str]) -> None:
        self._core.capability_names = value

    @property
    def callback_failures(self) -> Any:
        """The newest failures of UI chat and event callbacks (``CallbackFailure``)."""
        failures: Any = self._core.callbacks.failures
        return failures

    @property
    def callback_failure_count(self) -> int:
        """Every callback failure so far (the first ones are printed, all counted)."""
        return self._core.callbacks.failure_count

    @property
    def addon(self) -> Any:
        """Prototypes in the simulated world; export and deploy (``mc.addon``)."""
        return self._core.addon

    @property
    def bridge(self) -> Bridge:
        """The gateway object underneath (an asyncio API living on the runtime thread)."""
        return self._bridge

    def submit(self, coro: Coroutine[Any, Any, T], label: str = "") -> Pending[T]:
        """Run a coroutine of the bridge's own API (``mc.bridge``) on its runtime thread:
        ``mc.submit(mc.bridge.command("say hi")).result()`` from any thread.

        Raises:
            BridgeStopped: the bridge was stopped.
        """
        return self._submit(coro, label or "submit")

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

    # --- plumbing ---------------------------------------------------------------------------

    def _submit(self, coro: Coroutine[Any, Any, T], label: str, called: str = "") -> Pending[T]:
        return self._core.submit(coro, label, called)

    def _stopped_error(self, consequence: str) -> BridgeStopped:
        return self._core.stopped_error(consequence)

    def _check_running(self) -> None:
        if self._core.stopped:
            raise self._stopped_error("no game can connect to it")

    def _done(self, value: T, label: str) -> Pending[T]:
        async def now() -> T:
            return value

        return self._submit(now(), label)

    async def _call(
        self, capability: str, *, game: GameConnection | None = None, **payload: Any
    ) -> dict[str, Any]:
        return await self._bridge.call(
            capability, payload, timeout=self._call_timeout, connection=game
        )

    def _local_player(self) -> str | None:
        """The host of the world calls go to (None: no game yet, so the call says so)."""
        try:
            return self._bridge.pick().local_player
        except NotConnected:
            return None
