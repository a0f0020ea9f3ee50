"""Progress bars for long deliveries and reads in a notebook (none at a terminal).

A bar is updated from the bridge's thread as parts arrive; a cancelled call leaves its bar
saying so, at the count it reached, rather than frozen as if it were still running.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ...optional import needs

__all__ = ["Bar", "blocks_bar", "progress_bar", "samples_bar", "until_cancelled"]

T = TypeVar("T")


class Bar:
    """One bar in the cell's output: call it with (done, total); ``cancelled()`` at the end."""

    def __init__(self, handle: Any, unit: str) -> None:
        self._handle = handle
        self._unit = unit
        self._done = 0
        self._total = 0

    def __call__(self, done: int, total: int) -> None:
        self._done, self._total = done, total
        self._show("")

    def cancelled(self) -> None:
        """Show the bar where it stopped, saying that nothing more will be read or sent."""
        self._show(" — cancelled, nothing more will be read or sent")

    def _show(self, note: str) -> None:
        with needs():
            from IPython.display import HTML

        done, total = self._done, self._total
        pct = 100 * done // max(total, 1)
        self._handle.update(
            HTML(  # type: ignore[no-untyped-call]
                f"<progress value='{done}' max='{max(total, 1)}'></progress> "
                f"{done}/{total} {self._unit} ({pct}%){note}"
            )
        )


def _bar(unit: str) -> Bar | None:
    if "ipykernel" not in sys.modules:
        return None
    with needs():
        from IPython.display import HTML, display

    handle = display(HTML(""), display_id=True)  # type: ignore[no-untyped-call]
    return None if handle is None else Bar(handle, unit)


async def until_cancelled(work: Awaitable[T], bar: Callable[[], Bar | None]) -> T:
    """Await ``work``; if it is cancelled, the bar (``bar()``: it may be made after the
    work was handed to the bridge's thread) says so."""
    try:
        return await work
    except asyncio.CancelledError:
        shown = bar()
        if shown is not None:
            shown.cancelled()
        raise


def progress_bar(text_length: int) -> Bar | None:
    """A progress bar for long text deliveries (no bar for short texts)."""
    # Below this many characters a delivery takes about a second: a bar would only flicker.
    if text_length < 2000:
        return None
    return _bar("frames")


def blocks_bar(volume: int, parts: int) -> Bar | None:
    """A progress bar for a block read that takes more than one request."""
    return _bar(f"blocks in {parts} parts") if parts > 1 else None


def samples_bar(samples: int) -> Bar | None:
    """A progress bar for ``mc.track``: the snapshots taken so far."""
    return _bar("snapshots") if samples > 1 else None
