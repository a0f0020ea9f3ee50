"""Where the players are, as the game pushes it: ``mc.map()`` and ``mc.track()`` ask less.

A map or a track asks the world for every player's snapshot (``get_player_snapshot``) at
each look. Once a world is subscribed to an event kind that reports players as they move
(:data:`POSITION_KINDS`: ``mc.subscribe("PlayerTravelled")``), the positions its events
carry stand in for those looks: the map and the track read them and send nothing. They
still ask the world every :data:`PUSHED_RECHECK_SECONDS`: entities (no event reports
them), who joined or left, health, and a check that the pushes still come.

Pushed positions replace a look only when they cover everyone the last look saw. A
WebSocket event is the connected client's own (docs/protocol.md, "Game events"), so in a
world with other players ``PlayerTravelled`` leaves them out and the map polls as before;
a kind of the addon's that covers every player (``Coverage.EVERY_PLAYER``) covers them
all. Pushes go back to polling by themselves when they stop standing in: the kind is
unsubscribed, a push names a player the last look did not see (someone joined), or a
look finds a covered player moved more than :data:`STALE_MOVE_BLOCKS` with no push about
them since the look before (the game stopped sending). One push about that world makes
the pushes trusted again.

Every event that carries a player's position (the ``player`` object of the game's frames:
game_events.PLAYER_FIELDS) moves them, not only the position kinds: a BlockBroken says
where its player stood. Pushes are kept only for players the last look saw, so a peer
that forges events under new names grows nothing (it makes the next look ask the world).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...game_events import GAME_EVENTS, Coverage
from ...gameids import full_id
from ...gateway import GameConnection, LogEntry
from ...vocabulary import EventKind

__all__ = [
    "POSITION_KINDS",
    "PUSHED_RECHECK_SECONDS",
    "STALE_MOVE_BLOCKS",
    "PushedPositions",
    "position_kinds",
]

# The event kinds that report players as they move, by name (game_events.GAME_EVENTS): one
# subscribed on a world turns its map and tracks to pushed positions. A kind that covers
# every player (the addon's) is preferred to one that covers the connected client only.
# Its events need the player columns of game_events.PLAYER_FIELDS (player, x, y, z,
# dimension, yaw). Names not (yet) in the vocabulary are skipped.
POSITION_KINDS: tuple[str, ...] = ("PlayerTravelled", "PlayerTransform")
# While pushes stand in, a map or a track still asks the world this often: for entities,
# for who joined or left, for health, and to check the pushes. A map that looks every
# second then asks the world once in 15 looks.
PUSHED_RECHECK_SECONDS = 15.0
# A covered player found this far from where the look before saw them, with no push about
# them in between, means the pushes stopped: looks ask the world again. A block: less is
# a turn of the head or a step the game did not report yet.
STALE_MOVE_BLOCKS = 1.0
# The player object's dimension numbers (the game's frames; sim/game_events.py plays them).
_DIMENSIONS = {0: "minecraft:overworld", 1: "minecraft:nether", 2: "minecraft:the_end"}


def position_kinds() -> list[str]:
    """The position kinds the vocabulary knows, those covering every player first."""
    known = [n for n in POSITION_KINDS if n in GAME_EVENTS]
    return sorted(known, key=lambda n: GAME_EVENTS[n].covers != Coverage.EVERY_PLAYER)


@dataclass(frozen=True, slots=True)
class _Position:
    x: float
    y: float
    z: float
    dimension: str | None
    yaw: float | None


@dataclass
class _World:
    """One connection's pushes and what its last look saw."""

    looked: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> snapshot
    looked_at: float | None = None
    pusher_at_look: str | None = None  # the position kind subscribed at that look
    pushed: dict[str, _Position] = field(default_factory=dict)  # since the look
    newcomer: bool = False  # a push named someone the look did not see
    stale: str = ""  # why pushes do not stand in now ("" when they may)


def _number(value: object) -> float | None:
    """A finite number (not a bool) as a float, else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def _position(data: Mapping[str, Any]) -> _Position | None:
    x, y, z = (_number(data.get(k)) for k in ("x", "y", "z"))
    if x is None or y is None or z is None:
        return None
    dimension = data.get("dimension")
    if isinstance(dimension, int) and not isinstance(dimension, bool):
        where = _DIMENSIONS.get(dimension)
    else:
        where = full_id(dimension) if isinstance(dimension, str) and dimension else None
    return _Position(x, y, z, where, _number(data.get("yaw")))


def _where(snapshot: Mapping[str, Any]) -> tuple[float, float, float] | None:
    loc = snapshot.get("location")
    if not isinstance(loc, Mapping):
        return None
    x, y, z = (_number(loc.get(k)) for k in ("x", "y", "z"))
    return None if x is None or y is None or z is None else (x, y, z)


def _moved(snapshot: dict[str, Any], position: _Position) -> dict[str, Any]:
    """A player's last snapshot, where the pushes put them."""
    rotation = dict(snapshot.get("rotation") or {})
    if position.yaw is not None:
        rotation["yaw"] = position.yaw
    moved = dict(snapshot, location={"x": position.x, "y": position.y, "z": position.z},
                 rotation=rotation)  # fmt: skip
    if position.dimension is not None:
        moved["dimension"] = position.dimension
    return moved


