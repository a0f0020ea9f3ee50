"""The game's WebSocket frames: encode what we send, decode everything it sends.

Decoding never raises: malformed input becomes :class:`FrameRejected`, a frame we do
not understand becomes :class:`UnknownFrame` or :class:`OtherEvent`.
"""

from __future__ import annotations

import json
from functools import cache
from json.encoder import encode_basestring  # what json.dumps(s, ensure_ascii=False) runs
from typing import Any

from ..exceptions import FrameTooLarge
from ..game_events import event_kind
from ..vocabulary import ChatType
from .events import (
    ChatMessage,
    CommandResponse,
    FrameRejected,
    GameError,
    GameEvent,
    GameEventReceived,
    OtherEvent,
    UnknownFrame,
)
from .game_events import decode_game_event
from .jsonwire import has_lone_surrogate, utf8_len
from .wire import (
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    COMMAND_SYNTAX_VERSION,
    MAX_FRAME_BYTES,
)

__all__ = [
    "ECHO_SENDERS",
    "REQUEST_ID_CHARS",
    "check_command_line",
    "command_frame_bytes",
    "decode_frame",
    "encode_command",
    "encode_subscribe",
    "silent_drop_hint",
]

# The sender name of the game's own echo of our say/tellraw output is localised: the
# commands.origin.external string of each of the game's 29 language files ("External" and
# "外部" are seen in captures). A literal, so sansio reads no package data;
# tests/toolkit/test_languages.py checks it equals the set of the corpus and of
# toolkit/gamestrings.json.
ECHO_SENDERS: frozenset[str] = frozenset(
    {
        "Ekstern", "Eksternal", "Esterno", "Exterior", "Extern", "External", "Externe",
        "Externo", "Externí", "Externý", "Harici", "Külső", "Ulkoinen", "Zewnętrzny",
        "Εξωτερικό", "Внешний", "Външен", "Зовнішні", "外部", "외부",
    }
)  # fmt: skip
# Header version the server writes on its own requests (the game echoes it back).
_SERVER_HEADER_VERSION = 1
# requestId is a UUID string (docs/protocol.md, frames): str(uuid4()) is always 36 characters.
REQUEST_ID_CHARS = 36


def encode_subscribe(
    request_id: str, event_name: str = "PlayerMessage", *, purpose: str = "subscribe"
) -> str:
    """A ``subscribe`` frame for one game event (``purpose="unsubscribe"``: its undoing).

    Raises:
        ValueError: ``purpose`` is neither subscribe nor unsubscribe.
    """
    if purpose not in ("subscribe", "unsubscribe"):
        raise ValueError(f"purpose is 'subscribe' or 'unsubscribe', not {purpose!r}")
    return json.dumps(
        {
            "header": {
                "version": _SERVER_HEADER_VERSION,
                "requestId": request_id,
                "messagePurpose": purpose,
            },
            "body": {"eventName": event_name},
        },
        separators=(",", ":"),
    )


# The constant parts of a commandRequest frame, in json.dumps's key order and separators.
_COMMAND_HEAD = f'{{"header":{{"version":{_SERVER_HEADER_VERSION},"requestId":'
_COMMAND_MIDDLE = (
    ',"messagePurpose":"commandRequest","messageType":"commandRequest"},"body":{"version":'
)
_COMMAND_TAIL = ',"origin":{"type":"player"}}}'


def _command_frame(request_id: str, line: str, syntax_version: int) -> str:
    """The frame, as ``json.dumps`` of it with ``ensure_ascii=False`` and compact separators
    would write it, character for character (tests/sansio/test_frames.py checks this for
    any line and id), for a fraction of the cost: it is built once per command."""
    return (
        _COMMAND_HEAD
        + encode_basestring(request_id)
        + _COMMAND_MIDDLE
        + str(syntax_version)
        + ',"commandLine":'
        + encode_basestring(line)
        + _COMMAND_TAIL
    )


@cache
def _envelope_bytes(syntax_version: int, request_id_chars: int) -> int:
    """Bytes of a commandRequest frame around an empty command line."""
    return utf8_len(_command_frame("0" * request_id_chars, "", syntax_version))


def command_frame_bytes(
    line: str,
    *,
    syntax_version: int = COMMAND_SYNTAX_VERSION,
    request_id_chars: int = REQUEST_ID_CHARS,
) -> int:
    """UTF-8 bytes of the commandRequest frame that carries ``line``, exactly as sent.

    The frame is compact JSON, so every quote or backslash in the line costs two bytes and
    a control character six. The request id is a 36-character UUID unless told otherwise.
    """
    escaped = encode_basestring(line)  # json.dumps(line, ensure_ascii=False), without its setup
    return _envelope_bytes(syntax_version, request_id_chars) + utf8_len(escaped) - 2


