"""The addon's forwarded events on one connection: asking for them, and bounding them.

:class:`AddonForwarding` keeps the addon forwarding exactly the kinds the connection wants
(``subscribe_events``, one call at a time), and sets it right when it forwards kinds nobody
on this connection asked for (an earlier bridge's, which the addon keeps). It is handed what
it needs when the connection is made (the call, the set of names the reader keeps, the
book's rates), so it never calls back into the connection.

:class:`ForwardGate` is the gateway's own bound: the addon bounds what it forwards
(wire.json ``forward_*``); a peer that is not the addon is bounded here as well, per
connection: at most ``FORWARDED_EVENTS_PER_SECOND`` events and ``FORWARDED_BYTES_PER_SECOND``
bytes of batches in a one-second window (a second's worth may come at once). What is past
it is dropped and counted by the caller.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..exceptions import McbewsError
from ..game_events import ADDON_EVENTS
from ..limits import (
    FORWARDED_BYTES_PER_SECOND,
    FORWARDED_EVENTS_PER_SECOND,
    STRAY_FORWARDED_RESYNC_SECONDS,
)
from ..vocabulary import Capability

__all__ = ["AddonForwarding", "ForwardGate"]

_log = logging.getLogger("mcbews_repl.gateway")

Call = Callable[[str, Mapping[str, Any]], Awaitable[dict[str, Any]]]


class AddonForwarding:
    """What the addon forwards to one connection (``forwarded``: its last answer, kind to
    rate; None until it was first asked)."""

    def __init__(
        self,
        call: Call,
        listening: set[str],
        rate_of: Callable[[str], int],
        *,
        where: str,
        forwarding_changed: Callable[[bool], None],
    ) -> None:
        self.forwarded: dict[str, int] | None = None
        self._call = call
        self._listening = listening  # the reader's: only these names' events are kept
        self._rate_of = rate_of
        self._where = where
        self._changed = forwarding_changed  # told whether anything is forwarded now
        self._lock = asyncio.Lock()  # one subscribe_events at a time, in order
        self._resync_at = float("-inf")  # when the addon was last set right (monotonic)
        self._resync: asyncio.Future[None] | None = None

    async def sync(self, kinds: set[str]) -> None:
        """Have the addon forward exactly ``kinds`` (with the book's rates), if that is not
        what it forwards already. A world whose addon does not answer keeps hearing none of
        them (logged): the game's own events go on."""
        async with self._lock:
            await self._forward(kinds, again=False)

    def stray(self, wanted: Callable[[], set[str]]) -> None:
        """The addon forwards a kind this connection did not ask for: ask it again for
        exactly ``wanted()``, at most every STRAY_FORWARDED_RESYNC_SECONDS."""
        now = time.monotonic()
        if now - self._resync_at < STRAY_FORWARDED_RESYNC_SECONDS:
            return
        self._resync_at = now
        _log.info("%s: the addon forwards events not asked for; setting it right", self._where)
        self._resync = asyncio.ensure_future(self._set_right(wanted))

    def close(self) -> None:
        """The connection closed: stop setting the addon right."""
        if self._resync is not None:
            self._resync.cancel()

    async def _set_right(self, wanted: Callable[[], set[str]]) -> None:
        try:
            async with self._lock:
                await self._forward(wanted(), again=True)
        except McbewsError as exc:
            _log.info("%s: the addon was not set right: %s", self._where, exc)

    async def _forward(self, kinds: set[str], *, again: bool) -> None:
        rates = {name: self._rate_of(name) for name in sorted(kinds)}
        if not again and rates == (self.forwarded if self.forwarded is not None else {}):
            return
        listening = self._listening
        listening.update(rates)  # listen before the answer: a batch may come with it
        try:
            answer = await self._call(Capability.SUBSCRIBE_EVENTS, {"kinds": rates})
        except McbewsError as exc:
            listening.difference_update(set(rates) - set(self.forwarded or {}))
            _log.warning("%s: the addon forwards no %s: %s", self._where,
                         ", ".join(rates) or "change", exc)  # fmt: skip
            return
        said = answer.get("forwarded")
        forwarded = {k: v for k, v in said.items() if k in rates} if isinstance(said, dict) else {}
        self.forwarded = forwarded
        listening.difference_update({n for n in listening if n in ADDON_EVENTS} - set(forwarded))
        self._changed(bool(forwarded))


@dataclass(slots=True)
class ForwardGate:
    """A one-second window of events and bytes; ``admit`` says how many of a batch pass."""

    events_per_second: int = FORWARDED_EVENTS_PER_SECOND
    bytes_per_second: int = FORWARDED_BYTES_PER_SECOND
    _start: float = float("-inf")
    _events: int = 0
    _bytes: int = 0

    def admit(self, now: float, events: int, size: int) -> int:
        """How many of a batch's ``events`` pass (``size``: its bytes); 0 when the batch's
        bytes do not fit what is left of this second."""
        if now - self._start >= 1.0:
            self._start, self._events, self._bytes = now, 0, 0
        if self._bytes + size > self.bytes_per_second:
            return 0
        self._bytes += size
        passed = max(min(events, self.events_per_second - self._events), 0)
        self._events += passed
        return passed
