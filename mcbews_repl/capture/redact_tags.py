"""Redaction over the tags transport: answers and UI chat carried as page tags.

Over the tags transport the addon writes a message's pages as tags on the connected player
(``mcbews.<k>.<id>.<i>.<n>.<base64url>.``, docs/protocol.md) and the bridge reads them with
``tag @s list``. A name in an answer is then inside base64: invisible to the word-by-word
redaction of the rest of the capture, and a replacement made blindly in the list's text
could even land inside a payload. So the reads are taken apart here: every page of every
message is collected from all the reads that show it (a page stays on the player, and in
every read, until the bridge acks it), each whole message is redacted as JSON and cut into
pages again, and each read gets its pages' new tags back in place, the words around them
redacted on their own. A message that needs more pages once redacted (placeholders are
longer than short names) gets them beside its last page, in the reads that show that one;
the bridge reads a message's pages by their numbers, so a replay reads it whole. Pages of
a message the capture does not hold whole are left out: they cannot be redacted safely.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..sansio import TagMessage, dumps_wire, encode_page_tags, format_page_tag, read_tag_list
from .records import FrameRecord

__all__ = ["TagStreams"]

RedactMessage = Callable[[str, Any], Any]  # (kind, JSON value) -> its redacted copy
RedactWords = Callable[[str], str]  # the words around the tags

# What a read's extra pages are put between: the game's list wraps each name in §a ... §r
# and separates names with ", " (the reader finds a page tag whatever surrounds it).
_EXTRA_TAG = "\u00a7r, \u00a7a{}"


@dataclass
class _Held:
    """One message's pages as the capture's reads show them."""

    message: TagMessage
    new_tags: dict[int, str] | None = None  # page index -> its redacted tag (extras on n)
    refused: bool = False  # a page did not fit (a forged or corrupt read): left out


@dataclass
class TagStreams:
    """Every message carried in page tags: collected in a first pass, rewritten in a
    second. ``dropped`` counts the page tags left out (messages not held whole)."""

    held: dict[tuple[str, str], _Held] = field(default_factory=dict)
    frames: set[int] = field(default_factory=set)  # id() of the reads that show pages
    dropped: int = 0

    def collect(self, frame: FrameRecord) -> bool:
        """Take ``frame`` if it is an answer showing page tags; True when it is one."""
        status = _status_message(frame)
        pages = read_tag_list(status).pages if status is not None else ()
        if not pages:
            return False
        for page in pages:
            key = (page.kind, page.message_id)
            held = self.held.setdefault(key, _Held(TagMessage(page.kind, page.message_id)))
            if held.message.add(page) is not None:
                held.refused = True
        self.frames.add(id(frame))
        return True

    def texts(self) -> list[str]:
        """The whole messages held (for the first pass's names)."""
        return [t for h in self.held.values() if (t := _whole(h)) is not None]

    def rewrite(
        self, frame: FrameRecord, message: RedactMessage, words: RedactWords
    ) -> FrameRecord:
        """A read of :meth:`collect` with every page tag redacted and the rest by ``words``."""
        data = frame.json()
        status = _status_message(frame)
        if data is None or status is None:
            return frame
        pieces: list[str] = []
        rest = status
        for page in read_tag_list(status).pages:
            before, found, rest = rest.partition(format_page_tag(page))
            if not found:  # the reader reads each tag as written: never so, but never lose text
                rest = before
                break
            tag = self._new_tag(page.kind, page.message_id, page.index, message)
            pieces += [words(before), tag]
        data["body"]["statusMessage"] = "".join([*pieces, words(rest)])
        return FrameRecord(frame.t, frame.conn, frame.dir, _dumps(data))

    def _new_tag(self, kind: str, message_id: str, index: int, message: RedactMessage) -> str:
        held = self.held[(kind, message_id)]
        if held.new_tags is None:
            held.new_tags = _cut_again(held, message)
        tag = held.new_tags.get(index)
        if tag is None and not held.new_tags:
            self.dropped += 1  # a page of a message left out (a shorter one has fewer pages)
        return tag or ""


def _cut_again(held: _Held, message: RedactMessage) -> dict[int, str]:
    """The message's redacted page tags by the index of the page each replaces (none when
    it is not held whole or not JSON: its pages are left out)."""
    text = _whole(held)
    value = _load(text) if text is not None else None
    if value is None:
        return {}
    kind, message_id, total = held.message.kind, held.message.message_id, held.message.total
    try:
        tags = encode_page_tags(kind, message_id, dumps_wire(message(kind, value)))
    except ValueError:  # more pages than the transport numbers: cannot be carried
        return {}
    new = dict(enumerate(tags[: total or 0], 1))
    if total and len(tags) > total:  # the extra pages ride beside the last one
        new[total] += "".join(_EXTRA_TAG.format(t) for t in tags[total:])
    return new


def _whole(held: _Held) -> str | None:
    return held.message.text() if held.message.complete and not held.refused else None


def _status_message(frame: FrameRecord) -> str | None:
    data = frame.json() if frame.dir == "in" else None
    body = data.get("body") if data else None
    message = body.get("statusMessage") if isinstance(body, dict) else None
    return message if isinstance(message, str) else None


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
