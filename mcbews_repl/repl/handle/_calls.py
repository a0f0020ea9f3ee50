"""The calls every handle makes, ``mc`` and ``mc.world("Ana")`` alike: commands,
capabilities, texts, players, inventories, the event log.

Each returns a :class:`Pending`: ``await mc.player()`` in a cell, ``mc.player().result()``
in plain code, or just ``mc.player()`` at the end of a cell (shown once it arrives).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, Literal, overload

from ...exceptions import UnknownEvent
from ...game_events import GAME_EVENTS, event_kind, unknown_event_message
from ...gateway import (
    CommandResult,
    GameCalls,
    LogEntry,
    Progress,
    check_command,
    check_send_text,
    same_call,
)
from ...vocabulary import Capability, EventKind
from ..runtime import Pending
from ..show import (
    CallResult,
    PlayerSnapshot,
    caps_frame,
    events_frame,
    inventory_frame,
    player_rows,
    players_frame,
    progress_bar,
    until_cancelled,
)
from ._connections import Connection, ConnectionRef, resolve
from ._core import Handle
from ._events import game_event_name
from ._fanout import snapshot_everyone
from ._game_events import game_events_frame
from ._worlds import call_text

if TYPE_CHECKING:
    import pandas as pd

    from ...toolkit import LiveEvents

__all__ = ["Calls", "check_kind", "entry_is"]

_LOG_KINDS = frozenset(str(k) for k in EventKind)


def check_kind(kind: object, unknown_ok: Collection[str] = ()) -> str | None:
    """``kind`` as ``mc.events`` takes it: None, a log kind, a game event's name, or one of
    ``unknown_ok`` (subscribed so). Raises UnknownEvent (a ValueError) for anything else."""
    if kind is None or (isinstance(kind, str) and (kind in _LOG_KINDS or event_kind(kind))):
        return kind
    if isinstance(kind, str) and kind in unknown_ok:
        return kind
    logs = ", ".join(sorted(_LOG_KINDS))
    raise UnknownEvent(f"kind is a log kind ({logs}) or a game event: "
                       + unknown_event_message(kind))  # fmt: skip


def entry_is(entry: LogEntry, kind: str | None) -> bool:
    """Whether ``entry`` is of ``kind`` (None: any): its log kind, or its game event."""
    if kind is None:
        return True
    if kind in _LOG_KINDS:
        return entry.kind == kind
    return game_event_name(entry) == kind and (kind in GAME_EVENTS or
                                               entry.kind == EventKind.GAME_EVENT)  # fmt: skip


# What mc adds to every game call (gateway/game_calls.py).
_IN_THE_NOTEBOOK = (
    "On ``mc``: ``connection`` picks the game (a handle or its id; default: the only one,"
    " and with several WhichWorld asks which: mc.world(NAME));"
    " returns a Pending (await it, or .result() in a script)."
)


class Calls(Handle):
    """The game calls of a handle (``_follow_events`` comes from the toolkit's part)."""

    if TYPE_CHECKING:

        def _follow_events(
            self, since: int | None, last: int, kind: str | None = None
        ) -> LiveEvents: ...

    @property
    def connections(self) -> list[Connection]:
        """The open game connections, oldest first, as thread-safe handles."""
        if self.stopped:
            return []
        return [Connection(c, self._submit) for c in self._bridge.connections]

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
        rows = player_rows(
            await self._call(Capability.GET_PLAYER_SNAPSHOT, target=target, game=game)
        )
        if not rows:
            raise LookupError(f"no player {target!r} in the world; try mc.players()")
        return rows[0]

    def players(self) -> Pending[pd.DataFrame]:
        """Every player in the world, one row each: ``name``, where they are, their health,
        game mode, level, tags ... (the names also feed Tab completion)."""

        async def run() -> pd.DataFrame:
            game = self._bridge.pick()
            frame = players_frame(
                await self._call(Capability.GET_PLAYER_SNAPSHOT, target="@a", game=game)
            )
            self.seen_players.update(str(name) for name in frame["name"])  # for Tab
            self._roster.saw_players(game, (str(n) for n in frame["name"]))  # mc.worlds
            return frame

        return self._submit(run(), "players", "players()")

    def inventory(self, name: str | None = None, *, raw: bool = False) -> Pending[pd.DataFrame]:
        """One row per stack: ``item`` (the short name), ``typeId``, ``amount`` ... shown as a
        friendly table; ``raw=True``: the addon's fields alone, shown as pandas does."""

        async def run() -> pd.DataFrame:
            if name:
                answer = await self._call(Capability.GET_INVENTORY_SNAPSHOT, target=name)
            else:  # one call per player, gathered: no answer grows with the class
                answer = await snapshot_everyone(self._call, Capability.GET_INVENTORY_SNAPSHOT)
            return inventory_frame(answer, raw=raw)

        return self._submit(run(), "inventory", call_text("inventory", *([name] if name else [])))

    def caps(self) -> Pending[pd.DataFrame]:
        """The capabilities the addon offers, one row each: ``name``, ``description``,
        ``params`` (and ``kind`` once a prototype is defined); the names feed Tab completion."""

        async def run() -> pd.DataFrame:
            frame = caps_frame(await self._call(Capability.LIST_CAPABILITIES))
            self.capability_names = [str(name) for name in frame["name"]]  # for Tab
            return frame

        return self._submit(run(), "caps", "caps()")

    @overload
    def events(
        self,
        since: int | None = None,
        last: int | None = None,
        *,
        follow: Literal[False] = ...,
        kind: str | None = None,
    ) -> Pending[pd.DataFrame]: ...
    @overload
    def events(
        self,
        since: int | None = None,
        last: int | None = None,
        *,
        follow: Literal[True],
        kind: str | None = None,
    ) -> LiveEvents: ...
    def events(
        self,
        since: int | None = None,
        last: int | None = None,
        *,
        follow: bool = False,
        kind: str | None = None,
    ) -> Pending[pd.DataFrame] | LiveEvents:
        """The event log as a DataFrame: entries after cursor ``since``, or the ``last`` N.

        ``kind`` keeps one kind: a log kind (``"chat"``, ``"command"`` ...) or a game event
        (``"BlockBroken"``: then the table has that event's own columns, ``x``, ``y``, ``z``,
        ``block``, ``block_id`` ...). ``follow=True`` shows one table that refreshes as
        events arrive (in a notebook) and returns its controller; ``.stop()`` ends the
        updates.

        Raises:
            UnknownEvent: ``kind`` is neither a log kind nor a known game event.
        """
        kind = check_kind(kind, self._bridge.subscriptions.unknown_ok)
        if follow:
            return self._follow_events(since, 20 if last is None else last, kind)
        entries = [e for e in self._bridge.events(since or 0) if entry_is(e, kind)]
        if last is not None:
            entries = entries[-last:] if last > 0 else []
        if kind is not None and kind not in _LOG_KINDS:
            return self._done(game_events_frame(entries, kind), "events")
        players = {c.id: c.local_player or "" for c in self._bridge.connections}
        return self._done(events_frame(entries, players), "events")
