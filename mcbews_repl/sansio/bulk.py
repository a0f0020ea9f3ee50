"""Requests bigger than one command: their JSON sent down in parts (docs/protocol.md).

A request whose line would not fit the game's two ceilings (461 bytes of command line, 661 of
frame) goes down as parts, each its own command::

    scriptevent mcbews:bulk <id> <k> <i>/<n> <content>

``id`` is the request's id (1-64 letters and digits), ``k`` the script event the whole stands
for (``c`` ``mcbews:bridge_req``, ``p`` ``mcbews:pull_req``, ``t`` ``mcbews:tags_req``), ``i`` of
``n`` counts from 1 and ``content`` is everything after the fourth space: a piece of the
request's JSON text as that event would carry it, cut on code points, never ending on a
character the game might trim from the end of a line. The addon joins the pieces in order
and handles the text as if the event had come (addon/src/bulk.ts keeps the bounds).

:func:`encode_bulk` cuts; :func:`parse_bulk_line` and :func:`join_parts` read parts back (the
tests' side, and what a capture is matched with). Pure: text in, lines out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Final, Literal

from ..exceptions import FrameTooLarge
from .frames import command_frame_bytes
from .jsonwire import utf8_len
from .wire import (
    BRIDGE_REQUEST_EVENT,
    BULK_EVENT,
    BULK_MAX_PARTS,
    BULK_REQUEST_MAX_BYTES,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    MAX_MESSAGE_ID_CHARS,
    PULL_REQUEST_EVENT,
    TAGS_REQUEST_EVENT,
)

__all__ = [
    "BULK_KINDS",
    "BulkKind",
    "BulkPart",
    "encode_bulk",
    "join_parts",
    "parse_bulk_line",
    "request_lines",
]

BulkKind = Literal["c", "p", "t"]
# What each kind stands for: the script event the joined text is handled as.
BULK_KINDS: Final[dict[str, str]] = {
    "c": BRIDGE_REQUEST_EVENT,
    "p": PULL_REQUEST_EVENT,
    "t": TAGS_REQUEST_EVENT,
}
_ID = re.compile(rf"[A-Za-z0-9]{{1,{MAX_MESSAGE_ID_CHARS}}}")
_HEAD = re.compile(rf"({_ID.pattern}) ([cpt]) ([1-9][0-9]{{0,5}})/([1-9][0-9]{{0,5}}) ")
# Characters a command line may lose at its end (the same set as addon/src/chunks.ts): a part
# never ends with one, unless the part is nothing else.
_TRIMMABLE = re.compile(r"[\s\x1c-\x1f\x85\ufeff]")
_PREFIX = f"scriptevent {BULK_EVENT} "


@dataclass(frozen=True, slots=True)
class BulkPart:
    """One part as read from its line (or its script event's message)."""

    request_id: str
    kind: BulkKind
    index: int
    total: int
    content: str


def _costs(char: str) -> tuple[int, int]:
    """What one code point of content adds to the line and to its frame, in bytes."""
    line = utf8_len(char)
    return line, utf8_len(encode_basestring(char)) - 2


def _head(request_id: str, kind: str, index: int, total: int) -> str:
    return f"{_PREFIX}{request_id} {kind} {index}/{total} "


def _cut(
    request_id: str, kind: str, text: str, total: int, budget_bytes: int, frame_budget_bytes: int
) -> list[str]:
    """The contents for a guessed ``total`` (its digit count sizes every header)."""
    pieces: list[str] = []
    pos = 0
    while pos < len(text):
        head = _head(request_id, kind, len(pieces) + 1, total)
        line_room = budget_bytes - utf8_len(head)
        frame_room = frame_budget_bytes - command_frame_bytes(head)
        end, line, frame = pos, 0, 0
        while end < len(text):
            step_line, step_frame = _costs(text[end])
            if line + step_line > line_room or frame + step_frame > frame_room:
                break
            line, frame, end = line + step_line, frame + step_frame, end + 1
        if end == pos:
            raise FrameTooLarge(
                "a bulk part's header", utf8_len(head) + 1, budget_bytes,
                command_frame_bytes(head) + 1, frame_budget_bytes,
            )  # fmt: skip
        keep = end
        while end < len(text) and keep > pos + 1 and _TRIMMABLE.fullmatch(text[keep - 1]):
            keep -= 1
        if not _TRIMMABLE.fullmatch(text[keep - 1]):
            end = keep  # a piece of nothing but spaces stays whole
        pieces.append(text[pos:end])
        pos = end
    return pieces


def encode_bulk(
    request_id: str,
    kind: BulkKind,
    text: str,
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
    max_parts: int = BULK_MAX_PARTS,
    max_bytes: int = BULK_REQUEST_MAX_BYTES,
) -> list[str]:
    """The ``scriptevent mcbews:bulk ...`` lines that carry ``text`` (a request's JSON), in
    order; every line within both ceilings.

    Raises:
        ValueError: the id is not 1-64 letters and digits, the kind is unknown or the text
            is empty.
        FrameTooLarge: the text is over ``max_bytes`` or needs more than ``max_parts`` parts
            (the request must be split), or a header leaves no room.
    """
    if not _ID.fullmatch(request_id):
        raise ValueError(f"a bulk request id is 1-{MAX_MESSAGE_ID_CHARS} letters and digits")
    if kind not in BULK_KINDS:
        raise ValueError(f"a bulk kind is one of {', '.join(BULK_KINDS)}, not {kind!r}")
    if not text:
        raise ValueError("a bulk request needs some text")
    size = utf8_len(text)
    if size > max_bytes:
        raise FrameTooLarge(
            f"the request {request_id} ({size} bytes, the addon keeps at most {max_bytes} "
            "a request: split it)", size, max_bytes, size, max_bytes,
        )  # fmt: skip
    total = 1
    while True:
        pieces = _cut(request_id, kind, text, total, budget_bytes, frame_budget_bytes)
        if len(str(len(pieces))) <= len(str(total)):
            break
        total = len(pieces)
    if len(pieces) > max_parts:
        raise FrameTooLarge(
            f"the request {request_id} ({len(pieces)} parts, the addon takes at most "
            f"{max_parts}: split it)", size, max_bytes, size, max_bytes,
        )  # fmt: skip
    count = len(pieces)
    return [_head(request_id, kind, i, count) + p for i, p in enumerate(pieces, start=1)]


def request_lines(
    request_id: str,
    kind: BulkKind,
    text: str,
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> tuple[str, ...]:
    """The lines that carry a request's JSON ``text``: ``scriptevent <event> <text>`` alone
    when it fits both ceilings, else its bulk parts.

    Raises:
        FrameTooLarge: even the parts cannot carry it (see :func:`encode_bulk`).
    """
    line = f"scriptevent {BULK_KINDS[kind]} {text}"
    if utf8_len(line) <= budget_bytes and command_frame_bytes(line) <= frame_budget_bytes:
        return (line,)
    budgets = {"budget_bytes": budget_bytes, "frame_budget_bytes": frame_budget_bytes}
    return tuple(encode_bulk(request_id, kind, text, **budgets))


def parse_bulk_line(text: str) -> BulkPart | None:
    """A part from its command line or its script event's message; None if it is not one."""
    message = text.removeprefix(_PREFIX)
    match = _HEAD.match(message)
    if match is None:
        return None
    index, total = int(match.group(3)), int(match.group(4))
    if index > total:
        return None
    kind: BulkKind = match.group(2)  # type: ignore[assignment]
    return BulkPart(match.group(1), kind, index, total, message[match.end() :])


def join_parts(parts: Iterable[BulkPart]) -> str | None:
    """The request's text from its parts in any order, duplicates allowed; None while one
    is missing or when two disagree (the id, kind, total or a part's content)."""
    found: dict[int, str] = {}
    first: BulkPart | None = None
    for part in parts:
        if first is None:
            first = part
        if (part.request_id, part.kind, part.total) != (first.request_id, first.kind, first.total):
            return None
        if found.setdefault(part.index, part.content) != part.content:
            return None
    if first is None or len(found) != first.total:
        return None
    return "".join(found[i] for i in range(1, first.total + 1))