class PushedPositions:
    """The players' pushed positions of every connection, fed by the event log."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self._now = now
        self._worlds: dict[int, _World] = {}

    # --- fed by the log (on the bridge's loop) ----------------------------------------------

    def on_entry(self, entry: LogEntry) -> None:
        """Take a game event's position; forget a connection that closed."""
        if entry.connection is None:
            return
        if entry.kind == EventKind.DISCONNECTED:
            self._worlds.pop(entry.connection, None)
            return
        if entry.kind != EventKind.GAME_EVENT:
            return
        state = self._worlds.get(entry.connection)
        player = entry.data.get("player")
        if state is None or state.looked_at is None or not isinstance(player, str):
            return  # no look yet to stand in for (the first look asks the world)
        position = _position(entry.data)
        if position is None:
            return
        if player not in state.looked:
            state.newcomer = True  # someone the look did not see: the next look asks
            return
        state.pushed[player] = position
        state.stale = ""

    # --- read by looks (on the bridge's loop) -----------------------------------------------

    def pusher(self, game: GameConnection) -> str | None:
        """The position kind ``game`` is subscribed to (every player's first), or None."""
        heard = game.events
        return next((n for n in position_kinds() if n in heard), None)

    def why_polled(self, game: GameConnection) -> str:
        """Why the next look asks the world ("" when pushes stand in for it)."""
        kind = self.pusher(game)
        if kind is None:
            return f"no position events subscribed ({' or '.join(position_kinds())})"
        state = self._worlds.get(game.id)
        if state is None or state.looked_at is None:
            return "a first look"
        if self._now() - state.looked_at >= PUSHED_RECHECK_SECONDS:
            return f"the look every {PUSHED_RECHECK_SECONDS:g} s"
        if state.stale:
            return state.stale
        if state.newcomer:
            return "someone the last look did not see"
        if GAME_EVENTS[kind].covers != Coverage.EVERY_PLAYER:
            others = sorted(n for n in state.looked if n != game.local_player)
            if others:
                return f"{kind} covers the connected client only, not {', '.join(others)}"
        return ""

    def stand_in(self, game: GameConnection) -> dict[str, Any] | None:
        """A player snapshot answer (``{"players": [...]}``) of the last look with every
        pushed position in place, when pushes may stand in for a look now; else None."""
        if self.why_polled(game):
            return None
        state = self._worlds[game.id]
        players = [
            _moved(snapshot, state.pushed[name]) if name in state.pushed else dict(snapshot)
            for name, snapshot in state.looked.items()
        ]
        return {"players": players}

    def looked(self, game: GameConnection, answer: Mapping[str, Any]) -> None:
        """A look asked the world: its answer is who is there now, and checks the pushes."""
        state = self._worlds.setdefault(game.id, _World())
        kind = self.pusher(game)
        people = answer.get("players")
        seen = {
            str(p["name"]): p
            for p in (people if isinstance(people, list) else [])
            if isinstance(p, dict) and isinstance(p.get("name"), str)
        }
        if kind is not None and kind == state.pusher_at_look:
            state.stale = self._silence(game, kind, state, seen) or state.stale
        state.looked, state.looked_at, state.pusher_at_look = seen, self._now(), kind
        state.pushed.clear()
        state.newcomer = False

    def _silence(
        self, game: GameConnection, kind: str, state: _World, seen: dict[str, dict[str, Any]]
    ) -> str:
        """Why the pushes seem to have stopped: a covered player moved unreported."""
        every = GAME_EVENTS[kind].covers == Coverage.EVERY_PLAYER
        for name, snapshot in seen.items():
            if not every and name != game.local_player:
                continue
            before, now = _where(state.looked.get(name, {})), _where(snapshot)
            if before is None or now is None or name in state.pushed:
                continue
            if math.dist(before, now) > STALE_MOVE_BLOCKS:
                return f"{name} moved with no {kind} event: the pushes seem to have stopped"
        return ""
