"""The simulated game's WebSocket client: what Minecraft does after ``/connect <url>``.

It answers ``subscribe``, queues ``commandRequest`` frames and runs them on the next tick
(so the 100-in-flight window is real), refuses the 101st with TooManyPendingRequests
without running it, refuses lines over the byte budget, and reports chat as PlayerMessage
events once subscribed. One writer task serialises every outgoing frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .commands import CommandResult
from .frames import (
    COMMAND_LINE_BUDGET_BYTES,
    MALFORMED_REQUEST,
    MAX_IN_FLIGHT_COMMANDS,
    TOO_MANY_PENDING,
    TOO_MANY_PENDING_MESSAGE,
    chat_event,
    command_response,
    error_frame,
)
from .model import ChatLine

__all__ = ["ENCRYPT_SUBPROTOCOL", "GameClient"]

log = logging.getLogger("mcbews_repl.sim")

ENCRYPT_SUBPROTOCOL = "com.microsoft.minecraft.wsencrypt"  # offered by the game on connect

RunCommand = Callable[[str], CommandResult]


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
    ) -> None:
        self._run_command = run_command
        self._request_tick = request_tick
        self.legacy_events = legacy_events
        self.subscriptions: set[str] = set()
        self._queue: deque[_Queued] = deque()
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._ws: ClientConnection | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.closed = asyncio.Event()
        self.frames_received = 0
        self.peak_in_flight = 0  # the most commands ever queued at once (tests check <= 100)
        self.refused = 0  # requests answered with TooManyPendingRequests

    @property
    def in_flight(self) -> int:
        return len(self._queue)

    async def connect(self, url: str, *, open_timeout: float = 10.0) -> None:
        self._ws = await connect(
            url,
            subprotocols=[ENCRYPT_SUBPROTOCOL],  # type: ignore[list-item]
            open_timeout=open_timeout,
            max_size=None,
        )
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(), name="sim-ws-read"),
            loop.create_task(self._write(), name="sim-ws-write"),
        ]

    async def close(self) -> None:
        """Close like ``closewebsocket``: stop reading, close the socket, end both tasks."""
        ws = self._ws
        if ws is not None:
            await ws.close()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        self._queue.clear()
        self.closed.set()

    def request_close(self) -> None:
        """From inside a tick (``closewebsocket``): close once this tick's answers, the
        command's own included, are queued; the writer closes after sending them."""
        asyncio.get_running_loop().call_soon(self._outbox.put_nowait, None)

    def report_chat(self, line: ChatLine) -> None:
        if "PlayerMessage" in self.subscriptions and not self.closed.is_set():
            self._outbox.put_nowait(chat_event(line, legacy=self.legacy_events))

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
                self._receive(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))
        except ConnectionClosed:
            pass
        finally:
            self._queue.clear()
            self.closed.set()
            self._outbox.put_nowait(None)

    def _receive(self, raw: str) -> None:
        try:
            frame = json.loads(raw)
            header: dict[str, Any] = frame["header"]
            body: dict[str, Any] = frame.get("body") or {}
            purpose = header["messagePurpose"]
            request_id = str(header.get("requestId", ""))
        except (ValueError, KeyError, TypeError):
            log.warning("sim: ignoring a frame that is not a game request (%d chars)", len(raw))
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
            case _:
                log.info("sim: unsupported messagePurpose %r", purpose)

    def _command_request(self, request_id: str, body: dict[str, Any]) -> None:
        line = body.get("commandLine")
        if not isinstance(line, str):
            self._send_error(request_id, MALFORMED_REQUEST, "commandLine is missing")
            return
        if len(self._queue) >= MAX_IN_FLIGHT_COMMANDS:
            self.refused += 1
            self._send_error(request_id, TOO_MANY_PENDING, TOO_MANY_PENDING_MESSAGE)
            return
        size = len(line.encode("utf-8"))
        if size > COMMAND_LINE_BUDGET_BYTES:
            self._send_error(
                request_id,
                MALFORMED_REQUEST,
                f"Command line is {size} bytes; the game accepts at most "
                f"{COMMAND_LINE_BUDGET_BYTES}",
            )
            return
        self._queue.append(_Queued(request_id, line))
        self.peak_in_flight = max(self.peak_in_flight, len(self._queue))
        self._request_tick()

    def _send_error(self, request_id: str, code: int, message: str) -> None:
        self._outbox.put_nowait(error_frame(request_id, code, message))

    # --- frames out ---------------------------------------------------------------------
    async def _write(self) -> None:
        assert self._ws is not None
        try:
            while (text := await self._outbox.get()) is not None:
                await self._ws.send(text)
        except ConnectionClosed:
            pass
        finally:
            with contextlib.suppress(Exception):
                await self._ws.close()
            self.closed.set()
