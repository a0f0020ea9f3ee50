"""The ``mc`` object a notebook or IPython user holds.

Every call is scheduled on the runtime's loop thread and returns a :class:`Pending`: ``await
mc.player()`` in a cell, ``mc.player().result()`` in plain code, or just ``mc.player()`` at
the end of a cell (the result is displayed once it arrives). ``mc`` is a handle over a
:class:`Core` it makes; ``mc.world("Ana")`` is a :class:`World` over the same core.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from typing import Any

from ...exceptions import wrong_type
from ...gateway import Bridge
from ...vocabulary import Capability
from ..runtime import Pending, Runtime
from ..show import Status
from ._addon_dev import AddonDev
from ._callbacks import CallbackFailure
from ._calls import Calls
from ._classroom import ManyWorlds
from ._core import Core
from ._diagnose import Diagnosis
from ._game_events import GameEvents
from ._recording import Recordings
from ._structures import StructureCalls
from ._toolkit import ToolkitCalls
from ._ui_chat import UiCallback, UiMessage
from ._watch import Watch
from ._world import World

__all__ = ["SHIPPED_CAPABILITIES", "CallbackFailure", "Minecraft", "UiMessage"]

# The capabilities of the addon this package ships, in its order (vocabulary.py).
SHIPPED_CAPABILITIES = tuple(str(c) for c in Capability)

# Seconds allowed for the server to close its connections when the bridge stops.
CLOSE_TIMEOUT_SECONDS = 5.0

# The variables a script's (mcbews_repl.start()) simulated world reads; IPython takes them
# through its McbewsRepl settings (ipython/_config.py), which %config can also set.
_SIM_ENV = {"pack": "MCBEWS_SIM_PACK", "beta_apis": "MCBEWS_SIM_BETA_APIS",
            "edition": "MCBEWS_SIM_EDITION"}  # fmt: skip


def _sim_defaults_from(env: Mapping[str, str]) -> dict[str, Any]:
    """``simulate``'s pack, Beta APIs and edition from ``MCBEWS_SIM_*`` (unset: defaults)."""
    return {key: env[var].lower() for key, var in _SIM_ENV.items() if env.get(var)}


class Minecraft(
    GameEvents, StructureCalls, ToolkitCalls, Watch, Recordings, Diagnosis, ManyWorlds, Calls
):
    """The handle to the world: ``await mc.command("say hi")``, ``await mc.players()`` ...

    The game calls come from :class:`Calls`; the toolkit's queries, scoreboard, contexts
    and agent tools from :class:`ToolkitCalls`; the live map, tracks and interactive tables
    from :class:`Watch`; ``record()`` and ``recording`` from :class:`Recordings`;
    ``doctor()`` from :class:`Diagnosis`; ``worlds``, ``world()`` and ``each`` from
    :class:`ManyWorlds`. With several worlds connected, a call that needs one and was not
    told which raises ``WhichWorld``. The game's events (``on``, ``off``, ``subscribe``,
    ``unsubscribe``) come from :class:`GameEvents`.
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
        core = Core(runtime, bridge, kernel_loop, call_timeout, owns_runtime=owns_runtime,
                    bind=World)  # fmt: skip
        super().__init__(core, core.bridge)
        # Which pack and world %mc sim makes when not told (_simulate.SimOptions' fields):
        # the MCBEWS_SIM_* variables, or the extension's McbewsRepl settings.
        core.sim_defaults = _sim_defaults_from(os.environ)
        core.addon = AddonDev(
            core, self.command
        )  # prototypes in the simulated world; export, deploy

    @property
    def sim(self) -> Any:
        """The simulated world, once ``%mc sim`` (``mc.simulate()``) started one, or None."""
        return self._core.sim

    @sim.setter
    def sim(self, value: Any) -> None:
        self._core.sim = value

    def close(self) -> None:
        """Stop the bridge and the simulated world; every later call raises BridgeStopped."""
        core = self._core
        if core.stopped:
            return
        self.off_ui_chat()
        try:
            if core.recording is not None:
                core.recording.stop()  # the capture is finished before the bridge goes
            if core.runtime.running:
                core.runtime.run(self._close(), CLOSE_TIMEOUT_SECONDS)
        except TimeoutError:
            print("The bridge took too long to close; its thread will be stopped anyway.")
        finally:
            core.stopped = True
            if core.owns_runtime:
                core.runtime.stop()

    async def _close(self) -> None:
        if self.sim is not None:
            await self.sim.close()
        await asyncio.gather(*(sim.close() for sim in self.sims))
        await self._bridge.close()

    def __enter__(self) -> Minecraft:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        language: str | None = None,
    ) -> Pending[Any]:
        """Connect a simulated world (what ``%mc sim`` does). ``pack``: ``"stable"`` (no
        experiments, the default) or ``"beta"``; ``beta_apis``: True, False or ``"auto"`` (on
        with the beta pack); ``edition``: ``"bedrock"`` or ``"education"`` (no Beta APIs);
        ``language``: the game's language (``"en_US"``, the default, ``"zh_CN"``, ``"ja_JP"``
        ... any the game ships), which every text it writes is in;
        ``addon``: False for a world without the addon (as ``SimWorld(addon=False)``), True
        or None for the shipped pack, or the path of your own build's simulator bundle
        (``sim_stable.js``) or of a pack folder.

        ``worlds=N`` starts a simulated class instead: N worlds, each hosted by its own
        student (``players``: a host name per world, or a list of names per world; default
        Ana, Ben, Chloe ...), each with its own seed; the Pending gives their sim handles.

        Raises:
            TypeError: an argument of the wrong type (the message says what it takes).
            ValueError: a pack, edition, language or Beta APIs choice that does not exist or
                fit.
            FileNotFoundError: ``addon`` names a path where nothing is.
        """
        from ._classroom import start_classroom
        from ._simulate import SimOptions, addon_choice, check_names, start_sim

        hosted = addon_choice(addon)  # a wrong choice raises here, before anything starts
        given = {"pack": pack, "beta_apis": beta_apis, "edition": edition, "language": language}
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
            return start_classroom(self._core, worlds, players, options)
        return start_sim(
            self._core, check_names(players), legacy=legacy, addon=hosted, options=options
        )

    # --- UI chat ----------------------------------------------------------------------------

    def on_ui_chat(self, callback: UiCallback) -> UiCallback:
        """Call ``callback(msg)`` for every UI chat message (usable as a decorator).

        In a notebook the callback runs on the kernel's own loop, between or during awaits of
        your cells, never in parallel with them. At most 4 messages of a game are served at
        once and 256 wait; beyond that they are dropped and counted (``%mc`` shows it). The
        first failures are printed, all are counted (``callback_failure_count``) and the
        newest 100 are kept in ``mc.callback_failures``.

        Raises:
            BridgeStopped: the bridge was stopped, so no UI chat can arrive.
        """
        if self.stopped:
            raise self._stopped_error("no UI chat can arrive")
        self._core.ui_chat.add(callback)
        return callback

    def off_ui_chat(self, callback: UiCallback | None = None) -> None:
        """Remove one callback, or all of them."""
        self._core.ui_chat.remove(callback)

    # --- status -----------------------------------------------------------------------------

    def status(self) -> Status:
        """Where the bridge listens, the connected games, the latest events, the bounds."""
        return self._core.status()

    def __repr__(self) -> str:
        s = self.status()
        if s.stopped:
            return f"<mc stopped (was {s.url}); %mc serve or mcbews_repl.start() starts a new one>"
        return (
            f"<mc {s.url}: {len(s.connections)} game(s) connected, {s.pending} pending; "
            f"connect with {s.connect_command}>"
        )
