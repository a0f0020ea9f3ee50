"""Redaction: a capture with player names, chat texts and the path token replaced.

Every player name seen (the host, chat senders and receivers, names in command answers and
in the addon's answers) becomes ``Player1``, ``Player2`` ... in order of first appearance,
everywhere it occurs as a whole word: command lines, answers, events, call outcomes.
What players typed (chat, the addon's chat panel) becomes ``[chat 1]`` ..., what the
notebook showed them (``send_text``) ``[text 1]`` ...; the path token becomes ``TOKEN``
and addresses ``redacted``. The same name or text always gets the same placeholder, so a
redacted capture still replays (docs/captures.md).

The addon's answers travel cut into chunks, and a name may straddle two of them: each
chunk stream is joined, redacted as a whole and cut again with the addon's own rule, so
its chunks may differ in number from the original ones. A stream the capture does not
hold completely cannot be redacted safely and is left out (the header's notes say so).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..sansio import (
    BRIDGE_PLAYER,
    ECHO_SENDERS,
    TEXT_RESPONSE_EVENT,
    Channel,
    ChunkError,
    dumps_wire,
    format_chunk,
    parse_chunk,
    split_payload,
)
from ..toolkit import game_strings, read_game_text
from ..vocabulary import SPOKEN_CHAT_TYPES, EventKind
from .records import CallRecord, Capture, FrameRecord, Record
from .redact_pull import PageStreams, redact_ask
from .redact_tags import TagStreams

__all__ = ["Placeholders", "redact"]

# Names that are not people: the game's own senders, in every language it ships (a capture
# from a zh_CN game says 外部, not External), and the addon's bridge player.
_NOT_PEOPLE = {
    BRIDGE_PLAYER, "Server", "", *ECHO_SENDERS, *game_strings("commands.origin.script").values()
}  # fmt: skip
_TEXT_PREFIX = f"scriptevent {TEXT_RESPONSE_EVENT} "
# Fields of command answers and events that hold player names (docs/protocol.md, the corpus).
_NAME_FIELDS = ("localplayername", "sender", "receiver", "Sender", "Receiver", "playerName")
_NAME_LIST_FIELDS = ("victim", "recipient")


@dataclass
class Placeholders:
    """Real name or text -> its placeholder; the same value always gets the same one."""

    names: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    _pattern: re.Pattern[str] | None = None

    def add_name(self, value: object) -> None:
        """Give a player name its placeholder (``Player1``, ``Player2`` ...) if it has
        none; selectors, blanks and words that are not people are left alone.
        """
        if isinstance(value, str) and value.strip() and value not in _NOT_PEOPLE:
            if value.startswith("@") or value in self.names:
                return
            taken = set(self.names.values())
            number = len(self.names) + 1
            while f"Player{number}" in taken or f"Player{number}" == value:
                number += 1
            self.names[value] = f"Player{number}"
            self._pattern = None

    def text(self, value: str, kind: str) -> str:
        """The placeholder for a text of ``kind`` (``[message 1]`` ...), the same each time."""
        if value not in self.texts:
            self.texts[value] = f"[{kind} {len(self.texts) + 1}]"
        return self.texts[value]

    def sub(self, value: str) -> str:
        """``value`` with every known name, as a whole word, replaced."""
        if not self.names:
            return value
        if self._pattern is None:
            alternatives = sorted(self.names, key=len, reverse=True)
            body = "|".join(re.escape(n) for n in alternatives)
            self._pattern = re.compile(rf"(?<!\w)(?:{body})(?!\w)")
        return self._pattern.sub(lambda m: self.names[m.group(0)], value)


def _walk(value: Any, fn: Callable[[str], str]) -> Any:
    """A copy of a JSON value with ``fn`` applied to every string in it."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, list):
        return [_walk(v, fn) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, fn) for k, v in value.items()}
    return value


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _names_in_answer(value: Any, names: Placeholders, inside_players: bool = False) -> None:
    """Player names in an addon answer: ``name`` of player entries, ``player`` fields."""
    if isinstance(value, list):
        for item in value:
            _names_in_answer(item, names, inside_players)
    elif isinstance(value, dict):
        is_player = inside_players or value.get("type") == "minecraft:player"
        if is_player:
            names.add_name(value.get("name"))
        names.add_name(value.get("player"))
        for key, item in value.items():
            _names_in_answer(item, names, key == "players")


