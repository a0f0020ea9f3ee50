"""The sans-I/O connection: feed what arrived, get events; ask for requests, get text to send.

In the style of h11 and websockets' ``Protocol``: nothing here reads a clock, a socket or a
logger. The gateway passes ``now`` in and writes out the lines this object returns.

    proto = BridgeProtocol()
    request = proto.capability_request("get_player_snapshot", {"target": "@s"}, now=t)
    send(proto.command_frame(request.command_line)[1])
    for event in proto.receive_text(frame, now=t): ...   # never raises on remote input
    for event in proto.expire(now=t): ...
"""

from __future__ import annotations

import secrets
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..exceptions import FrameTooLarge
from ..limits import ANSWER_RESERVED_BUFFERS, ANSWER_RESERVED_BYTES, PAGED_ANSWERS_MAX_BYTES
from .answer_pages import AnswerPages, PageId, format_page_id, parse_page_id
from .bridge import (
    MALFORMED_RESPONSE,
    encode_capability_request,
    encode_request_body,
    interpret_bridge_answer,
    interpret_ui_chat,
)
from .bulk import encode_bulk
from .chunks import Channel, ChunkError, parse_chunk_fields
from .events import (
    BridgeEvent,
    BufferExpired,
    CapabilityFailed,
    ChatMessage,
    FrameRejected,
    RequestExpired,
)
from .frames import decode_frame, encode_command, encode_subscribe
from .jsonwire import dumps_wire
from .reassembly import Duplicate, Failed, Reassembler
from .wire import (
    ANSWER_PAGE_MARKER,
    BRIDGE_PLAYER,
    BRIDGE_PREFIX,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    MAX_FRAME_BYTES,
    ROOT_PREFIX,
    UI_CHAT_PREFIX,
)

__all__ = ["BridgeProtocol", "CapabilityRequest", "RequestIds", "short_id"]

# Chunk headers repeat the request id in every upstream chat line, so keep it short:
# 12 hex digits (48 random bits) are unique enough within one connection's lifetime.
_SHORT_ID_BYTES = 6
# A UI chat message is one chunked message, so the reassembler's per-message cap is the UI
# chat bound (bridge.UI_CHAT_MAX_BYTES): say so in the reason, the same on either transport.
_UI_CHAT_REASONS = {"message_too_large": "ui_chat_too_large"}


def short_id() -> str:
    """A short random id for bridge requests and text responses."""
    return secrets.token_hex(_SHORT_ID_BYTES)


_COUNTER_MASK = (1 << 48) - 1  # the last group of a UUID: 12 hex digits


class RequestIds:
    """``requestId`` values for one connection's frames: well-formed version-4 UUIDs (the
    game echoes the id and the wire calls for a UUID: docs/protocol.md, frames) that cost a
    counter rather than a ``uuid4()`` each (its ``os.urandom`` call and ``UUID`` object were
    3% of a command burst). The first 20 hex digits, with the version and variant bits, come
    from one random UUID per connection; the last 12 count up from a random start, so ids
    never repeat within a connection (2**48 of them) and differ between connections."""

    __slots__ = ("_next", "_prefix")

    def __init__(self) -> None:
        seed = uuid.uuid4()
        self._prefix = str(seed)[:24]  # "xxxxxxxx-xxxx-4xxx-yxxx-"
        self._next = seed.int & _COUNTER_MASK

    def __call__(self) -> str:
        n = self._next
        self._next = (n + 1) & _COUNTER_MASK
        return f"{self._prefix}{n:012x}"


@dataclass(frozen=True, slots=True)
class CapabilityRequest:
    """A capability request ready to send: its id, the capability, and the command line
    (``scriptevent mcbews:bridge_req ...``) that carries it to the addon."""

    request_id: str
    capability: str
    command_line: str
    # Every line to send, in order: the command line alone, or a large request's bulk parts
    # (``command_line`` is then the last of them).
    lines: tuple[str, ...] = ()


@dataclass(slots=True)
class _Pending:
    capability: str
    deadline: float | None
    chunks: int = 0
    pages: AnswerPages | None = None  # a paged answer's completed pages (answer_pages.py)


