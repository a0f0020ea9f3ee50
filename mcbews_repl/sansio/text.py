"""Channel C: text responses sent down to the addon as ``scriptevent mcbews:text_resp``.

Each frame is compact JSON ``{"id","i","n","p","r","c"}`` plus optional ``cid`` and ``t``
on every frame and ``u`` (usage) on the last one. The encoder fills every command line as
close to both ceilings as it can (the line's bytes, and the whole commandRequest frame's
bytes with its JSON escapes), cutting the text only between code points, and sizes every
header with the final ``n``. The decoder and its reassembler mirror the addon's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any, NoReturn

from ..exceptions import FrameTooLarge
from .chunks import Channel, Chunk, ChunkError
from .frames import command_frame_bytes
from .jsonwire import (
    char_costs,
    dumps_wire,
    escape_wire,
    utf8_len,
)
from .reassembly import Completed, Expired, Failed, Reassembler
from .wire import (
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    MAX_BUFFERS,
    MAX_CHUNKS_PER_MESSAGE,
    MAX_MESSAGE_BYTES,
    TEXT_RESPONSE_EVENT,
    TEXT_ROLES,
)

__all__ = [
    "TextFrame",
    "TextResponse",
    "TextResponseReassembler",
    "encode_text_response",
    "parse_text_frame",
    "split_text",
]

_COMMAND_PREFIX = f"scriptevent {TEXT_RESPONSE_EVENT} "


@dataclass(frozen=True, slots=True)
class _Budget:
    """The two ceilings every line is packed against (PROTOCOL limits, wire.json)."""

    line: int  # UTF-8 bytes of the command line
    frame: int  # UTF-8 bytes of the whole commandRequest frame as sent


@dataclass(frozen=True, slots=True)
class _Room:
    """Bytes left for escaped content: in the line, and in the frame (escapes counted)."""

    line: int
    frame: int

    def least(self) -> int:
        return min(self.line, self.frame)

    def fits(self, escaped: str) -> bool:
        size = utf8_len(escaped)
        return size <= self.line and size + _frame_extra(escaped) <= self.frame

    def too_small(self) -> bool:
        # The widest code point: \uXXXX is 6 bytes in the line and 7 in the frame.
        return self.line < 6 or self.frame < 7


@dataclass(frozen=True, slots=True)
class _Template:
    """The fixed parts of every frame, already serialized."""

    head: str  # '{"id":"..."'
    who: str  # ',"p":"...","r":"...","c":"'
    tail: str  # '"' plus cid/t, without the closing brace
    usage: str  # ',"u":{...}' or ''

    def room(self, index: int, total: int, last: bool, budget: _Budget) -> _Room:
        """What is left for the escaped content under each ceiling."""
        empty = self.line(index, total, "", last=last)
        return _Room(budget.line - utf8_len(empty), budget.frame - command_frame_bytes(empty))

    def line(self, index: int, total: int, escaped: str, *, last: bool | None = None) -> str:
        usage = self.usage if (index == total if last is None else last) else ""
        return (
            f'{_COMMAND_PREFIX}{self.head},"i":{index},"n":{total}{self.who}{escaped}'
            f"{self.tail}{usage}}}"
        )


def _frame_extra(escaped: str) -> int:
    """:func:`frame_extra_bytes` of escaped content: its quotes are all backslash-escaped,
    so content without a backslash adds nothing (the common case, one scan)."""
    backslashes = escaped.count("\\")
    return backslashes + escaped.count('"') if backslashes else 0


def _escaped(text: str) -> str:
    # What dumps_wire(text)[1:-1] gives, without json.dumps building an encoder per call:
    # for a str with ensure_ascii=False, json.dumps is exactly encode_basestring (C).
    return escape_wire(encode_basestring(text))[1:-1]


def _template(
    response_id: str,
    player: str,
    role: str,
    conversation_id: str | None,
    title: str | None,
    usage: Mapping[str, int] | None,
) -> _Template:
    tail = '"'
    if conversation_id is not None:
        tail += ',"cid":' + dumps_wire(conversation_id)
    if title is not None:
        tail += ',"t":' + dumps_wire(title)
    return _Template(
        head='{"id":' + dumps_wire(response_id),
        who=',"p":' + dumps_wire(player) + ',"r":' + dumps_wire(role) + ',"c":"',
        tail=tail,
        usage=',"u":' + dumps_wire(dict(usage)) if usage is not None else "",
    )


def _validate(player: str, role: str, response_id: str, usage: Mapping[str, int] | None) -> None:
    if not isinstance(player, str) or not player.strip():
        raise ValueError("player must be a non-empty player name")
    if role not in TEXT_ROLES:
        raise ValueError(f"role must be one of {', '.join(TEXT_ROLES)}, not {role!r}")
    if not isinstance(response_id, str) or not response_id.strip():
        raise ValueError("response_id must be a non-empty string")
    if usage is not None and not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in usage.items()
    ):
        raise ValueError('usage must map names to integers, e.g. {"i": 12, "o": 40}')


def encode_text_response(
    player: str,
    text: str,
    *,
    response_id: str,
    role: str = "assistant",
    conversation_id: str | None = None,
    title: str | None = None,
    usage: Mapping[str, int] | None = None,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
    max_frames: int | None = MAX_CHUNKS_PER_MESSAGE,
) -> list[str]:
    """Encode ``text`` as the fewest ``scriptevent mcbews:text_resp`` lines that fit.

    Every line is at most ``budget_bytes`` UTF-8 bytes and its commandRequest frame, as
    sent with a UUID request id, at most ``frame_budget_bytes``. Empty text gives one
    frame.

    Raises:
        TypeError: ``text`` is not a string.
        ValueError: a bad player, role, id or usage, or the text needs more than
            ``max_frames`` frames (the addon's reassembly cap; pass ``None`` to lift it, or
            use :func:`split_text` to send a long text as several responses).
        FrameTooLarge: the fixed fields alone leave no room for a code point.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    _validate(player, role, response_id, usage)
    template = _template(response_id, player, role, conversation_id, title, usage)
    budget = _Budget(budget_bytes, frame_budget_bytes)
    try:
        pieces = _pack_converged(text, template, _least_total(text, template, budget), budget)
    except FrameTooLarge:
        # The shortcut skipped the narrower passes; redo them so the error is theirs.
        pieces = _pack_converged(text, template, 1, budget)
    total = len(pieces)
    if max_frames is not None and total > max_frames:
        raise ValueError(
            f"the text needs {total} frames; the addon reassembles at most "
            f"{max_frames}: split it with split_text() and send the parts"
        )
    return [template.line(i, total, esc) for i, esc in enumerate(pieces, start=1)]