def check_command_line(
    line: str,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> str:
    """Return ``line`` stripped and without a leading slash, checked for sending.

    The line must fit both ceilings: ``budget_bytes`` UTF-8 bytes of command line, and
    ``frame_budget_bytes`` for the whole commandRequest frame as it is sent.

    Raises:
        TypeError: ``line`` is not a string.
        ValueError: the line is empty, holds a line break, or a lone surrogate.
        FrameTooLarge: the line or its frame is over its ceiling.
    """
    if not isinstance(line, str):
        raise TypeError(f"a command line is a str, not {type(line).__name__}")
    line = line.strip()
    if line.startswith("/"):
        # "/ say hi" is "say hi": strip again, so a checked line checks as itself (the
        # frame is sized from what is sent)
        line = line[1:].lstrip()
    if not line:
        raise ValueError("the command line is empty; write a command such as 'say hi'")
    if "\n" in line or "\r" in line:
        raise ValueError("a command line cannot contain a line break; send one command at a time")
    if has_lone_surrogate(line):
        raise ValueError("the command line holds a lone surrogate, which UTF-8 cannot carry")
    size, frame = utf8_len(line), command_frame_bytes(line)
    if size > budget_bytes or frame > frame_budget_bytes:
        raise FrameTooLarge("the command", size, budget_bytes, frame, frame_budget_bytes)
    return line


def silent_drop_hint(line: str) -> str:
    """What most likely happened to an unanswered command, when its size explains it: "" for
    a line and frame within the bridge's own budget, which the game was seen to take.

    Past it, the game drops a request over its size limit without any answer, no error frame
    either (docs/gateway.md, "Frame budget"), so a timeout is all a sender sees.
    """
    size, frame = utf8_len(line), command_frame_bytes(line)
    if size <= COMMAND_LINE_BUDGET_BYTES and frame <= COMMAND_FRAME_BUDGET_BYTES:
        return ""
    return (
        f"; it was sent in a {frame}-byte frame with a {size}-byte command line, past the "
        f"bridge's budget ({COMMAND_LINE_BUDGET_BYTES} bytes of line, "
        f"{COMMAND_FRAME_BUDGET_BYTES} of frame): the game drops a request over its size limit "
        "without any answer, so it most likely never ran"
    )


def encode_command(
    request_id: str,
    line: str,
    *,
    syntax_version: int = COMMAND_SYNTAX_VERSION,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
    checked: bool = False,
) -> str:
    """A ``commandRequest`` frame; the line and the frame are checked against both ceilings.

    ``checked``: ``line`` is what :func:`check_command_line` returned for these ceilings
    (the gateway checks each line before it waits for a slot), so only the frame, with
    this ``request_id``, is sized again.

    Raises:
        TypeError: ``line`` is not a string.
        ValueError: the line is empty, holds a line break, or a lone surrogate.
        FrameTooLarge: the line, or the frame with this ``request_id``, is over its ceiling.
    """
    if not checked:
        line = check_command_line(line, budget_bytes, frame_budget_bytes)
    frame = _command_frame(request_id, line, syntax_version)
    size = utf8_len(frame)
    if size > frame_budget_bytes:  # only a request id longer than a UUID gets here
        raise FrameTooLarge("the command", utf8_len(line), budget_bytes, size, frame_budget_bytes)
    return frame


def decode_frame(text: str | bytes, max_frame_bytes: int = MAX_FRAME_BYTES) -> GameEvent:
    """Decode one inbound frame into an event. Never raises."""
    if isinstance(text, bytes | bytearray | memoryview):
        return FrameRejected("binary_frame", f"{len(text)} bytes")
    if len(text) > max_frame_bytes or utf8_len(text) > max_frame_bytes:
        return FrameRejected("frame_too_large", f"over {max_frame_bytes} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return FrameRejected("not_json", str(exc)[:120])
    if not isinstance(data, dict):
        return FrameRejected("not_an_object", type(data).__name__)
    header, body = data.get("header"), data.get("body", {})
    if not isinstance(header, dict) or not isinstance(body, dict):
        return FrameRejected("bad_envelope", "header and body must be objects")
    purpose = header.get("messagePurpose")
    request_id = header.get("requestId")
    request_id = request_id if isinstance(request_id, str) else None
    match purpose:
        case "commandResponse" if request_id is not None:
            code, message = _status(body)
            return CommandResponse(request_id, code, message, body)
        case "error":
            code, message = _status(body)
            return GameError(request_id or "", code, message, body)
        case "event":
            return _decode_event(header, body)
        case str():
            return UnknownFrame(purpose, request_id, header, body)
        case _:
            return FrameRejected("no_purpose", "header.messagePurpose is missing")


def _status(body: dict[str, Any]) -> tuple[int, str]:
    code = body.get("statusCode", 0)
    if not isinstance(code, int) or isinstance(code, bool):
        code = -1
    message = body.get("statusMessage", "")
    return code, message if isinstance(message, str) else str(message)


def _decode_event(header: dict[str, Any], body: dict[str, Any]) -> GameEvent:
    version = header.get("version")
    version = version if isinstance(version, int) and not isinstance(version, bool) else None
    name = header.get("eventName") or body.get("eventName")
    if not isinstance(name, str):
        return FrameRejected("no_event_name", "an event frame without eventName")
    if name != "PlayerMessage":
        kind = event_kind(name)
        if kind is None:
            return OtherEvent(name, body, version)
        decoded = decode_game_event(kind, body)
        if isinstance(decoded, FrameRejected):
            return decoded
        return GameEventReceived(decoded, version)
    props = body.get("properties")
    legacy = isinstance(props, dict)
    src: dict[str, Any] = props if isinstance(props, dict) else body

    def field(modern: str, old: str) -> str:
        value = src.get(old if legacy else modern, src.get(modern, ""))
        return value if isinstance(value, str) else ""

    message = src.get("Message" if legacy else "message")
    if not isinstance(message, str):
        return FrameRejected("bad_player_message", "PlayerMessage without a text message")
    sender = field("sender", "Sender")
    return ChatMessage(
        sender=sender,
        message=message,
        type=field("type", "MessageType") or ChatType.CHAT,
        receiver=field("receiver", "Receiver"),
        is_echo=sender in ECHO_SENDERS,
        legacy_shape=legacy,
        protocol_version=version,
    )
