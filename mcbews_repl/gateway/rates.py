"""The game's own events on one connection, bounded: a rate per player, and a second's worth.

The addon rates its forwarded events itself (wire.json ``forward_rate_max_per_second``); the
game's WebSocket events have no rate of their own, so the gateway keeps one: a subscription
with ``rate=N`` (``mc.subscribe("PlayerTravelled", rate=2)``) keeps at most N events of
that kind a second per player, over any second (a sliding second, not a fixed window:
never N at the end of one second and N more at the start of the next). Players are keyed
by name, at most ``RATED_PLAYERS_MAX`` (kind, player) pairs a connection: past it the one
heard from longest ago is forgotten first (only a peer forging names gets that far; the
connection's overall bound, :class:`ForwardGate` with ``GAME_EVENTS_PER_SECOND``, still
holds it).

Pure: the caller passes the time (``time.monotonic()``) and counts what is refused.
"""

from __future__ import annotations

from collections import OrderedDict, deque

from ..limits import RATED_PLAYERS_MAX

__all__ = ["PlayerRates"]


class PlayerRates:
    """Per (kind, player), the times of the events kept in the last second."""

    def __init__(self, max_players: int = RATED_PLAYERS_MAX) -> None:
        self.max_players = max_players
        self._kept: OrderedDict[tuple[str, str | None], deque[float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def admit(self, now: float, kind: str, player: str | None, rate: int) -> bool:
        """Whether an event of ``kind`` by ``player`` at ``now`` is kept under ``rate``
        events a second (0: no rate, always kept; nothing is remembered for it)."""
        if rate <= 0:
            return True
        key = (kind, player)
        times = self._kept.get(key)
        if times is None:
            while len(self._kept) >= self.max_players:
                self._kept.popitem(last=False)
            times = self._kept[key] = deque()
        else:
            self._kept.move_to_end(key)
        while times and now - times[0] >= 1.0:
            times.popleft()
        if len(times) >= rate:
            return False
        times.append(now)
        return True