def _pack_converged(text: str, template: _Template, total_guess: int, budget: _Budget) -> list[str]:
    """Repack until the headers are sized with as many digits of ``n`` as the result has.

    Only the digit count of ``total_guess`` matters to :func:`_pack`, and more header bytes
    never give fewer frames, so starting from any guess with no more digits than the
    answer (see :func:`_least_total`) ends on the same packing as starting from 1.
    """
    while True:
        pieces = _pack(text, template, total_guess, budget)
        if len(str(len(pieces))) <= len(str(total_guess)):
            return pieces
        total_guess = len(pieces)


def _least_total(text: str, template: _Template, budget: _Budget) -> int:
    """A lower bound on the frame count, with the fewest digits the final ``n`` can have.

    No frame carries more escaped text than the first one's room, and escaping never
    makes a code point shorter than its UTF-8 form, so a text of ``size`` UTF-8 bytes needs
    at least ``ceil(size / room)`` frames whatever the packing; when that bound has more
    digits than ``n`` was sized with, that width cannot be the answer and its pass can be
    skipped. Saves the throwaway pass with a one-digit ``n`` for texts over a few KiB.
    """
    size = utf8_len(text)
    width, smallest = 1, 1  # the least total with ``width`` digits
    while True:
        room = template.room(1, smallest, False, budget)
        if room.too_small():
            return 1
        if len(str(-(-size // room.least()))) <= width:
            return smallest
        width, smallest = width + 1, smallest * 10


def _pack(text: str, template: _Template, total_guess: int, budget: _Budget) -> list[str]:
    """Greedy packing with every header sized for ``total_guess``; returns escaped pieces."""
    pieces: list[str] = []
    pos, index = 0, 1
    wider_at = 0  # headers only change size when the index gains a digit
    room = room_last = _Room(0, 0)
    least = least_last = 0
    while True:
        if index >= wider_at:
            room_last = template.room(index, total_guess, True, budget)
            room = template.room(index, total_guess, False, budget)
            if room.too_small() or room_last.too_small():
                _fixed_fields_too_large(template, index, total_guess, budget)
            least, least_last = room.least(), room_last.least()
            wider_at = 10 ** len(str(index))
        rest = len(text) - pos
        if rest <= least_last:
            escaped = _escaped(text[pos:])
            if room_last.fits(escaped):
                pieces.append(escaped)
                return pieces
        end, escaped = _longest_fit(text, pos, min(least, max(rest - 1, 0)), room)
        pieces.append(escaped)
        pos, index = end, index + 1


def _fixed_fields_too_large(
    template: _Template, index: int, total: int, budget: _Budget
) -> NoReturn:
    """Raise :class:`FrameTooLarge` for a frame whose fixed fields leave no room."""
    widest = template.line(index, total, "\\u0040", last=True)
    raise FrameTooLarge(
        "a text response frame's fixed fields (with one code point)",
        utf8_len(widest),
        budget.line,
        command_frame_bytes(widest),
        budget.frame,
    )


def _longest_fit(text: str, start: int, max_chars: int, room: _Room) -> tuple[int, str]:
    """Largest ``end`` with ``text[start:end]`` (at most ``max_chars``) escaped within ``room``."""
    line_room, frame_room = room.line, room.frame
    end = start + max(max_chars, 1)
    escaped = _escaped(text[start:end])
    size = utf8_len(escaped)
    frame = size + _frame_extra(escaped)
    while size > line_room or frame > frame_room:  # cut in proportion, at least one char
        n = end - start
        end = start + min(n * line_room // size, n * frame_room // frame, n - 1)
        escaped = _escaped(text[start:end])
        size = utf8_len(escaped)
        frame = size + _frame_extra(escaped)
    grown = end
    while grown < start + max_chars:  # proportional cuts undershoot: grow back exactly
        step, frame_step = char_costs(text[grown])
        if size + step > line_room or frame + frame_step > frame_room:
            break
        size += step
        frame += frame_step
        grown += 1
    if grown != end:
        end, escaped = grown, _escaped(text[start:grown])
    return end, escaped


def split_text(
    player: str,
    text: str,
    *,
    role: str = "assistant",
    conversation_id: str | None = None,
    title: str | None = None,
    id_length: int = 12,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
    max_frames: int = MAX_CHUNKS_PER_MESSAGE,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
) -> list[str]:
    """Cut ``text`` into parts that each fit one text response the addon can reassemble.

    Every part encodes (with a response id of ``id_length`` characters and the same
    player, role, conversation id and title) to at most ``max_frames`` frames and holds at
    most ``max_message_bytes`` UTF-8 bytes, the addon's per-message caps. Cuts fall between
    code points, and ``"".join(parts) == text``. Empty text gives one empty part.

    Raises:
        ValueError: ``max_frames`` is under 1 or ``max_message_bytes`` under 6, or a bad
            player, role or id (as :func:`encode_text_response`).
        FrameTooLarge: the fixed fields alone leave no room for a code point.
    """
    if max_frames < 1 or max_message_bytes < 6:
        raise ValueError("max_frames must be >= 1 and max_message_bytes >= 6")
    placeholder = "0" * max(id_length, 1)
    parts: list[str] = []
    pos = 0
    while True:
        end = _byte_prefix_end(text, pos, max_message_bytes)
        while end - pos > 1:
            frames = len(
                encode_text_response(
                    player,
                    text[pos:end],
                    response_id=placeholder,
                    role=role,
                    conversation_id=conversation_id,
                    title=title,
                    budget_bytes=budget_bytes,
                    frame_budget_bytes=frame_budget_bytes,
                    max_frames=None,
                )
            )
            if frames <= max_frames:
                break
            # Shrink in proportion, a little under, so a few rounds converge.
            end = pos + max(1, min((end - pos) * max_frames // frames, end - pos - 1))
        parts.append(text[pos:end])
        pos = end
        if pos >= len(text):
            return parts


def _byte_prefix_end(text: str, start: int, max_bytes: int) -> int:
    """A large ``end`` with ``text[start:end]`` within ``max_bytes`` UTF-8 bytes."""
    end = min(len(text), start + max_bytes)
    size = utf8_len(text[start:end])
    while size > max_bytes:
        end = start + max(1, min((end - start) * max_bytes // size, end - start - 1))
        size = utf8_len(text[start:end])
    return end


# --- decoding ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextFrame:
    """One decoded ``mcbews:text_resp`` frame: part ``index`` of ``total`` of a response."""

    response_id: str
    index: int
    total: int
    player: str
    role: str
    content: str
    conversation_id: str | None = None
    title: str | None = None
    usage: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class TextResponse:
    """A whole text response, its frames joined, with who it is for and in what role."""

    response_id: str
    player: str
    role: str
    text: str
    conversation_id: str | None = None
    title: str | None = None
    usage: dict[str, Any] | None = None


def _opt_str(data: dict[str, Any], key: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ChunkError("bad_field", f"{key} must be a string")
    return value


def parse_text_frame(message: str) -> TextFrame:
    """Decode one frame (the scriptevent message, or the whole command line).

    Raises:
        ChunkError: the frame is not a text-response object (``reason`` says why).
    """
    if message.startswith(_COMMAND_PREFIX):
        message = message[len(_COMMAND_PREFIX) :]
    try:
        data = json.loads(message)
    except (ValueError, RecursionError) as exc:
        raise ChunkError("not_json", str(exc)[:80]) from exc
    if not isinstance(data, dict):
        raise ChunkError("not_an_object", type(data).__name__)
    rid, i, n = data.get("id"), data.get("i"), data.get("n")
    p, r, c = data.get("p"), data.get("r"), data.get("c")
    if not isinstance(rid, str) or not rid:
        raise ChunkError("bad_id", "id must be a non-empty string")
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in (i, n)):
        raise ChunkError("bad_position", "i and n must be integers")
    assert isinstance(i, int) and isinstance(n, int)
    if not 1 <= i <= n:
        raise ChunkError("bad_position", f"index {i} outside 1..{n}")
    if not isinstance(p, str) or not p or not isinstance(r, str) or not isinstance(c, str):
        raise ChunkError("bad_field", "p (non-empty), r and c must be strings")
    usage = data.get("u")
    return TextFrame(
        rid,
        i,
        n,
        p,
        r,
        c,
        _opt_str(data, "cid"),
        _opt_str(data, "t"),
        usage if isinstance(usage, dict) else None,
    )


class TextResponseReassembler:
    """Bounded reassembly of text frames into whole responses (clock passed in)."""

    def __init__(self, reassembler: Reassembler | None = None) -> None:
        self._reassembler = reassembler or Reassembler()
        self._usage: dict[str, dict[str, Any]] = {}

    def feed(self, frame: TextFrame, now: float) -> TextResponse | Failed | None:
        """Add one frame: the whole :class:`TextResponse` when it completes it, ``Failed``
        when the response breaks (a bad position or id, over a bound), else None. Never
        raises."""
        meta = (frame.player, frame.role, frame.conversation_id or "", frame.title or "")
        chunk = Chunk(
            Channel.TEXT, frame.response_id, frame.index, frame.total, frame.content, meta
        )
        if frame.usage is not None and len(self._usage) < MAX_BUFFERS:
            self._usage[frame.response_id] = frame.usage
        outcome = self._reassembler.feed(chunk, now)
        if isinstance(outcome, Completed):
            usage = self._usage.pop(frame.response_id, None)
            return TextResponse(
                frame.response_id,
                frame.player,
                frame.role,
                outcome.text,
                frame.conversation_id,
                frame.title,
                usage,
            )
        if isinstance(outcome, Failed):
            self._usage.pop(frame.response_id, None)
            return outcome
        return None

    def expire(self, now: float) -> list[Expired]:
        """Drop the responses that have waited too long for their next frame; returns them."""
        expired = self._reassembler.expire(now)
        for item in expired:
            self._usage.pop(item.message_id, None)
        return expired
