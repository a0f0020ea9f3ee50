"""Game connections as notebook code holds them: thread-safe, every call a :class:`Pending`.

A :class:`~mcbews_repl.gateway.GameConnection` belongs to the runtime thread's event loop;
awaiting one of its coroutines from a cell's loop would wait for a wake-up that never comes.
:class:`Connection` schedules each call on the runtime thread instead, like ``mc`` itself,
so ``await mc.connections[0].command("say hi")`` and ``.result()`` both work anywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

from ...cleantext import clean_text
from ...exceptions import NotConnected
from ...gateway import (
    Bridge,
    CommandResult,
    GameCalls,
    GameConnection,
    Progress,
    check_command,
    check_send_text,
    same_call,
)
from ..runtime import Pending
from ..show import CallResult

__all__ = ["Connection", "ConnectionRef", "Submit", "resolve"]

T = TypeVar("T")
Submit = Callable[[Coroutine[Any, Any, Any], str], Pending[Any]]
# What mc.connections[i] adds to every game call (gateway/game_calls.py).
_ON_THIS_GAME = (
    "On ``mc.connections[i]``: this game only; returns a Pending (await it or .result())."
)


class Connection:
    """One connected game: ``command``, ``call`` and ``send_text`` like ``mc``, on this game."""

    def __init__(self, raw: GameConnection, submit: Submit) -> None:
        self.raw = raw  # the gateway object: use it only on the runtime thread's loop
        self._submit = submit

    # --- what it is (plain reads, safe from any thread) ---------------------------------

    @property
    def id(self) -> int:
        """The connection's number, as the bridge, the event log and ``connection=`` use it."""
        return self.raw.id

    @property
    def peer(self) -> str:
        """Where the game connected from: ``host:port`` (``[host]:port`` for IPv6)."""
        return self.raw.peer

    @property
    def local_player(self) -> str | None:
        """The name of the player whose game this is (None until the handshake tells it)."""
        return self.raw.local_player

    @property
    def encrypted(self) -> bool:
        """True once the game and the bridge agreed to encrypt (frames are then binary)."""
        return self.raw.encrypted

    @property
    def transport(self) -> str:
        """How this game's answers travel: ``pull``, ``chat``, ``probing`` or ``none``."""
        return self.raw.transport

    @property
    def closed(self) -> bool:
        """True once the game went away or the connection was closed."""
        return self.raw.closed

    @property
    def pending(self) -> int:
        """Commands in flight or queued, plus capability calls awaiting an answer."""
        return self.raw.pending

    @property
    def protocol_version(self) -> int | None:
        """The game's protocol version, from its first event's header (None until then)."""
        return self.raw.protocol_version

    @property
    def counters(self) -> Counter[str]:
        """What went wrong on this game, counted (a copy): dropped input, cut text ..."""
        return Counter(self.raw.counters)

    def stats(self) -> dict[str, int]:
        """Live numbers by name: what is pending now, and how much traffic there has been."""
        return self.raw.stats()

    # --- calls --------------------------------------------------------------------------

    @same_call(GameCalls.command, _ON_THIS_GAME)
    def command(self, line: str, *, timeout: float | None = None) -> Pending[CommandResult]:
        check_command(line)
        return self._submit(self.raw.command(line, timeout=timeout), f"/{line[:40]} on #{self.id}")

    @same_call(GameCalls.call, _ON_THIS_GAME)
    def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        **fields: Any,
    ) -> Pending[dict[str, Any]]:
        async def run() -> dict[str, Any]:
            answer = await self.raw.call(capability, {**(payload or {}), **fields},
                                         timeout=timeout)  # fmt: skip
            return CallResult(capability, answer)

        return self._submit(run(), f"{capability} on #{self.id}")

    @same_call(GameCalls.send_text, _ON_THIS_GAME)
    def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        progress: Progress | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
    ) -> Pending[int]:
        check_send_text(player, text)
        coro = self.raw.send_text(
            player, text, role=role, progress=progress, conversation_id=conversation_id,
            title=title,
        )  # fmt: skip
        return self._submit(coro, f"send_text to {player} on #{self.id}")

    def close(self) -> Pending[None]:
        """Close this game's connection (the player may /connect again)."""
        return self._submit(self.raw.close(), f"close #{self.id}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Connection) and other.raw is self.raw

    def __hash__(self) -> int:
        return id(self.raw)

    def __repr__(self) -> str:
        who = self.local_player or "?"
        secure = ", encrypted" if self.encrypted else ""
        secure += f", transport {self.transport}"
        state = "closed" if self.closed else "open"
        return clean_text(f"<Connection #{self.id}: {who} from {self.peer}{secure}, {state}>")


ConnectionRef = Connection | GameConnection | int


def resolve(bridge: Bridge, connection: ConnectionRef | None) -> GameConnection | None:
    """The gateway connection a ``connection=`` argument names (None: the newest one)."""
    if connection is None or isinstance(connection, GameConnection):
        return connection
    if isinstance(connection, Connection):
        return connection.raw
    if isinstance(connection, int) and not isinstance(connection, bool):
        for open_one in bridge.connections:
            if open_one.id == connection:
                return open_one
        ids = ", ".join(f"#{c.id}" for c in bridge.connections) or "none"
        raise NotConnected(f"no open game connection #{connection} (open: {ids})")
    raise TypeError(
        "connection= takes one of mc.connections, a connection id or None, "
        f"not {type(connection).__name__}"
    )
