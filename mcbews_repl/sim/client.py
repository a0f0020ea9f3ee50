"""The simulated game's WebSocket client: what Minecraft does after ``/connect <url>``.

It answers ``subscribe``, queues ``commandRequest`` frames and runs them on the next tick
(so the 100-in-flight window is real), refuses the 101st with TooManyPendingRequests
without running it, drops a command line over 461 UTF-8 bytes or a frame over 697 bytes
without a word, as the game was seen to (its own copy of the game's limits, from the
evidence corpus), answers a request it cannot take with the game's own error strings, and
reports chat as PlayerMessage events once subscribed. One writer task serialises every
outgoing frame.

It also plays the game's side of ``ws:encrypt`` (both forms, see ``wsencrypt``): after
answering, every frame it sends is encrypted and binary, and it can refuse unencrypted
requests like a world with "Require Encrypted Websockets" on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .commands import CommandOutcome
from .facts import (
    COMMAND_LINE_BUDGET_BYTES,
    ENGLISH,
    FRAME_BUDGET_BYTES,
    MAX_IN_FLIGHT_COMMANDS,
    MODERN_EVENT_VERSION,
    speaking,
)
from .facts import text as game_text
from .frames import (
    MALFORMED_REQUEST,
    TOO_MANY_PENDING,
    chat_event,
    command_response,
    encrypt_response,
    error_frame,
)
from .model import ChatLine
from .wsencrypt import (
    ENCRYPTION_REQUIRED,
    GameCipher,
    HandshakeRefused,
    accept_key_exchange,
    parse_enable_encryption,
)

__all__ = ["ENCRYPT_SUBPROTOCOL", "GameClient", "dial", "hang_up"]

log = logging.getLogger("mcbews_repl.sim")

ENCRYPT_SUBPROTOCOL = "com.microsoft.minecraft.wsencrypt"  # offered by the game on connect

RunCommand = Callable[[str], CommandOutcome]
# The game's strings of its two error frames, written in the client's language.
TOO_MANY_PENDING_KEY = "commands.generic.too.many.requests"
ENCRYPTION_REQUIRED_KEY = "commands.generic.encryption.required"
# Command lines remembered (GameClient.received): a simulator's record for tests, bounded.
_RECEIVED_KEPT = 10_000


async def dial(url: str, *, offer_encryption: bool, timeout: float = 10.0) -> ClientConnection:
    """Open a connection to a bridge as the game's ``/connect`` does (offering encryption)."""
    return await connect(
        url,
        subprotocols=[ENCRYPT_SUBPROTOCOL] if offer_encryption else None,  # type: ignore[list-item]
        open_timeout=timeout,
        max_size=None,
    )


async def hang_up(ws: ClientConnection | None, tasks: list[asyncio.Task[None]]) -> None:
    """Close the socket and end the connection's reader and writer tasks."""
    if ws is not None:
        await ws.close()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def _version_problem(body: dict[str, Any]) -> str | None:
    """The game's answer to a commandRequest without a usable ``body.version``, or None.
    Which versions exist is not known (facts.json websocket_error_texts): any whole number
    from 1 up is taken."""
    version = body.get("version")
    if version is None:
        return game_text("commands.generic.version.missing")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return game_text("commands.generic.version.mismatch")
    return None


@dataclass(frozen=True)
class _Queued:
    request_id: str
    command_line: str


