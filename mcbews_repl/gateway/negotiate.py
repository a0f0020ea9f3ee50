"""Run the ``ws:encrypt`` handshake over one game connection, before anything else is sent.

Nothing else goes out while it runs: a plaintext frame sent while the game switches its
cipher would race the switch on the game's side. Frames that arrive meanwhile and are not
the answer go to the connection's normal handler. The whole exchange is bounded by the
handshake timeout, so a silent or broken game fails the connection instead of hanging it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.server import ServerConnection

from ..sansio import decode_frame, encode_command
from ..sansio.encrypt import (
    EncryptReply,
    HandshakeForm,
    enable_encryption_command,
    encode_encrypt_request,
    read_encrypt_reply,
)
from .encryption import EncryptionError, EncryptionMode, KeyExchange, SessionCipher
from .observer import Direction
from .settings import Settings

__all__ = ["Negotiated", "negotiate"]

Tap = Callable[[Direction, str | bytes], None]


@dataclass(frozen=True, slots=True)
class Negotiated:
    """An encrypted session: its cipher streams and how it was agreed."""

    cipher: SessionCipher
    form: HandshakeForm
    mode: EncryptionMode


def _forms(settings: Settings) -> tuple[HandshakeForm, ...]:
    # "auto": the message purpose first; a game that refuses it is an old client that
    # only knows the enableencryption command (PROTOCOL.md §1). Only a refusal moves on:
    # a late answer after a timeout would leave the game on a key we had given up on.
    if settings.encryption_handshake == "auto":
        return ("ws:encrypt", "command")
    return (settings.encryption_handshake,)


def _request(form: HandshakeForm, exchange: KeyExchange, mode: str) -> tuple[str, str]:
    request_id = str(uuid.uuid4())
    if form == "ws:encrypt":
        frame = encode_encrypt_request(request_id, mode, exchange.public_key_b64, exchange.salt_b64)
    else:
        line = enable_encryption_command(exchange.public_key_b64, exchange.salt_b64, mode)
        frame = encode_command(request_id, line)
    return request_id, frame


async def _answer(
    websocket: ServerConnection,
    request_id: str,
    settings: Settings,
    other: Callable[[str | bytes], None],
    tap: Tap | None,
) -> EncryptReply:
    while True:
        message = await websocket.recv()
        if isinstance(message, str):
            reply = read_encrypt_reply(decode_frame(message, settings.max_frame_bytes), request_id)
            if reply is not None:
                if tap is not None:
                    tap("in", message)
                return reply
        other(message)


async def negotiate(
    websocket: ServerConnection,
    settings: Settings,
    other: Callable[[str | bytes], None],
    tap: Tap | None = None,
) -> Negotiated:
    """Agree on a session key with the game; raise :class:`EncryptionError` saying why not.

    ``other`` receives every frame that is not the answer; ``tap`` sees the handshake's own
    frames (our request and the answer). websockets' ``ConnectionClosed`` passes through:
    the caller treats it like any other disconnect.
    """
    mode = settings.encryption_mode
    limit = settings.handshake_timeout
    refusals: list[str] = []
    try:
        async with asyncio.timeout(limit):
            for form in _forms(settings):
                exchange = KeyExchange()
                request_id, frame = _request(form, exchange, mode)
                if tap is not None:
                    tap("out", frame)
                await websocket.send(frame)
                reply = await _answer(websocket, request_id, settings, other, tap)
                if reply.public_key is None and reply.status_code < 0:  # a refusal
                    refusals.append(f"{form}: {reply.status_code} {reply.status_message}")
                    continue
                if reply.public_key is None:  # an answer without a key is broken, not "no"
                    raise EncryptionError(
                        f"the game's {form} answer is unusable: {reply.status_message}"
                    )
                return Negotiated(exchange.complete(reply.public_key, mode), form, mode)
    except TimeoutError as exc:
        raise EncryptionError(
            f"the game did not answer the encryption handshake within {limit:g} s; an old "
            "game may need encryption_handshake='command' (or encrypt=False)"
        ) from exc
    raise EncryptionError("the game refused encryption (" + "; ".join(refusals) + ")")
