"""A live view of the event log: one display refreshed as entries arrive.

The event log calls listeners synchronously on the bridge's loop, often many times a tick
(a capability answer is several chat chunks). Rebuilding a table per entry would cost more
than the bridge itself, so the view marks itself stale and refreshes at most once per
``interval_seconds``. What "refresh" means is injected (``update``), so the same logic
serves a notebook display, a test, or any other renderer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..gateway import EventLog, LogEntry

__all__ = ["REFRESH_INTERVAL_SECONDS", "LiveEvents"]

REFRESH_INTERVAL_SECONDS = 0.25  # four refreshes a second: live to the eye, cheap for the loop

Render = Callable[[list[LogEntry]], Any]
Update = Callable[[Any], None]
Deliver = Callable[[Callable[[], None]], None]


def _direct(fn: Callable[[], None]) -> None:
    fn()


class LiveEvents:
    """Shows the newest ``last`` entries after ``since``; ``stop()`` ends the updates."""

    def __init__(
        self,
        log: EventLog,
        render: Render,
        update: Update,
        *,
        since: int = 0,
        last: int = 20,
        interval_seconds: float = REFRESH_INTERVAL_SECONDS,
        deliver: Deliver = _direct,
        keep: Callable[[LogEntry], bool] | None = None,
    ) -> None:
        self._log = log
        self._keep = keep  # which entries it shows (None: all): mc.events(kind=..., follow=True)
        self._render = render
        self._update = update
        self.since = since
        self.last = last
        self._interval = interval_seconds
        self._deliver = deliver
        self._scheduled = False
        self._remove: Callable[[], None] | None = None
        self.refreshes = 0

    def start(self) -> LiveEvents:
        """Listen to the log (call on the bridge's loop) and show the current rows once."""
        if self._remove is None:
            self._remove = self._log.add_listener(self._on_entry)
        self.refresh()
        return self

    def stop(self) -> None:
        """End the updates; entries that arrived since the last refresh are shown first."""
        if self._remove is not None:
            self._remove()
            self._remove = None
            if self._scheduled:
                self.refresh()

    @property
    def running(self) -> bool:
        """True between :meth:`start` and :meth:`stop`."""
        return self._remove is not None

    def entries(self) -> list[LogEntry]:
        """The entries shown now: the newest ``last`` held after ``since``."""
        held = self._log.since(self.since)
        if self._keep is not None:
            held = [e for e in held if self._keep(e)]
        return held[-self.last :] if self.last > 0 else []

    def refresh(self) -> None:
        """Render :meth:`entries` and hand the view to the display now."""
        self._scheduled = False
        view = self._render(self.entries())
        self.refreshes += 1
        self._deliver(lambda: self._update(view))

    def _on_entry(self, entry: LogEntry) -> None:
        if self._scheduled or entry.cursor <= self.since:
            return
        if self._keep is not None and not self._keep(entry):
            return
        self._scheduled = True
        asyncio.get_running_loop().call_later(self._interval, self._refresh_if_running)

    def _refresh_if_running(self) -> None:
        if self.running:
            self.refresh()
        else:
            self._scheduled = False

    def __repr__(self) -> str:
        state = "following" if self.running else "stopped"
        return f"<LiveEvents {state}: last {self.last} after cursor {self.since}>"
