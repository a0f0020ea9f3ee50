"""Channel A: capability requests down, their reassembled answers up; channel B: UI chat.

Pure functions: build the request command line, and interpret a reassembled answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from json.scanner import make_scanner
from typing import Any

from ..exceptions import FrameTooLarge
from .events import CapabilityFailed, CapabilityResult, ForwardedBatch, FrameRejected, UiChatMessage
from .forwarded import decode_forwarded, is_forwarded
from .frames import command_frame_bytes
from .jsonwire import dumps_wire, utf8_len
from .wire import (
    BRIDGE_REQUEST_EVENT,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    MAX_MESSAGE_BYTES,
    REQUEST_VERSION,
)

__all__ = [
    "MALFORMED_RESPONSE",
    "UI_CHAT_MAX_BYTES",
    "encode_capability_request",
    "encode_request_body",
    "interpret_bridge_answer",
    "interpret_ui_chat",
]

# Our own code (not the addon's) for an answer we could not understand.
MALFORMED_RESPONSE = "MALFORMED_RESPONSE"
# The most a UI chat message's JSON text may hold, on either transport: on chat it is one
# chunked message, so the reassembler's cap is its bound; the pull transport keeps the same
# (a 2 MiB message there, 256 of them waiting, once took a notebook from 43 to 580 MB).
UI_CHAT_MAX_BYTES = MAX_MESSAGE_BYTES


def encode_request_body(
    request_id: str,
    capability: str,
    payload: Mapping[str, Any] | None,
    dumps: Callable[[Any], str],
) -> str:
    """The request object both transports carry (version, id, capability, payload), written
    by ``dumps``; the capability name is checked first, the payload must be JSON."""
    if not isinstance(capability, str) or not capability or any(c.isspace() for c in capability):
        raise ValueError(
            f"capability must be a name without spaces, e.g. 'list_capabilities', "
            f"not {capability!r}"
        )
    body = {
        "v": REQUEST_VERSION,
        "request_id": request_id,
        "capability": capability,
        "payload": dict(payload or {}),
    }
    try:
        return dumps(body)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"the payload of {capability} must be JSON-serializable: {exc}") from exc


def encode_capability_request(
    request_id: str,
    capability: str,
    payload: Mapping[str, Any] | None = None,
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> str:
    """``scriptevent mcbews:bridge_req {...}``, compact and wire-escaped, within both ceilings.

    The line is at most ``budget_bytes`` UTF-8 bytes and its commandRequest frame, with the
    quotes of the request's JSON escaped again, at most ``frame_budget_bytes``.

    Raises:
        FrameTooLarge: the request does not fit (move data out of the payload).
        ValueError: ``request_id`` is empty or holds ``|``.
    """
    if not request_id or "|" in request_id:
        raise ValueError("request_id must be non-empty and contain no '|'")
    encoded = encode_request_body(request_id, capability, payload, dumps_wire)
    line = f"scriptevent {BRIDGE_REQUEST_EVENT} {encoded}"
    size, frame = utf8_len(line), command_frame_bytes(line)
    if size > budget_bytes or frame > frame_budget_bytes:
        raise FrameTooLarge(
            f"the {capability} request", size, budget_bytes, frame, frame_budget_bytes
        )
    return line


# The C scanner behind json.loads, called directly: json.loads also matches whitespace
# before and after the value with a regex, which costs a single-chunk answer half again
# its parse. Where the value does not span exactly the whole text (whitespace around it,
# extra data, or no value at all) json.loads itself decides, so the result is the same.
# This is JSONDecoder.scan_once (typeshed types make_scanner's argument as a scanner).
_scan_value = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def _load_object(text: str) -> dict[str, Any] | str:
    """The answer's JSON object, or why there is none; the same as ``json.loads``, faster."""
    try:
        try:
            value, end = _scan_value(text, 0)
        except StopIteration:
            end = -1
        if end != len(text):
            value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {exc}"
    if not isinstance(value, dict):
        return f"JSON root is {type(value).__name__}, not an object"
    return value


def interpret_bridge_answer(
    request_id: str, capability: str, text: str
) -> CapabilityResult | CapabilityFailed:
    """Turn a reassembled ``{"ok":...}`` answer into a result or a failure."""
    data = _load_object(text)
    if isinstance(data, str):
        return CapabilityFailed(request_id, capability, MALFORMED_RESPONSE, data)
    ok = data.get("ok")
    if ok is True:
        # The reference addon (mcbe-ws-sdk 0.2.1) puts the result under "payload".
        result = data["result"] if "result" in data else data.get("payload", {})
        if not isinstance(result, dict):
            return CapabilityFailed(
                request_id,
                capability,
                MALFORMED_RESPONSE,
                f"result is {type(result).__name__}, not an object",
            )
        return CapabilityResult(request_id, capability, result)
    if ok is False:
        error = data.get("error")
        error = error if isinstance(error, dict) else {}
        code, message = error.get("code"), error.get("message")
        return CapabilityFailed(
            request_id,
            capability,
            code if isinstance(code, str) and code else "CAPABILITY_FAILED",
            message if isinstance(message, str) else "the addon gave no error message",
        )
    return CapabilityFailed(
        request_id, capability, MALFORMED_RESPONSE, "the answer has no boolean 'ok'"
    )


def interpret_ui_chat(message_id: str, text: str) -> UiChatMessage | ForwardedBatch | FrameRejected:
    """A reassembled UI chat payload: a panel message ``{"player":..., "message":...,
    "cid"?}``, or a batch of forwarded events ``{"fwd":1, ...}`` (sansio/forwarded.py)."""
    data = _load_object(text)
    if isinstance(data, str):
        return FrameRejected("ui_chat_malformed", data, message_id)
    if is_forwarded(data):
        return decode_forwarded(message_id, data, utf8_len(text))
    player, message, cid = data.get("player"), data.get("message"), data.get("cid")
    if not isinstance(player, str) or not player.strip():
        return FrameRejected("ui_chat_malformed", "player is missing or empty", message_id)
    if not isinstance(message, str) or not message.strip():
        return FrameRejected("ui_chat_malformed", "message is missing or empty", message_id)
    return UiChatMessage(message_id, player, message, cid if isinstance(cid, str) else None)
