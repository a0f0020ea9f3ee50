"""The tags transport: answers and UI chat as page tags on the connected player.

A call is one ``scriptevent mcbews:tags_req {...}``; the addon writes the answer's pages as
tags on the player the script event came from, and this connection reads them with
``tag @s list`` (a built-in command whose output is captured), acking what it holds
(``scriptevent mcbews:tags_ack <id>:<next>``) so the addon shows the next pages and, after
the last, removes them all. One :class:`TagReader` per connection does every read, for all
its calls at once and for UI chat: it reads once a tick (each read is a command, answered
at a tick) while a call waits, and every ``poll_interval`` while the connection uses this
transport and nothing waits. The sans-I/O core (``sansio.tags``) does the encoding and
decoding; this module moves the commands and owns time. docs/protocol.md describes the wire.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .. import limits
from ..exceptions import CapabilityError, CommandFailed, McbewsError, RequestTimeout
from ..sansio import (
    MALFORMED_RESPONSE,
    TAG_LIST_COMMAND,
    UI_CHAT_MAX_BYTES,
    CapabilityResult,
    ForwardedBatch,
    FrameRejected,
    TagMessage,
    TagPage,
    UiChatMessage,
    encode_tags_acks,
    encode_tags_poll,
    interpret_bridge_answer,
    interpret_ui_chat,
    read_tag_list,
    short_id,
    tags_request_lines,
)
from ..vocabulary import EventKind
from .calls import failure_fields, send_lines
from .results import CommandResult
from .scope import current_scope, in_no_scope

__all__ = ["TagCalls", "TagReader"]

_log = logging.getLogger("mcbews_repl.gateway")

RunCommand = Callable[[str], Awaitable[CommandResult]]
Record = Callable[..., object]


class _Lost(Exception):
    """A page that ends the call: the code and message of its CapabilityError."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Waiting:
    """One call's answer as it is read."""

    def __init__(self, request_id: str) -> None:
        self.message = TagMessage("answer", request_id)
        self.done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.acked = 1  # the ack sent last (pages before it may be removed)


