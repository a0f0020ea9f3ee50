"""Chat-moment context: when a player chats, capture where they were, in which dimension and
what they held, and keep it briefly under an opaque id.

Context bundles are bounded in number and in time, read by an id that
carries no meaning, and an unknown or expired id answers with a structured refusal, never
with some other player's bundle. The capture runs the addon's snapshot capabilities when the
bridge sees the chat, so it describes that moment, not whenever an agent gets round to it.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from ..exceptions import McbewsError
from ..gateway import Bridge, LogEntry
from ..sansio import BRIDGE_PLAYER
from ..vocabulary import CHAT_KINDS, Capability, ChatType

__all__ = ["CONTEXT_CAPACITY", "CONTEXT_TTL_SECONDS", "ChatContexts", "ContextBundle"]

CONTEXT_CAPACITY = 64  # bundles held at once; the oldest is dropped first (memory stays bounded)
CONTEXT_TTL_SECONDS = 120.0  # long enough for an agent to start, short enough to be "a moment"
_ID_BYTES = 12  # 96 random bits: unguessable, so an id cannot be enumerated
_TOMBSTONES = 4 * CONTEXT_CAPACITY  # expired ids remembered, so "expired" differs from "unknown"


@dataclass(frozen=True)
class ContextBundle:
    """One player's state at the moment they chatted (``held`` None with ``held_known``: empty)."""

    context_id: str
    player: str
    message: str
    chat_cursor: int
    captured_at: float  # wall-clock seconds
    dimension: str | None = None
    location: dict[str, float] | None = None
    rotation: dict[str, float] | None = None
    selected_slot: int | None = None
    held: dict[str, Any] | None = None
    held_known: bool = False
    error: str | None = None


def _refusal(context_id: str, reason: str, why: str, how_to: str) -> dict[str, Any]:
    return {
        "ok": False,
        "found": False,
        "context_id": context_id,
        "reason": reason,
        "why": why,
        "how_to": how_to,
    }


