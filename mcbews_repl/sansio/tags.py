"""The tags transport's codec: answers as tags on the requesting player, read by ``tag list``.

Built only on steps whose WebSocket behaviour is captured: a request goes down as
``scriptevent mcbews:tags_req {...}`` (a script event reaches scripts, source the connected
player); the addon writes the answer's pages as tags on that player (``Entity.addTag``,
stable); the bridge reads them with ``tag @s list``, whose output is captured (localised
around the tag names, each name wrapped in ``§a ... §r``). So a page tag is self-delimiting:
it can be found in any surrounding text, whatever the language or separator::

    mcbews.<k>.<id>.<i>.<n>.<payload>.

``k`` is ``a`` (an answer) or ``u`` (a UI chat message); ``id`` 1-24 letters and digits;
``i`` of ``n`` pages, decimal without leading zeros; ``payload`` the page's bytes in
base64url without padding; the closing ``.`` ends it. Only letters, digits, ``.``, ``-`` and
``_``: nothing the game's list output (``, `` between names, ``§`` formatting codes, quotes)
could break or be confused with. A page holds ``TAG_PAGE_BYTES`` bytes of the message's UTF-8
text (cut on bytes: the joined bytes are decoded once), so a page tag is at most 255
characters, the most ``addTag`` takes. The bridge says which pages it holds with
``scriptevent mcbews:tags_ack <id>:<next> ...``; the addon then removes those tags and
writes the next ones (at most ``TAGS_WINDOW_PAGES`` stand on a player at a time).

Everything here is pure and never raises on remote input: :func:`read_tag_list` finds the
page tags in a ``tag list`` statusMessage and ignores everything else.
``tests/vectors/tags_v1.json`` holds examples both sides are tested against.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from ..exceptions import FrameTooLarge
from .bridge import UI_CHAT_MAX_BYTES, encode_request_body
from .bulk import request_lines
from .frames import command_frame_bytes
from .jsonwire import dumps_wire, utf8_len
from .wire import (
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    PULL_ANSWER_MAX_BYTES,
    TAG_ID_MAX_CHARS,
    TAG_PAGE_BYTES,
    TAG_PAGE_PREFIX,
    TAGS_ACK_EVENT,
    TAGS_POLL_EVENT,
    TAGS_REQUEST_EVENT,
    TAGS_WINDOW_PAGES,
)

__all__ = [
    "READ_MAX_PAGES",
    "TAG_LIST_COMMAND",
    "TAG_MAX_PAGES",
    "TagKind",
    "TagMessage",
    "TagPage",
    "TagRead",
    "encode_page_tags",
    "encode_tags_acks",
    "encode_tags_poll",
    "encode_tags_request",
    "format_page_tag",
    "read_tag_list",
    "tag_id_ok",
    "tags_request_lines",
]

TagKind = Literal["answer", "ui"]
_KIND_LETTER: dict[TagKind, str] = {"answer": "a", "ui": "u"}
_LETTER_KIND: dict[str, TagKind] = {letter: kind for kind, letter in _KIND_LETTER.items()}

# The bridge reads its own player's tags: over the WebSocket `@s` is the connected player.
TAG_LIST_COMMAND = "tag @s list"


def _pages_for(max_bytes: int, page_bytes: int = TAG_PAGE_BYTES) -> int:
    return -(-max_bytes // page_bytes)


# The most pages a message within its bound takes (pages are cut on bytes, so exactly this).
TAG_MAX_PAGES = _pages_for(PULL_ANSWER_MAX_BYTES)
_MAX_BYTES: dict[TagKind, int] = {"answer": PULL_ANSWER_MAX_BYTES, "ui": UI_CHAT_MAX_BYTES}
_NUMBER_DIGITS = len(str(TAG_MAX_PAGES))
_ID = re.compile(f"[A-Za-z0-9]{{1,{TAG_ID_MAX_CHARS}}}")
# A page tag anywhere in a text: preceded by a formatting code (the list wraps each name in
# §a ... §r) or by no character a tag could hold (so it does not start inside another name),
# fields as above, ended by its own dot and no tag character after it. Base64url of at most
# TAG_PAGE_BYTES bytes is at most this many characters.
_PAYLOAD_CHARS = -(-TAG_PAGE_BYTES * 4 // 3)
_PAGE_TAG = re.compile(
    rf"(?:(?<=\u00a7[0-9A-Za-z])|(?<![A-Za-z0-9._-])){re.escape(TAG_PAGE_PREFIX)}\.([au])\.([A-Za-z0-9]{{1,{TAG_ID_MAX_CHARS}}})"
    rf"\.([1-9][0-9]{{0,{_NUMBER_DIGITS - 1}}})\.([1-9][0-9]{{0,{_NUMBER_DIGITS - 1}}})"
    rf"\.([A-Za-z0-9_-]{{0,{_PAYLOAD_CHARS}}})\.(?![A-Za-z0-9_-])"
)
# How many page tags one read hands on: the addon shows at most a window, and a little room
# is left for stale pages of other requests before the rest are counted and ignored.
READ_MAX_PAGES = 4 * TAGS_WINDOW_PAGES


def tag_id_ok(message_id: str) -> bool:
    """True for an id this transport can carry (1-24 letters and digits)."""
    return bool(_ID.fullmatch(message_id))


@dataclass(frozen=True, slots=True)
class TagPage:
    """Page ``index`` of ``total`` of an answer or UI chat message, its bytes."""

    kind: TagKind
    message_id: str
    index: int
    total: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class TagRead:
    """What one ``tag list`` output held: the page tags found (at most ``READ_MAX_PAGES``),
    and how many tags looked like pages but were not (``malformed``) or were past the bound
    (``skipped``)."""

    pages: tuple[TagPage, ...]
    malformed: int = 0
    skipped: int = 0


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes | None:
    if len(text) % 4 == 1:
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return data if _b64(data) == text else None  # one spelling only: no stray bits


def format_page_tag(page: TagPage) -> str:
    """One page as its tag."""
    letter = _KIND_LETTER[page.kind]
    return (
        f"{TAG_PAGE_PREFIX}.{letter}.{page.message_id}.{page.index}.{page.total}."
        f"{_b64(page.payload)}."
    )


def encode_page_tags(
    kind: TagKind, message_id: str, text: str, page_bytes: int = TAG_PAGE_BYTES
) -> list[str]:
    """Every page tag of a message, as the addon writes them (an empty text is one page).

    Raises:
        ValueError: the id is not 1-24 letters and digits, or the text needs more pages than
            the transport numbers.
    """
    if not tag_id_ok(message_id):
        raise ValueError(f"a tags id must be 1-{TAG_ID_MAX_CHARS} letters and digits")
    data = text.encode("utf-8")
    chunks = [data[i : i + page_bytes] for i in range(0, len(data), page_bytes)] or [b""]
    if len(chunks) > TAG_MAX_PAGES:
        raise ValueError(f"{len(chunks)} pages, more than {TAG_MAX_PAGES}")
    total = len(chunks)
    return [
        format_page_tag(TagPage(kind, message_id, i, total, c)) for i, c in enumerate(chunks, 1)
    ]


def read_tag_list(text: object, page_bytes: int = TAG_PAGE_BYTES) -> TagRead:
    """The page tags in a ``tag list`` statusMessage, whatever surrounds them. Never raises:
    other tags and words are ignored; a page tag with a bad payload is counted."""
    if not isinstance(text, str):
        return TagRead(())
    pages: list[TagPage] = []
    malformed = skipped = 0
    for match in _PAGE_TAG.finditer(text):
        letter, message_id, index_text, total_text, encoded = match.groups()
        index, total = int(index_text), int(total_text)
        payload = _unb64(encoded)
        if payload is None or len(payload) > page_bytes or index > total or total > TAG_MAX_PAGES:
            malformed += 1
            continue
        if len(pages) >= READ_MAX_PAGES:
            skipped += 1
            continue
        pages.append(TagPage(_LETTER_KIND[letter], message_id, index, total, payload))
    return TagRead(tuple(pages), malformed, skipped)


# --- lines down ------------------------------------------------------------------------------


def _fits(line: str, budget_bytes: int, frame_budget_bytes: int) -> bool:
    return utf8_len(line) <= budget_bytes and command_frame_bytes(line) <= frame_budget_bytes


def encode_tags_request(
    request_id: str,
    capability: str,
    payload: Mapping[str, Any] | None = None,
    *,
    to: str | None = None,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> str:
    """``scriptevent mcbews:tags_req {...}``: the request as the chat transport writes it,
    with ``"to"``, the player to write the answer on, when given (the addon takes the script
    event's source player first; ``to`` is for a game that reports no source).

    Raises:
        ValueError: the id is not 1-24 letters and digits.
        FrameTooLarge: the line does not fit the command line and frame budgets.
    """
    if not tag_id_ok(request_id):
        raise ValueError(f"a tags request id must be 1-{TAG_ID_MAX_CHARS} letters and digits")

    def dumps(body: dict[str, Any]) -> str:
        return dumps_wire(body if to is None else {**body, "to": to})

    body = encode_request_body(request_id, capability, payload, dumps)
    line = f"scriptevent {TAGS_REQUEST_EVENT} {body}"
    if not _fits(line, budget_bytes, frame_budget_bytes):
        size, frame = utf8_len(line), command_frame_bytes(line)
        raise FrameTooLarge(
            f"the {capability} request", size, budget_bytes, frame, frame_budget_bytes
        )
    return line


def tags_request_lines(
    request_id: str,
    capability: str,
    payload: Mapping[str, Any] | None = None,
    *,
    to: str | None = None,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> tuple[str, ...]:
    """The request as :func:`encode_tags_request` writes it when it fits one line, else its
    bulk parts (docs/protocol.md, "Requests bigger than one command").

    Raises:
        ValueError: the id is not 1-24 letters and digits.
        FrameTooLarge: not even the parts can carry it (over the addon's bulk bounds).
    """
    if not tag_id_ok(request_id):
        raise ValueError(f"a tags request id must be 1-{TAG_ID_MAX_CHARS} letters and digits")

    def dumps(body: dict[str, Any]) -> str:
        return dumps_wire(body if to is None else {**body, "to": to})

    text = encode_request_body(request_id, capability, payload, dumps)
    budgets = {"budget_bytes": budget_bytes, "frame_budget_bytes": frame_budget_bytes}
    return request_lines(request_id, "t", text, **budgets)


def encode_tags_acks(
    acks: Iterable[tuple[str, int]],
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> list[str]:
    """``scriptevent mcbews:tags_ack <id>:<next> ...`` lines, as few as fit: each says the
    bridge holds every page of ``id`` before ``next`` (past the last: the whole message).

    Raises:
        ValueError: an id is not 1-24 letters and digits, or ``next`` is below 1.
    """
    head = f"scriptevent {TAGS_ACK_EVENT}"
    lines: list[str] = []
    line = head
    for message_id, next_page in acks:
        if not tag_id_ok(message_id) or next_page < 1:
            raise ValueError(f"not an ack: {message_id!r}:{next_page}")
        word = f"{message_id}:{next_page}"
        candidate = f"{line} {word}"
        if line != head and not _fits(candidate, budget_bytes, frame_budget_bytes):
            lines.append(line)
            candidate = f"{head} {word}"
        line = candidate
    if line != head:
        lines.append(line)
    return lines


def encode_tags_poll() -> str:
    """``scriptevent mcbews:tags_poll``: this connection reads tags (UI chat comes so)."""
    return f"scriptevent {TAGS_POLL_EVENT}"


# --- one message's pages, as they are read ---------------------------------------------------


@dataclass
class TagMessage:
    """The pages of one answer or UI chat message, as reads find them (in any order).

    Bounded by what one message of its kind may hold (2 MiB an answer, 64 KiB a UI chat
    message). :meth:`add` returns why a page does not belong (a reason code) or None.
    """

    kind: TagKind
    message_id: str
    max_bytes: int = 0
    total: int | None = None
    size_bytes: int = 0
    _pages: dict[int, bytes] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.max_bytes <= 0:
            self.max_bytes = _MAX_BYTES[self.kind]

    def add(self, page: TagPage) -> str | None:
        """Keep one page; None when kept (or an identical duplicate), else ``foreign_page``,
        ``total_changed``, ``too_many_pages``, ``conflicting_duplicate`` or
        ``message_too_large``. Never raises."""
        if (page.kind, page.message_id) != (self.kind, self.message_id):
            return "foreign_page"
        if self.total is not None and page.total != self.total:
            return "total_changed"
        if page.total > _pages_for(self.max_bytes):
            return "too_many_pages"
        seen = self._pages.get(page.index)
        if seen is not None:
            return None if seen == page.payload else "conflicting_duplicate"
        if self.size_bytes + len(page.payload) > self.max_bytes:
            return "message_too_large"
        self.total = page.total
        self._pages[page.index] = page.payload
        self.size_bytes += len(page.payload)
        return None

    @property
    def next_page(self) -> int:
        """The first page not held yet (every page before it is): what the ack says."""
        index = 1
        while index in self._pages:
            index += 1
        return index

    @property
    def complete(self) -> bool:
        """True once the total is known and every page has been read."""
        return self.total is not None and len(self._pages) == self.total

    def text(self) -> str | None:
        """The whole text, or None when its bytes are not UTF-8 (a malformed message).

        Raises:
            ValueError: pages are still missing.
        """
        if not self.complete or self.total is None:
            raise ValueError(f"pages of {self.message_id} are missing from {self.next_page}")
        data = b"".join(self._pages[i] for i in range(1, self.total + 1))
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None
