"""The gateway's own bound on forwarded events: what one connection keeps in a second.

The addon bounds what it forwards (wire.json ``forward_*``); a peer that is not the addon
is bounded here as well, per connection: at most ``FORWARDED_EVENTS_PER_SECOND`` events and
``FORWARDED_BYTES_PER_SECOND`` bytes of batches in a one-second window (a second's worth
may come at once). What is past it is dropped and counted by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..limits import FORWARDED_BYTES_PER_SECOND, FORWARDED_EVENTS_PER_SECOND

__all__ = ["ForwardGate"]


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
