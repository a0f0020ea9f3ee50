"""The game's side of the wire: the JSON frames Minecraft Bedrock sends.

Written from the evidence corpus (``facts``: the captured event and error frames), not from
the bridge's codec, so a misreading on one side shows up as a failing test instead of
agreeing with itself.
"""

from __future__ import annotations

import json
from typing import Any

from .facts import (
    LEGACY_EVENT_REQUEST_ID,
    MALFORMED_REQUEST,
    MODERN_EVENT_VERSION,
    TOO_MANY_PENDING,
    text,
)
from .model import ChatLine

__all__ = [
    "MALFORMED_REQUEST",
    "MODERN_EVENT_VERSION",
    "TOO_MANY_PENDING",
    "TOO_MANY_PENDING_MESSAGE",
    "chat_event",
    "command_response",
    "encrypt_response",
    "error_frame",
]

TOO_MANY_PENDING_MESSAGE = text("commands.generic.too.many.requests")


def _dump(frame: dict[str, Any]) -> str:
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def command_response(request_id: str, body: dict[str, Any]) -> str:
    """A ``commandResponse`` frame answering ``request_id`` with ``body``."""
    header = {"messagePurpose": "commandResponse", "requestId": request_id, "version": 1}
    return _dump({"body": body, "header": header})


def encrypt_response(request_id: str, public_key: str) -> str:
    """The game's answer to ``ws:encrypt``: its own public key (sent before it switches)."""
    header = {"messagePurpose": "ws:encrypt", "requestId": request_id, "version": 1}
    return _dump({"body": {"publicKey": public_key}, "header": header})


def error_frame(request_id: str, status_code: int, message: str) -> str:
    """An ``error`` frame: the game refusing ``request_id`` at the protocol level."""
    header = {"messagePurpose": "error", "requestId": request_id, "version": 1}
    return _dump({"body": {"statusCode": status_code, "statusMessage": message}, "header": header})


def chat_event(line: ChatLine, *, legacy: bool = False, version: int = MODERN_EVENT_VERSION) -> str:
    """A PlayerMessage event: the modern body under header ``version`` (17104896 in a 2026
    capture, 17039360 and 16842752 in older ones), or the legacy ``properties`` shape of
    header version 1."""
    if legacy:
        properties = {"Message": line.message, "MessageType": line.type, "Sender": line.sender}
        if line.receiver:  # the captured chat event has none; a whisper's is assumed
            properties["Receiver"] = line.receiver
        header = {"messagePurpose": "event", "requestId": LEGACY_EVENT_REQUEST_ID, "version": 1}
        body = {"eventName": "PlayerMessage", "measurements": None, "properties": properties}
        return _dump({"header": header, "body": body})  # the captured order
    body = {
        "message": line.message,
        "receiver": line.receiver,
        "sender": line.sender,
        "type": line.type,
    }
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": version}
    return _dump({"body": body, "header": header})
