"""How a replayed game recognises a request it has a recorded answer for.

Two runs of the same session never send the same frames byte for byte: every frame has a
fresh ``requestId`` (a UUID), and some command lines carry ids the bridge made up for that
run (the ``request_id`` inside a capability request). So a request is matched by its *key*:

- ``subscribe`` / ``unsubscribe``: the purpose and the event name;
- a capability request (``scriptevent mcbews:bridge_req {...}`` over chat,
  ``mcbews:ask <hex>`` or ``scriptevent mcbews:pull_req {...}`` over pull): the request
  with its ``request_id`` replaced by ``<id>`` (the hex of an ask line is read first); the
  id itself is remembered, so the recorded answer's chunks and pages (which carry the
  recorded id) are sent with the live one;
- ``mcbews:pull <id> <page>``: the same with its id marked;
- ``mcbews:poll``: the command, answered in order, and once the recorded polls are used up
  with a recorded ``MCBEWS|EMPTY`` (the bridge polls for as long as it is connected);
- a part of a request too large for one command (``scriptevent mcbews:bulk <id> ...``): the
  line with its id marked, wherever it stands;
- the tags transport's request (``scriptevent mcbews:tags_req {...}``) like the others;
  its reads (``tag @s list``), acks (``scriptevent mcbews:tags_ack ...``) and hellos
  (``scriptevent mcbews:tags_poll``) by their kind, answered in order, and once the
  recorded ones are used up with the last recorded again (how many reads a run makes
  depends on its timing; the page tags in the answers carry the recorded ids, rewritten);
- a text-response frame (``scriptevent mcbews:text_resp {...}``): the kind alone, since
  how a text is cut into frames may change while the game's answer (an empty success)
  does not;
- any other command: its command line exactly.

Requests with the same key are answered in the order they were recorded. The rules are a
table (:data:`RULES`): a transport that carries ids differently adds one rule here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..sansio import (
    ASK_COMMAND,
    BRIDGE_REQUEST_EVENT,
    BULK_EVENT,
    EMPTY_REPLY,
    POLL_COMMAND,
    PULL_COMMAND,
    PULL_REQUEST_EVENT,
    TAG_LIST_COMMAND,
    TAGS_ACK_EVENT,
    TAGS_POLL_EVENT,
    TAGS_REQUEST_EVENT,
    TEXT_RESPONSE_EVENT,
    parse_bulk_line,
)

__all__ = ["RULES", "RequestKey", "key_of", "key_of_line"]

ID_MARK = "<id>"


@dataclass(frozen=True, slots=True)
class RequestKey:
    """What must be equal for a live request to take a recorded answer, and the ids
    (made up by the bridge for that run) the line carries, in order."""

    key: str
    ids: tuple[str, ...] = ()
    # Asked again and again (the UI chat poll): once the recorded ones are used up, a
    # recorded answer whose statusMessage is this is given again.
    idle: str | None = None
    # Asked as often as a run's timing makes it (the tags transport's reads): once the
    # recorded ones are used up, the last recorded answer is given again.
    again: bool = False


def _json_after(line: str, prefix: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line[len(prefix) :])
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _marked(shown: str, request: dict[str, Any] | None) -> RequestKey | None:
    request_id = request.get("request_id") if request else None
    if not isinstance(request_id, str) or not request_id:
        return None
    return RequestKey(shown.replace(request_id, ID_MARK), (request_id,))


def _capability_request(line: str) -> RequestKey | None:
    """A request as a script event, over chat (bridge_req) or pull (pull_req)."""
    for event in (BRIDGE_REQUEST_EVENT, PULL_REQUEST_EVENT, TAGS_REQUEST_EVENT):
        prefix = f"scriptevent {event} "
        if line.startswith(prefix):
            return _marked(line, _json_after(line, prefix))
    return None


def _bulk_part(line: str) -> RequestKey | None:
    """``scriptevent mcbews:bulk <id> <k> <i>/<n> <content>``: a part of a large request, its
    id marked wherever it stands (the header, and the request inside the first parts)."""
    part = parse_bulk_line(line) if line.startswith(f"scriptevent {BULK_EVENT} ") else None
    if part is None:
        return None
    return RequestKey(line.replace(part.request_id, ID_MARK), (part.request_id,))


def _ask(line: str) -> RequestKey | None:
    """``mcbews:ask <hex>``: the request's JSON as hex digits."""
    prefix = f"{ASK_COMMAND} "
    if not line.startswith(prefix):
        return None
    try:
        text = bytes.fromhex(line[len(prefix) :]).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return _marked(prefix + text, _json_after(text, ""))


def _pull(line: str) -> RequestKey | None:
    words = line.split(" ")
    if len(words) != 3 or words[0] != PULL_COMMAND:
        return None
    return RequestKey(f"{PULL_COMMAND} {ID_MARK} {words[2]}", (words[1],))


def _poll(line: str) -> RequestKey | None:
    return RequestKey(line, idle=EMPTY_REPLY) if line == POLL_COMMAND else None


def _tags_traffic(line: str) -> RequestKey | None:
    """A read of the player's tags, an ack or a hello: by kind (their number is timing)."""
    if line == TAG_LIST_COMMAND:
        return RequestKey(line, again=True)
    for event in (TAGS_ACK_EVENT, TAGS_POLL_EVENT):
        head = f"scriptevent {event}"
        if line == head or line.startswith(head + " "):
            return RequestKey(head, again=True)
    return None


def _text_response(line: str) -> RequestKey | None:
    prefix = f"scriptevent {TEXT_RESPONSE_EVENT} "
    return RequestKey(prefix.rstrip()) if line.startswith(prefix) else None


# Each rule reads a command line and returns its key, or None when the line is not its kind.
RULES: list[Callable[[str], RequestKey | None]] = [
    _capability_request,
    _bulk_part,
    _ask,
    _pull,
    _poll,
    _tags_traffic,
    _text_response,
]


def key_of_line(line: str) -> RequestKey:
    """The key of one command line (the first rule that recognises it, else the line)."""
    for rule in RULES:
        key = rule(line)
        if key is not None:
            return key
    return RequestKey(line)


def key_of(frame: dict[str, Any]) -> RequestKey | None:
    """The key of a frame the bridge sent, or None when it is not a request a game answers
    from a capture (the encryption handshake, which a replayed game plays itself)."""
    header = frame.get("header")
    body = frame.get("body")
    if not isinstance(header, dict) or not isinstance(body, dict):
        return None
    purpose = header.get("messagePurpose")
    if purpose in ("subscribe", "unsubscribe"):
        return RequestKey(f"{purpose} {body.get('eventName')}")
    if purpose != "commandRequest":
        return None
    line = body.get("commandLine")
    if not isinstance(line, str) or line.startswith("enableencryption "):
        return None
    return key_of_line(line)
