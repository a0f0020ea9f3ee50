"""One game connection's way out: its state, and every frame it sends, in order.

A :class:`Link` holds what every sender of a connection needs and nothing it would have
to ask the connection for: the connection's :class:`~mcbews_repl.sansio.handshake.State`,
the wait while the encryption key is agreed, the session cipher that seals each frame,
the observers that see it, and the writer that batches the socket writes. The command
window, the command runner and the connection's own handshake all send through it, so a
call's frames leave without its path coming back through ``connection.py``.
"""

from __future__ import annotations

import asyncio

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed as WebSocketClosed

from ..exceptions import GameDisconnected, NotConnected
from ..sansio import State
from .encryption import SessionCipher
from .observer import Direction, Observers, Watched
from .writer import FrameWriter

__all__ = ["Link"]


class Link:
    """The state and the outgoing frames of one game connection.

    ``owner`` is the connection observers are told about; the link only passes it on.
    """

    def __init__(
        self,
        websocket: ServerConnection,
        owner: Watched,
        observers: Observers,
        *,
        connection_id: int,
        peer: str,
        encrypting: bool,
    ) -> None:
        self.owner = owner
        self.observers = observers
        self.connection_id = connection_id
        self.where = f"game connection #{connection_id} from {peer}"  # for messages
        self.cipher: SessionCipher | None = None  # set once ws:encrypt is agreed
        self.frames_out = 0
        self._writer = FrameWriter(websocket)  # several frames a socket write (writer.py)
        self._state = State.ENCRYPTING if encrypting else State.OPEN
        # Outgoing frames wait while the state is ENCRYPTING (see negotiate.py); this event
        # wakes them when it ends.
        self._settled = asyncio.Event()
        if not encrypting:
            self._settled.set()

    @property
    def state(self) -> State:
        """``ENCRYPTING`` while the key is agreed, ``OPEN`` while frames flow, ``CLOSED``."""
        return self._state

    @property
    def closed(self) -> bool:
        """True once the game went away (the state is ``CLOSED``)."""
        return self._state is State.CLOSED

    def settle(self, state: State) -> None:
        """End the encryption handshake in ``state`` (``OPEN`` or ``CLOSED``): the frames
        waiting for it go, or fail."""
        if self._state is State.ENCRYPTING:
            self._state = state
        self._settled.set()

    def close(self) -> None:
        """The game went away: nothing more may be sent."""
        self._state = State.CLOSED
        self._settled.set()

    def check_open(self) -> None:
        """Raise unless frames may still be sent.

        Raises:
            NotConnected: the game connection is closed.
        """
        if self._state is State.CLOSED:
            raise NotConnected(
                f"{self.where} is closed; use mc.connections or wait_connected() for a live one"
            )

    def closed_error(self, cause: BaseException | None) -> GameDisconnected:
        """The error a request pending when the socket closed fails with (``cause``
        chained: the close frame's code is in the message)."""
        frame = cause.rcvd if isinstance(cause, WebSocketClosed) else None
        why = f" (close code {frame.code})" if frame is not None else ""
        error = GameDisconnected(f"{self.where} closed{why} before the answer came")
        error.__cause__ = cause
        return error

    def tap(self, direction: Direction, data: str | bytes) -> None:
        """Show one frame (plaintext) to the observers, if any watch."""
        if self.observers.active:
            self.observers.frame(self.owner, direction, data)

    def queue(self, frame: str) -> bool:
        """:meth:`send` without waiting for the write (the command window's frames, whose
        replies it awaits anyway); False when the frame must go through :meth:`send`."""
        if self._state is State.CLOSED or not self._settled.is_set() or not self._writer.batched:
            return False
        self.tap("out", frame)
        self._writer.queue(frame if self.cipher is None else self.cipher.seal(frame))
        self.frames_out += 1
        return True

    async def send(self, frame: str) -> None:
        """Send one frame once the encryption handshake has ended, sealed if it agreed.

        Raises:
            GameDisconnected: the socket closed, or the handshake failed, before it went.
        """
        if not self._settled.is_set():
            await self._settled.wait()
            if self._state is State.CLOSED:  # the handshake failed: nothing may go out
                raise self.closed_error(None)
        # Sealing and queueing the frame happen with no await between them (the writer
        # queues it before its first await and writes in queue order), so frames reach
        # the wire in the order the cipher stream saw them.
        self.tap("out", frame)
        data = frame if self.cipher is None else self.cipher.seal(frame)
        try:
            await self._writer.send(data)
        except WebSocketClosed as exc:
            raise self.closed_error(exc) from exc
        self.frames_out += 1
