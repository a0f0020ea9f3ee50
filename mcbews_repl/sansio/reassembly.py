"""A bounded reassembler for chunked messages; the caller passes the clock in.

Rules (seed 000 and PROTOCOL.md section 2): chunks of one message may arrive in any order;
a duplicate with the same content is harmless; a duplicate with different content, a changed
total or changed metadata fails that message; buffers live at most ``ttl_seconds`` from their
first chunk; at most ``max_buffers`` messages, ``max_chunks`` chunks each, ``max_message_bytes``
per message and ``max_total_bytes`` across all buffers. A message that breaks a bound is
dropped whole and reported, so memory never grows past the caps whatever a peer sends.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from .chunks import Channel, Chunk
from .jsonwire import utf8_len
from .wire import (
    BUFFER_TTL_SECONDS,
    MAX_BUFFERS,
    MAX_CHUNKS_PER_MESSAGE,
    MAX_MESSAGE_BYTES,
    MAX_TOTAL_BYTES,
)

__all__ = ["Completed", "Duplicate", "Expired", "Failed", "Outcome", "Pending", "Reassembler"]


@dataclass(frozen=True, slots=True)
class Completed:
    channel: Channel
    message_id: str
    text: str
    meta: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Failed:
    channel: Channel
    message_id: str
    reason: str
    detail: str


@dataclass(frozen=True, slots=True)
class Duplicate:
    channel: Channel
    message_id: str
    index: int


@dataclass(frozen=True, slots=True)
class Pending:
    channel: Channel
    message_id: str
    received: int
    total: int


@dataclass(frozen=True, slots=True)
class Expired:
    channel: Channel
    message_id: str
    received: int
    total: int


Outcome = Completed | Failed | Duplicate | Pending


@dataclass(slots=True)
class _Buffer:
    total: int
    meta: tuple[str, ...]
    created_at: float
    size_bytes: int = 0
    parts: dict[int, str] = field(default_factory=dict)


class Reassembler:
    """Collects chunks per ``(channel, message_id)`` within fixed bounds."""

    def __init__(
        self,
        *,
        ttl_seconds: float = BUFFER_TTL_SECONDS,
        max_buffers: int = MAX_BUFFERS,
        max_chunks: int = MAX_CHUNKS_PER_MESSAGE,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        max_total_bytes: int = MAX_TOTAL_BYTES,
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self.max_buffers = max_buffers
        self.max_chunks = max_chunks
        self.max_message_bytes = max_message_bytes
        self.max_total_bytes = max_total_bytes
        self._buffers: dict[tuple[Channel, str], _Buffer] = {}
        self._total_bytes = 0
        # Recently completed messages, so a late duplicate is not delivered twice; bounded
        # by count and by the TTL like the buffers themselves.
        self._recent: OrderedDict[tuple[Channel, str], float] = OrderedDict()
        self._recent_limit = 4 * max_buffers

    @property
    def buffer_count(self) -> int:
        return len(self._buffers)

    @property
    def buffered_bytes(self) -> int:
        return self._total_bytes

    def feed(self, chunk: Chunk, now: float) -> Outcome:
        """Take one chunk; say whether its message completed, failed, or is still pending."""
        key = (chunk.channel, chunk.message_id)
        size = utf8_len(chunk.content)
        if chunk.total > self.max_chunks or not 1 <= chunk.index <= chunk.total:
            self.discard(chunk.channel, chunk.message_id)
            return self._fail(chunk, "bad_position", f"{chunk.index}/{chunk.total}")
        buf = self._buffers.get(key)
        if buf is None:
            if key in self._recent:
                return Duplicate(chunk.channel, chunk.message_id, chunk.index)
            if chunk.total == 1:
                return self._single(chunk, size, now)
            if len(self._buffers) >= self.max_buffers:
                return self._fail(chunk, "too_many_buffers", f"{self.max_buffers} in use")
            buf = self._buffers[key] = _Buffer(chunk.total, chunk.meta, now)
        problem = self._check(buf, chunk, size)
        if problem is not None:
            self.discard(chunk.channel, chunk.message_id)
            return self._fail(chunk, *problem)
        if chunk.index in buf.parts:
            return Duplicate(chunk.channel, chunk.message_id, chunk.index)
        buf.parts[chunk.index] = chunk.content
        buf.size_bytes += size
        self._total_bytes += size
        if len(buf.parts) < buf.total:
            return Pending(chunk.channel, chunk.message_id, len(buf.parts), buf.total)
        text = "".join(buf.parts[i] for i in range(1, buf.total + 1))
        self.discard(chunk.channel, chunk.message_id)
        self._remember(key, now)
        return Completed(chunk.channel, chunk.message_id, text, buf.meta)

    def _single(self, chunk: Chunk, size: int, now: float) -> Outcome:
        if size > self.max_message_bytes:
            return self._fail(chunk, "message_too_large", f"{size} bytes")
        self._remember((chunk.channel, chunk.message_id), now)
        return Completed(chunk.channel, chunk.message_id, chunk.content, chunk.meta)

    def _check(self, buf: _Buffer, chunk: Chunk, size: int) -> tuple[str, str] | None:
        if chunk.total != buf.total:
            return "total_changed", f"total {chunk.total} after {buf.total}"
        if chunk.meta != buf.meta:
            return "meta_changed", "chunk metadata differs from the first chunk"
        seen = buf.parts.get(chunk.index)
        if seen is not None:
            if seen != chunk.content:
                return "conflicting_duplicate", f"index {chunk.index} arrived with other content"
            return None
        if buf.size_bytes + size > self.max_message_bytes:
            return "message_too_large", f"over {self.max_message_bytes} bytes"
        if self._total_bytes + size > self.max_total_bytes:
            return "buffer_space_exhausted", f"over {self.max_total_bytes} bytes buffered"
        return None

    @staticmethod
    def _fail(chunk: Chunk, reason: str, detail: str) -> Failed:
        return Failed(chunk.channel, chunk.message_id, reason, detail)

    def discard(self, channel: Channel, message_id: str) -> bool:
        """Drop one message's buffer (a request timed out or was forgotten)."""
        buf = self._buffers.pop((channel, message_id), None)
        if buf is None:
            return False
        self._total_bytes -= buf.size_bytes
        return True

    def _remember(self, key: tuple[Channel, str], now: float) -> None:
        self._recent[key] = now
        self._recent.move_to_end(key)
        while len(self._recent) > self._recent_limit:
            self._recent.popitem(last=False)

    def expire(self, now: float) -> list[Expired]:
        """Drop buffers older than the TTL and report them."""
        while self._recent and now - next(iter(self._recent.values())) >= self.ttl_seconds:
            self._recent.popitem(last=False)
        old = [k for k, b in self._buffers.items() if now - b.created_at >= self.ttl_seconds]
        out: list[Expired] = []
        for channel, message_id in old:
            buf = self._buffers[(channel, message_id)]
            out.append(Expired(channel, message_id, len(buf.parts), buf.total))
            self.discard(channel, message_id)
        return out
