"""One connection's outgoing frames, several to a socket write when they are ready together.

The game reads one JSON message per WebSocket frame, so frames are never merged: each
stays its own message. What is shared is the system call. Frames that callers hand over in
the same turn of the event loop (a burst of commands released by one reply, a window's
worth at the start) are framed by websockets one by one and written to the socket as one
``transport.write``, instead of one ``send`` system call and one drain each; a profile of a
10,000-command burst had a fifth of its time in those calls.

It uses the websockets connection the way ``websockets.asyncio.connection.Connection.send``
does itself, through its documented Sans-I/O ``protocol`` and ``send_context()``, which
checks the connection is open, and after the write applies websockets' flow control and
turns a failure into ``ConnectionClosed``. Frames reach the wire in the order they were
handed over (the encryption's cipher stream depends on it). Where the connection offers no
such parts (another implementation), every frame is one ``send``.
"""

from __future__ import annotations

import asyncio
from typing import Any

__all__ = ["FrameWriter"]


class FrameWriter:
    """Writes frames for one websockets connection; ``send`` returns once its frame is
    written (or raises what ``websocket.send`` would)."""

    def __init__(self, websocket: Any) -> None:
        self._ws = websocket
        # Frames waiting for the flush, each with the future of a sender who waits for its
        # write (None: queued by one who does not, see queue()).
        self._batch: list[tuple[str | bytes, asyncio.Future[None] | None]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.batched = all(hasattr(websocket, a) for a in ("protocol", "send_context"))
        self.writes = 0  # socket writes made, batches counted once

    def queue(self, data: str | bytes) -> bool:
        """Queue a frame without waiting for its write; False when this connection cannot
        (no batching: use :meth:`send`). A failed write closes the connection, and its
        reader then fails whatever waited for the game's reply to the frame."""
        if not self.batched:
            return False
        self._batch.append((data, None))
        if len(self._batch) == 1:
            self._start_flush()
        return True

    def _start_flush(self) -> None:
        # The first frame of a batch: the flush runs after this turn of the loop.
        self._flusher = asyncio.get_running_loop().create_task(self._flush())
        self._flusher.add_done_callback(self._flusher_done)

    async def send(self, data: str | bytes) -> None:
        """Send one frame; batched, it goes out with the others of this turn of
        the loop, and this returns once it was written.
        """
        if not self.batched:
            await self._ws.send(data)
            self.writes += 1
            return
        written: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append((data, written))
        if len(self._batch) == 1:
            self._start_flush()
        await written

    def _flusher_done(self, task: asyncio.Task[None]) -> None:
        # Cancelled before it ran (the loop shutting down): its frames were never written.
        if task.cancelled() and self._batch and self._flusher is task:
            batch, self._batch = self._batch, []
            for _, written in batch:
                if written is not None:
                    written.cancel()

    async def _flush(self) -> None:
        batch, self._batch = self._batch, []
        try:
            async with self._ws.send_context():
                self._frame_and_write(batch)
        except BaseException as exc:
            for _, written in batch:
                if written is not None and not written.done():
                    written.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        for _, written in batch:
            if written is not None and not written.done():
                written.set_result(None)

    def _frame_and_write(
        self, batch: list[tuple[str | bytes, asyncio.Future[None] | None]]
    ) -> None:
        """Frame every message; write them as one buffer unless websockets had other data
        waiting (a control frame), which ``send_context`` then writes in its own order."""
        protocol = self._ws.protocol
        waiting_before = bool(protocol.writes)
        for data, _ in batch:
            if isinstance(data, str):
                protocol.send_text(data.encode())
            else:
                protocol.send_binary(data)
        if waiting_before:
            self.writes += len(batch)
            return  # send_context() writes them all, one by one, as websockets does
        joined = b"".join(protocol.data_to_send())
        self._ws.transport.write(joined)
        self.writes += 1
