"""The pull transport: answers and UI chat as the results of the addon's custom commands.

A call is one ``mcbews:ask`` command whose result carries the answer's first page (or a
``scriptevent mcbews:pull_req`` when the request does not fit that line, then
``mcbews:pull``); the other pages are pulled side by side through the command window, by
at most as many pullers (tasks) as the window lets be in flight, shared by the connection's
calls. UI chat waits in the addon until the connection's poller asks with ``mcbews:poll``.
The sans-I/O core (``sansio.pull``) does the encoding and decoding; this module moves the
commands and owns time. docs/protocol.md describes the wire.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from .. import limits
from ..exceptions import CapabilityError, CommandFailed, McbewsError, RequestTimeout
from ..sansio import (
    MALFORMED_RESPONSE,
    UI_CHAT_MAX_BYTES,
    UI_MAX_PAGES,
    CapabilityResult,
    Empty,
    ForwardedBatch,
    FrameRejected,
    NotKept,
    Page,
    PageKind,
    PageSet,
    PullReply,
    PullRequest,
    ReplyRejected,
    UiChatMessage,
    Wait,
    decode_reply,
    encode_poll,
    encode_pull,
    encode_pull_request,
    interpret_bridge_answer,
    interpret_ui_chat,
    short_id,
)
from ..vocabulary import EventKind
from .calls import failure_fields, send_lines
from .results import CommandResult
from .scope import current_scope

__all__ = ["ANSWER_LOST", "Poller", "PullCalls"]

_log = logging.getLogger("mcbews_repl.gateway")

# Our own error code: the addon kept no answer under the id (it expired or was evicted).
ANSWER_LOST = "ANSWER_LOST"

RunCommand = Callable[[str], Awaitable[CommandResult]]
Record = Callable[..., object]


class _Lost(Exception):
    """A reply that ends the call: the reason, as a CapabilityError's code and message
    (``problem``: the page set's reason code, when a page did not belong)."""

    def __init__(self, code: str, message: str, problem: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.problem = problem


async def _reply(run: RunCommand, line: str) -> PullReply:
    """Run one pull command; a refusal by the game (negative status) raises CommandFailed."""
    result = await run(line)
    if not result.ok:
        raise CommandFailed(result.status_code, result.status_message, line[:60])
    return decode_reply(result.status_message)


class PullSlots:
    """How many page pulls of one connection run side by side, each a task: at most what
    the command window can have in flight, however many answers are being read."""

    def __init__(self, total: int = limits.PAGE_PULLS_AT_ONCE) -> None:
        self.free = total

    def take(self, wanted: int) -> int:
        """Slots for a message that misses ``wanted`` pages: at least one, so every
        message moves on even when the others hold them all."""
        granted = max(1, min(wanted, self.free))
        self.free -= granted
        return granted

    def give(self, granted: int) -> None:
        self.free += granted


async def pull_pages(
    run: RunCommand, kind: PageKind, first: Page, slots: PullSlots | None = None
) -> str:
    """Every page of ``first``'s message, the rest pulled side by side by a few pullers
    (``slots``: the connection's share of them); the joined text. The first page that
    ends the message stops the other pullers."""
    pages = PageSet(kind, first.message_id)
    _add(pages, first)
    missing = iter(pages.missing())

    async def puller() -> None:
        for index in missing:
            _add(pages, _page(await _reply(run, encode_pull(first.message_id, index)), kind))

    wanted = len(pages.missing())
    if wanted == 0:
        return pages.text()
    slots = slots if slots is not None else PullSlots()
    granted = slots.take(wanted)
    try:
        async with asyncio.TaskGroup() as pullers:
            for _ in range(granted):
                pullers.create_task(puller())
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None
    finally:
        slots.give(granted)
    return pages.text()


def _page(reply: PullReply, kind: PageKind) -> Page:
    match reply:
        case Page() if reply.kind == kind:
            return reply
        case NotKept(message_id=mid, reason=why):
            raise _Lost(ANSWER_LOST, f"the addon keeps nothing under {mid} ({why}): it expired")
        case ReplyRejected(reason=why, detail=detail):
            raise _Lost(MALFORMED_RESPONSE, f"not a pull reply: {why}: {detail}")
        case _:
            raise _Lost(MALFORMED_RESPONSE, f"expected a {kind} page, got {reply!r:.80}")


def _add(pages: PageSet, page: Page) -> None:
    problem = pages.add(page)
    if problem is not None:
        raise _Lost(MALFORMED_RESPONSE, f"page {page.index}/{page.total}: {problem}", problem)


class PullCalls:
    """Capability calls of one connection over the pull transport."""

    def __init__(
        self,
        run_command: RunCommand,
        record: Record,
        *,
        where: str,
        cancelled: Callable[[str], None] = lambda request_id: None,
    ) -> None:
        self._run = run_command
        self._record = record
        self._where = where
        self._cancelled = cancelled  # the addon is told to drop the request's work
        self._slots = PullSlots()  # this connection's page pullers, shared by its calls
        self.pending = 0

    async def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None,
        timeout: float,
        *,
        record: bool = True,
    ) -> dict[str, Any]:
        """Send one capability request over the pull transport and pull its answer.

        Raises:
            CapabilityError: the addon answered ``ok: false``, or lost the request.
            RequestTimeout: no whole answer within ``timeout`` seconds.
        """
        request = encode_pull_request(short_id(), capability, payload)
        start, outcome = time.monotonic(), "error"
        failure: dict[str, str] = {}  # the addon's code and message, when it failed
        self.pending += 1
        scope = current_scope()
        if scope is not None:
            scope.requests += 1
        try:
            async with asyncio.timeout(timeout):
                text = await self._answer_text(request)
            answer = interpret_bridge_answer(request.request_id, capability, text)
            outcome = "ok" if isinstance(answer, CapabilityResult) else "failed"
            failure = failure_fields(answer)
        except TimeoutError as exc:
            outcome = "timeout"
            raise RequestTimeout(
                f"no answer to {capability} (request {request.request_id}) within {timeout:g} s "
                f"on {self._where}, over the pull transport (mcbews:ask/mcbews:pull)"
            ) from exc
        except _Lost as exc:
            outcome, failure = "failed", {"code": exc.code, "message": exc.message}
            raise CapabilityError(exc.code, exc.message, capability) from None
        except asyncio.CancelledError:
            outcome = "cancelled"
            self._cancelled(request.request_id)
            raise
        finally:
            self.pending -= 1
            if record:
                took = time.monotonic() - start
                self._record(
                    EventKind.CAPABILITY,
                    f"{capability} {outcome} ({took * 1000:.1f} ms, pull)",
                    capability=capability,
                    request_id=request.request_id,
                    outcome=outcome,
                    elapsed=took,
                    transport="pull",
                    **failure,
                )
        if isinstance(answer, CapabilityResult):
            return answer.result
        raise CapabilityError(answer.code, answer.message, capability)

    async def _answer_text(self, request: PullRequest) -> str:
        request_id, line = request.request_id, request.command_line
        result = await send_lines(self._run, request.lines or (line,))
        if not result.ok:
            raise CommandFailed(result.status_code, result.status_message, line[:60])
        # A script-event request is answered into the store: its own result says nothing.
        reply = decode_reply(result.status_message) if request.inline else None
        # WAIT: the addon answers at its next script tick. Pull again at once: the game runs
        # each command at a tick, so this asks once a tick, and the call's timeout bounds it.
        while reply is None or isinstance(reply, Wait):
            reply = await _reply(self._run, encode_pull(request_id, 1))
        first = _page(reply, "answer")
        if first.message_id != request_id:
            raise _Lost(MALFORMED_RESPONSE, f"an answer for {first.message_id}, not {request_id}")
        return await pull_pages(self._run, "answer", first, self._slots)


class Poller:
    """Reads UI chat over the pull transport: ``mcbews:poll`` every ``interval`` seconds
    while nothing waits, at once again while messages do."""

    BACKOFF_FIRST_SECONDS = limits.POLL_BACKOFF_FIRST_SECONDS
    BACKOFF_MAX_SECONDS = limits.POLL_BACKOFF_MAX_SECONDS

    def __init__(
        self,
        run_command: RunCommand,
        deliver: Callable[[UiChatMessage | ForwardedBatch], None],
        reject: Callable[[str, str, str | None], None],
        *,
        interval: float,
    ) -> None:
        self._run = run_command
        self._deliver = deliver
        self._reject = reject
        self.interval = interval
        self.polls = 0
        self.failures = 0
        self.in_window = 0  # commands of the poller's in the window now (idle traffic)
        # Messages whose pages are being pulled while the next poll goes (each hands its
        # message on after the one before it, so they arrive in the order polled).
        self._reading: set[asyncio.Task[None]] = set()
        self._last: asyncio.Task[None] | None = None

    async def _command(self, line: str) -> CommandResult:
        self.in_window += 1
        try:
            return await self._run(line)
        finally:
            self.in_window -= 1

    async def run(self) -> None:
        """Poll until cancelled (the connection closing); a failed poll is counted and the
        next one waits twice as long, up to ``BACKOFF_MAX_SECONDS``."""
        backoff = self.BACKOFF_FIRST_SECONDS
        try:
            while True:
                try:
                    got = await self.poll_once()
                    backoff = self.BACKOFF_FIRST_SECONDS
                except McbewsError as exc:
                    self.failures += 1
                    _log.info("UI chat poll failed (%s); next in %g s", exc, backoff)
                    await asyncio.sleep(backoff)
                    backoff = min(backoff * 2, self.BACKOFF_MAX_SECONDS)
                    continue
                if not got:
                    await asyncio.sleep(self.interval)
        finally:
            for task in self._reading:
                task.cancel()

    async def poll_once(self) -> bool:
        """One poll; True when a message came (another may be waiting)."""
        self.polls += 1
        reply = await _reply(self._command, encode_poll())
        match reply:
            case Empty():
                return False
            case Page(kind="ui") if reply.total == 1:  # whole: on at once, after those before
                await self._read_ui_chat(reply, self._last)
                return True
            case Page(kind="ui"):
                # The rest of its pages are pulled while the next poll goes.
                while len(self._reading) >= limits.UI_READS_AT_ONCE:
                    await asyncio.wait(self._reading, return_when=asyncio.FIRST_COMPLETED)
                task = asyncio.ensure_future(self._read_ui_chat(reply, self._last))
                self._reading.add(task)
                task.add_done_callback(self._reading.discard)
                self._last = task
                return True
            case _:
                self._reject("not_a_poll_reply", f"{reply!r:.80}", None)
                return False

    async def _read_ui_chat(self, first: Page, before: asyncio.Task[None] | None) -> None:
        """Pull the rest of a UI chat message and hand it on after the message ``before``
        it. One past the bound a UI chat message has on either transport is refused: by the
        page count its first page gives, before any other page is pulled (the addon's copy
        then expires), or once its pages pass the bound."""
        try:
            text: str | _Lost = await pull_pages(self._command, "ui", first)
        except _Lost as exc:
            text = exc
        except McbewsError as exc:  # the connection went, or a pull timed out
            self.failures += 1
            text = _Lost("ui_chat_lost", str(exc))
        await self._hand_on(first, text, before)

    async def _hand_on(
        self, first: Page, text: str | _Lost, before: asyncio.Task[None] | None
    ) -> None:
        if before is not None and not before.done():
            await asyncio.wait([before])  # in the order polled; its outcome is its own
        mid = first.message_id
        if isinstance(text, _Lost):
            self._reject(*_ui_chat_lost(first, text), mid)
            return
        event = interpret_ui_chat(mid, text)
        if isinstance(event, FrameRejected):
            self._reject(event.reason, event.detail, event.message_id)
        else:
            self._deliver(event)


def _ui_chat_lost(first: Page, lost: _Lost) -> tuple[str, str]:
    """Why a UI chat message could not be read: a reason code and a detail."""
    bound = f"{UI_CHAT_MAX_BYTES:,} bytes (the most a UI chat message may hold)"
    if lost.problem == "too_many_pages":
        most = f"the {UI_MAX_PAGES} that {bound} take"
        return "ui_chat_too_large", f"{first.total:,} pages, more than {most}; not pulled"
    if lost.problem == "message_too_large":
        return "ui_chat_too_large", f"its pages pass {bound}"
    return "ui_chat_lost", lost.message
