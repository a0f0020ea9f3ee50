"""``mc.each``: one call on every connected world at once, one table back.

``await mc.each.inventory()`` asks every world concurrently and returns one DataFrame: the
rows of every world with a ``world`` column in front and an ``error`` column at the end. A
world that fails, or does not answer within the per-world timeout, is one row holding its
name and what went wrong; the other worlds' rows are there all the same, and no world
waits for another. The table shows through the usual view (players, inventory, commands)
with the two columns added.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...cleantext import clean_text
from ...exceptions import CapabilityError, NotConnected
from ...gametext import strip_codes
from ...optional import needs
from ..runtime import Pending
from ..show import tag, world_view
from ._core import Core, WorldHandle
from ._game_events import GameEvents

if TYPE_CHECKING:
    import pandas as pd

    from ...gateway import CommandResult

__all__ = ["EACH_TIMEOUT_SECONDS", "Each"]

# How long mc.each waits for any one world. A classroom world answers in milliseconds; a
# hung one (a paused game, a laptop lid closed) must not hold up the whole class's table.
EACH_TIMEOUT_SECONDS = 10.0

Ask = Callable[[WorldHandle], Pending[Any]]
Rows = Callable[[Any], "pd.DataFrame"]


class Each:
    """Every connected world at once: ``mc.each.players()``, ``.inventory()``,
    ``.command(line)``, ``.call(capability, ...)``; ``mc.each(timeout=3)`` sets the
    per-world timeout (default 10 s)."""

    def __init__(self, core: Core, timeout: float = EACH_TIMEOUT_SECONDS) -> None:
        self._core = core
        self.timeout = timeout

    def __call__(self, *, timeout: float) -> Each:
        if timeout <= 0:
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout}")
        return Each(self._core, timeout)

    # --- the calls --------------------------------------------------------------------------

    def players(self) -> Pending[pd.DataFrame]:
        """Every world's players: the ``mc.players()`` table with a ``world`` column."""
        return self._across("players", lambda w: w.players(), _same, "players")

    def inventory(self, name: str | None = None) -> Pending[pd.DataFrame]:
        """Every world's inventories, or the player ``name``'s wherever they are: a world
        without them is left out (unless no world has them: then every world says so)."""
        absent = None if name is None else _not_online(name)
        ask: Ask = lambda w: w.inventory(name)  # noqa: E731
        return self._across("inventory", ask, _same, "inventory", absent=absent)

    def command(self, line: str, *, timeout: float | None = None) -> Pending[pd.DataFrame]:
        """Run ``line`` in every world: one row per world (ok, status, message)."""
        line = line.strip().removeprefix("/")
        if not line:
            raise ValueError("write a command, e.g. mc.each.command('give @a bread 3')")
        ask: Ask = lambda w: w.command(line, timeout=timeout)  # noqa: E731
        return self._across(f"/{line[:40]}", ask, _command_rows, "commands", command=line)

    def call(
        self, capability: str, payload: dict[str, Any] | None = None, /, **fields: Any
    ) -> Pending[pd.DataFrame]:
        """Call a capability in every world: one row per world, its answer in ``result``."""
        ask: Ask = lambda w: w.call(capability, payload, **fields)  # noqa: E731
        return self._across(capability, ask, _answer_rows, None)

    # --- game events: every world's, as mc's own ------------------------------------------

    def on(
        self, name: str, callback: Any = None, *, unknown_ok: bool = False, rate: int | None = None
    ) -> Any:
        """``mc.on``: every world's events ``name``, subscribed in every world."""
        return self._everywhere().on(name, callback, unknown_ok=unknown_ok, rate=rate)

    def off(self, target: Any = None) -> int:
        """``mc.off``: remove every-world callbacks (subscriptions stay)."""
        return self._everywhere().off(target)

    def subscribe(
        self, name: str, *, unknown_ok: bool = False, rate: int | None = None
    ) -> Pending[frozenset[str]]:
        """``mc.subscribe``: the event ``name`` in every world, now and later."""
        return self._everywhere().subscribe(name, unknown_ok=unknown_ok, rate=rate)

    def unsubscribe(self, name: str) -> Pending[frozenset[str]]:
        """``mc.unsubscribe``: stop the event ``name`` in every world."""
        return self._everywhere().unsubscribe(name)

    def _everywhere(self) -> GameEvents:
        return GameEvents(self._core, self._core.bridge)  # a handle bound to no one world

    # --- plumbing ---------------------------------------------------------------------------

    def _across(
        self,
        label: str,
        ask: Ask,
        rows: Rows,
        view: str | None,
        absent: Callable[[Any], bool] | None = None,
        **blank: Any,
    ) -> Pending[pd.DataFrame]:
        worlds = self._core.connected_worlds()
        if not worlds:
            if self._core.stopped:
                raise self._core.stopped_error("no world can connect to it")
            raise NotConnected(
                f"no world is connected; in Minecraft type: {self._core.bridge.connect_command}"
            )
        started = [(w.name, _start(ask, w)) for w in worlds]  # all asked before any waits
        timeout = self.timeout

        async def gather() -> pd.DataFrame:
            answers = await asyncio.gather(*(_bounded(p, timeout) for _, p in started))
            if absent is not None and not all(absent(a) for a in answers):
                answers = [_NOTHING if absent(a) else a for a in answers]
            frames = [_one(name, answer, rows, blank) for (name, _), answer in
                      zip(started, answers, strict=True)]  # fmt: skip
            return _combine([name for name, _ in started], frames, view)

        pending = self._core.submit(gather(), f"each {label}")
        if pending.scope is not None:  # what the worlds' calls send counts as this call's
            pending.scope.parts += [
                p.scope for _, p in started if isinstance(p, Pending) and p.scope
            ]
        return pending

    def __repr__(self) -> str:
        names = ", ".join(w.name for w in self._core.connected_worlds()) or "none connected"
        return clean_text(f"<mc.each: {names}; {self.timeout:g} s per world>")


