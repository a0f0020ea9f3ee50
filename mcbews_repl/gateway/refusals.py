"""Every refused handshake counted, and in the event log with its reason, without a flood
of refusals flooding the log.

The first refusal of a reason is recorded (and logged) at once; while refusals of that
reason keep coming, the others are counted and written as one summary entry every
``interval`` seconds (how many, from how many addresses, which one most). ``flush`` writes
summaries that are due; the bridge calls it from its periodic sweep. So a flood of any
size costs the log a few entries a minute, and ``counters`` still has every refusal.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..limits import REFUSAL_ADDRESSES_COUNTED, REFUSAL_SUMMARY_SECONDS
from ..vocabulary import EventKind
from .eventlog import EventLog

__all__ = ["Refusals"]

_log = logging.getLogger("mcbews_repl.gateway")
# Refusals that mean a bound was reached (logged at WARNING); the rest are one peer's
# mistake, such as a mistyped token (INFO).
_BOUNDS_REACHED = frozenset(
    {
        "throttled",
        "throttled_all",
        "max_connections",
        "max_connections_per_address",
        "max_half_open",
        "max_half_open_per_address",
        "accept_error",
    }
)


@dataclass(slots=True)
class _Quiet:
    """Refusals of one reason since its last entry, counted rather than written."""

    written_at: float
    count: int = 0
    addresses: Counter[str] = field(default_factory=Counter)
    others: int = 0  # refusals from addresses beyond REFUSAL_ADDRESSES_COUNTED


class Refusals:
    """Counts refusals in ``counters`` (``refused:<reason>``) and records them in ``log``."""

    def __init__(
        self, log: EventLog, counters: Counter[str], *, interval: float = REFUSAL_SUMMARY_SECONDS
    ) -> None:
        self._log = log
        self.counters = counters
        self.interval = interval
        self._quiet: dict[str, _Quiet] = {}

    def refused(
        self, reason: str, address: str | None, summary: str, now: float, **data: Any
    ) -> None:
        """One refusal: written now if none of ``reason`` was in the last interval."""
        self.counters[f"refused:{reason}"] += 1
        quiet = self._quiet.get(reason)
        if quiet is None or now - quiet.written_at >= self.interval:
            if quiet is not None:
                self._summarize(reason, quiet, now)
            self._write(reason, summary, peer=address, **data)
            self._quiet[reason] = _Quiet(now)
            return
        quiet.count += 1
        key = address or "?"
        if key in quiet.addresses or len(quiet.addresses) < REFUSAL_ADDRESSES_COUNTED:
            quiet.addresses[key] += 1
        else:
            quiet.others += 1

    def flush(self, now: float, *, every: bool = False) -> None:
        """Write the summaries that are due (``every``: all of them, as the bridge stops);
        forget reasons that went quiet."""
        for reason, quiet in list(self._quiet.items()):
            if not every and now - quiet.written_at < self.interval:
                continue
            if quiet.count:
                self._summarize(reason, quiet, now)
                self._quiet[reason] = _Quiet(now)
            else:
                del self._quiet[reason]

    def _summarize(self, reason: str, quiet: _Quiet, now: float) -> None:
        if not quiet.count:
            return
        top, most = quiet.addresses.most_common(1)[0]
        sources = f"{len(quiet.addresses):,}{'+' if quiet.others else ''}"
        where = "" if top == "?" else f" from {sources} addresses, most from {top} ({most:,})"
        elapsed = now - quiet.written_at
        summary = f"{quiet.count:,} more refused ({reason}) in {elapsed:.1f} s{where}"
        peer = None if top == "?" else top
        self._write(reason, summary, peer=peer, count=quiet.count, addresses=len(quiet.addresses))

    def _write(self, reason: str, summary: str, **data: Any) -> None:
        level = logging.WARNING if reason in _BOUNDS_REACHED else logging.INFO
        _log.log(level, "refused (%s): %s", reason, summary)
        self._log.append(EventKind.REFUSED, summary, None, reason=reason, **data)