@dataclass
class _Stream:
    """One chunked message (an addon answer or a UI chat message) and its frames."""

    channel: Channel
    message_id: str
    total: int
    parts: dict[int, str] = field(default_factory=dict)
    frames: list[FrameRecord] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return len(self.parts) == self.total

    def text(self) -> str:
        return "".join(self.parts[i] for i in range(1, self.total + 1))


def _chat_body(frame: FrameRecord) -> tuple[dict[str, Any], dict[str, Any], str] | None:
    """(frame JSON, the dict holding the chat fields, the message key) for a chat event."""
    data = frame.json()
    if data is None or frame.dir != "in":
        return None
    body = data.get("body")
    if not isinstance(body, dict):
        return None
    props = body.get("properties")
    if isinstance(props, dict) and isinstance(props.get("Message"), str):
        return data, props, "Message"  # the legacy event shape
    if isinstance(body.get("message"), str) and "sender" in body:
        return data, body, "message"
    return None


def _sender(fields: dict[str, Any]) -> object:
    return fields.get("sender", fields.get("Sender"))


class _Redactor:
    def __init__(self, capture: Capture) -> None:
        self.capture = capture
        self.marks = Placeholders()
        self.streams: dict[int, _Stream] = {}  # id(frame) -> its stream
        self.texts: dict[str, dict[int, str]] = {}  # text response id -> its parts
        self.pages = PageStreams()  # answers and UI chat over the pull transport
        self.tags = TagStreams()  # ... and over the tags transport
        self.dropped = 0

    # --- pass 1: what is a name, which frames form a stream ---------------------------

    def collect(self) -> None:
        for facts in self.capture.header.games.values():
            self.marks.add_name(facts.get("local_player"))
        open_streams: dict[tuple[Channel, str], _Stream] = {}
        for record in self.capture.records:
            if isinstance(record, CallRecord):
                self._names_in_call(record)
            elif record.dir == "in":
                if not self.pages.collect(record) and not self.tags.collect(record):
                    self._names_in_frame(record, open_streams)
            else:
                self._names_in_text_frame(record)
        for stream in {id(s): s for s in self.streams.values()}.values():
            if stream.complete:
                _names_in_answer(_load(stream.text()), self.marks)
        for pages in self.pages.streams.values():
            if pages.complete:
                _names_in_answer(_load(pages.text()), self.marks)
        for text in self.tags.texts():
            _names_in_answer(_load(text), self.marks)

    def _names_in_call(self, record: CallRecord) -> None:
        if record.kind in (EventKind.UI_CHAT, EventKind.TEXT):
            self.marks.add_name(record.result.get("player") or record.request.get("player"))
        if record.kind == EventKind.CAPABILITY:
            payload = record.request.get("payload") or {}
            for key in ("target", "player"):
                value = payload.get(key)
                if isinstance(value, str) and not re.search(r"[@:\s]", value):
                    self.marks.add_name(value)
            _names_in_answer(record.result.get("result"), self.marks)

    def _names_in_frame(
        self, frame: FrameRecord, streams: dict[tuple[Channel, str], _Stream]
    ) -> None:
        chat = _chat_body(frame)
        if chat is not None:
            _, fields, key = chat
            if _sender(fields) == BRIDGE_PLAYER and self._chunk(frame, fields[key], streams):
                return
        data = frame.json() or {}
        body = data.get("body")
        for holder in (body, body.get("properties") if isinstance(body, dict) else None):
            if not isinstance(holder, dict):
                continue
            for key in _NAME_FIELDS:
                self.marks.add_name(holder.get(key))
            for key in _NAME_LIST_FIELDS:
                value = holder.get(key)
                for name in value if isinstance(value, list) else [value]:
                    self.marks.add_name(name)
            for entry in holder.get("playerTest") or []:
                if isinstance(entry, str):
                    self.marks.add_name(entry.rsplit(" (", 1)[0])
            self._names_in_list(holder)

    def _names_in_list(self, body: dict[str, Any]) -> None:
        """``list``: its ``players`` field (captured as one comma-separated string) and the
        names line of its message."""
        players = body.get("players")
        names = players.split(", ") if isinstance(players, str) else players
        head, _, listed = str(body.get("statusMessage") or "").partition("\n")
        # The names line follows the count line ("There are 2/10 players online:"), which
        # is read in any language; the names are the game's ", "-separated list.
        if listed and read_game_text("commands.players.list", head) is not None:
            names = [*(names if isinstance(names, list) else []), *listed.split(", ")]
        for name in names if isinstance(names, list) else []:
            self.marks.add_name(name)

    def _chunk(self, frame: FrameRecord, text: str, streams: dict[Any, _Stream]) -> bool:
        try:
            chunk = parse_chunk(text)
        except ChunkError:
            return False
        key = (chunk.channel, chunk.message_id)
        stream = streams.get(key)
        if stream is None or stream.complete or stream.total != chunk.total:
            stream = streams[key] = _Stream(chunk.channel, chunk.message_id, chunk.total)
        stream.parts.setdefault(chunk.index, chunk.content)
        stream.frames.append(frame)
        self.streams[id(frame)] = stream
        return True

    def _names_in_text_frame(self, frame: FrameRecord) -> None:
        text = _text_response(frame)
        if text is not None:
            self.marks.add_name(text.get("p"))
            parts = self.texts.setdefault(str(text.get("id")), {})
            if isinstance(text.get("i"), int) and isinstance(text.get("c"), str):
                parts[text["i"]] = text["c"]

    # --- pass 2: rewrite ----------------------------------------------------------------

    def rewrite(self) -> list[Record]:
        out: list[Record] = []
        done: set[int] = set()
        paged: dict[int, list[FrameRecord]] = {}  # frame id -> what replaces it
        for record in self.capture.records:
            if isinstance(record, CallRecord):
                out.append(self._call(record))
                continue
            if id(record) in self.tags.frames:
                out.append(self.tags.rewrite(record, self._message, self.marks.sub))
                continue
            pages = self.pages.by_frame.get(id(record))
            if pages is not None:
                if id(pages) not in done:
                    done.add(id(pages))
                    paged.update(self.pages.rewrite(pages, self._message))
                    self.dropped += 0 if pages.complete else len(pages.frames)
                out += paged.pop(id(record), [])
                continue
            stream = self.streams.get(id(record))
            if stream is None:
                out.append(self._frame(record))
            elif id(stream) not in done:
                done.add(id(stream))
                out += self._stream(stream)
        return out

    def _call(self, record: CallRecord) -> CallRecord:
        new = copy.deepcopy(record)
        if new.kind == EventKind.UI_CHAT and isinstance(new.result.get("message"), str):
            new.result["message"] = self.marks.text(new.result["message"], "chat")
        if new.kind == EventKind.TEXT and isinstance(new.request.get("text"), str):
            new.request["text"] = self.marks.text(new.request["text"], "text")
        new.request = _walk(new.request, self.marks.sub)
        new.result = _walk(new.result, self.marks.sub)
        return new

    def _message(self, kind: str, value: Any) -> Any:
        """An answer or UI chat message (a JSON value): names, and a UI message's text."""
        if kind == "ui" and isinstance(value, dict) and isinstance(value.get("message"), str):
            value = {**value, "message": self.marks.text(value["message"], "chat")}
        return _walk(value, self.marks.sub)

    def _frame(self, frame: FrameRecord) -> FrameRecord:
        data = frame.json()
        if data is None:
            return frame  # binary or cut: nothing readable to redact, nothing to replay
        chat = _chat_body(frame)
        if chat is not None:
            _, fields, key = chat
            kind = fields.get("type", fields.get("MessageType"))
            if kind in SPOKEN_CHAT_TYPES and _sender(fields) not in _NOT_PEOPLE:
                fields[key] = self.marks.text(fields[key], "chat")
                data = chat[0]
        text = _text_response(frame)
        if text is not None:
            data["body"]["commandLine"] = _TEXT_PREFIX + dumps_wire(self._text(text))
        line = (
            data.get("body", {}).get("commandLine") if isinstance(data.get("body"), dict) else None
        )
        asked = (
            redact_ask(line, lambda v: _walk(v, self.marks.sub)) if isinstance(line, str) else None
        )
        if asked is not None:
            data["body"]["commandLine"] = asked
        data = _walk(data, self.marks.sub)
        return FrameRecord(frame.t, frame.conn, frame.dir, _dumps(data))

    def _text(self, frame: dict[str, Any]) -> dict[str, Any]:
        """A text frame whose content is the placeholder of the whole text (first frame)."""
        if isinstance(frame.get("c"), str):
            parts = self.texts.get(str(frame.get("id")), {})
            whole = "".join(parts[i] for i in sorted(parts))
            frame["c"] = self.marks.text(whole, "text") if frame.get("i") == 1 else ""
        if isinstance(frame.get("t"), str):
            frame["t"] = self.marks.text(frame["t"], "text")
        return frame

    def _stream(self, stream: _Stream) -> list[FrameRecord]:
        if not stream.complete:
            self.dropped += len(stream.frames)
            return []
        value = _load(stream.text())
        kind = "ui" if stream.channel is Channel.UI_CHAT else "answer"
        text = dumps_wire(self._message(kind, value)) if value is not None else stream.text()
        chunks = split_payload(stream.channel, stream.message_id, text)
        frames = stream.frames[: len(chunks)]
        frames += [stream.frames[-1]] * (len(chunks) - len(frames))
        return [_with_message(f, format_chunk(c)) for f, c in zip(frames, chunks, strict=True)]