_NOTHING = object()  # a world that has nothing to say (no rows, no error)


def _not_online(name: str) -> Callable[[Any], bool]:
    """Whether an answer is the addon saying ``name`` is not in that world."""
    said = f"no player named {name} is online"
    return lambda answer: isinstance(answer, CapabilityError) and answer.message == said


def _start(ask: Ask, world: WorldHandle) -> Pending[Any] | BaseException:
    try:
        return ask(world)
    except Exception as exc:  # this world could not even be asked (it just left)
        return exc


async def _bounded(asked: Pending[Any] | BaseException, timeout: float) -> Any:
    """The world's answer, or the exception that stands for it (a timeout included)."""
    if isinstance(asked, BaseException):
        return asked

    async def answer() -> Any:
        return await asked

    try:
        return await asyncio.wait_for(answer(), timeout)
    except TimeoutError:
        return TimeoutError(f"no answer within {timeout:g} s (mc.each(timeout=...) waits longer)")
    except Exception as exc:
        return exc


def _same(frame: pd.DataFrame) -> pd.DataFrame:
    return frame


def _command_rows(result: CommandResult) -> pd.DataFrame:
    with needs():
        import pandas as pd

    row = {"command": result.command, "ok": result.ok, "status": result.status_code,
           "message": strip_codes(result.status_message)}  # fmt: skip
    return pd.DataFrame([row])


def _answer_rows(answer: dict[str, Any]) -> pd.DataFrame:
    with needs():
        import pandas as pd

    return pd.DataFrame([{"result": dict(answer)}])


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _one(name: str, answer: Any, rows: Rows, blank: dict[str, Any]) -> pd.DataFrame:
    """A world's rows, or the one row of its error (the world column comes in _combine)."""
    with needs():
        import pandas as pd

    if answer is _NOTHING:
        return pd.DataFrame()
    if isinstance(answer, BaseException):
        return pd.DataFrame([{**blank, "error": _error_text(answer)}])
    return rows(answer)


def _combine(names: list[str], frames: list[pd.DataFrame], view: str | None) -> pd.DataFrame:
    with needs():
        import pandas as pd

    columns: list[str] = ["world"]
    for frame in frames:  # the columns of the answers in their order, error last
        columns += [str(c) for c in frame.columns if c not in columns and c != "error"]
    columns.append("error")
    kept = [(n, f) for n, f in zip(names, frames, strict=True) if not f.empty]
    if not kept:
        return pd.DataFrame(columns=columns)
    # One concat keyed by world: cheaper than a copy and an insert per world's frame.
    combined = pd.concat([f for _, f in kept], keys=[n for n, _ in kept], names=["world", None])
    combined = combined.reset_index(level=0).reset_index(drop=True).reindex(columns=columns)
    if "ok" in combined.columns:
        combined["ok"] = combined["ok"].astype("boolean")
    return tag(combined, world_view(view)) if view is not None else combined
