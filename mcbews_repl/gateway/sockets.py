"""Sockets before their opening handshake is done: counted, capped, timed; accept errors.

websockets' server accepts a TCP connection, then waits up to ``open_timeout`` (10 s) for
the HTTP request and our answer to it. A peer that opens sockets and sends nothing (or half
a request) would hold a descriptor each for those 10 s, and at the process's descriptor
limit asyncio logs a traceback for every failed ``accept()``. So each connection is counted
from the moment it is accepted (:class:`HalfOpen`, in all and per source address) until its
handshake is answered; one beyond a cap is closed at once, and one whose request has not
arrived within ``request_timeout`` is closed then (:func:`guarded_connection`). Failed
accepts are counted and said once a summary interval (:class:`AcceptErrors`).
"""

from __future__ import annotations

import asyncio
import errno
import math
import os
import socket
import time
from asyncio import constants as asyncio_constants
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol

from websockets.asyncio.server import ServerConnection

from ..limits import HALF_OPEN_PROVEN_EXTRA
from .refusals import Refusals

__all__ = [
    "AcceptErrors",
    "Gate",
    "HalfOpen",
    "Verdict",
    "busy_response",
    "guarded_connection",
    "host_of",
    "is_local",
]

# What the gate says of a socket just accepted: serve it, close it at once, or answer it
# HTTP 429 at once without reading its request (websockets' handshake machinery costs about
# half a millisecond of the bridge's time an attempt, which a flood turns into stalls).
Verdict = Literal["serve", "close", "busy"]


def busy_response(text: str, retry_after: int) -> bytes:
    """A whole HTTP 429 answer, written before the request is read."""
    body = text.encode()
    head = (
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Retry-After: {retry_after}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


# The machine's own address: where the simulated class, tests and a game on this machine
# connect from. Other loopback addresses appear only when a program binds them on purpose.
_LOCAL_HOSTS = frozenset({"127.0.0.1", "::1", "::ffff:127.0.0.1"})
# What asyncio's selector loop reports, through the loop's exception handler, for each
# failed accept() (EMFILE, ENFILE, ENOBUFS, ENOMEM); the same words in 3.11 to 3.13.
_ACCEPT_FAILED = "socket.accept() out of system resource"
# asyncio's selector loop tries a failed accept again after asyncio.constants'
# ACCEPT_RETRY_DELAY (1 s in CPython 3.11-3.13); a little slack for a busy loop.
_ACCEPT_RETRY_SECONDS = float(getattr(asyncio_constants, "ACCEPT_RETRY_DELAY", 1.0))
_RETRY_SLACK_SECONDS = 1.0


def host_of(peer: Any) -> str:
    """The host part of a socket's peer name (``"?"`` if the socket has none)."""
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?" if peer is None else str(peer)


def is_local(host: str) -> bool:
    """Whether ``host`` is this machine's loopback (the bridge is then reachable only here)."""
    return host in _LOCAL_HOSTS


class HalfOpen:
    """Connections accepted whose opening handshake is not answered yet."""

    def __init__(self, *, limit: int, per_address: int) -> None:
        self.limit = limit
        self.per_address = per_address
        self.total = 0
        self.peak = 0
        self._by_address: Counter[str] = Counter()

    def open(self, address: str, *, proven: bool) -> str | None:
        """Count one more; or the bound it would pass (nothing counted), as a reason.

        An address that proved the token is held only to the cap in all (plus room that
        strangers cannot take): its game must get in even while the same address floods.
        """
        exempt = proven or is_local(address)
        if not exempt and self._by_address[address] >= self.per_address:
            return "max_half_open_per_address"
        if self.total >= self.limit + (HALF_OPEN_PROVEN_EXTRA if proven else 0):
            return "max_half_open"
        self.total += 1
        self.peak = max(self.peak, self.total)
        self._by_address[address] += 1
        return None

    def close(self, address: str) -> None:
        """A socket from ``address`` finished or gave up its opening handshake."""
        self.total -= 1
        self._by_address[address] -= 1
        if self._by_address[address] <= 0:
            del self._by_address[address]

    def of(self, address: str) -> int:
        """How many half-open sockets ``address`` holds now."""
        return self._by_address.get(address, 0)


class Gate(Protocol):
    """What a guarded connection asks of the admission (admission.py)."""

    request_timeout: float

    def opened(self, address: str) -> Verdict: ...
    def busy_answer(self) -> bytes: ...
    def finished(self, address: str) -> None: ...
    def timed_out(self, address: str) -> None: ...


def guarded_connection(gate: Gate) -> type[ServerConnection]:
    """A ServerConnection class (websockets' ``create_connection``) that reports to
    ``gate`` from accept to the handshake's answer, and closes a socket that is refused
    or whose request is late."""

    class GuardedConnection(ServerConnection):
        _address = "?"
        _counted = False
        _early = False  # refused at accept: websockets never saw it
        _late: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            address = host_of(transport.get_extra_info("peername"))
            verdict = gate.opened(address)
            if verdict != "serve":
                self._refuse_early(transport, verdict)
                return
            super().connection_made(transport)  # also starts websockets' handler task
            self._address = address
            self._counted = True
            self._late = self.loop.call_later(gate.request_timeout, self._request_late)

        def _refuse_early(self, transport: asyncio.BaseTransport, verdict: Verdict) -> None:
            """No handler task, no parser: closed at once, or the 429 written and the
            socket closed once the client has read it (or after ``request_timeout``)."""
            self._early = True
            assert isinstance(transport, asyncio.Transport)
            if verdict == "close" or not transport.can_write_eof():
                transport.abort()
                return
            transport.write(gate.busy_answer())
            transport.write_eof()  # the request is read and dropped; its EOF closes it
            self._late = asyncio.get_running_loop().call_later(
                gate.request_timeout, transport.abort
            )

        def data_received(self, data: bytes) -> None:
            if not self._early:
                super().data_received(data)

        def eof_received(self) -> None:
            if not self._early:
                super().eof_received()

        def _request_late(self) -> None:
            if self.request is None and self._counted:
                gate.timed_out(self._address)
                self._finish()
                self.transport.abort()

        async def handshake(self, *args: Any, **kwargs: Any) -> None:
            try:
                await super().handshake(*args, **kwargs)
            finally:
                self._finish()  # answered (accepted or refused): no longer half-open

        def connection_lost(self, exc: Exception | None) -> None:
            if self._early:
                if self._late is not None:
                    self._late.cancel()
                return
            super().connection_lost(exc)
            self._finish()

        def _finish(self) -> None:
            if self._counted:
                self._counted = False
                if self._late is not None:
                    self._late.cancel()
                gate.finished(self._address)

    return GuardedConnection


_Handler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]


