"""A bounded reassembler for chunked messages; the caller passes the clock in.

Rules (docs/protocol.md, "Chunks" and "Bounds"): chunks of one message may arrive in any order;
a duplicate with the same content is harmless; a duplicate with different content, a changed
total or changed metadata fails that message; buffers live at most ``ttl_seconds`` from their
first chunk; at most ``max_buffers`` messages, ``max_chunks`` chunks each, ``max_message_bytes``
per message and ``max_total_bytes`` across all buffers, and ids of at most ``max_id_chars``
(an id is kept as a key, of its buffer and of a recently completed message, so its length
counts too). A message that breaks a bound is dropped whole and reported, so memory never
grows past the caps whatever a peer sends.

Part of the caps can be kept for answers (``answer_buffers``, ``answer_bytes``): the
``BRIDGE`` channel carries answers to requests we sent (the connection feeds it only
chunks of pending requests), every other channel carries what the peer sends unsolicited
(UI chat), and unsolicited streams may only use what is not kept. A flood of partial UI
chat messages then fills its own share and answers still get through.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .chunks import Channel, Chunk
from .jsonwire import utf8_len
from .wire import (
    BUFFER_TTL_SECONDS,
    MAX_BUFFERS,
    MAX_CHUNKS_PER_MESSAGE,
    MAX_MESSAGE_BYTES,
    MAX_MESSAGE_ID_CHARS,
    MAX_TOTAL_BYTES,
)

__all__ = ["Completed", "Duplicate", "Expired", "Failed", "Outcome", "Pending", "Reassembler"]


@dataclass(frozen=True, slots=True)
class Completed:
    """Every chunk of a message arrived: its joined ``text`` and the fields (``meta``)
    its chunks agreed on.
    """

    channel: Channel
    message_id: str
    text: str
    meta: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Failed:
    """A message was dropped: ``reason`` is a stable short code, ``detail`` the specifics."""

    channel: Channel
    message_id: str
    reason: str
    detail: str


@dataclass(frozen=True, slots=True)
class Duplicate:
    """A chunk whose place was already filled, or of a message just completed: ignored."""

    channel: Channel
    message_id: str
    index: int


@dataclass(frozen=True, slots=True)
class Pending:
    """A chunk was kept; ``received`` of ``total`` chunks have arrived."""

    channel: Channel
    message_id: str
    received: int
    total: int


@dataclass(frozen=True, slots=True)
class Expired:
    """A message not whole within the time to live: dropped, with how much had come."""

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
    answer: bool  # on the channel of answers to our requests (not unsolicited input)
    size_bytes: int = 0
    parts: dict[int, str] = field(default_factory=dict)
    in_order: bool = True  # every index so far arrived as 1, 2, 3 ...: join without sorting


class Reassembler:
    """Collects chunks per ``(channel, message_id)`` within fixed bounds.

    :meth:`feed` takes a :class:`Chunk` and answers with an outcome object. :meth:`feed_fields`
    is the same with the chunk's fields as arguments and a cheaper answer, for the hot path
    of the connection: ``None`` while the message is pending, its text once complete.
    """

    def __init__(
        self,
        *,
        ttl_seconds: float = BUFFER_TTL_SECONDS,
        max_buffers: int = MAX_BUFFERS,
        max_chunks: int = MAX_CHUNKS_PER_MESSAGE,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        max_total_bytes: int = MAX_TOTAL_BYTES,
        answer_buffers: int = 0,
        answer_bytes: int = 0,
        max_id_chars: int = MAX_MESSAGE_ID_CHARS,
    ) -> None:
        if not (0 <= answer_buffers <= max_buffers and 0 <= answer_bytes <= max_total_bytes):
            raise ValueError("answer_buffers and answer_bytes must be within the caps they share")
        self.ttl_seconds = ttl_seconds
        self.max_buffers = max_buffers
        self.max_chunks = max_chunks
        self.max_message_bytes = max_message_bytes
        self.max_total_bytes = max_total_bytes
        self.max_id_chars = max_id_chars
        # What unsolicited channels may use: the caps less what is kept for answers.
        self.unsolicited_max_buffers = max_buffers - answer_buffers
        self.unsolicited_max_bytes = max_total_bytes - answer_bytes
        self._buffers: dict[tuple[Channel, str], _Buffer] = {}
        self._total_bytes = 0
        self._unsolicited_buffers = 0
        self._unsolicited_bytes = 0
        # Recently completed messages, so a late duplicate is not delivered twice; bounded
        # by count and by the TTL like the buffers themselves. Oldest first (dict order).
        self._recent: dict[tuple[Channel, str], float] = {}
        self._recent_limit = 4 * max_buffers

    @property
    def buffer_count(self) -> int:
        """How many messages are partly received (one buffer each)."""
        return len(self._buffers)

    @property
    def buffered_bytes(self) -> int:
        """UTF-8 bytes held in every partial message's buffer."""
        return self._total_bytes

    @property
    def unsolicited_usage(self) -> tuple[int, int]:
        """``(buffers, bytes)`` held by channels other than answers."""
        return self._unsolicited_buffers, self._unsolicited_bytes

    def feed(self, chunk: Chunk, now: float) -> Outcome:
        """Take one chunk; say whether its message completed, failed, or is still pending."""
        channel, message_id = chunk.channel, chunk.message_id
        got = self.feed_fields(
            channel, message_id, chunk.index, chunk.total, chunk.content, now, chunk.meta
        )
        if got is None:
            buf = self._buffers[(channel, message_id)]
            return Pending(channel, message_id, len(buf.parts), buf.total)
        if isinstance(got, str):
            return Completed(channel, message_id, got, chunk.meta)
        return got

    def feed_fields(
        self,
        channel: Channel,
        message_id: str,
        index: int,
        total: int,
        content: str,
        now: float,
        meta: tuple[str, ...] = (),
    ) -> str | Failed | Duplicate | None:
        """:meth:`feed` for a chunk given by its fields.

        Returns ``None`` while the message is pending and the message's text once it is
        complete (its metadata is ``meta``: every chunk of a message must carry the same).
        """
        # Fast paths for what the addon sends: a message in a single chunk, and the next
        # chunk of a message arriving in order within every bound. They give the same
        # answer as _feed_general, which takes everything else (a property test checks).
        key = (channel, message_id)
        size = len(content) if content.isascii() else utf8_len(content)
        buf = self._buffers.get(key)
        if buf is None:
            if (
                total == 1 == index
                and size <= self.max_message_bytes
                and self.max_chunks >= 1
                and len(message_id) <= self.max_id_chars
                and key not in (recent := self._recent)
            ):
                recent[key] = now  # _remember, inline: the key is new
                if len(recent) > self._recent_limit:
                    del recent[next(iter(recent))]
                return content
        elif (
            buf.in_order
            and index == len(buf.parts) + 1
            and total == buf.total
            and meta == buf.meta
            and buf.size_bytes + size <= self.max_message_bytes
            and self._total_bytes + size <= self.max_total_bytes
            and (buf.answer or self._unsolicited_bytes + size <= self.unsolicited_max_bytes)
        ):
            buf.parts[index] = content
            self._grow(buf, size)
            return None if index < total else self._finish(key, buf, now)
        return self._feed_general(key, buf, index, total, content, size, now, meta)

    def _feed_general(
        self,
        key: tuple[Channel, str],
        buf: _Buffer | None,
        index: int,
        total: int,
        content: str,
        size: int,
        now: float,
        meta: tuple[str, ...],
    ) -> str | Failed | Duplicate | None:
        """Every rule, for any chunk; ``buf`` is the message's buffer if it has one."""
        channel, message_id = key
        if total > self.max_chunks or not 1 <= index <= total:
            self.discard(channel, message_id)
            return Failed(channel, message_id, "bad_position", f"{index}/{total}")
        if buf is None:
            if len(message_id) > self.max_id_chars:  # never a key: it would be kept
                shown = message_id[: self.max_id_chars]
                return Failed(channel, shown, "bad_id", f"{len(message_id):,}-character id")
            if key in self._recent:
                return Duplicate(channel, message_id, index)
            if total == 1:  # a whole message in one chunk never needs a buffer
                if size > self.max_message_bytes:
                    return Failed(channel, message_id, "message_too_large", f"{size} bytes")
                self._remember(key, now)
                return content
            refused = self._no_buffer_for(channel)
            if refused is not None:
                return Failed(channel, message_id, "too_many_buffers", refused)
            buf = self._new_buffer(key, total, meta, now)
        problem = self._check(buf, index, total, content, size, meta)
        if problem is not None:
            self.discard(channel, message_id)
            return Failed(channel, message_id, *problem)
        if index in buf.parts:
            return Duplicate(channel, message_id, index)
        if index != len(buf.parts) + 1:
            buf.in_order = False
        return self._store(key, buf, index, content, size, now)

    def _store(
        self,
        key: tuple[Channel, str],
        buf: _Buffer,
        index: int,
        content: str,
        size: int,
        now: float,
    ) -> str | None:
        """Keep a checked, new chunk; return the message's text if it is now complete."""
        buf.parts[index] = content
        self._grow(buf, size)
        return None if len(buf.parts) < buf.total else self._finish(key, buf, now)

    def _no_buffer_for(self, channel: Channel) -> str | None:
        """Why a new message on ``channel`` gets no buffer now (None: it gets one)."""
        if len(self._buffers) >= self.max_buffers:
            return f"{self.max_buffers} in use"
        unsolicited = self._unsolicited_buffers
        if channel is not Channel.BRIDGE and unsolicited >= self.unsolicited_max_buffers:
            kept = self.max_buffers - self.unsolicited_max_buffers
            return f"{unsolicited} unsolicited in use, {kept} kept for answers"
        return None

    def _new_buffer(
        self, key: tuple[Channel, str], total: int, meta: tuple[str, ...], now: float
    ) -> _Buffer:
        answer = key[0] is Channel.BRIDGE
        buf = self._buffers[key] = _Buffer(total, meta, now, answer)
        self._unsolicited_buffers += not answer
        return buf

    def _grow(self, buf: _Buffer, size: int) -> None:
        buf.size_bytes += size
        self._total_bytes += size
        if not buf.answer:
            self._unsolicited_bytes += size

    def _release(self, buf: _Buffer) -> None:
        self._total_bytes -= buf.size_bytes
        if not buf.answer:
            self._unsolicited_buffers -= 1
            self._unsolicited_bytes -= buf.size_bytes

    def _finish(self, key: tuple[Channel, str], buf: _Buffer, now: float) -> str:
        """Release a complete message's buffer and return its text."""
        del self._buffers[key]
        self._release(buf)
        self._remember(key, now)
        parts = buf.parts
        if buf.in_order:  # keys went in as 1, 2, 3 ...: the dict's order is the text's
            return "".join(parts.values())
        return "".join([parts[i] for i in range(1, buf.total + 1)])

    def _check(
        self, buf: _Buffer, index: int, total: int, content: str, size: int, meta: tuple[str, ...]
    ) -> tuple[str, str] | None:
        if total != buf.total:
            return "total_changed", f"total {total} after {buf.total}"
        if meta != buf.meta:
            return "meta_changed", "chunk metadata differs from the first chunk"
        seen = buf.parts.get(index)
        if seen is not None:
            if seen != content:
                return "conflicting_duplicate", f"index {index} arrived with other content"
            return None
        if buf.size_bytes + size > self.max_message_bytes:
            return "message_too_large", f"over {self.max_message_bytes} bytes"
        if self._total_bytes + size > self.max_total_bytes:
            return "buffer_space_exhausted", f"over {self.max_total_bytes} bytes buffered"
        if not buf.answer and self._unsolicited_bytes + size > self.unsolicited_max_bytes:
            kept = self.max_total_bytes - self.unsolicited_max_bytes
            return "buffer_space_exhausted", f"unsolicited input over its share ({kept} kept)"
        return None

    def discard(self, channel: Channel, message_id: str) -> bool:
        """Drop one message's buffer (a request timed out or was forgotten)."""
        buf = self._buffers.pop((channel, message_id), None)
        if buf is None:
            return False
        self._release(buf)
        return True

    def clear(self) -> None:
        """Drop every buffer and every remembered message (the connection closed)."""
        self._buffers.clear()
        self._recent.clear()
        self._total_bytes = self._unsolicited_buffers = self._unsolicited_bytes = 0

    def _remember(self, key: tuple[Channel, str], now: float) -> None:
        recent = self._recent
        recent.pop(key, None)  # re-inserted at the end: the newest
        recent[key] = now
        if len(recent) > self._recent_limit:
            del recent[next(iter(recent))]

    def expire(self, now: float) -> list[Expired]:
        """Drop buffers older than the TTL and report them."""
        recent = self._recent
        while recent and now - recent[oldest := next(iter(recent))] >= self.ttl_seconds:
            del recent[oldest]
        old = [k for k, b in self._buffers.items() if now - b.created_at >= self.ttl_seconds]
        out: list[Expired] = []
        for channel, message_id in old:
            buf = self._buffers[(channel, message_id)]
            out.append(Expired(channel, message_id, len(buf.parts), buf.total))
            self.discard(channel, message_id)
        return out
