"""Making Ctrl-C and Interrupt Kernel reach a call that a cell awaits.

Awaiting a :class:`~mcbews_repl.repl.runtime.Pending` leaves the cell's loop with nothing to
do until the bridge's thread answers, and neither front end then delivers the interrupt:

- terminal IPython runs the cell with ``loop.run_until_complete``; SIGINT raises
  KeyboardInterrupt in the main thread inside the selector, outside the cell's coroutine,
  so the call on the bridge's thread runs on and the prompt comes back with an asyncio
  traceback;
- ipykernel (7.x) installs a SIGINT handler that cancels the cell's task with a callback
  scheduled by ``call_soon`` from inside the signal handler, which does not wake the
  selector: the cell is cancelled only when something else wakes the loop, which for an
  awaited call is its answer (a 32-part block read: 137 s).

So while a call is awaited on the main thread, :func:`watching` puts a SIGINT handler of
its own in front of whatever was there: it marks the interrupt, cancels every task awaiting
a call right now (thread-safely, which wakes the loop), and lets the previous handler do
its part unless that is the default one (whose KeyboardInterrupt would land in the
selector). The awaits then see a CancelledError and know it came from an interrupt.
Outside the main thread, or without a running loop, nothing is installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = ["Watch", "watching"]


class Watch:
    """One await's view of the interrupt: ``fired`` once SIGINT came while it waited."""

    __slots__ = ("fired", "task")

    def __init__(self, task: asyncio.Task[Any] | None) -> None:
        self.task = task
        self.fired = False


class _Handler:
    """The one SIGINT handler while any call is awaited on the main thread."""

    def __init__(self) -> None:
        self.watches: list[Watch] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self.previous: Any = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.previous = signal.signal(signal.SIGINT, self)

    def uninstall(self) -> None:
        # Only if ours is still the one in place: a front end that swapped handlers while
        # the call was awaited (ipykernel restores its saved one at the cell's end) wins.
        previous, self.previous, self.loop = self.previous, None, None
        if signal.getsignal(signal.SIGINT) is self:
            signal.signal(signal.SIGINT, previous)

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        loop = self.loop
        for watch in self.watches:
            watch.fired = True
            if watch.task is not None and loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(watch.task.cancel)  # thread-safe: wakes the loop
        previous = self.previous
        if callable(previous) and previous is not signal.default_int_handler:
            previous(signum, frame)  # ipykernel's: cancels the cell's task as well


_HANDLER = _Handler()


@contextlib.contextmanager
def watching() -> Iterator[Watch]:
    """While the body awaits a call, an interrupt cancels the awaiting task at once."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is None or threading.current_thread() is not threading.main_thread():
        yield Watch(None)  # signals reach only the main thread: nothing to install
        return
    watch = Watch(asyncio.current_task())
    if not _HANDLER.watches:
        _HANDLER.install(loop)
    _HANDLER.watches.append(watch)
    try:
        yield watch
    finally:
        _HANDLER.watches.remove(watch)
        if not _HANDLER.watches:
            _HANDLER.uninstall()
