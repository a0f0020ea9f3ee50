"""Run the ``ws:encrypt`` handshake over one game connection, before anything else is sent.

The negotiation itself (which form to try, which frame is the answer, what a refusal
means) is the sans-I/O :class:`~mcbews_repl.sansio.handshake.EncryptHandshake`; this
module only moves its frames, makes the key pairs and owns the clock. Frames that arrive
meanwhile and are not the answer go to the connection's normal handler. The whole
exchange is bounded by the handshake timeout, so a silent or broken game fails the
connection instead of hanging it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.server import ServerConnection

from ..sansio import (
    EncryptHandshake,
    HandshakeFailed,
    HandshakeForm,
    HandshakeStep,
    KeyNeeded,
    handshake_forms,
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


async def negotiate(
    websocket: ServerConnection,
    settings: Settings,
    other: Callable[[str | bytes], None],
    tap: Tap | None = None,
) -> Negotiated:
    """Agree on a session key with the game.

    ``other`` receives every frame that is not the answer; ``tap`` sees the handshake's own
    frames (our request and the answer).

    Raises:
        EncryptionError: the game refused every form, sent an unusable answer or key, or
            did not answer within ``settings.handshake_timeout``.
        websockets.exceptions.ConnectionClosed: the socket closed meanwhile; the caller
            treats it like any other disconnect.
    """
    mode = settings.encryption_mode
    machine = EncryptHandshake(
        handshake_forms(settings.encryption_handshake),
        mode,
        max_frame_bytes=settings.max_frame_bytes,
    )
    try:
        async with asyncio.timeout(settings.handshake_timeout):
            return await _run(websocket, machine, mode, other, tap)
    except TimeoutError as exc:
        raise EncryptionError(machine.timed_out(settings.handshake_timeout).reason) from exc


async def _run(
    websocket: ServerConnection,
    machine: EncryptHandshake,
    mode: EncryptionMode,
    other: Callable[[str | bytes], None],
    tap: Tap | None,
) -> Negotiated:
    step: HandshakeStep = machine.start()
    while isinstance(step, KeyNeeded):  # the first step always is: the loop runs
        exchange = KeyExchange()  # a fresh key pair for every form tried
        request = machine.request(exchange.public_key_b64, exchange.salt_b64, str(uuid.uuid4()))
        if tap is not None:
            tap("out", request.frame)
        await websocket.send(request.frame)
        step = await _answer(websocket, machine, other, tap)
    if isinstance(step, HandshakeFailed):
        raise EncryptionError(step.reason)
    return Negotiated(exchange.complete(step.public_key, mode), step.form, mode)


async def _answer(
    websocket: ServerConnection,
    machine: EncryptHandshake,
    other: Callable[[str | bytes], None],
    tap: Tap | None,
) -> HandshakeStep:
    while True:
        message = await websocket.recv()
        if isinstance(message, str) and (step := machine.receive(message)) is not None:
            if tap is not None:
                tap("in", message)
            return step
        other(message)
