"""The engine's own interrupt as the watchdog: QuickJS ends whatever runs past its deadline.

QuickJS asks an interrupt handler, every 10,000 of its interrupt checks (each loop's jump
back, each call, each step of a regular expression), whether to stop; when the handler says
yes it throws ``InternalError: interrupted``, which no ``catch`` or ``finally`` can hold. So
it stops every kind of runaway code: ``eval`` and ``new Function`` code, a catastrophic
regular expression, a built-in call that calls back (a sort's comparator), ``for … of`` over
an endless iterator.

The ``quickjs`` binding's own time limit cannot serve: while it is set, every call from
JavaScript into Python throws, and the simulated Script API is all such calls. The binding
only touches the handler when that limit is set, though, so a handler installed here through
``ctypes`` stays. Reaching the engine takes three facts, each checked before it is relied on:

- the extension exports ``JS_SetInterruptHandler``, ``JS_GetRuntimeOpaque`` and
  ``JS_SetMaxStackSize`` (it does on Linux; a Windows build exports none, see docs/sim.md);
- a ``Context`` object starts with ``PyObject_HEAD`` and then its ``JSRuntime *``; the
  binding stores the Context as the runtime's opaque, so the pointer read there is used only
  when ``JS_GetRuntimeOpaque(rt) == id(ctx)``;
- a self-test on a spare context: a loop past its deadline must end with the interrupt.

When any of them fails, :func:`attach` returns None and the loops' own checks (modules.py)
remain the watchdog. QuickJS turns an interrupt inside a ``Promise`` executor (and a few
other places) into a rejected promise, so code around one could go on: after
:data:`ESCALATE_AFTER_INTERRUPTS` interrupts in one job the stack limit is squeezed to a
byte, every further call fails and the next interrupt lands outside; the limit is restored
when the job ends.

The handler is a Python callback: each question takes the GIL, and a script asks tens of
thousands of times a second, each time making every other Python thread (the bridge's) hand
the GIL over. So it is installed only for a job past its deadline, by a watchdog thread of
the context's own (:class:`JobWatch`), and removed when the job ends: a job within its
deadline is never asked. ``JS_SetInterruptHandler`` only stores the handler and its opaque in
the runtime, which the script's thread reads at its next check; the opaque stored is always
the context's key, so a check that races the store reads either no handler or this one, and
only the script's own thread, between jobs, takes the handler away.
"""

from __future__ import annotations

import ctypes
import functools
import itertools
import logging
import math
import sys
import sysconfig
import threading
import time
from dataclasses import dataclass
from typing import Any

import quickjs  # type: ignore[import-untyped]  # the binding ships no stubs

__all__ = [
    "ESCALATE_AFTER_INTERRUPTS",
    "WATCHDOG_THREAD_NAME",
    "JobWatch",
    "attach",
    "available",
    "detach",
]

log = logging.getLogger("mcbews_repl.sim")

# Interrupts in one job after which every call is refused as well (see the module docstring):
# the first interrupt normally ends the job; a second one means something swallowed it.
ESCALATE_AFTER_INTERRUPTS = 3
_SQUEEZED_STACK_BYTES = 1  # JS_SetMaxStackSize(rt, 0) would mean "no limit"
_SELF_TEST_LOOP = "for (let i = 0; i < 1e7; i++) {}"  # about 30 ms if nothing stops it
# Each script host's thread that installs the handler once a job runs past its deadline.
WATCHDOG_THREAD_NAME = "mcbews-sim-watchdog"

_HandlerType = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)


@dataclass(frozen=True)
class _Engine:
    set_handler: Any  # JS_SetInterruptHandler(rt, handler, opaque)
    runtime_opaque: Any  # JS_GetRuntimeOpaque(rt)
    set_stack: Any  # JS_SetMaxStackSize(rt, bytes)


