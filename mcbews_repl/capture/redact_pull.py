"""Redaction over the pull transport: request lines in hex, answers cut into pages.

``mcbews:ask <hex>`` carries the request (a target player's name, say) as hex digits: it is
read, redacted and written back. Answers and UI chat messages come back as pages in the
``statusMessage`` of the commands that pulled them (``MCBEWS|ANSWER|<id>|<i>/<n>|...``); a
name may straddle two pages, so each message is joined, redacted whole and cut again. The
bridge pulls pages 2..n by number, so the cut keeps the recorded number of pages where the
redacted text fits them; when it needs more (placeholders are longer than short names),
the extra pages get requests and answers of their own, added beside the last one, so the
redacted capture still replays.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..sansio import (
    ASK_COMMAND,
    PULL_COMMAND,
    PULL_PAGE_BYTES,
    Page,
    PageKind,
    decode_reply,
    dumps_wire,
    format_page,
    split_pages,
    utf8_len,
)
from .records import FrameRecord

__all__ = ["PageStream", "PageStreams", "redact_ask"]

Redact = Callable[[Any], Any]  # a JSON value -> its redacted copy
RedactPage = Callable[[PageKind, Any], Any]  # the same, knowing an answer from a UI message


def redact_ask(line: str, redact: Redact) -> str | None:
    """The ask line with its request redacted, or None when ``line`` is not one."""
    prefix = f"{ASK_COMMAND} "
    if not line.startswith(prefix):
        return None
    try:
        request = json.loads(bytes.fromhex(line[len(prefix) :]).decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    text = json.dumps(redact(request), ensure_ascii=True, separators=(",", ":"))
    return prefix + text.encode().hex()


def _status_message(frame: FrameRecord) -> tuple[dict[str, Any], str] | None:
    data = frame.json() if frame.dir == "in" else None
    body = data.get("body") if data else None
    message = body.get("statusMessage") if isinstance(body, dict) else None
    return (data, message) if data is not None and isinstance(message, str) else None


@dataclass
class PageStream:
    """One paged message and the response frames that carried its pages."""

    kind: PageKind
    message_id: str
    total: int
    parts: dict[int, str] = field(default_factory=dict)
    frames: dict[int, FrameRecord] = field(default_factory=dict)  # page index -> its frame

    @property
    def complete(self) -> bool:
        """True once every page of the message has been seen."""
        return len(self.parts) == self.total

    def text(self) -> str:
        """The pages joined in order (call once :attr:`complete`)."""
        return "".join(self.parts[i] for i in range(1, self.total + 1))


def _cut_into(text: str, count: int, page_bytes: int) -> list[str] | None:
    """``text`` in exactly ``count`` non-empty pages of at most ``page_bytes``, or None."""
    size = utf8_len(text)
    if count > len(text) or size > count * (page_bytes - 3):
        return None
    pages: list[str] = []
    start = spent = 0
    for index in range(1, count):
        end, target = start, size * index // count
        # Up to this page's share of the bytes, leaving a character for each page to come.
        while end < len(text) - (count - index) and (spent < target or end == start):
            spent += utf8_len(text[end])
            end += 1
        pages.append(text[start:end])
        start = end
    pages.append(text[start:])
    return pages if all(0 < utf8_len(p) <= page_bytes for p in pages) else None


class PageStreams:
    """Every paged message of a capture: collected in a first pass, rewritten in a second."""

    def __init__(self) -> None:
        self.streams: dict[tuple[str, str], PageStream] = {}
        self.by_frame: dict[int, PageStream] = {}

    def collect(self, frame: FrameRecord) -> bool:
        """Take ``frame`` if its statusMessage is a page; True when it was one."""
        found = _status_message(frame)
        reply = decode_reply(found[1]) if found else None
        if not isinstance(reply, Page):
            return False
        key = (reply.kind, reply.message_id)
        stream = self.streams.setdefault(key, PageStream(*key, reply.total))
        stream.parts.setdefault(reply.index, reply.content)
        stream.frames.setdefault(reply.index, frame)
        self.by_frame[id(frame)] = stream
        return True

    def rewrite(self, stream: PageStream, redact: RedactPage) -> dict[int, list[FrameRecord]]:
        """For each frame of ``stream`` (by id): what replaces it (itself redacted, and any
        extra pages after it). An incomplete stream is left out: every frame -> []."""
        if not stream.complete:
            return {id(f): [] for f in stream.frames.values()}
        text = dumps_wire(redact(stream.kind, json.loads(stream.text())))
        pages = _cut_into(text, stream.total, PULL_PAGE_BYTES) or split_pages(text)

        def page(index: int) -> Page:
            return Page(stream.kind, stream.message_id, index, len(pages), pages[index - 1])

        made = {
            id(stream.frames[i]): [_with_page(stream.frames[i], page(i))]
            for i in range(1, min(stream.total, len(pages)) + 1)
        }
        last = stream.frames[stream.total]
        for index in range(stream.total + 1, len(pages) + 1):
            made[id(last)] += _pull_pair(last, page(index))
        return made


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _with_page(frame: FrameRecord, page: Page) -> FrameRecord:
    data = frame.json() or {}
    data["body"]["statusMessage"] = format_page(page)
    return FrameRecord(frame.t, frame.conn, frame.dir, _dumps(data))


def _pull_pair(after: FrameRecord, page: Page) -> list[FrameRecord]:
    """A ``mcbews:pull`` request for ``page`` and its answer, as the game would give them."""
    request_id = str(uuid.uuid4())
    line = f"{PULL_COMMAND} {page.message_id} {page.index}"
    header = {"version": 1, "requestId": request_id, "messagePurpose": "commandRequest",
              "messageType": "commandRequest"}  # fmt: skip
    body = {"version": 17039360, "commandLine": line, "origin": {"type": "player"}}
    answer = {
        "body": {"statusCode": 0, "statusMessage": format_page(page)},
        "header": {"messagePurpose": "commandResponse", "requestId": request_id, "version": 1},
    }
    return [
        FrameRecord(after.t, after.conn, "out", _dumps({"header": header, "body": body})),
        FrameRecord(after.t, after.conn, "in", _dumps(answer)),
    ]