class BridgeProtocol:
    """One game connection's bridge state: pending requests, buffers and counters."""

    def __init__(
        self,
        *,
        new_id: Callable[[], str] = short_id,
        bridge_player: str = BRIDGE_PLAYER,
        budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
        frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
        max_frame_bytes: int = MAX_FRAME_BYTES,
        reassembler: Reassembler | None = None,
    ) -> None:
        self._new_id = new_id
        self._request_ids = RequestIds()
        self.bridge_player = bridge_player
        self.budget_bytes = budget_bytes  # the command line's ceiling, UTF-8 bytes
        self.frame_budget_bytes = frame_budget_bytes  # the whole commandRequest frame's
        self.max_frame_bytes = max_frame_bytes
        # Part of the chunk buffers is kept for answers to our own requests, so a flood of
        # unsolicited UI chat streams cannot block them (limits.py).
        self._reassembler = reassembler or Reassembler(
            answer_buffers=ANSWER_RESERVED_BUFFERS, answer_bytes=ANSWER_RESERVED_BYTES
        )
        self._pending: dict[str, _Pending] = {}
        self._paged_bytes = 0  # held in _Pending.pages, at most PAGED_ANSWERS_MAX_BYTES
        self.counters: Counter[str] = Counter()
        self.protocol_version: int | None = None

    # --- outbound -----------------------------------------------------------------------

    def subscribe_frame(
        self, event_name: str = "PlayerMessage", *, subscribe: bool = True
    ) -> tuple[str, str]:
        """``(request_id, frame)`` subscribing to one game event (or, with
        ``subscribe=False``, unsubscribing from it)."""
        request_id = str(uuid.uuid4())
        purpose = "subscribe" if subscribe else "unsubscribe"
        return request_id, encode_subscribe(request_id, event_name, purpose=purpose)

    def command_frame(self, line: str) -> tuple[str, str]:
        """``(request_id, frame)`` for one command; raises if it does not fit both ceilings."""
        request_id = self._request_ids()
        frame = encode_command(
            request_id,
            line,
            budget_bytes=self.budget_bytes,
            frame_budget_bytes=self.frame_budget_bytes,
        )
        return request_id, frame

    def checked_command_frame(self, line: str) -> tuple[str, str]:
        """:meth:`command_frame` for a line :func:`check_command_line` returned for this
        connection's ceilings: only the frame with its request id is sized again."""
        request_id = self._request_ids()
        frame = encode_command(
            request_id,
            line,
            budget_bytes=self.budget_bytes,
            frame_budget_bytes=self.frame_budget_bytes,
            checked=True,
        )
        return request_id, frame

    def capability_request(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        *,
        now: float,
        timeout: float | None = None,
    ) -> CapabilityRequest:
        """Register a pending request and return the command line that carries it."""
        request_id = self._new_id()
        while request_id in self._pending:
            request_id = self._new_id()
        budgets = {"budget_bytes": self.budget_bytes, "frame_budget_bytes": self.frame_budget_bytes}
        try:
            lines: tuple[str, ...] = (
                encode_capability_request(request_id, capability, payload, **budgets),
            )
        except FrameTooLarge:  # too large for one line: its parts (bulk.py)
            text = encode_request_body(request_id, capability, payload, dumps_wire)
            lines = tuple(encode_bulk(request_id, "c", text, **budgets))
        deadline = None if timeout is None else now + timeout
        self._pending[request_id] = _Pending(capability, deadline)
        return CapabilityRequest(request_id, capability, lines[-1], lines)

    def forget(self, request_id: str) -> bool:
        """Drop a pending request and its buffers (after a timeout or a failed send)."""
        pending = self._pending.pop(request_id, None)
        self._discard(request_id, pending)
        return pending is not None

    def _discard(self, request_id: str, pending: _Pending | None) -> None:
        """Drop the chunk buffers of a request that is no longer pending, its pages too."""
        self._reassembler.discard(Channel.BRIDGE, request_id)
        pages = pending.pages if pending is not None else None
        if pages is None:
            return
        self._paged_bytes -= pages.size_bytes
        for index in range(1, pages.total + 1):
            page_id = format_page_id(request_id, index, pages.total)
            self._reassembler.discard(Channel.BRIDGE, page_id)

    def drop_buffers(self) -> None:
        """Let go of every partial message and paged answer (the connection closed): the
        pending requests they belong to have failed."""
        self._reassembler.clear()
        for pending in self._pending.values():
            pending.pages = None
        self._paged_bytes = 0

    @property
    def buffered_bytes(self) -> int:
        """Bytes of chunks and completed pages held for messages not yet whole."""
        return self._reassembler.buffered_bytes + self._paged_bytes

    @property
    def pending_requests(self) -> int:
        """How many capability requests await their answer."""
        return len(self._pending)

    def chunks_received(self, request_id: str) -> int:
        """How many answer chunks have arrived so far for ``request_id`` (0 if not pending)."""
        pending = self._pending.get(request_id)
        return pending.chunks if pending else 0

    # --- inbound ------------------------------------------------------------------------

    def receive_text(self, frame: str | bytes, now: float) -> list[BridgeEvent]:
        """Decode one frame and return what it meant. Never raises on remote input."""
        event = decode_frame(frame, self.max_frame_bytes)
        if isinstance(event, ChatMessage):
            if self.protocol_version is None:
                self.protocol_version = event.protocol_version
            return self.receive_chat(event, now)
        if isinstance(event, FrameRejected):
            self.counters[f"rejected:{event.reason}"] += 1
        return [event]

    def receive_chat(self, chat: ChatMessage, now: float) -> list[BridgeEvent]:
        """Route one chat message: bridge chunks into reassembly, the rest through."""
        text = chat.message
        if not text.startswith(ROOT_PREFIX):
            return [chat]
        if chat.sender == self.bridge_player:  # proof the game reports the bridge's tells
            self.counters["bridge_player_lines"] += 1
        bridged = text.startswith((BRIDGE_PREFIX + "|", UI_CHAT_PREFIX + "|"))
        if chat.sender != self.bridge_player or not bridged:
            self.counters["bridge_prefix_not_matched"] += 1
            why = f"sender {chat.sender!r}" if bridged else "unknown channel"
            return [chat, FrameRejected("bridge_prefix_not_matched", f"{why}: {text[:60]!r}")]
        try:
            channel, message_id, index, total, content = parse_chunk_fields(text)
        except ChunkError as exc:
            self.counters[f"rejected:{exc.reason}"] += 1
            return [FrameRejected(exc.reason, exc.detail)]
        pending, page = None, None
        if channel is Channel.BRIDGE:
            request_id = message_id
            if ANSWER_PAGE_MARKER in message_id and (page := parse_page_id(message_id)):
                request_id = page.request_id
            pending = self._pending.get(request_id)
            if pending is None:
                self.counters["unknown_request_id"] += 1
                why = "a late or foreign answer chunk"
                return [FrameRejected("unknown_request_id", why, message_id)]
            pending.chunks += 1
        outcome = self._reassembler.feed_fields(channel, message_id, index, total, content, now)
        if outcome is None:  # the common case: more chunks to come
            return []
        if page is not None and isinstance(outcome, str):
            return self._on_page(page, outcome)
        return self._on_outcome(channel, page.request_id if page else message_id, outcome, pending)

    def _on_page(self, page: PageId, text: str) -> list[BridgeEvent]:
        """A page of a paged answer is complete: keep it, and answer once all are here."""
        rid = page.request_id
        pending = self._pending[rid]
        if pending.pages is None:
            pending.pages = AnswerPages(page.total)
        before = pending.pages.size_bytes
        problem = pending.pages.add(page, text)
        self._paged_bytes += pending.pages.size_bytes - before
        if problem is None and self._paged_bytes > PAGED_ANSWERS_MAX_BYTES:
            problem = f"paged answers hold more than {PAGED_ANSWERS_MAX_BYTES} bytes"
        if problem is None and not pending.pages.complete:
            return []
        del self._pending[rid]
        self._discard(rid, pending)
        if problem is not None:
            self.counters["rejected:bad_page"] += 1
            return [CapabilityFailed(rid, pending.capability, MALFORMED_RESPONSE, problem)]
        assert pending.pages is not None
        return [interpret_bridge_answer(rid, pending.capability, pending.pages.text())]

    def _on_outcome(
        self,
        channel: Channel,
        message_id: str,
        outcome: str | Failed | Duplicate,
        pending: _Pending | None,
    ) -> list[BridgeEvent]:
        if isinstance(outcome, str):
            if pending is None:
                event = interpret_ui_chat(message_id, outcome)
                if isinstance(event, FrameRejected):
                    self.counters[f"rejected:{event.reason}"] += 1
                return [event]
            del self._pending[message_id]
            self._discard(message_id, pending)
            return [interpret_bridge_answer(message_id, pending.capability, outcome)]
        if isinstance(outcome, Duplicate):
            self.counters["duplicate_chunks"] += 1
            return []
        if pending is None:  # UI chat: past the reassembler's cap is past UI_CHAT_MAX_BYTES
            reason = _UI_CHAT_REASONS.get(outcome.reason, outcome.reason)
            self.counters[f"rejected:{reason}"] += 1
            return [FrameRejected(reason, outcome.detail, outcome.message_id)]
        del self._pending[message_id]
        self._discard(message_id, pending)
        return [
            CapabilityFailed(
                message_id,
                pending.capability,
                MALFORMED_RESPONSE,
                f"{outcome.reason}: {outcome.detail}",
            )
        ]

    # --- time ---------------------------------------------------------------------------

    def expire(self, now: float) -> list[BridgeEvent]:
        """Drop requests past their deadline and buffers past their TTL."""
        events: list[BridgeEvent] = []
        for rid in [
            r for r, p in self._pending.items() if p.deadline is not None and now >= p.deadline
        ]:
            pending = self._pending.pop(rid)
            self._discard(rid, pending)
            events.append(RequestExpired(rid, pending.capability, pending.chunks))
        for gone in self._reassembler.expire(now):
            if gone.channel is Channel.BRIDGE:
                page = parse_page_id(gone.message_id)
                rid = page.request_id if page else gone.message_id
                self._discard(rid, self._pending.pop(rid, None))
            events.append(
                BufferExpired(gone.channel.name.lower(), gone.message_id, gone.received, gone.total)
            )
        return events
