"""Paged answers on the chat transport (docs/protocol.md, "Paged answers").

An answer too large for one chunked message (128 chunks) comes up as pages: page ``k`` of
``n`` is a chunked message of its own under the id ``<request_id>~<kk>/<nn>`` (two digits
each, ``n`` at most ``CHAT_ANSWER_MAX_PAGES``). The reassembler joins each page's chunks
like any message; :class:`AnswerPages` joins the pages' texts, in order, within the byte
bound an answer has on either transport (``PULL_ANSWER_MAX_BYTES``). The addon's
``src/answerPages.ts`` is the sending side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .jsonwire import utf8_len
from .wire import ANSWER_PAGE_MARKER, CHAT_ANSWER_MAX_PAGES, PULL_ANSWER_MAX_BYTES

__all__ = ["AnswerPages", "PageId", "format_page_id", "parse_page_id"]

_DIGITS = 2


@dataclass(frozen=True, slots=True)
class PageId:
    """A page's place in a paged answer: the request it answers, ``index`` of ``total``."""

    request_id: str
    index: int
    total: int


def format_page_id(request_id: str, index: int, total: int) -> str:
    """The chunk message id of page ``index`` of ``total``."""
    return f"{request_id}{ANSWER_PAGE_MARKER}{index:02d}/{total:02d}"


def _two_digits(text: str) -> int | None:
    ok = len(text) == _DIGITS and text.isascii() and text.isdigit()
    return int(text) if ok else None


def parse_page_id(message_id: str, max_pages: int = CHAT_ANSWER_MAX_PAGES) -> PageId | None:
    """The page a chunk message id names; None when it is not a well-formed page id."""
    request_id, marker, position = message_id.rpartition(ANSWER_PAGE_MARKER)
    if not marker or not request_id:
        return None
    index_text, slash, total_text = position.partition("/")
    index, total = _two_digits(index_text), _two_digits(total_text)
    if not slash or index is None or total is None or not 1 <= index <= total <= max_pages:
        return None
    return PageId(request_id, index, total)


@dataclass(slots=True)
class AnswerPages:
    """The completed pages of one answer, until all ``total`` are here."""

    total: int
    max_bytes: int = PULL_ANSWER_MAX_BYTES
    size_bytes: int = 0
    parts: dict[int, str] = field(default_factory=dict)

    def add(self, page: PageId, text: str) -> str | None:
        """Keep one page's text; a problem (which fails the answer) or None."""
        if page.total != self.total:
            return f"page {page.index} says {page.total} pages, an earlier one {self.total}"
        if page.index in self.parts:
            return None if self.parts[page.index] == text else f"page {page.index} changed"
        size = utf8_len(text)
        if self.size_bytes + size > self.max_bytes:
            return f"the pages pass {self.max_bytes} bytes, the most an answer may have"
        self.parts[page.index] = text
        self.size_bytes += size
        return None

    @property
    def complete(self) -> bool:
        """True once every page has arrived."""
        return len(self.parts) == self.total

    def text(self) -> str:
        """The pages joined in order (call once :attr:`complete`)."""
        return "".join(self.parts[i] for i in range(1, self.total + 1))
