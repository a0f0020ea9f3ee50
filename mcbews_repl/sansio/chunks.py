"""The upstream chunk grammar: ``MCBEWS|<CHANNEL>|<id>|<index>/<total>|<content>``.

One grammar serves both channels the addon sends through the bridge player's chat:
``MCBEWS|BRIDGE`` (answers to capability requests) and ``MCBEWS|UI_CHAT`` (messages a
player typed into the addon's panel). ``content`` is a fragment of a UTF-8 JSON text cut on
code-point boundaries; it may itself contain ``|`` and may end inside an escape sequence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from ..exceptions import ChunkError
from .jsonwire import utf8_len
from .wire import (
    BRIDGE_PREFIX,
    COMMAND_LINE_BUDGET_BYTES,
    MAX_CHUNKS_PER_MESSAGE,
    UI_CHAT_PREFIX,
    UPSTREAM_CHUNK_CODE_POINTS,
)

__all__ = [
    "Channel",
    "Chunk",
    "ChunkError",
    "ChunkFields",
    "format_chunk",
    "parse_chunk",
    "parse_chunk_fields",
    "reassemble_chunks",
    "split_payload",
]

# Digits allowed in an index or total: 128 chunks needs 3, a little room for bad senders.
_MAX_NUMBER_DIGITS = 6
# The addon wraps every chunk as `tell @s <chunk>`, so the chunk shares the line budget.
TELL_WRAPPER = "tell @s "
# Characters a command line may lose at its end (the game, like the simulated one, may trim
# the line it runs): a chunk never ends with one unless it is all of them or the last. The
# union of what Python and JavaScript call space, as the addon's chunks.ts has it.
_TRIMMABLE = re.compile("[\\s\ufeff]")


class Channel(StrEnum):
    """Which upstream channel a chunk belongs to (its value is the chat prefix)."""

    BRIDGE = BRIDGE_PREFIX
    UI_CHAT = UI_CHAT_PREFIX
    TEXT = "text_resp"  # downstream text frames reuse the reassembler under this key


@dataclass(frozen=True, slots=True)
class Chunk:
    """One decoded chunk. ``meta`` must match across a message (text frames use it)."""

    channel: Channel
    message_id: str
    index: int
    total: int
    content: str
    meta: tuple[str, ...] = ()


# The fields of one decoded chunk line, without the dataclass: ``(channel, message_id,
# index, total, content)``. The connection's hot path takes these straight to the
# reassembler, since building a frozen ``Chunk`` costs as much as parsing the line.
ChunkFields = tuple[Channel, str, int, int, str]


def parse_chunk(text: str) -> Chunk:
    """Decode one chunk line.

    Raises:
        ChunkError: the line breaks the grammar; ``reason`` says how (a stable code).
    """
    return Chunk(*parse_chunk_fields(text))


def parse_chunk_fields(text: str) -> ChunkFields:
    """:func:`parse_chunk` without building a :class:`Chunk`: the same rules, as a tuple."""
    # Fast path for well-formed chunks: one regex match gives every field. Anything it does
    # not accept takes the checks of _parse_checked, which say what is wrong.
    match = _WELL_FORMED.match(text)
    if match is not None:
        prefix, name, first, second, content = match.groups()
        at, of = _POSITIONS.get(first), _POSITIONS.get(second)
        if at is not None and of is not None and at <= of and name.strip():
            return _CHANNELS[prefix], name, at, of, content
    return _parse_checked(text)


def _parse_number(text: str) -> int | None:
    if not text or len(text) > _MAX_NUMBER_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def _parse_checked(text: str) -> ChunkFields:
    """The grammar field by field: the reference the regex fast path must agree with."""
    for channel in (Channel.BRIDGE, Channel.UI_CHAT):
        head = channel.value + "|"
        if text.startswith(head):
            break
    else:
        raise ChunkError("prefix_mismatch", "expected MCBEWS|BRIDGE| or MCBEWS|UI_CHAT|")
    fields = text[len(head) :].split("|", 2)
    if len(fields) != 3:
        raise ChunkError(
            "field_count", f"expected <id>|<index>/<total>|<content>, got {text!r:.80}"
        )
    message_id, position, content = fields
    if not message_id.strip():
        raise ChunkError("bad_id", "the message id is empty")
    index_text, slash, total_text = position.partition("/")
    index, total = _parse_number(index_text), _parse_number(total_text)
    if not slash or index is None or total is None:
        raise ChunkError("bad_position", f"expected <index>/<total>, got {position!r:.40}")
    if not 1 <= index <= total:
        raise ChunkError("bad_position", f"index {index} outside 1..{total}")
    if total > MAX_CHUNKS_PER_MESSAGE:
        raise ChunkError("too_many_chunks", f"total {total} > {MAX_CHUNKS_PER_MESSAGE}")
    return channel, message_id, index, total, content


# The whole line exactly as _parse_checked accepts it (ids without '|', indexes and totals
# of 1 to _MAX_NUMBER_DIGITS ASCII digits, then any content, newlines included).
_WELL_FORMED = re.compile(
    f"({re.escape(BRIDGE_PREFIX)}|{re.escape(UI_CHAT_PREFIX)})"
    rf"\|([^|]*)\|([0-9]{{1,{_MAX_NUMBER_DIGITS}}})/([0-9]{{1,{_MAX_NUMBER_DIGITS}}})\|(.*)",
    re.DOTALL,
)
_CHANNELS = {Channel.BRIDGE.value: Channel.BRIDGE, Channel.UI_CHAT.value: Channel.UI_CHAT}
# Every valid index and total as the addon writes it, so the fast path needs no int(); other
# spellings ("007", "0", "129") go to _parse_checked, which accepts or rejects them.
_POSITIONS = {str(n): n for n in range(1, MAX_CHUNKS_PER_MESSAGE + 1)}


def format_chunk(chunk: Chunk) -> str:
    """Encode a chunk as the addon writes it into chat."""
    return f"{chunk.channel.value}|{chunk.message_id}|{chunk.index}/{chunk.total}|{chunk.content}"


def split_payload(
    channel: Channel,
    message_id: str,
    payload: str,
    *,
    max_code_points: int = UPSTREAM_CHUNK_CODE_POINTS,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    wrapper: str = TELL_WRAPPER,
) -> list[Chunk]:
    """Cut ``payload`` into chunks whose ``<wrapper><chunk>`` line fits ``budget_bytes``.

    Cuts fall on code points; the total is iterated until its digit count is stable, so
    every header is sized with the final total.

    Raises:
        ValueError: ``message_id`` is empty or holds ``|``, or not even one code point
            fits beside the header.
    """
    if "|" in message_id or not message_id.strip():
        raise ValueError("message_id must be non-empty and contain no '|'")
    total_guess = 1
    while True:
        pieces = _cut(
            channel, message_id, payload, total_guess, max_code_points, budget_bytes, wrapper
        )
        if len(str(len(pieces))) <= len(str(total_guess)):
            break
        total_guess = len(pieces)
    total = len(pieces)
    if total > MAX_CHUNKS_PER_MESSAGE:
        raise ValueError(f"payload needs {total} chunks, more than {MAX_CHUNKS_PER_MESSAGE}")
    return [Chunk(channel, message_id, i, total, p) for i, p in enumerate(pieces, start=1)]


def _cut(
    channel: Channel,
    message_id: str,
    payload: str,
    total_guess: int,
    max_code_points: int,
    budget_bytes: int,
    wrapper: str,
) -> list[str]:
    pieces: list[str] = []
    pos, index = 0, 1
    while True:
        header = f"{wrapper}{channel.value}|{message_id}|{index}/{total_guess}|"
        room = budget_bytes - utf8_len(header)
        piece = _longest_prefix(payload, pos, max_code_points, room)
        if not piece and pos < len(payload):
            raise ValueError(f"no room for content: header uses {budget_bytes - room} bytes")
        if pos + len(piece) < len(payload):
            piece = _without_trailing_space(piece)
        pieces.append(piece)
        pos += len(piece)
        index += 1
        if pos >= len(payload):
            return pieces


def _without_trailing_space(piece: str) -> str:
    """``piece`` without the spaces it ends with, unless it is nothing but spaces."""
    keep = len(piece)
    while keep > 1 and _TRIMMABLE.match(piece, keep - 1):
        keep -= 1
    return piece if _TRIMMABLE.match(piece, keep - 1) else piece[:keep]


def _longest_prefix(text: str, start: int, max_chars: int, room_bytes: int) -> str:
    """Longest ``text[start:start+k]`` with ``k <= max_chars`` that fits ``room_bytes``."""
    if room_bytes <= 0:
        return ""
    limit = min(max_chars, room_bytes, len(text) - start)
    end = start + limit
    size = utf8_len(text[start:end])
    while size > room_bytes:  # shrink by the proportion over budget, at least one char
        end = start + min((end - start) * room_bytes // size, end - start - 1)
        size = utf8_len(text[start:end])
    while end < start + limit:  # the proportional cut may undershoot: grow back exactly
        step = utf8_len(text[end])
        if size + step > room_bytes:
            break
        size += step
        end += 1
    return text[start:end]


def reassemble_chunks(chunks: Iterable[Chunk]) -> str:
    """Join a complete set of chunks (any order, harmless duplicates) into one text.

    Raises:
        ChunkError: an empty set, mixed ids, channels or totals, a duplicate with
            different content, or a missing index.
    """
    items = list(chunks)
    if not items:
        raise ChunkError("empty", "no chunks to reassemble")
    first = items[0]
    parts: dict[int, str] = {}
    for chunk in items:
        if (chunk.channel, chunk.message_id) != (first.channel, first.message_id):
            raise ChunkError("mixed_ids", f"{chunk.message_id!r} != {first.message_id!r}")
        if chunk.total != first.total:
            raise ChunkError("total_changed", f"total {chunk.total} != {first.total}")
        seen = parts.setdefault(chunk.index, chunk.content)
        if seen != chunk.content:
            raise ChunkError(
                "conflicting_duplicate", f"index {chunk.index} arrived twice, different"
            )
    missing = [i for i in range(1, first.total + 1) if i not in parts]
    if missing:
        raise ChunkError("missing_index", f"missing {missing[:8]} of {first.total}")
    return "".join(parts[i] for i in range(1, first.total + 1))