def _text_response(frame: FrameRecord) -> dict[str, Any] | None:
    """The text-response frame (channel C) a commandRequest carries, if it carries one."""
    data = frame.json() if frame.dir == "out" else None
    body = data.get("body") if data else None
    line = body.get("commandLine") if isinstance(body, dict) else None
    if not isinstance(line, str) or not line.startswith(_TEXT_PREFIX):
        return None
    value = _load(line[len(_TEXT_PREFIX) :])
    return value if isinstance(value, dict) else None


def _with_message(frame: FrameRecord, message: str) -> FrameRecord:
    chat = _chat_body(frame)
    assert chat is not None  # a stream's frames are chat events
    data, fields, key = chat
    fields[key] = message
    return FrameRecord(frame.t, frame.conn, frame.dir, _dumps(data))


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _redact_header(capture: Capture, marks: Placeholders, token: str | None) -> None:
    header = capture.header
    header.redacted = True
    secret = token or header.bridge.get("token")

    def hide(value: str) -> str:
        value = marks.sub(value)
        return value.replace(secret, "TOKEN") if isinstance(secret, str) and secret else value

    header.bridge = _walk(header.bridge, hide)
    if "token" in header.bridge:
        header.bridge["token"] = "TOKEN" if secret else None
    for facts in header.games.values():
        for key in ("peer",):
            if key in facts:
                facts[key] = "redacted"
        for key, value in list(facts.items()):
            facts[key] = _walk(value, hide)


def redact(capture: Capture, *, token: str | None = None) -> Capture:
    """A redacted copy of ``capture`` (the original is left as it is)."""
    work = copy.deepcopy(capture)
    redactor = _Redactor(work)
    redactor.collect()
    work.records = redactor.rewrite()
    _redact_header(work, redactor.marks, token)
    marks = redactor.marks
    work.header.notes.append(
        f"redacted: {len(marks.names)} player name(s) and {len(marks.texts)} text(s) "
        "replaced by placeholders"
    )
    if redactor.dropped:
        work.header.notes.append(
            f"redaction left out {redactor.dropped} frame(s) of chunked messages the "
            "capture does not hold whole"
        )
    if redactor.tags.dropped:
        work.header.notes.append(
            f"redaction left out {redactor.tags.dropped} page tag(s) of messages the "
            "capture does not hold whole"
        )
    return work
