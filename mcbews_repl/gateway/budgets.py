"""The budgets of token checks, with the clock passed in: per source address, across all
addresses, and the addresses that proved the token (docs/gateway.md, "Who may connect").

:class:`HandshakeThrottle` is a token bucket per address; :class:`SharedBudget` one bucket
for every address that has not proved the token; :class:`ProvenAddresses` remembers, for a
while, the addresses whose game connected with the right token. All three are bounded in
memory whatever a peer sends: the address tables forget the least recently seen first.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from ..limits import HANDSHAKE_TRACKED_ADDRESSES, PROVEN_ADDRESSES_MAX

__all__ = ["HandshakeThrottle", "ProvenAddresses", "SharedBudget"]


@dataclass(slots=True)
class _Budget:
    tokens: float  # failed handshakes this address may still make at once (may go below 0)
    at: float  # when ``tokens`` was last brought up to date
    announced: bool = False  # the log said once that this address is being throttled


class HandshakeThrottle:
    """A token bucket per source address: a burst at full speed, then paced, then refused."""

    def __init__(
        self,
        *,
        burst: int,
        per_second: float,
        max_delay: float,
        tracked: int = HANDSHAKE_TRACKED_ADDRESSES,
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.max_delay = max_delay
        self.tracked = tracked
        self._budgets: OrderedDict[str, _Budget] = OrderedDict()

    def __len__(self) -> int:
        return len(self._budgets)

    def admit(self, address: str, now: float) -> float | None:
        """Take one attempt's share: seconds to hold its answer if it fails (0.0: none), or
        None: refuse it now, unchecked (it would wait longer than ``max_delay``)."""
        budget = self._budget(address, now)
        if budget.tokens >= 1:
            budget.tokens -= 1
            return 0.0
        delay = (1 - budget.tokens) / self.per_second
        if delay > self.max_delay:
            return None
        budget.tokens -= 1
        return delay

    def spent(self, address: str, now: float) -> bool:
        """Whether :meth:`admit` would refuse the address's next attempt (nothing taken)."""
        budget = self._budgets.get(address)
        if budget is None:
            return False
        tokens = min(self.burst, budget.tokens + (now - budget.at) * self.per_second)
        return tokens < 1 and (1 - tokens) / self.per_second > self.max_delay

    def succeeded(self, address: str, now: float) -> None:
        """The attempt had the right token, or was refused unchecked after all: give its
        share back."""
        budget = self._budget(address, now)
        budget.tokens = min(self.burst, budget.tokens + 1)
        if budget.tokens >= self.burst:
            del self._budgets[address]  # nothing left to remember

    def announce(self, address: str) -> bool:
        """True the first time an address is held or refused since it was last at rest."""
        budget = self._budgets.get(address)
        if budget is None or budget.announced:
            return False
        budget.announced = True
        return True

    def throttled(self, now: float) -> int:
        """How many addresses have used up their burst."""
        return sum(1 for a in list(self._budgets) if self._budget(a, now).tokens < 1)

    def _budget(self, address: str, now: float) -> _Budget:
        budget = self._budgets.get(address)
        if budget is None:
            budget = self._budgets[address] = _Budget(float(self.burst), now)
            while len(self._budgets) > self.tracked:
                self._budgets.popitem(last=False)  # the least recently seen address
            return budget
        budget.tokens = min(self.burst, budget.tokens + (now - budget.at) * self.per_second)
        budget.at = now
        if budget.tokens >= 1:
            budget.announced = False
        self._budgets.move_to_end(address)
        return budget


class SharedBudget:
    """One token bucket for the token checks of every address that has not proved the
    token: however many addresses a guesser has, together they get ``per_second``."""

    def __init__(self, *, burst: int, per_second: float, now: float = 0.0) -> None:
        self.burst = burst
        self.per_second = per_second
        self._tokens = float(burst)
        self._at = now

    def take(self, now: float) -> bool:
        """One check's share, if there is one left (False: refuse the attempt unchecked)."""
        self._refill(now)
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def give_back(self, now: float) -> None:
        """The check found the right token: it costs nothing."""
        self._refill(now)
        self._tokens = min(float(self.burst), self._tokens + 1)

    def left(self, now: float) -> float:
        """The tokens left at ``now`` (refilled for the time since the last look)."""
        self._refill(now)
        return self._tokens

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self._at)
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.per_second)
        self._at = now


class ProvenAddresses:
    """Addresses whose game connected with the right token, each remembered for ``ttl``
    seconds after its last such connection ended (0: none is remembered)."""

    def __init__(self, ttl: float, capacity: int = PROVEN_ADDRESSES_MAX) -> None:
        self.ttl = ttl
        self.capacity = capacity
        self._until: OrderedDict[str, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._until)

    def prove(self, address: str, now: float) -> None:
        """``address`` showed the right token (or its game is leaving): remember it anew."""
        if self.ttl <= 0:
            return
        self._until[address] = now + self.ttl
        self._until.move_to_end(address)
        while len(self._until) > self.capacity:
            self._until.popitem(last=False)  # the one proved longest ago

    def holds(self, address: str, now: float) -> bool:
        """Whether ``address`` proved the token less than the time to live ago."""
        until = self._until.get(address)
        if until is None:
            return False
        if until <= now:
            del self._until[address]
            return False
        return True
