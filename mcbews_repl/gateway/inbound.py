"""What the game sends on one connection: open, decode, dispatch, record.

Every frame the reader receives (and every frame the encryption handshake does not claim)
comes here. Once a session cipher is agreed the frame is opened first; then the sans-I/O
:class:`BridgeProtocol` turns it into events, and each event either settles a waiting
future (command window, capability calls) or becomes an event-log entry. Remote input
never raises: what the peer got wrong is counted and recorded as ``rejected``, and a bug
in our own handling is logged and counted so the connection keeps serving.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ..sansio import (
    BridgeEvent,
    BridgeProtocol,
    BufferExpired,
    CapabilityFailed,
    CapabilityResult,
    ChatMessage,
    CommandResponse,
    FrameRejected,
    GameError,
    OtherEvent,
    RequestExpired,
    UiChatMessage,
    UnknownFrame,
)
from ..vocabulary import EventKind
from .calls import CapabilityCalls, Record
from .encryption import SessionCipher
from .window import CommandWindow, Reply

__all__ = ["Inbound"]

_log = logging.getLogger("mcbews_repl.gateway")


class Inbound:
    """The inbound half of one connection: frames in, futures settled, entries recorded."""

    def __init__(
        self,
        proto: BridgeProtocol,
        window: CommandWindow,
        calls: CapabilityCalls,
        record: Record,
        on_ui_chat: Callable[[UiChatMessage], None],
        *,
        connection_id: int,
    ) -> None:
        self.frames_in = 0
        # Sees every frame once opened (observer.py): the connection's observers behind it.
        self.tap: Callable[[str | bytes], None] | None = None
        self.cipher: SessionCipher | None = None  # set once ws:encrypt is agreed
        self.event_version: int | None = None  # header version of the game's first event
        # Request ids of our subscribe frames: their acknowledgements are expected, not stray.
        self.subscriptions: set[str] = set()
        self._proto = proto
        self._window = window
        self._calls = calls
        self._record = record
        self._on_ui_chat = on_ui_chat
        self._id = connection_id
        self._frame: str | bytes = ""  # the frame being handled, for sizes in logs

    def feed(self, message: str | bytes) -> None:
        """Handle one received frame; never raises."""
        self.frames_in += 1
        if self.cipher is not None:
            opened = self.cipher.open(message)
            if opened is None:
                self._tap(message)
                self._proto.counters["rejected:plaintext_after_encryption"] += 1
                self._frame = message
                self._on_rejected(FrameRejected("plaintext_after_encryption", "text frame"))
                self._frame = ""
                return
            if isinstance(message, str):
                self._proto.counters["plaintext_race"] += 1
            message = opened
        self._tap(message)
        self._frame = message
        try:
            for event in self._proto.receive_text(message, time.monotonic()):
                self._dispatch(event)
        except Exception:  # our bug, not the peer's: keep the connection serving
            self._proto.counters["internal_error"] += 1
            _log.exception("connection #%d: failed to handle a frame", self._id)
        finally:
            self._frame = ""  # do not keep a large frame alive until the next one

    def _tap(self, message: str | bytes) -> None:
        if self.tap is not None:
            self.tap(message)

    def expire(self, now: float) -> None:
        """Drop bridge buffers past their TTL and record what was dropped."""
        for event in self._proto.expire(now):
            self._dispatch(event)

    def handle(self, event: BridgeEvent) -> None:
        """Dispatch an event that came another way (the pull transport's UI chat)."""
        self._dispatch(event)

    def _dispatch(self, event: BridgeEvent) -> None:
        match event:
            case CommandResponse() | GameError():
                self._on_reply(event)
            case ChatMessage():
                self._on_chat(event)
            case CapabilityResult() | CapabilityFailed() | RequestExpired():
                self._calls.settle(event)
            case UiChatMessage():
                self._on_ui_chat_message(event)
            case FrameRejected():
                self._on_rejected(event)
            case UnknownFrame(purpose=purpose):
                self._proto.counters["rejected:unknown_purpose"] += 1
                self._on_rejected(FrameRejected("unknown_purpose", purpose[:40]))
            case BufferExpired(channel=channel, message_id=mid, received=got, total=total):
                self._record(
                    EventKind.EXPIRED,
                    f"partial {channel} message dropped ({got}/{total})",
                    channel=channel,
                    message_id=mid,
                    received=got,
                    total=total,
                )
            case OtherEvent(event_name=name, protocol_version=version):
                self.event_version = self.event_version or version
                _log.debug("connection #%d: event %s ignored", self._id, name)

    def _on_reply(self, reply: Reply) -> None:
        if self._window.resolve(reply):
            return
        if reply.request_id in self.subscriptions:
            self.subscriptions.discard(reply.request_id)  # the game acknowledged subscribe
            return
        reason = "late_response" if reply.request_id else "game_error"
        self._proto.counters[reason] += 1
        detail = f"status {reply.status_code}: {reply.status_message[:80]}"
        self._on_rejected(FrameRejected(reason, detail, reply.request_id or None))

    def _on_chat(self, chat: ChatMessage) -> None:
        self._record(
            EventKind.CHAT,
            f"<{chat.sender}> {chat.message[:80]}",
            sender=chat.sender,
            message=chat.message,
            type=chat.type,
            is_echo=chat.is_echo,
        )

    def _on_ui_chat_message(self, event: UiChatMessage) -> None:
        self._record(
            EventKind.UI_CHAT,
            f"[panel] <{event.player}> {event.message[:80]}",
            player=event.player,
            message=event.message,
            conversation_id=event.conversation_id,
        )
        self._on_ui_chat(event)

    def _frame_bytes(self) -> int:
        frame = self._frame
        return len(frame) if isinstance(frame, bytes) else len(frame.encode("utf-8", "replace"))

    def _on_rejected(self, event: FrameRejected) -> None:
        size = self._frame_bytes()
        _log.info(
            "connection #%d dropped input: %s (%d-byte frame, id %s)",
            self._id,
            event.reason,
            size,
            event.message_id,
        )
        _log.debug("connection #%d: %s: %s", self._id, event.reason, event.detail)
        self._record(
            EventKind.REJECTED,
            f"{event.reason} ({size} bytes)",
            reason=event.reason,
            detail=event.detail,
            message_id=event.message_id,
            frame_bytes=size,
        )
