"""How a replayed game recognises a request it has a recorded answer for.

Two runs of the same session never send the same frames byte for byte: every frame has a
fresh ``requestId`` (a UUID), and some command lines carry ids the bridge made up for that
run (the ``request_id`` inside a capability request). So a request is matched by its *key*:

- ``subscribe`` / ``unsubscribe``: the purpose and the event name;
- a capability request (``scriptevent mcbews:bridge_req {...}``): the command line with
  its ``request_id`` replaced by ``<id>``; the id itself is remembered, so the recorded
  answer's chunks (which carry the recorded id) are sent with the live one;
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

from ..sansio.wire import BRIDGE_REQUEST_EVENT, TEXT_RESPONSE_EVENT

__all__ = ["RULES", "RequestKey", "key_of", "key_of_line"]

ID_MARK = "<id>"


@dataclass(frozen=True, slots=True)
class RequestKey:
    """What must be equal for a live request to take a recorded answer, and the ids
    (made up by the bridge for that run) the line carries, in order."""

    key: str
    ids: tuple[str, ...] = ()


def _json_after(line: str, prefix: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line[len(prefix) :])
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _capability_request(line: str) -> RequestKey | None:
    prefix = f"scriptevent {BRIDGE_REQUEST_EVENT} "
    if not line.startswith(prefix):
        return None
    body = _json_after(line, prefix)
    request_id = body.get("request_id") if body else None
    if not isinstance(request_id, str) or not request_id:
        return None
    return RequestKey(line.replace(request_id, ID_MARK), (request_id,))


def _text_response(line: str) -> RequestKey | None:
    prefix = f"scriptevent {TEXT_RESPONSE_EVENT} "
    return RequestKey(prefix.rstrip()) if line.startswith(prefix) else None


# Each rule reads a command line and returns its key, or None when the line is not its kind.
RULES: list[Callable[[str], RequestKey | None]] = [_capability_request, _text_response]


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