class TagReader:
    """Every ``tag @s list`` of one connection, and what it finds: pages for its calls, UI
    chat, and stale pages of nobody's (acked away, so nothing stays on the player)."""

    def __init__(
        self,
        run_command: RunCommand,
        deliver: Callable[[UiChatMessage | ForwardedBatch], None],
        reject: Callable[[str, str, str | None], None],
        *,
        interval: float,
        local_player: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._run = run_command
        self._deliver = deliver
        self._reject = reject
        self._local_player = local_player
        self.interval = interval
        self._waiting: dict[str, _Waiting] = {}
        self._ui: dict[str, TagMessage] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last_hello = float("-inf")
        self._due: list[str] = []  # acks to send with the next read
        self._finished: dict[str, None] = {}
        self._held: set[tuple[str, int]] = set()  # the pages the last read showed
        self._dry = 0  # reads in a row that found nothing new
        self.polling = False  # read for UI chat while nothing waits (the chosen transport)
        self.reads = 0
        self.failures = 0
        self.stale_acked = 0  # messages nobody waited for, acked away
        self.in_window = 0  # the reader's commands in the window now (idle traffic)

    @property
    def to(self) -> str | None:
        """The player the answers are written on, named in each request (docs/protocol.md)."""
        return self._local_player()

    # --- calls ------------------------------------------------------------------------------

    def expect(self, request_id: str) -> asyncio.Future[str]:
        """Wait for the answer under ``request_id`` (before its request goes down; then
        :meth:`wake`, so the first read goes right behind the request)."""
        waiting = _Waiting(request_id)
        self._waiting[request_id] = waiting
        return waiting.done

    def forget(self, request_id: str) -> None:
        """The call ended (answered, timed out, cancelled): stop reading for it."""
        self._waiting.pop(request_id, None)

    @property
    def pending(self) -> int:
        return len(self._waiting)

    def wake(self) -> None:
        """Read soon: a call waits, or polling just started."""
        self._dry = 0
        self._wake.set()
        if self._task is None or self._task.done():
            # No call scope: the reader outlives the call that started it.
            loop = asyncio.get_running_loop()
            self._task = loop.create_task(self._loop(), context=in_no_scope())

    def start_polling(self) -> None:
        self.polling = True
        self.wake()

    def close(self) -> None:
        """The connection closed: stop reading; every waiting call fails with its timeout."""
        if self._task is not None:
            self._task.cancel()
        self._waiting.clear()
        self._ui.clear()

    # --- the loop ---------------------------------------------------------------------------

    async def _loop(self) -> None:
        backoff = limits.POLL_BACKOFF_FIRST_SECONDS
        while True:
            if not self._waiting and not self.polling:
                if self._due:
                    await self.flush()
                    continue
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                found = await self.read_once()
                backoff = limits.POLL_BACKOFF_FIRST_SECONDS
            except McbewsError as exc:  # the read itself not taken: back off
                self.failures += 1
                _log.info("tag read failed (%s); next in %g s", exc, backoff)
                await self._pause(backoff)
                backoff = min(backoff * 2, limits.POLL_BACKOFF_MAX_SECONDS)
                continue
            # A read is a command, answered at a tick: reading again at once reads once a
            # tick. After two reads in a row with nothing new (the script writes at its own
            # phase of the tick), a tick's pause while calls wait, else the poll's.
            self._dry = 0 if found else self._dry + 1
            if self._dry >= _DRY_READS_AT_ONCE:
                pause = limits.TAGS_IDLE_READ_SECONDS if self._waiting else self.interval
                await self._pause(pause)

    async def _pause(self, seconds: float) -> None:
        """Sleep, but wake at once when a new call starts waiting (its first read then goes
        at once)."""
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._wake.wait()

    async def _command(self, line: str) -> CommandResult:
        self.in_window += 1
        try:
            return await self._run(line)
        finally:
            self.in_window -= 1

    async def read_once(self) -> bool:
        """One ``tag @s list``, after the acks of the last read (and the hello, when due) in
        the same batch, so the addon has shown the next pages by the time the list runs (or a
        tick later: the next read then finds the same ones, which are ignored). True when it
        found pages (more may follow at once)."""
        lines, self._due = self._due, []
        now = time.monotonic()
        if self.polling and now - self._last_hello >= limits.TAGS_HELLO_SECONDS:
            self._last_hello = now
            lines.insert(0, encode_tags_poll())
        # Tasks start in the order they are made: the acks are in the window before the list.
        sends = [asyncio.ensure_future(self._send_quietly(line)) for line in lines]
        listing = asyncio.ensure_future(self._command(TAG_LIST_COMMAND))
        try:
            await asyncio.gather(*sends)
            result = await listing
        finally:
            listing.cancel()
        self.reads += 1
        if not result.ok:  # e.g. a game that refuses the command: counted, read again later
            self.failures += 1
            return False
        read = read_tag_list(result.status_message)
        acks: dict[str, int] = {}
        for page in read.pages:
            self._route(page, acks)
        self._due = encode_tags_acks(acks.items())
        return self._progress(read.pages)

    def _progress(self, pages: tuple[TagPage, ...]) -> bool:
        """True when a read found a page not held before (more may follow at once)."""
        seen = {(p.message_id, p.index) for p in pages}
        new = len(seen - self._held)
        self._held = seen
        return new > 0

    async def flush(self) -> None:
        """Send the acks still due (the last call's final one) without another read."""
        lines, self._due = self._due, []
        await asyncio.gather(*(self._send_quietly(line) for line in lines))

    async def _send_quietly(self, line: str) -> None:
        try:
            (await self._command(line)).raise_for_status()
        except McbewsError as exc:
            _log.info("a tags line was not taken (%s): %s", line[:40], exc)

    def _finish(self, message_id: str) -> None:
        """Remember a message read to its end, so a read that still shows its pages (before
        the addon took the ack) neither delivers it again nor counts it stale."""
        self._finished[message_id] = None
        while len(self._finished) > _FINISHED_KEPT:
            del self._finished[next(iter(self._finished))]

    def _route(self, page: TagPage, acks: dict[str, int]) -> None:
        if page.message_id in self._finished:
            acks[page.message_id] = page.total + 1
            return
        if page.kind == "answer":
            waiting = self._waiting.get(page.message_id)
            if waiting is None:  # nobody waits (a call that timed out): clear it away
                if page.message_id not in acks:
                    self.stale_acked += 1
                acks[page.message_id] = page.total + 1
                return
            self._add_answer(waiting, page, acks)
            return
        self._add_ui(page, acks)

    def _add_answer(self, waiting: _Waiting, page: TagPage, acks: dict[str, int]) -> None:
        if waiting.done.done():
            return
        problem = waiting.message.add(page)
        mid = page.message_id
        if problem is not None:
            detail = f"page {page.index}/{page.total}: {problem}"
            waiting.done.set_exception(_Lost(MALFORMED_RESPONSE, detail))
            acks[mid] = page.total + 1
            self._finish(mid)
            return
        if waiting.message.complete:
            text = waiting.message.text()
            if text is None:
                waiting.done.set_exception(_Lost(MALFORMED_RESPONSE, "its bytes are not UTF-8"))
            else:
                waiting.done.set_result(text)
            acks[mid] = page.total + 1
            self._finish(mid)
        elif waiting.message.next_page > waiting.acked:
            waiting.acked = acks[mid] = waiting.message.next_page

    def _add_ui(self, page: TagPage, acks: dict[str, int]) -> None:
        mid = page.message_id
        message = self._ui.get(mid)
        if message is None:
            if len(self._ui) >= limits.TAGS_UI_READING_MAX:
                return  # stays on the player for a later read
            message = self._ui[mid] = TagMessage("ui", mid)
        problem = message.add(page)
        if problem is not None:
            del self._ui[mid]
            acks[mid] = page.total + 1
            self._finish(mid)
            reason = "ui_chat_too_large" if problem in _TOO_LARGE else "ui_chat_lost"
            bound = f"{UI_CHAT_MAX_BYTES:,} bytes (the most a UI chat message may hold)"
            self._reject(reason, f"page {page.index}/{page.total}: {problem}; {bound}", mid)
            return
        if not message.complete:
            acks[mid] = message.next_page
            return
        del self._ui[mid]
        acks[mid] = page.total + 1
        self._finish(mid)
        text = message.text()
        if text is None:
            self._reject("ui_chat_malformed", "its bytes are not UTF-8", mid)
            return
        event = interpret_ui_chat(mid, text)
        if isinstance(event, FrameRejected):
            self._reject(event.reason, event.detail, event.message_id)
        else:
            self._deliver(event)


_TOO_LARGE = ("too_many_pages", "message_too_large")
# Reads with nothing new that go at once before the reader pauses (a request's answer is
# written in the tick's script phase, after the commands that tick, so the second read is
# the first that can show it).
_DRY_READS_AT_ONCE = 2
# Ids of messages read to their end that a read may still show once (the ack not yet taken).
_FINISHED_KEPT = 256


class TagCalls:
    """Capability calls of one connection over the tags transport."""

    def __init__(
        self,
        run_command: RunCommand,
        reader: TagReader,
        record: Record,
        *,
        where: str,
        cancelled: Callable[[str], None] = lambda request_id: None,
    ) -> None:
        self._run = run_command
        self._reader = reader
        self._record = record
        self._where = where
        self._cancelled = cancelled  # the addon is told to drop the request's tags
        self.pending = 0

    async def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None,
        timeout: float,
        *,
        record: bool = True,
    ) -> dict[str, Any]:
        """Send one capability request over the tags transport and read its answer.

        Raises:
            CapabilityError: the addon answered ``ok: false``, or its pages were malformed.
            CommandFailed: the game refused the request's script event.
            RequestTimeout: no whole answer within ``timeout`` seconds.
        """
        request_id = short_id()
        lines = tags_request_lines(request_id, capability, payload, to=self._reader.to)
        line = lines[-1]
        start, outcome = time.monotonic(), "error"
        failure: dict[str, str] = {}
        self.pending += 1
        scope = current_scope()
        if scope is not None:
            scope.requests += 1
        answered = self._reader.expect(request_id)
        try:
            async with asyncio.timeout(timeout):
                # The request first, then the read woken behind it: tasks start in the order
                # they are made, so both are in the same tick where the game runs them in order.
                sending = asyncio.ensure_future(send_lines(self._run, lines))
                self._reader.wake()
                sent = await sending
                if not sent.ok:
                    raise CommandFailed(sent.status_code, sent.status_message, line[:60])
                text = await answered
            answer = interpret_bridge_answer(request_id, capability, text)
            outcome = "ok" if isinstance(answer, CapabilityResult) else "failed"
            failure = failure_fields(answer)
        except TimeoutError as exc:
            outcome = "timeout"
            self._cancelled(request_id)  # its tags go now, not at the addon's TTL
            raise RequestTimeout(
                f"no answer to {capability} (request {request_id}) within {timeout:g} s "
                f"on {self._where}, over the tags transport (tag @s list)"
            ) from exc
        except _Lost as exc:
            outcome, failure = "failed", {"code": exc.code, "message": exc.message}
            raise CapabilityError(exc.code, exc.message, capability) from None
        except asyncio.CancelledError:
            outcome = "cancelled"
            self._cancelled(request_id)
            raise
        finally:
            self._reader.forget(request_id)
            if not answered.done():
                answered.cancel()
            elif not answered.cancelled():
                answered.exception()  # retrieved: a failure set as the call timed out
            self.pending -= 1
            if record:
                took = time.monotonic() - start
                self._record(
                    EventKind.CAPABILITY,
                    f"{capability} {outcome} ({took * 1000:.1f} ms, tags)",
                    capability=capability,
                    request_id=request_id,
                    outcome=outcome,
                    elapsed=took,
                    transport="tags",
                    **failure,
                )
        if isinstance(answer, CapabilityResult):
            return answer.result
        raise CapabilityError(answer.code, answer.message, capability)
