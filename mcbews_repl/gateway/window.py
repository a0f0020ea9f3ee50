"""The command window: at most N commandRequests in flight, a FIFO queue behind them.

The game executes at most 100 commands in flight per connection and refuses the next one
with TooManyPendingRequests without running it (docs/protocol.md, limits). So every
commandRequest this connection sends (plain commands, capability requests, text frames)
takes a slot here first; a caller that finds the window full waits in a bounded FIFO queue,
and a slot passes straight from a finishing request to the oldest waiter. If the game
still refuses (its count and ours disagree: another client holds slots), the request is
sent again once one of ours completes, or after a growing pause when we see no completion:
the refusal proves it did not run, so the retry cannot run it twice.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from ..exceptions import CommandQueueFull
from ..sansio import CommandResponse, GameError
from .deadlines import Deadlines, Entry
from .scope import current_scope

__all__ = ["TOO_MANY_PENDING_REQUESTS", "CommandWindow", "Reply"]

# docs/protocol.md, status codes: the game's "Too many commands have been requested".
TOO_MANY_PENDING_REQUESTS = -2147418109
# Our choice: without a completion to wake it, a refused request retries after 5 ms,
# doubling up to 200 ms; the caller's timeout bounds the whole wait.
_RETRY_FIRST_SECONDS = 0.005
_RETRY_MAX_SECONDS = 0.2

Reply = CommandResponse | GameError
ErrorFactory = Callable[[], BaseException]


class CommandWindow:
    """Slots, the queue and the futures of one connection's commandRequests."""

    def __init__(
        self,
        send: Callable[[str], Awaitable[None]],
        new_frame: Callable[[str], tuple[str, str]],
        *,
        limit: int,
        queue_limit: int,
        queue_frame: Callable[[str], bool] | None = None,
    ) -> None:
        self._send = send
        # Hands a frame to the writer without waiting for its write; False: use send.
        self._queue_frame = queue_frame or (lambda frame: False)
        self._new_frame = new_frame
        self.limit = limit
        self.queue_limit = queue_limit
        self.in_flight = 0
        self.retries = 0
        self._queue: deque[asyncio.Future[None]] = deque()
        self._refused: deque[asyncio.Future[None]] = deque()  # retries awaiting a completion
        self._waiting: dict[str, asyncio.Future[Reply]] = {}
        self._sending: set[asyncio.Future[None]] = set()  # frames sent by a task of their own
        self._closed: ErrorFactory | None = None
        self.deadlines = Deadlines()  # every request's timeout, one timer (deadlines.py)

    @property
    def queued(self) -> int:
        """Commands waiting for a place in the game's window."""
        return len(self._queue)

    async def request(
        self,
        line: str,
        new_frame: Callable[[str], tuple[str, str]] | None = None,
        *,
        timeout: float | None = None,
    ) -> Reply:
        """Send one command line when a slot is free; return the game's reply to it.

        ``new_frame`` replaces the connection's frame maker (the doctor's limits probe sends
        lines past the budget with it). ``timeout``: seconds until it stops waiting,
        wherever it waits (for a slot, the reply, or a retry), with TimeoutError.

        Raises:
            TimeoutError: ``timeout`` passed first.
        """
        scope = current_scope()
        sent = False
        deadline = None if timeout is None else self.deadlines.add(timeout)
        try:
            if scope is not None:
                scope.check()  # a cancelled call sends nothing more, whichever task asks
            if self._closed is None and self.in_flight < self.limit and not self._queue:
                self.in_flight += 1  # a free slot: _ticket()'s first case, without a call
            elif (ticket := self._ticket(deadline)) is not None:
                try:
                    await ticket  # _release() hands its slot over: in_flight counts us
                except BaseException:
                    self._give_up(ticket)
                    raise
            try:
                make = new_frame or self._new_frame
                delay = _RETRY_FIRST_SECONDS
                while True:
                    if scope is not None:
                        scope.check()  # it may have been cancelled while this waited
                        scope.commands_sent += 1
                    if deadline is not None:
                        Deadlines.check(deadline)
                    sent = True
                    request_id, future = self._send_once(make(line))
                    if deadline is not None:
                        deadline[2] = future  # the heap fails it at the deadline
                    try:
                        reply = await future
                    finally:
                        self._waiting.pop(request_id, None)
                    if not (
                        isinstance(reply, GameError)
                        and reply.status_code == TOO_MANY_PENDING_REQUESTS
                    ):
                        return reply
                    self.retries += 1
                    await self._after_a_completion(delay, deadline)
                    delay = min(delay * 2, _RETRY_MAX_SECONDS)
            finally:
                self._release()
        finally:
            if deadline is not None:
                self.deadlines.finish(deadline)
            if scope is not None and not sent:
                scope.commands_withdrawn += 1  # asked for, never sent: withdrawn

    def resolve(self, reply: Reply) -> bool:
        """Hand a reply to the request waiting for it; False if none is (late or foreign)."""
        future = self._waiting.pop(reply.request_id, None)
        if future is None or future.done():
            return False
        future.set_result(reply)
        while self._refused:  # "wait for one to be done": one done frees one retry
            waiter = self._refused.popleft()
            if not waiter.done():
                waiter.set_result(None)
                break
        return True

    def fail_all(self, make_error: ErrorFactory) -> int:
        """Fail every in-flight and queued request now, each with its own new exception."""
        self._closed = make_error
        self.deadlines.close()
        futures: list[asyncio.Future[Any]] = [*self._waiting.values(), *self._queue]
        self._waiting.clear()
        self._queue.clear()
        failed = 0
        for future in futures:
            if not future.done():
                future.set_exception(make_error())
                failed += 1
        return failed

    # --- slots ----------------------------------------------------------------------------

    def _ticket(self, deadline: Entry | None) -> asyncio.Future[None] | None:
        """A slot now (None), or the ticket to await in the queue (awaited by request()
        itself: a coroutine fewer for each queued command)."""
        if self._closed is not None:
            raise self._closed()
        if self.in_flight < self.limit and not self._queue:
            self.in_flight += 1
            return None
        if len(self._queue) >= self.queue_limit:
            raise CommandQueueFull(self.queue_limit, self.in_flight)
        ticket: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if deadline is not None:
            Deadlines.wait_on(deadline, ticket)
        self._queue.append(ticket)
        return ticket

    def _give_up(self, ticket: asyncio.Future[None]) -> None:
        """The wait for ``ticket`` ended in an exception (a timeout, a cancellation)."""
        if ticket.done() and not ticket.cancelled() and ticket.exception() is None:
            self._release()  # granted, then cancelled before we could use it
        elif ticket in self._queue:  # a release may already have dropped the dead ticket
            self._queue.remove(ticket)

    def _release(self) -> None:
        while self._queue:
            ticket = self._queue.popleft()
            if not ticket.done():
                ticket.set_result(None)
                return
        self.in_flight -= 1

    async def _after_a_completion(self, delay: float, deadline: Entry | None) -> None:
        waiter = asyncio.get_running_loop().create_future()
        if deadline is not None:
            Deadlines.wait_on(deadline, waiter)
        self._refused.append(waiter)
        try:
            await asyncio.wait([waiter], timeout=delay)
        finally:
            if not waiter.done():
                waiter.cancel()
            elif not waiter.cancelled():
                waiter.exception()  # the deadline's TimeoutError: request() raises its own

    def _send_once(self, made: tuple[str, str]) -> tuple[str, asyncio.Future[Reply]]:
        """Send one frame; its request id and the future of its reply (a plain future that
        request() awaits: one coroutine less per command). A frame the writer cannot take
        at once is sent by a task that fails the future if the send fails."""
        request_id, frame = made
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        if not self._queue_frame(frame):
            sending = asyncio.ensure_future(self._send_or_fail(frame, future))
            self._sending.add(sending)
            sending.add_done_callback(self._sending.discard)
            # A caller that gives up (its timeout) before the frame left does not send it.
            future.add_done_callback(lambda _: sending.cancel())
        return request_id, future

    async def _send_or_fail(self, frame: str, future: asyncio.Future[Reply]) -> None:
        try:
            await self._send(frame)
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