class JobWatch:
    """The deadline of the job running in one script context, and the thread that holds the
    engine to it.

    The handler is a Python callback, so each question takes the GIL and makes every other
    Python thread (the bridge's) hand it over. So the engine is asked nothing while a job is
    within its deadline: a job's start and end only record it, the watchdog thread sleeps
    until the deadline and installs the handler only if that job still runs, and the job's
    end removes it. The thread starts with the first job and ends when no job came for a
    whole allowance (the next job starts another) or when the watch is closed.
    """

    def __init__(self, engine: _Engine, runtime: int, stack_bytes: int, key: int) -> None:
        self.key = key  # the opaque number the handler is installed with
        self._engine = engine
        self._runtime = runtime
        self._stack_bytes = stack_bytes
        self.deadline: float | None = None  # time.monotonic() seconds; None between jobs
        self.interrupts = 0  # how many times the engine was told to stop in this job
        # The engine asks again while it builds the interrupt's error (a regular expression
        # asks on its own count): that one question is answered "go on".
        self._answered = False
        # Guards what the two threads share: the job, the handler's presence, the thread.
        self._lock = threading.Condition(threading.Lock())
        self._jobs = 0  # jobs started: the thread sees whether one came while it slept
        self._installed = False
        self._allowance = 0.0  # the last job's seconds: how long the thread sleeps when idle
        self._wake_at = math.inf  # when the thread looks next (time.monotonic() seconds)
        self._thread: threading.Thread | None = None
        self._watching = False  # the thread runs its loop (it may be ending when False)
        self._closed = False

    @property
    def fired(self) -> bool:
        """The running (or the last) job was interrupted by its deadline."""
        return self.interrupts > 0

    def start(self, seconds: float) -> None:
        """A job starts now and may run ``seconds`` (none left: the handler is installed at
        once). Runs on the script's thread."""
        with self._lock:
            self._jobs += 1
            self.interrupts = 0
            self._answered = False
            self.deadline = time.monotonic() + seconds
            if seconds <= 0:
                self._install()
            elif not self._closed:
                self._allowance = seconds
                if not self._watching:
                    self._spawn()
                elif self.deadline < self._wake_at:  # a shorter allowance than the last job's
                    self._lock.notify()

    def stop(self) -> None:
        """The job ended: nothing is interrupted until the next one starts."""
        with self._lock:
            self.deadline = None
            if self._installed:
                self._engine.set_handler(self._runtime, None, self.key)
                self._installed = False
        if self.interrupts >= ESCALATE_AFTER_INTERRUPTS:
            self._engine.set_stack(self._runtime, self._stack_bytes)

    def close(self, *, wait: bool = True) -> None:
        """End the watchdog thread (``wait``: and join it); later jobs start none."""
        with self._lock:
            self._closed = True
            self._lock.notify()
            thread = self._thread
        if wait and thread is not None and thread is not threading.current_thread():
            thread.join()

    def check(self) -> int:
        """The engine's question: 1 stops the script. Runs on the script's thread, asked
        only once the watchdog thread installed the handler for a job past its deadline."""
        if self.deadline is None or time.monotonic() < self.deadline:
            return 0
        if self._answered:  # let the error the last interrupt made write its stack first
            self._answered = False
            return 0
        self._answered = True
        self.interrupts += 1
        if self.interrupts == ESCALATE_AFTER_INTERRUPTS:
            self._engine.set_stack(self._runtime, _SQUEEZED_STACK_BYTES)
        return 1

    # --- the watchdog thread (the lock held) --------------------------------------------
    def _install(self) -> None:
        # QuickJS reads the two fields at its next check; the opaque written is the one
        # written at attach, so either read of it is this key (docs/sim.md).
        self._engine.set_handler(self._runtime, _HANDLER, self.key)
        self._installed = True

    def _spawn(self) -> None:
        if self._thread is not None:
            self._thread.join()  # the last one left its loop: only its return is left
        self._watching = True
        self._thread = threading.Thread(target=self._watch, name=WATCHDOG_THREAD_NAME, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        """Sleep until the running job's deadline; past it, install the handler. A thread
        asleep for the last allowance misses no deadline: a job that starts meanwhile ends
        its allowance later, so only a shorter allowance has to wake it (:meth:`start`)."""
        with self._lock:
            seen = -1
            while not self._closed:
                now = time.monotonic()
                deadline = None if self._installed else self.deadline
                if deadline is not None and now >= deadline:
                    self._install()
                    deadline = None
                elif self.deadline is None and self._jobs == seen:
                    break  # idle for a whole allowance
                seen = self._jobs
                wait = self._allowance if deadline is None else deadline - now
                self._wake_at = now + wait
                self._lock.wait(wait)
            self._watching = False
            self._wake_at = math.inf


# Every attached context's watch, by the opaque number its handler was installed with. The
# handler is one module-level callback that lives as long as the process, so no runtime can
# ever call a freed one.
_WATCHES: dict[int, JobWatch] = {}
_KEYS = itertools.count(1)


def _on_interrupt(runtime: int | None, opaque: int | None) -> int:
    watch = _WATCHES.get(opaque or 0)
    return 0 if watch is None else watch.check()


_HANDLER = _HandlerType(_on_interrupt)


def _load_engine() -> _Engine | None:
    if sys.implementation.name != "cpython" or sysconfig.get_config_var("Py_GIL_DISABLED"):
        return None  # id() is an address, and the GIL hands off as the binding expects
    try:
        import _quickjs  # type: ignore[import-not-found]  # quickjs' extension module

        library = ctypes.CDLL(_quickjs.__file__)
        engine = _Engine(
            library.JS_SetInterruptHandler, library.JS_GetRuntimeOpaque, library.JS_SetMaxStackSize
        )
    except (ImportError, OSError, AttributeError, TypeError) as exc:
        log.info("sim: QuickJS's interrupt handler is not reachable here (%s)", exc)
        return None
    engine.set_handler.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    engine.set_handler.restype = None
    engine.runtime_opaque.argtypes = [ctypes.c_void_p]
    engine.runtime_opaque.restype = ctypes.c_void_p
    engine.set_stack.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    engine.set_stack.restype = None
    return engine


def _runtime_of(ctx: Any, engine: _Engine) -> int | None:
    """The context's ``JSRuntime *``, or None unless the runtime names ``ctx`` as its own."""
    head = object.__basicsize__  # sizeof(PyObject): PyObject_HEAD on this build
    if type(ctx).__basicsize__ < head + ctypes.sizeof(ctypes.c_void_p):
        return None
    runtime = ctypes.c_void_p.from_address(id(ctx) + head).value
    if not runtime or runtime % ctypes.alignment(ctypes.c_void_p):
        return None
    return runtime if engine.runtime_opaque(runtime) == id(ctx) else None


def _install(ctx: Any, engine: _Engine, stack_bytes: int) -> JobWatch | None:
    runtime = _runtime_of(ctx, engine)
    if runtime is None:
        return None
    key = next(_KEYS)
    watch = JobWatch(engine, runtime, stack_bytes, key)
    _WATCHES[key] = watch
    engine.set_handler(runtime, None, key)  # the opaque only: the handler comes when due
    return watch


def _passes_self_test(engine: _Engine) -> bool:
    ctx = quickjs.Context()
    watch = _install(ctx, engine, 1 << 20)
    if watch is None:
        return False
    try:
        watch.start(-1.0)  # already past its deadline: the loop must not finish
        try:
            ctx.eval(_SELF_TEST_LOOP)
            return False
        except quickjs.JSException as exc:
            if "interrupted" not in str(exc):
                return False
        watch.stop()
        ctx.eval(_SELF_TEST_LOOP)  # and between jobs nothing is interrupted
        return True
    finally:
        detach(watch)


@functools.cache
def _engine() -> _Engine | None:
    engine = _load_engine()
    if engine is not None and not _passes_self_test(engine):
        log.info("sim: QuickJS's interrupt handler did not pass its self-test")
        engine = None
    if engine is None:
        log.warning(
            "sim: the script watchdog checks only the loops of modules it loads; runaway code "
            "elsewhere (eval, a regular expression...) is not interrupted here (docs/sim.md)"
        )
    return engine


def available() -> bool:
    """Whether the engine's interrupt works in this process (found and self-tested once)."""
    return _engine() is not None


def attach(ctx: Any, stack_bytes: int) -> JobWatch | None:
    """Watch ``ctx``'s jobs (``stack_bytes``: its stack limit, restored after a squeeze);
    None when the engine's interrupt is not available here."""
    engine = _engine()
    return None if engine is None else _install(ctx, engine, stack_bytes)


def detach(watch: JobWatch, *, wait: bool = True) -> None:
    """Stop watching (the context is being closed or dropped): its watchdog thread ends
    (``wait``: it is joined; a finalizer, which may run on any thread, does not wait)."""
    _WATCHES.pop(watch.key, None)
    watch.close(wait=wait)