class GameClient:
    """One game connection. ``run_command`` executes a line as the local player."""

    def __init__(
        self,
        run_command: RunCommand,
        request_tick: Callable[[], None],
        *,
        legacy_events: bool = False,
        event_version: int = MODERN_EVENT_VERSION,
        require_encryption: bool = False,
        legacy_encryption: bool = False,
        offer_encryption: bool = True,
        language: str = ENGLISH,
    ) -> None:
        self._run_command = run_command
        self.language = language  # the game's error frames are written in it
        self._request_tick = request_tick
        self.legacy_events = legacy_events
        self.event_version = event_version  # header.version of modern-shape events
        self.require_encryption = require_encryption
        self.legacy_encryption = legacy_encryption  # an old client: no ws:encrypt purpose
        self.offer_encryption = offer_encryption
        self.subscriptions: set[str] = set()
        self._queue: deque[_Queued] = deque()
        # A GameCipher in the outbox switches the writer to encrypting from that frame on.
        self._outbox: asyncio.Queue[str | GameCipher | None] = asyncio.Queue()
        self._cipher: GameCipher | None = None
        self._decrypted_any = False  # plaintext from the server no longer races the switch
        self._ws: ClientConnection | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.closed = asyncio.Event()
        self.frames_received = 0
        self.peak_in_flight = 0  # the most commands ever queued at once (tests check <= 100)
        self.refused = 0  # requests answered with TooManyPendingRequests
        self.oversized = 0  # requests dropped for a line over 461 or a frame over 697 bytes
        # The newest command lines received, with when (time.monotonic()): what a test reads
        # to tell what the bridge sent after it cancelled a call.
        self.received: deque[tuple[float, str]] = deque(maxlen=_RECEIVED_KEPT)

    @property
    def in_flight(self) -> int:
        """Commands received and not yet answered."""
        return len(self._queue)

    @property
    def encrypted(self) -> bool:
        """True once the ws:encrypt handshake made the connection encrypted."""
        return self._cipher is not None

    async def connect(self, url: str, *, open_timeout: float = 10.0) -> None:
        """Dial the bridge at ``url`` as ``/connect`` does and start reading and writing."""
        self._ws = await dial(url, offer_encryption=self.offer_encryption, timeout=open_timeout)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(), name="sim-ws-read"),
            loop.create_task(self._write(), name="sim-ws-write"),
        ]

    async def close(self) -> None:
        """Close like ``closewebsocket``: stop reading, close the socket, end both tasks."""
        await hang_up(self._ws, self._tasks)
        self._tasks = []
        self._queue.clear()
        self.closed.set()

    def request_close(self) -> None:
        """From inside a tick (``closewebsocket``): close once this tick's answers, the
        command's own included, are queued; the writer closes after sending them."""
        asyncio.get_running_loop().call_soon(self._outbox.put_nowait, None)

    def report_chat(self, line: ChatLine) -> None:
        """Send a PlayerMessage event for ``line``, if the bridge subscribed to them."""
        if "PlayerMessage" in self.subscriptions and not self.closed.is_set():
            event = chat_event(line, legacy=self.legacy_events, version=self.event_version)
            self._outbox.put_nowait(event)

    def report_event(self, name: str, frame: dict[str, Any]) -> bool:
        """Send a game event frame, if the bridge subscribed to ``name`` (the game sends
        none it was not asked for: facts.json ``events_only_when_subscribed``)."""
        if name not in self.subscriptions or self.closed.is_set():
            return False
        self._outbox.put_nowait(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))
        return True

    def on_tick(self, tick: int) -> int | None:
        """Run every command queued before this tick, answering each in order."""
        batch, self._queue = self._queue, deque()
        for item in batch:
            result = self._run_command(item.command_line)
            self._outbox.put_nowait(command_response(item.request_id, result.body()))
        return tick + 1 if self._queue else None

    # --- frames in ----------------------------------------------------------------------
    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for raw in self._ws:
                self.frames_received += 1
                text = self._open(raw)
                if text is not None:
                    with speaking(self.language):
                        self._receive(text)
        except ConnectionClosed:
            pass
        finally:
            self._queue.clear()
            self.closed.set()
            self._outbox.put_nowait(None)

    def _open(self, raw: str | bytes) -> str | None:
        """Decrypt binary frames once encrypted. A text frame before the first encrypted
        one is plaintext the server sent before it switched: it passes; after, dropped."""
        if isinstance(raw, str):
            if self._decrypted_any:
                log.warning("sim: dropping a plaintext frame on an encrypted connection")
                return None
            return raw
        if self._cipher is None:
            return raw.decode("utf-8", "replace")
        self._decrypted_any = True
        return self._cipher.decrypt(raw)

    def _receive(self, raw: str) -> None:
        if self._refuse_oversized(raw):
            return
        try:
            frame = json.loads(raw)
            header: dict[str, Any] = frame["header"]
            body: dict[str, Any] = frame.get("body") or {}
            purpose = header["messagePurpose"]
            request_id = str(header.get("requestId", ""))
        except (ValueError, KeyError, TypeError):
            log.warning("sim: ignoring a frame that is not a game request (%d chars)", len(raw))
            return
        if self._refuse_unencrypted(purpose, request_id, body):
            return
        match purpose:
            case "subscribe":
                self.subscriptions.add(str(body.get("eventName", "")))
                self._outbox.put_nowait(command_response(request_id, {"statusCode": 0}))
            case "unsubscribe":
                self.subscriptions.discard(str(body.get("eventName", "")))
                self._outbox.put_nowait(command_response(request_id, {"statusCode": 0}))
            case "commandRequest":
                self._command_request(request_id, body)
            case "ws:encrypt" if self.legacy_encryption:
                # An old client does not know the purpose: the game's "Invalid request type"
                # (which string, and that it is an error frame, is assumed: facts.json).
                self._refuse_purpose(request_id, purpose)
            case "ws:encrypt":
                self._ws_encrypt(request_id, body)
            case _:
                self._refuse_purpose(request_id, purpose)

    def _refuse_purpose(self, request_id: str, purpose: object) -> None:
        log.info("sim: unsupported messagePurpose %r", purpose)
        self._send_error(
            request_id, MALFORMED_REQUEST, game_text("commands.generic.malformed.type")
        )

    def _refuse_oversized(self, raw: str) -> bool:
        """A frame over the game's ceiling (as sent, escapes counted) is dropped unrun and
        unanswered: the game was seen to return nothing at all (facts.json oversized_request)."""
        size = len(raw.encode("utf-8", "surrogatepass"))
        if size <= FRAME_BUDGET_BYTES:
            return False
        self.oversized += 1
        log.warning("sim: dropping a %d-byte frame (the game takes %d)", size, FRAME_BUDGET_BYTES)
        return True

    # --- encryption -------------------------------------------------------------------
    def _refuse_unencrypted(self, purpose: str, request_id: str, body: dict[str, Any]) -> bool:
        """Require Encrypted Websockets: only the handshake itself may come in plaintext."""
        if not self.require_encryption or self._cipher is not None or purpose == "ws:encrypt":
            return False
        line = body.get("commandLine")
        if isinstance(line, str) and parse_enable_encryption(line) is not None:
            return False
        self._send_error(request_id, ENCRYPTION_REQUIRED, game_text(ENCRYPTION_REQUIRED_KEY))
        return True

    def _key_exchange(
        self, request_id: str, key: object, salt: object, mode: object
    ) -> tuple[str, GameCipher] | None:
        """Our public key and the session's cipher, or None after answering with an error."""
        if self._cipher is not None:
            self._send_error(request_id, MALFORMED_REQUEST, "The connection is already encrypted")
            return None
        try:
            return accept_key_exchange(key, salt, mode)
        except HandshakeRefused as exc:
            log.warning("sim: refusing the encryption handshake: %s", exc)
            self._send_error(request_id, MALFORMED_REQUEST, f"Encryption handshake failed: {exc}")
            return None

    def _switch(self, answer: str, cipher: GameCipher) -> None:
        """Queue the answer in plaintext; every frame after it is encrypted, both ways."""
        self._outbox.put_nowait(answer)
        self._outbox.put_nowait(cipher)
        self._cipher = cipher

    def _ws_encrypt(self, request_id: str, body: dict[str, Any]) -> None:
        mode = body.get("mode", "cfb8")
        agreed = self._key_exchange(request_id, body.get("publicKey"), body.get("salt"), mode)
        if agreed is not None:
            self._switch(encrypt_response(request_id, agreed[0]), agreed[1])

    def _enable_encryption(self, request_id: str, parsed: tuple[str, str, str]) -> None:
        agreed = self._key_exchange(request_id, *parsed)
        if agreed is not None:
            body = {"publicKey": agreed[0], "statusCode": 0, "statusMessage": ""}
            self._switch(command_response(request_id, body), agreed[1])

    # --- commands -----------------------------------------------------------------------
    def _command_request(self, request_id: str, body: dict[str, Any]) -> None:
        line = body.get("commandLine")
        if not isinstance(line, str):
            self._send_error(
                request_id, MALFORMED_REQUEST, game_text("commands.generic.malformed.body")
            )
            return
        self.received.append((time.monotonic(), line))
        if (parsed := parse_enable_encryption(line)) is not None:
            self._enable_encryption(request_id, parsed)
            return
        if (version_problem := _version_problem(body)) is not None:
            self._send_error(request_id, MALFORMED_REQUEST, version_problem)
            return
        if len(self._queue) >= MAX_IN_FLIGHT_COMMANDS:
            self.refused += 1
            self._send_error(request_id, TOO_MANY_PENDING, game_text(TOO_MANY_PENDING_KEY))
            return
        size = len(line.encode("utf-8", "surrogatepass"))
        if size > COMMAND_LINE_BUDGET_BYTES:  # dropped without an answer, as a frame over 697
            self.oversized += 1
            log.warning("sim: dropping a %d-byte command line (the game takes %d)", size,
                        COMMAND_LINE_BUDGET_BYTES)  # fmt: skip
            return
        self._queue.append(_Queued(request_id, line))
        self.peak_in_flight = max(self.peak_in_flight, len(self._queue))
        self._request_tick()

    def _send_error(self, request_id: str, code: int, message: str) -> None:
        self._outbox.put_nowait(error_frame(request_id, code, message))

    # --- frames out ---------------------------------------------------------------------
    async def _write(self) -> None:
        assert self._ws is not None
        cipher: GameCipher | None = None
        try:
            while (item := await self._outbox.get()) is not None:
                if isinstance(item, GameCipher):
                    cipher = item
                    continue
                await self._ws.send(item if cipher is None else cipher.encrypt(item))
        except ConnectionClosed:
            pass
        finally:
            with contextlib.suppress(Exception):
                await self._ws.close()
            self.closed.set()