class ChatContexts:
    """Listens to the event log; ``start()`` to capture, ``read(id)`` or ``await get(id)``."""

    def __init__(
        self,
        bridge: Bridge,
        *,
        capacity: int = CONTEXT_CAPACITY,
        ttl_seconds: float = CONTEXT_TTL_SECONDS,
        timeout: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._bridge = bridge
        self.capacity = capacity
        self.ttl_seconds = ttl_seconds
        self._timeout = timeout
        self._clock = clock
        self._held: OrderedDict[str, tuple[float, ContextBundle | asyncio.Task[ContextBundle]]]
        self._held = OrderedDict()
        self._by_cursor: dict[int, str] = {}
        self._expired: deque[str] = deque(maxlen=_TOMBSTONES)
        self._remove: Callable[[], None] | None = None
        self.counters = {"captured": 0, "failed": 0, "expired": 0, "evicted": 0}

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop`: chats are being captured."""
        return self._remove is not None

    def start(self) -> None:
        """Capture a bundle for every player chat from now on (on the bridge's loop)."""
        if self._remove is None:
            self._remove = self._bridge.log.add_listener(self._on_entry)

    def stop(self) -> None:
        """Stop capturing new chats; bundles already held stay readable until they expire."""
        if self._remove is not None:
            self._remove()
            self._remove = None

    def context_id_for(self, cursor: int) -> str | None:
        """The bundle id captured for the chat event at ``cursor`` (None if none or gone)."""
        context_id = self._by_cursor.get(cursor)
        return context_id if context_id in self._held else None

    def _on_entry(self, entry: LogEntry) -> None:
        if entry.kind not in CHAT_KINDS or entry.data.get("is_echo"):
            return
        if entry.data.get("type") == ChatType.TITLE:  # a /title shown, not something said
            return
        player = str(entry.data.get("player") or entry.data.get("sender") or "")
        if not player or player == BRIDGE_PLAYER:
            return
        self._sweep()
        while len(self._held) >= self.capacity:
            old_id, _ = self._held.popitem(last=False)
            self._forget(old_id, "evicted")
        context_id = "ctx_" + secrets.token_urlsafe(_ID_BYTES)
        message = str(entry.data.get("message", ""))
        capture = self._capture(context_id, player, message, entry)
        task = asyncio.get_running_loop().create_task(capture)
        self._held[context_id] = (self._clock() + self.ttl_seconds, task)
        self._by_cursor[entry.cursor] = context_id

    async def _capture(
        self, context_id: str, player: str, message: str, entry: LogEntry
    ) -> ContextBundle:
        base = ContextBundle(context_id, player, message, entry.cursor, entry.at)
        connection = next((c for c in self._bridge.connections if c.id == entry.connection), None)
        try:
            if connection is None:
                raise McbewsError("the game connection that carried the chat has closed")
            answers: tuple[dict[str, Any] | BaseException, ...] = await asyncio.gather(
                connection.call(
                    Capability.GET_PLAYER_SNAPSHOT, {"target": player}, timeout=self._timeout
                ),
                connection.call(
                    Capability.GET_INVENTORY_SNAPSHOT, {"target": player}, timeout=self._timeout
                ),
                return_exceptions=True,
            )
            snap, inv = answers
            if isinstance(snap, BaseException):
                raise snap
            bundle = _fill(base, snap, inv)
            self.counters["captured"] += 1
        except Exception as exc:  # a failed capture is data: the bundle says why
            bundle = ContextBundle(**{**asdict(base), "error": f"{type(exc).__name__}: {exc}"})
            self.counters["failed"] += 1
        if context_id in self._held:
            self._held[context_id] = (self._held[context_id][0], bundle)
        return bundle

    def _forget(self, context_id: str, why: str) -> None:
        self._expired.append(context_id)
        self.counters[why] += 1
        self._by_cursor = {c: i for c, i in self._by_cursor.items() if i != context_id}

    def _sweep(self) -> None:
        now = self._clock()
        for context_id in [i for i, (deadline, _) in self._held.items() if deadline <= now]:
            del self._held[context_id]
            self._forget(context_id, "expired")

    def read(self, context_id: str, *, player: str | None = None) -> dict[str, Any]:
        """The bundle as a dict, or a structured refusal (unknown, expired, someone else's)."""
        self._sweep()
        held = self._held.get(context_id) if isinstance(context_id, str) else None
        if held is None:
            if context_id in self._expired:
                return _refusal(
                    context_id,
                    "expired",
                    f"the context expired (kept {self.ttl_seconds:g} s)",
                    "read contexts soon after the chat; query the world now for current state",
                )
            return _refusal(
                context_id,
                "unknown_context_id",
                "no context has this id",
                "use the context_id from a chat event; ids are never reused or guessed",
            )
        deadline, bundle = held
        if isinstance(bundle, asyncio.Task):
            return _refusal(
                context_id,
                "capturing",
                "the capture is still running",
                "await get(context_id) or try again in a moment",
            )
        if player is not None and player.casefold() != bundle.player.casefold():
            return _refusal(
                context_id,
                "player_mismatch",
                f"this context does not belong to {player}",
                "read the context with the player who sent the chat, or without player=",
            )
        remaining = round(max(deadline - self._clock(), 0.0), 3)
        return {
            "ok": bundle.error is None,
            "found": True,
            **asdict(bundle),
            "expires_in_seconds": remaining,
        }

    async def get(self, context_id: str, *, player: str | None = None) -> dict[str, Any]:
        """Like :meth:`read`, but waits for a capture still running."""
        held = self._held.get(context_id) if isinstance(context_id, str) else None
        if held is not None and isinstance(held[1], asyncio.Task):
            await asyncio.shield(held[1])
        return self.read(context_id, player=player)

    def stats(self) -> dict[str, int]:
        """Bundles held now, and counts of captured, failed, expired and evicted ones."""
        return {"held": len(self._held), **self.counters}


def _fill(base: ContextBundle, snap: dict[str, Any], inv: object) -> ContextBundle:
    players = [p for p in snap.get("players") or [] if isinstance(p, dict)]
    me = next((p for p in players if p.get("name") == base.player), None)
    if me is None:
        raise McbewsError(f"the snapshot did not include {base.player}")
    slot = me.get("selectedSlot")
    held, held_known = None, False
    if isinstance(inv, dict):
        mine = [p for p in inv.get("players") or [] if isinstance(p, dict)]
        entry = next((p for p in mine if p.get("name") == base.player), None)
        if entry is not None and isinstance(slot, int):
            slots = [s for s in entry.get("slots") or [] if isinstance(s, dict)]
            held = next((s for s in slots if s.get("slot") == slot), None)
            held_known = True
    fields = {
        **asdict(base),
        "dimension": me.get("dimension"),
        "location": me.get("location"),
        "rotation": me.get("rotation"),
        "selected_slot": slot,
        "held": held,
        "held_known": held_known,
    }
    return ContextBundle(**fields)
