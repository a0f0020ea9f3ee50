"""A dedicated event-loop thread that owns the bridge for an interactive session.

Why a thread: a server on the kernel's own loop stops answering while a cell blocks
(``time.sleep``), at the terminal IPython prompt (no loop runs there between inputs) and
from JupyterLab subshells. nest-asyncio is not an option (archived, patches asyncio
globally). So the bridge lives on its own loop here, and every call the user makes is
scheduled onto it and handed back as a :class:`Pending` that works with ``await`` in a
notebook cell, with ``await`` in an ``asyncio.run`` script, and with ``.result()``.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any, Generic, TypeVar

from ..exceptions import CallInterrupted
from ..gateway import CallScope, run_in_scope
from ..limits import CANCEL_CONFIRM_SECONDS
from .interrupts import watching

__all__ = ["Pending", "Runtime", "new_loop"]

log = logging.getLogger("mcbews_repl.repl")
T = TypeVar("T")

# How long stop() waits for the loop thread to finish its clean-up before giving up.
STOP_JOIN_SECONDS = 10.0
_ON_WINDOWS = sys.platform == "win32"


def new_loop() -> asyncio.AbstractEventLoop:
    """The loop of a runtime thread: on Windows a ProactorEventLoop, whatever the process's
    policy says. Jupyter's server and older ipykernels set the selector policy there for
    tornado and pyzmq, and that loop waits in select(), which takes at most 512 sockets on
    Windows; the bridge and the simulated worlds need no ``add_reader`` (websockets runs on
    transports), so they take the loop without that ceiling (docs/windows.md)."""
    proactor = getattr(asyncio, "ProactorEventLoop", None)
    if _ON_WINDOWS and proactor is not None:
        loop: asyncio.AbstractEventLoop = proactor()
        return loop
    return asyncio.new_event_loop()


class Pending(Generic[T]):
    """The result of a call made on the runtime thread: await it, or call ``.result()``.

    Cancelling it (``cancel()``, a cancelled task awaiting it, Ctrl-C or Interrupt Kernel
    while a cell waits for it) stops the call at the source: the bridge sends nothing more
    for it, withdraws what it had queued and tells the addon to drop its work. An interrupt
    ends the wait with :class:`~mcbews_repl.exceptions.CallInterrupted`, whose message says
    what had been sent.
    """

    __slots__ = ("_future", "_label", "_scope", "_started")

    def __init__(
        self,
        future: concurrent.futures.Future[T],
        label: str = "",
        scope: CallScope | None = None,
    ) -> None:
        self._future = future
        self._label = label
        self._scope = scope
        self._started = time.monotonic()

    def __await__(self) -> Generator[Any, None, T]:
        with watching() as watch:
            try:
                return (yield from asyncio.wrap_future(self._future).__await__())
            except asyncio.CancelledError:
                self.cancel()
                if watch.fired:
                    raise self._interrupted() from None
                raise

    def result(self, timeout: float | None = None) -> T:
        """Block until done (for synchronous code and magics).

        Raises:
            TimeoutError: not done within ``timeout`` seconds (the call goes on).
            CallInterrupted: Ctrl-C or Interrupt Kernel while it waited (the call stopped).
        """
        try:
            return self._future.result(timeout)
        except KeyboardInterrupt:
            self.cancel()
            raise self._interrupted() from None
        except concurrent.futures.TimeoutError as exc:
            if self._future.done():
                # The call itself ended in a timeout of its own (RequestTimeout is a
                # TimeoutError, and so is concurrent.futures'): its message says more.
                raise
            raise TimeoutError(
                f"{self._label or 'the call'} did not finish in {timeout} s"
            ) from exc

    def done(self) -> bool:
        return self._future.done()

    def cancel(self) -> bool:
        """Stop the call: nothing more is sent for it (True if it had not finished)."""
        future = self._future
        if self._scope is not None and (not future.done() or future.cancelled()):
            self._scope.cancel()  # seen by the bridge's window before its next send
        return future.cancel()

    @property
    def scope(self) -> CallScope | None:
        """What the call has sent so far (commands, requests), and whether it was cancelled."""
        return self._scope

    def _interrupted(self) -> CallInterrupted:
        """The interrupt's one line, once the bridge's thread confirms the call stopped."""
        what = self._label or "the call"
        took = time.monotonic() - self._started
        scope = self._scope
        if scope is None:
            return CallInterrupted(f"{what} cancelled after {took:.1f} s")
        stopped = scope.wait_finished(CANCEL_CONFIRM_SECONDS)
        after = "nothing more will be" if stopped else "it is still stopping"
        withdrawn = scope.total("commands_withdrawn")
        unsent = f", {withdrawn} queued ones withdrawn" if withdrawn else ""
        return CallInterrupted(
            f"{what}: cancelled after {took:.1f} s; {scope.summary()} had been sent"
            f"{unsent}, {after}"
        )

    def __repr__(self) -> str:
        state = "done" if self._future.done() else "pending"
        hint = "" if self._future.done() else " (await it, or call .result())"
        return f"<Pending {self._label or 'call'}: {state}{hint}>"


class Runtime:
    """Owns one event loop on a daemon thread; schedules coroutines onto it."""

    def __init__(self, name: str = "mcbews-bridge") -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("the runtime is not started")
        return self._loop

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        loop = new_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def submit(self, coro: Coroutine[Any, Any, T], label: str = "") -> Pending[T]:
        """Run ``coro`` on the runtime loop in a call scope of its own; returns at once."""
        if not self.running:
            coro.close()
            raise RuntimeError("the bridge runtime is stopped; run %load_ext mcbews_repl again")
        scope = CallScope(label)
        future = asyncio.run_coroutine_threadsafe(run_in_scope(coro, scope), self.loop)
        return Pending(future, label, scope)

    def call_soon(self, fn: Callable[[], object]) -> None:
        self.loop.call_soon_threadsafe(fn)

    def run(self, awaitable: Awaitable[T], timeout: float | None = None) -> T:
        """Run to completion from another thread and return the result."""

        async def wrap() -> T:
            return await awaitable

        return self.submit(wrap()).result(timeout)

    def stop(self, join_seconds: float = STOP_JOIN_SECONDS) -> None:
        """Stop the loop (its tasks are cancelled and awaited) and join the thread, waiting
        at most ``join_seconds`` (0: ask it to stop and leave it to the process)."""
        if not self.running or self._loop is None:
            return
        self._loop.call_soon_threadsafe(self._loop.stop)
        assert self._thread is not None
        self._thread.join(join_seconds)
        if self._thread.is_alive():
            log.warning("the %s thread did not stop within %g s", self._name, join_seconds)
        self._thread = None
        self._loop = None