class AcceptErrors:
    """The loop's exception handler while the bridge listens: failed accepts on the
    bridge's own sockets are counted and recorded (paced, by ``refusals``), everything
    else goes to the handler that was there before (or the loop's default)."""

    def __init__(self, refusals: Refusals, clock: Callable[[], float] = time.monotonic) -> None:
        self._refusals = refusals
        self._clock = clock
        self.count = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: _Handler | None = None
        self._sockets: set[int] = set()
        self._listening: list[object] = []  # the sockets themselves: a closed one has no fd
        self._last_failure = -math.inf
        self._handler: _Handler = self._handle  # one bound method, to compare on uninstall

    def install(self, loop: asyncio.AbstractEventLoop, sockets: Iterable[socket.socket]) -> None:
        """Become ``loop``'s exception handler: failed accepts on these listening
        ``sockets`` are counted and recorded (paced); other errors go to the handler that
        was there before."""
        self._loop = loop
        listening = list(sockets)
        self._sockets = {s.fileno() for s in listening}
        # asyncio's server keeps the socket inside a TransportSocket; its retries name the
        # socket itself.
        self._listening = [getattr(s, "_sock", s) for s in listening]
        self._previous = loop.get_exception_handler()
        loop.set_exception_handler(self._handler)

    def uninstall(self) -> None:
        """Give the loop its handler back; if another was installed on top, stay in its
        chain but pass everything on. Retries of failed accepts may still be due (asyncio
        runs each a second after the failure, even once the socket has closed): the handler
        stays until they are, to silence them."""
        loop, self._loop = self._loop, None
        self._sockets = set()
        if loop is None:
            return
        due_in = self._last_failure + _ACCEPT_RETRY_SECONDS + _RETRY_SLACK_SECONDS - self._clock()
        if due_in > 0 and not loop.is_closed():
            loop.call_later(due_in, self._give_back, loop)
        else:
            self._give_back(loop)

    def _give_back(self, loop: asyncio.AbstractEventLoop) -> None:
        self._listening = []
        if loop.get_exception_handler() == self._handler:
            loop.set_exception_handler(self._previous)

    def _handle(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        sock = context.get("socket")
        if context.get("message") == _ACCEPT_FAILED and self._ours(sock):
            self._count(context.get("exception"))
            return
        if self._stale_retry(loop, context):
            return
        if self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def _stale_retry(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> bool:
        """asyncio's retry of a failed accept, come after our listening socket closed: it
        fails with "Invalid file descriptor: -1" once per failed accept (up to the backlog
        at a time), and there is nothing left to retry."""
        handle = context.get("handle")
        callback = getattr(handle, "_callback", None)
        args: tuple[Any, ...] = tuple(getattr(handle, "_args", None) or ())
        return (
            isinstance(context.get("exception"), ValueError)
            and getattr(callback, "__name__", None) == "_start_serving"
            and getattr(callback, "__self__", None) is loop
            and len(args) > 1
            and any(args[1] is sock for sock in self._listening)
        )

    def _ours(self, sock: Any) -> bool:
        try:
            return sock is not None and sock.fileno() in self._sockets
        except OSError:  # a socket closed meanwhile
            return False

    def _count(self, exc: object) -> None:
        self.count += 1
        self._last_failure = self._clock()
        code = exc.errno if isinstance(exc, OSError) and exc.errno else errno.EMFILE
        why = f"{os.strerror(code)} ({errno.errorcode.get(code, code)})"
        summary = (
            f"could not accept a connection: {why}, {self.count:,} time"
            f"{'' if self.count == 1 else 's'} so far; asyncio tries again each second"
        )
        self._refusals.refused("accept_error", None, summary, self._clock())
