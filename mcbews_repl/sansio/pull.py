"""The pull transport's codec: requests as custom commands, answers as their results.

No chat is involved. A request goes down as one custom command whose result message
carries the answer (``mcbews:ask <hex>``), or, when it is too large for that line, as a
script event answered into the addon's store (``scriptevent mcbews:pull_req {...}``).
Long answers and UI chat messages come up page by page as the results of
``mcbews:pull <id> <page>`` and ``mcbews:poll``. docs/protocol.md describes the wire;
``tests/vectors/pull_v1.json`` holds examples both sides are tested against.

Replies (a command result's message, which the game returns as ``statusMessage``)::

    MCBEWS|ANSWER|<id>|<i>/<n>|<content>   page i of n of an answer's JSON text
    MCBEWS|UI|<id>|<i>/<n>|<content>       page i of n of a UI chat message's JSON text
    MCBEWS|WAIT|<id>                       accepted; answered at the next script tick
    MCBEWS|NONE|<id>|<reason>              nothing kept under that id (or no such page)
    MCBEWS|EMPTY                           no UI chat message waiting

:func:`decode_reply` never raises; what does not fit the grammar is a
:class:`ReplyRejected` with a short reason, like the rest of the core's remote input.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .bridge import UI_CHAT_MAX_BYTES, encode_request_body
from .bulk import request_lines
from .frames import command_frame_bytes
from .jsonwire import dumps_wire, utf8_len
from .wire import (
    ANSWER_PAGE_PREFIX,
    ASK_COMMAND,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    EMPTY_REPLY,
    MAX_MESSAGE_ID_CHARS,
    NONE_REPLY,
    POLL_COMMAND,
    PULL_ANSWER_MAX_BYTES,
    PULL_COMMAND,
    PULL_PAGE_BYTES,
    UI_PAGE_PREFIX,
    WAIT_REPLY,
)

__all__ = [
    "MAX_PAGES",
    "UI_MAX_PAGES",
    "Empty",
    "NotKept",
    "Page",
    "PageKind",
    "PageSet",
    "PullReply",
    "PullRequest",
    "ReplyRejected",
    "Wait",
    "decode_reply",
    "encode_ask",
    "encode_poll",
    "encode_pull",
    "encode_pull_request",
    "format_page",
    "max_pages",
    "request_text",
    "split_pages",
]

PageKind = Literal["answer", "ui"]


def max_pages(max_bytes: int, page_bytes: int = PULL_PAGE_BYTES) -> int:
    """The most pages a text of at most ``max_bytes`` takes: every page but the last holds
    more than ``page_bytes - 4`` bytes (a cut falls between code points of up to 4 bytes)."""
    return -(-max_bytes // (page_bytes - 3))


# An answer within its bound needs at most this many pages, a UI chat message this many:
# a first page that says more is refused before anything more is pulled.
MAX_PAGES = max_pages(PULL_ANSWER_MAX_BYTES)
UI_MAX_PAGES = max_pages(UI_CHAT_MAX_BYTES)
_MAX_BYTES: dict[PageKind, int] = {"answer": PULL_ANSWER_MAX_BYTES, "ui": UI_CHAT_MAX_BYTES}
# Ids travel as one bare word of a command line: letters and digits only, so no quoting
# rule of the game's command parser is relied on (docs/protocol.md).
_ID = re.compile(f"[A-Za-z0-9]{{1,{MAX_MESSAGE_ID_CHARS}}}")
# Digits of a page number or count; MAX_PAGES needs 4, a little room for bad senders.
_MAX_NUMBER_DIGITS = 7
_PREFIXES: dict[str, PageKind] = {ANSWER_PAGE_PREFIX: "answer", UI_PAGE_PREFIX: "ui"}
_KIND_PREFIX: dict[PageKind, str] = {kind: prefix for prefix, kind in _PREFIXES.items()}


@dataclass(frozen=True, slots=True)
class PullRequest:
    """One request's command line; ``inline``: the custom command answers it at once."""

    request_id: str
    capability: str
    command_line: str
    inline: bool
    # Every line to send, in order: the command line alone, or a large request's bulk parts
    # (``command_line`` is then the last of them; the answer is pulled after).
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Page:
    """Page ``index`` of ``total`` of an answer or a UI chat message."""

    kind: PageKind
    message_id: str
    index: int
    total: int
    content: str


@dataclass(frozen=True, slots=True)
class Wait:
    """The request is accepted; its answer is made at the next script tick."""

    message_id: str


@dataclass(frozen=True, slots=True)
class NotKept:
    """Nothing is kept under ``message_id``: ``reason`` is ``unknown`` or ``no_page``."""

    message_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class Empty:
    """``mcbews:poll`` found no UI chat message waiting."""


