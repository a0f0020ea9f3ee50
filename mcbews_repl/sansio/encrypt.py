"""The ``ws:encrypt`` handshake's messages: what we send and how the game's answer reads.

Two forms (docs/encryption.md, "What happens on the wire"): the ``ws:encrypt`` message
purpose, answered by a ``ws:encrypt`` frame ``{"publicKey": ...}``; and, for old clients,
the command ``enableencryption "<pubkey>" "<salt>"``, answered by a ``commandResponse``
carrying ``publicKey``. The cryptography itself is not here (it needs a third-party
package): see ``mcbews_repl.gateway.encryption``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

from .events import CommandResponse, GameError, GameEvent, UnknownFrame

__all__ = [
    "ENCRYPTION_REQUIRED",
    "ENCRYPT_PURPOSE",
    "ENCRYPT_SUBPROTOCOL",
    "EncryptReply",
    "HandshakeForm",
    "enable_encryption_command",
    "encode_encrypt_request",
    "read_encrypt_reply",
]

# The subprotocol the game offers on connect when it can encrypt (docs/encryption.md).
ENCRYPT_SUBPROTOCOL = "com.microsoft.minecraft.wsencrypt"
ENCRYPT_PURPOSE = "ws:encrypt"
# The game's answer to an unencrypted request when "Require Encrypted Websockets" is on.
ENCRYPTION_REQUIRED = -2147418107
# mcpews 4.0.1 (server.ts) appends the mode only as an optional last argument; old clients
# know just the two quoted arguments, so the default mode is left implicit.
_DEFAULT_MODE = "cfb8"
_HEADER_VERSION = 1

HandshakeForm = Literal["ws:encrypt", "command"]


@dataclass(frozen=True, slots=True)
class EncryptReply:
    """The game's answer to our handshake request: its key, or why it refused."""

    request_id: str
    public_key: str | None  # base64 DER SPKI; None when the game refused
    status_code: int
    status_message: str


def encode_encrypt_request(request_id: str, mode: str, public_key_b64: str, salt_b64: str) -> str:
    """The ``ws:encrypt`` request frame: our public key, the salt and the cipher mode."""
    return json.dumps(
        {
            "header": {
                "version": _HEADER_VERSION,
                "requestId": request_id,
                "messagePurpose": ENCRYPT_PURPOSE,
            },
            "body": {"mode": mode, "publicKey": public_key_b64, "salt": salt_b64},
        },
        separators=(",", ":"),
    )


def enable_encryption_command(public_key_b64: str, salt_b64: str, mode: str = _DEFAULT_MODE) -> str:
    """The legacy command line; send it as an ordinary ``commandRequest``."""
    line = f'enableencryption "{public_key_b64}" "{salt_b64}"'
    return line if mode == _DEFAULT_MODE else f"{line} {mode}"


def read_encrypt_reply(event: GameEvent, request_id: str) -> EncryptReply | None:
    """The answer to handshake request ``request_id`` if ``event`` is one, else None.

    A ``ws:encrypt`` frame without a request id still counts: only one exchange is ever
    outstanding, and a game that drops the id should not stall the connection.
    """
    match event:
        case UnknownFrame(purpose="ws:encrypt", request_id=rid, body=body) if rid in (
            request_id,
            None,
        ):
            return _with_key(request_id, body, 0, "")
        case CommandResponse(request_id=rid, status_code=code, status_message=msg, body=body) if (
            rid == request_id
        ):
            return _with_key(request_id, body, code, msg)
        case GameError(request_id=rid, status_code=code, status_message=msg) if rid == request_id:
            return EncryptReply(request_id, None, code, msg or "the game refused the request")
    return None


def _with_key(request_id: str, body: dict[str, object], code: int, message: str) -> EncryptReply:
    key = body.get("publicKey")
    if code < 0 or not isinstance(key, str):
        why = message or "the answer carries no publicKey"
        return EncryptReply(request_id, None, code, why)
    return EncryptReply(request_id, key, code, message)