@dataclass(frozen=True, slots=True)
class ReplyRejected:
    """A result message that is not a pull reply; ``reason`` is a stable short code."""

    reason: str
    detail: str


PullReply = Page | Wait | NotKept | Empty | ReplyRejected


# --- requests ------------------------------------------------------------------------------


def _ascii_json(body: Any) -> str:
    return json.dumps(body, ensure_ascii=True, separators=(",", ":"))


def request_text(request_id: str, capability: str, payload: Mapping[str, Any] | None = None) -> str:
    """The request's JSON, compact and pure ASCII (other characters as ``\\uXXXX``)."""
    if not _ID.fullmatch(request_id):
        raise ValueError(f"a pull request id must be 1-{MAX_MESSAGE_ID_CHARS} letters and digits")
    return encode_request_body(request_id, capability, payload, _ascii_json)


def _fits(line: str, budget_bytes: int, frame_budget_bytes: int) -> bool:
    return utf8_len(line) <= budget_bytes and command_frame_bytes(line) <= frame_budget_bytes


def encode_ask(
    request_id: str,
    capability: str,
    payload: Mapping[str, Any] | None = None,
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> str | None:
    """``mcbews:ask <hex>``: the request's ASCII JSON as hex digits, one bare word; None
    when that line would not fit both ceilings (each request byte costs two)."""
    line = f"{ASK_COMMAND} {request_text(request_id, capability, payload).encode().hex()}"
    return line if _fits(line, budget_bytes, frame_budget_bytes) else None


def encode_pull_request(
    request_id: str,
    capability: str,
    payload: Mapping[str, Any] | None = None,
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> PullRequest:
    """The ask line when it fits, else ``scriptevent mcbews:pull_req {...}``, else that
    request's bulk parts (docs/protocol.md, "Requests bigger than one command").

    Raises:
        FrameTooLarge: not even the parts can carry it (over the addon's bulk bounds).
    """
    budgets = {"budget_bytes": budget_bytes, "frame_budget_bytes": frame_budget_bytes}
    ask = encode_ask(request_id, capability, payload, **budgets)
    if ask is not None:
        return PullRequest(request_id, capability, ask, inline=True, lines=(ask,))
    body = json.loads(request_text(request_id, capability, payload))
    lines = request_lines(request_id, "p", dumps_wire(body), **budgets)
    return PullRequest(request_id, capability, lines[-1], inline=False, lines=lines)


def encode_pull(message_id: str, page: int = 1) -> str:
    """``mcbews:pull <id> <page>``: one page of a kept answer or UI chat message.

    Raises:
        ValueError: ``message_id`` is not 1 to 64 letters and digits, or ``page`` is out of
            range.
    """
    if not _ID.fullmatch(message_id):
        raise ValueError(f"a pull id must be 1-{MAX_MESSAGE_ID_CHARS} letters and digits")
    if not 1 <= page <= MAX_PAGES:
        raise ValueError(f"page must be 1..{MAX_PAGES}, not {page}")
    return f"{PULL_COMMAND} {message_id} {page}"


def encode_poll() -> str:
    """``mcbews:poll``: the first page of the oldest waiting UI chat message."""
    return POLL_COMMAND


# --- pages ---------------------------------------------------------------------------------


def split_pages(text: str, page_bytes: int = PULL_PAGE_BYTES) -> list[str]:
    """Cut ``text`` on code points into pages of at most ``page_bytes`` UTF-8 bytes each,
    as the addon does (an empty text is one empty page).

    Raises:
        ValueError: ``page_bytes`` is below 4 (one code point takes up to 4 bytes).
    """
    if page_bytes < 4:
        raise ValueError("page_bytes must be at least 4: one code point takes up to 4 bytes")
    if text.isascii():
        return [text[i : i + page_bytes] for i in range(0, len(text), page_bytes)] or [""]
    pages: list[str] = []
    start = size = 0
    for pos, char in enumerate(text):
        step = utf8_len(char)
        if size + step > page_bytes:
            pages.append(text[start:pos])
            start, size = pos, 0
        size += step
    pages.append(text[start:])
    return pages


def format_page(page: Page) -> str:
    """A page as the addon writes it into a command's result message."""
    prefix = _KIND_PREFIX[page.kind]
    return f"{prefix}|{page.message_id}|{page.index}/{page.total}|{page.content}"


def _number(text: str) -> int | None:
    if not text or len(text) > _MAX_NUMBER_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def _decode_page(kind: PageKind, rest: str, page_bytes: int) -> Page | ReplyRejected:
    fields = rest.split("|", 2)
    if len(fields) != 3:
        return ReplyRejected("field_count", f"expected <id>|<i>/<n>|<content>: {rest[:60]!r}")
    message_id, position, content = fields
    if not _ID.fullmatch(message_id):
        why = f"is not 1-{MAX_MESSAGE_ID_CHARS} letters and digits"
        return ReplyRejected("bad_id", f"{message_id[:40]!r} {why}")
    index_text, slash, total_text = position.partition("/")
    index, total = _number(index_text), _number(total_text)
    if not slash or index is None or total is None or not 1 <= index <= total:
        return ReplyRejected("bad_position", f"expected <i>/<n> with 1 <= i <= n: {position!r:.40}")
    if total > MAX_PAGES:
        return ReplyRejected("too_many_pages", f"{total} pages, more than {MAX_PAGES}")
    if utf8_len(content) > page_bytes:
        return ReplyRejected("page_too_large", f"{utf8_len(content)} bytes > {page_bytes}")
    return Page(kind, message_id, index, total, content)


def decode_reply(text: str, page_bytes: int = PULL_PAGE_BYTES) -> PullReply:
    """What a pull command's result message says. Never raises."""
    if not isinstance(text, str):
        return ReplyRejected("not_text", type(text).__name__)
    if text == EMPTY_REPLY:
        return Empty()
    parts = text.split("|", 2)
    head, rest = "|".join(parts[:2]), (parts[2] if len(parts) == 3 else "")
    kind = _PREFIXES.get(head)
    if kind is not None:
        return _decode_page(kind, rest, page_bytes)
    if head == WAIT_REPLY:
        if _ID.fullmatch(rest):
            return Wait(rest)
        return ReplyRejected("bad_id", f"WAIT for {rest[:40]!r}")
    if head == NONE_REPLY:
        message_id, _, reason = rest.partition("|")
        if _ID.fullmatch(message_id) and reason:
            return NotKept(message_id, reason[:40])
        return ReplyRejected("bad_id", f"NONE for {rest[:40]!r}")
    return ReplyRejected("not_a_reply", f"{text[:60]!r}")


class PageSet:
    """The pages of one answer or UI chat message, as they are pulled (in any order).

    Bounded by what one message of its kind may hold: ``max_bytes`` (2 MiB for an answer,
    like the addon's store; 64 KiB for a UI chat message, as on the chat transport) and the
    pages that takes. :meth:`add` returns why a page does not belong (a reason code:
    ``too_many_pages`` when a page says more pages than the bound allows, which the first
    page tells before any other is pulled), or None.
    """

    def __init__(
        self,
        kind: PageKind,
        message_id: str,
        max_bytes: int | None = None,
        page_bytes: int = PULL_PAGE_BYTES,
    ) -> None:
        self.kind = kind
        self.message_id = message_id
        self.max_bytes = _MAX_BYTES[kind] if max_bytes is None else max_bytes
        self.max_pages = max_pages(self.max_bytes, page_bytes)
        self.total: int | None = None
        self.size_bytes = 0
        self._pages: dict[int, str] = {}

    def add(self, page: Page) -> str | None:
        """Keep one pulled page; None when kept (or an identical duplicate), else why
        the page is refused (``foreign_page``, ``total_changed``, ``too_many_pages``,
        ``conflicting_duplicate``, ``message_too_large``). Never raises.
        """
        if (page.kind, page.message_id) != (self.kind, self.message_id):
            return "foreign_page"
        if self.total is not None and page.total != self.total:
            return "total_changed"
        if page.total > self.max_pages:
            return "too_many_pages"
        seen = self._pages.get(page.index)
        if seen is not None:
            return None if seen == page.content else "conflicting_duplicate"
        size = utf8_len(page.content)
        if self.size_bytes + size > self.max_bytes:
            return "message_too_large"
        self.total = page.total
        self._pages[page.index] = page.content
        self.size_bytes += size
        return None

    def missing(self) -> list[int]:
        """Pages still to pull (all of them but the first before any page arrived)."""
        total = self.total or 1
        return [i for i in range(1, total + 1) if i not in self._pages]

    @property
    def complete(self) -> bool:
        """True once the total is known and every page has arrived."""
        return self.total is not None and len(self._pages) == self.total

    def text(self) -> str:
        """The whole text.

        Raises:
            ValueError: pages are still missing.
        """
        if not self.complete:
            raise ValueError(f"pages {self.missing()[:8]} of {self.message_id} are missing")
        return "".join(self._pages[i] for i in range(1, len(self._pages) + 1))
