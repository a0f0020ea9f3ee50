"""One game connection: its life (encrypt, handshake, read, close), its sends and its calls.

The sans-I/O :class:`BridgeProtocol` decodes frames and keeps the bridge state; this
object moves the data and owns time. What the game sends is handled by :class:`Inbound`
(inbound.py); every commandRequest passes through the connection's :class:`CommandWindow`.
Capability answers travel one of two ways, chosen when the game connects (transport.py):
as custom-command results (pull.py) or as the bridge player's chat (calls.py).
When the game goes away, everything still pending on it fails at once with
:class:`GameDisconnected`, the websockets error chained as its cause.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed as WebSocketClosed

from ..exceptions import (
    GameDisconnected,
    McbewsError,
    NotConnected,
    RequestTimeout,
)
from ..limits import READER_FRAMES_PER_TURN
from ..sansio import (
    BridgeProtocol,
    CommandResponse,
    FrameRejected,
    GameError,
    UiChatMessage,
    check_command_line,
    encode_command,
)
from ..sansio.encrypt import ENCRYPT_SUBPROTOCOL
from ..sansio.handshake import State
from ..vocabulary import Capability, EventKind
from .calls import CapabilityCalls
from .cancel import CancelNotices
from .delivery import Progress, deliver_text, encode_text_lines
from .encryption import EncryptionError, SessionCipher
from .eventlog import EventLog
from .game_calls import GameCalls, same_call
from .inbound import Inbound
from .negotiate import Negotiated, negotiate
from .observer import Direction, Observers, command_reply, ui_chat_outcome, watched
from .pull import Poller, PullCalls
from .results import CommandResult, UiChat
from .settings import Settings
from .transport import TransportChoice
from .uichat import UiChatHooks, UiChatQueue
from .window import CommandWindow
from .writer import FrameWriter

__all__ = ["GameConnection"]

_log = logging.getLogger("mcbews_repl.gateway")
_UNLIMITED = 1 << 30  # no budget: probe_command is how the game's own limits are found
_PROBE = Capability.LIST_CAPABILITIES  # what each transport is probed with (transport.py)


def _format_peer(address: Any) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        host = str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
    return str(address)


class GameConnection:
    """A connected game client. ``mc.connections[i]`` has the same calls as ``mc``."""

    def __init__(
        self,
        websocket: ServerConnection,
        connection_id: int,
        settings: Settings,
        log: EventLog,
        ui_chat_hooks: UiChatHooks,
        observers: Observers | None = None,
    ) -> None:
        self.id = connection_id
        self.peer = _format_peer(websocket.remote_address)
        self.path = websocket.request.path if websocket.request else ""
        self.subprotocol = websocket.subprotocol  # the wsencrypt one when encryption is agreed
        self.connected_at = time.time()
        self.local_player: str | None = None
        self.encryption: Negotiated | None = None  # how: handshake form and cipher mode
        self.frames_out = 0
        self.proto = BridgeProtocol(max_frame_bytes=settings.max_frame_bytes)
        # Who watches this connection's frames and outcomes (observer.py): the bridge's.
        self.observers = observers if observers is not None else Observers()
        self._ws = websocket
        self._writer = FrameWriter(websocket)  # several frames a socket write (writer.py)
        self._settings = settings
        self._log = log
        self.ui_chats = UiChatQueue(
            ui_chat_hooks,
            self._ui_chat_dropped,
            in_flight=settings.ui_chat_in_flight,
            backlog=settings.ui_chat_backlog,
            backlog_bytes=settings.ui_chat_backlog_bytes,
        )
        self._window = CommandWindow(
            self._send,
            self.proto.command_frame,
            limit=settings.max_in_flight,
            queue_limit=settings.queue_limit,
            queue_frame=self._queue_frame,
        )
        # Calls cancelled after their request went down: the addon is told to drop the work.
        self.cancel_notices = CancelNotices(self._command, where=f"connection #{connection_id}")
        self._calls = CapabilityCalls(
            self.proto,
            lambda line: self._command(line, None),
            self._record,
            where=f"connection #{connection_id}",
            cancelled=self.cancel_notices.add,
        )
        self._inbound = Inbound(
            self.proto,
            self._window,
            self._calls,
            self._record,
            self._deliver_ui_chat,
            connection_id=connection_id,
        )
        self._inbound.tap = lambda data: self._tap("in", data)
        self._pull = PullCalls(
            lambda line: self._command(line, None),
            self._record,
            where=f"connection #{connection_id}",
            cancelled=self.cancel_notices.add,
        )
        self._poll_commands = 0  # commands the poller has in the window now
        self._poller = Poller(
            self._poll_command,
            self._inbound.handle,
            self._pull_rejected,
            interval=settings.poll_interval,
        )
        self._polling: asyncio.Task[None] | None = None
        probe = settings.probe_timeout
        self._transport = TransportChoice(
            settings.transport,
            {
                "pull": lambda: self._pull.call(
                    Capability.LIST_CAPABILITIES, {}, probe, record=False
                ),
                "chat": lambda: self._calls.call(
                    Capability.LIST_CAPABILITIES, {}, probe, record=False
                ),
            },
            self._record,
        )
        self._ready = asyncio.Event()
        self._cipher: SessionCipher | None = None
        # Outgoing frames wait while the state is ENCRYPTING (see negotiate.py); this event
        # wakes them when it ends.
        self._settled = asyncio.Event()
        wants_encryption = (
            settings.encrypt is not False and websocket.subprotocol == ENCRYPT_SUBPROTOCOL
        )
        self._state = State.ENCRYPTING if wants_encryption else State.OPEN
        if not wants_encryption:
            self._settled.set()

    # --- state ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """``ENCRYPTING`` while the key is agreed, ``OPEN`` while frames flow, ``CLOSED``."""
        return self._state

    @property
    def closed(self) -> bool:
        """True once the game went away (the state is ``CLOSED``)."""
        return self._state is State.CLOSED

    @property
    def encrypted(self) -> bool:
        """True once ws:encrypt is agreed (frames are then binary)."""
        return self.encryption is not None

    def _leave_encrypting(self, state: State) -> None:
        if self._state is State.ENCRYPTING:
            self._state = state
        self._settled.set()

    @property
    def protocol_version(self) -> int | None:
        """The game's protocol version, from the header of its first event."""
        return self.proto.protocol_version or self._inbound.event_version

    @property
    def frames_in(self) -> int:
        """Frames received from the game, the encryption handshake's included."""
        return self._inbound.frames_in

    @property
    def counters(self) -> Counter[str]:
        """Dropped frames by reason, late answers, duplicates: what went wrong, counted."""
        return self.proto.counters

    def stats(self) -> dict[str, int]:
        """Live numbers: what is pending now, and how much traffic there has been."""
        return {
            "commands_in_flight": self._window.in_flight,
            "commands_queued": self._window.queued,
            "calls_pending": len(self._calls) + self._pull.pending,
            "bridge_requests_pending": self.proto.pending_requests,
            "retries": self._window.retries,
            "ui_chats_running": self.ui_chats.running,
            "ui_chats_queued": self.ui_chats.queued,
            "ui_chats_queued_bytes": self.ui_chats.queued_bytes,
            "ui_chat_polls": self._poller.polls,
            "frames_in": self.frames_in,
            "frames_out": self.frames_out,
        }

    @property
    def pending(self) -> int:
        """Commands in flight or queued plus capability calls awaiting an answer (UI chat
        polls excluded: they are the pull transport's idle traffic)."""
        busy = self._window.in_flight + self._window.queued - self._poll_commands
        return max(busy, 0) + len(self._calls) + self._pull.pending

    @property
    def transport(self) -> str:
        """How answers travel: ``pull`` (custom-command results), ``chat`` (the bridge
        player's chat), ``probing`` (not known yet) or ``none`` (no addon answers)."""
        if self._transport.state == "chosen":
            return str(self._transport.chosen)
        return self._transport.state

    @property
    def transport_verdicts(self) -> dict[str, str]:
        """What each transport's probe showed (``answers``, or why not)."""
        return dict(self._transport.verdicts)

    async def wait_ready(self) -> None:
        """Wait until the handshake (subscribe, getlocalplayername, the transport probe)
        finished or failed."""
        await self._ready.wait()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        who = self.local_player or "?"
        secure = " encrypted" if self.encrypted else ""
        return f"<GameConnection #{self.id} {self.peer} player={who}{secure} {state}>"

    # --- the reader -----------------------------------------------------------------------

    async def run(self) -> None:
        """Encrypt if agreed, read frames until the game goes away, then fail everything
        still pending."""
        handshake: asyncio.Task[None] | None = None
        cause: BaseException | None = None
        try:
            if self._state is State.ENCRYPTING and (cause := await self._encrypt()) is not None:
                return
            handshake = asyncio.create_task(self._handshake())
            cause = await self._read_frames()
        finally:
            if handshake is not None:
                handshake.cancel()
            self._close_down(cause)

    async def _read_frames(self) -> BaseException:
        """Feed every frame to the inbound half until the socket closes; return why."""
        while True:
            for _ in range(READER_FRAMES_PER_TURN):
                try:
                    message = await self._ws.recv()
                except WebSocketClosed as exc:
                    return exc
                self._inbound.feed(message)
            # recv() returns frames already parsed without suspending, and one socket read
            # can hold a thousand small ones: yield so other connections are served too.
            await asyncio.sleep(0)

    async def _encrypt(self) -> BaseException | None:
        """Run the handshake; on failure close the socket and return why (None: encrypted)."""
        try:
            agreed = await negotiate(self._ws, self._settings, self._inbound.feed, self._tap)
            self.encryption = agreed
            self._cipher = self._inbound.cipher = agreed.cipher  # one cipher: seals out, opens in
        except WebSocketClosed as exc:
            return exc
        except EncryptionError as exc:
            _log.warning("connection #%d: encryption failed: %s", self.id, exc)
            self._record(
                EventKind.ENCRYPTION_FAILED, f"#{self.id} not encrypted: {exc}", error=str(exc)
            )
            await self._ws.close(1002, f"encryption handshake failed: {exc}"[:120])
            return exc
        finally:  # failed or cancelled: CLOSED, so sends waiting on the handshake end too
            self._leave_encrypting(State.OPEN if self.encryption is not None else State.CLOSED)
        _log.info("connection #%d: encrypted (%s, %s)", self.id, agreed.form, agreed.mode)
        self._record(
            EventKind.ENCRYPTED,
            f"#{self.id} encrypted ({agreed.form}, aes-256-{agreed.mode})",
            form=agreed.form,
            mode=agreed.mode,
        )
        return None

    def _record(self, kind: EventKind, summary: str, **data: Any) -> None:
        entry = self._log.append(kind, summary, self.id, **data)
        if "truncated" in entry.data:  # long text cut to the log's bound: say so per game
            self.proto.counters["log_truncated"] += 1

    def _tap(self, direction: Direction, data: str | bytes) -> None:
        if self.observers:
            self.observers.frame(self, direction, data)

    def _deliver_ui_chat(self, event: UiChatMessage) -> None:
        if self.observers:
            self.observers.outcome(self, ui_chat_outcome(event))
        self.ui_chats.put(
            UiChat(event.player, event.message, event.conversation_id, event.message_id, self)
        )

    def _pull_rejected(self, reason: str, detail: str, message_id: str | None) -> None:
        self.proto.counters[f"rejected:{reason}"] += 1
        self._inbound.handle(FrameRejected(reason, detail, message_id))

    async def _poll_command(self, line: str) -> CommandResult:
        self._poll_commands += 1
        try:
            return await self._command(line, None)
        finally:
            self._poll_commands -= 1

    def _start_polling(self) -> None:
        """Read UI chat by polling, once this connection pulls (the poll stops on close)."""
        if self._polling is None and not self.closed:
            self._polling = asyncio.ensure_future(self._poller.run())

    def _ui_chat_dropped(self, message: UiChat) -> None:
        self.proto.counters["ui_chat_dropped"] += 1
        queue = self.ui_chats
        waiting, size = queue.queued, queue.queued_bytes
        _log.info("connection #%d dropped a UI chat message: %d already wait", self.id, waiting)
        self._record(
            EventKind.REJECTED,
            f"ui_chat_dropped: {waiting} UI chat messages already wait for the callbacks "
            f"({size:,} of {queue.backlog_bytes_limit:,} bytes)",
            reason="ui_chat_dropped",
            detail=f"{message.player}'s message {message.message_id}",
            message_id=message.message_id,
        )

    def _let_go(self) -> None:
        """The game left: drop what it can no longer use (waiting UI chat, partial messages),
        so its memory goes now even while something still holds this connection."""
        self.proto.drop_buffers()
        waiting, size = self.ui_chats.close()
        if waiting:
            self.proto.counters["ui_chat_dropped"] += waiting
            self._record(
                EventKind.REJECTED,
                f"ui_chat_dropped: {waiting} UI chat messages ({size:,} bytes) still waited "
                "for the callbacks when the game left",
                reason="ui_chat_dropped",
                detail=f"{waiting} messages, {size:,} bytes",
            )

    def expire(self, now: float) -> None:
        """Drop bridge buffers past their TTL (the periodic sweep calls this)."""
        self._inbound.expire(now)

    # --- closing --------------------------------------------------------------------------

    def _closed_error(self, cause: BaseException | None) -> GameDisconnected:
        frame = cause.rcvd if isinstance(cause, WebSocketClosed) else None
        why = f" (close code {frame.code})" if frame is not None else ""
        error = GameDisconnected(
            f"game connection #{self.id} from {self.peer} closed{why} before the answer came"
        )
        error.__cause__ = cause
        return error

    def _close_down(self, cause: BaseException | None) -> None:
        self._state = State.CLOSED
        self._settled.set()
        self._transport.cancel()
        self.cancel_notices.close()
        if self._polling is not None:
            self._polling.cancel()
        failed = self._window.fail_all(lambda: self._closed_error(cause))
        failed += self._calls.fail_all(lambda: self._closed_error(cause))
        self._let_go()
        self._ready.set()
        _log.info("connection #%d from %s closed; %d pending failed", self.id, self.peer, failed)
        self._record(
            EventKind.DISCONNECTED,
            f"#{self.id} {self.peer} closed",
            peer=self.peer,
            failed_pending=failed,
            cause=repr(cause),
        )

    async def close(self) -> None:
        """Close this game connection (the game may reconnect with /connect)."""
        await self._ws.close(1001, "server closing the bridge")

    def _check_open(self) -> None:
        if self._state is State.CLOSED:
            raise NotConnected(
                f"game connection #{self.id} from {self.peer} is closed; "
                "use mc.connections or wait_connected() for a live one"
            )

    def _queue_frame(self, frame: str) -> bool:
        """:meth:`_send` without waiting for the write (the command window's frames, whose
        replies it awaits anyway); False when the frame must go through :meth:`_send`."""
        if self.closed or not self._settled.is_set() or not self._writer.batched:
            return False
        self._tap("out", frame)
        data = frame if self._cipher is None else self._cipher.seal(frame)
        self._writer.queue(data)
        self.frames_out += 1
        return True

    async def _send(self, frame: str) -> None:
        if not self._settled.is_set():
            await self._settled.wait()
            if self._state is State.CLOSED:  # the handshake failed: nothing may go out
                raise self._closed_error(None)
        # Sealing and queueing the frame happen with no await between them (the writer
        # queues it before its first await and writes in queue order), so frames reach
        # the wire in the order the cipher stream saw them.
        self._tap("out", frame)
        data = frame if self._cipher is None else self._cipher.seal(frame)
        try:
            await self._writer.send(data)
        except WebSocketClosed as exc:
            raise self._closed_error(exc) from exc
        self.frames_out += 1

    # --- calls ----------------------------------------------------------------------------

    async def _handshake(self) -> None:
        try:
            request_id, frame = self.proto.subscribe_frame("PlayerMessage")
            self._inbound.subscriptions.add(request_id)
            await self._send(frame)
            reply = await self._command("getlocalplayername", self._settings.handshake_timeout)
            name = reply.body.get("localplayername")
            if isinstance(name, str) and name:
                self.local_player = name
            _log.info("connection #%d: handshake done", self.id)
        except McbewsError as exc:
            _log.warning("connection #%d: handshake incomplete: %s", self.id, exc)
        try:
            if await self._transport.choose() == "pull":
                self._start_polling()
        finally:
            self._ready.set()

    async def _command(
        self, line: str, timeout: float | None, *, record: bool = False
    ) -> CommandResult:
        """Run one command through the window; ``record``: log it as a ``command`` entry
        (``command()``; calls log their own entries)."""
        start = time.monotonic()
        try:
            checked = check_command_line(
                line, self.proto.budget_bytes, self.proto.frame_budget_bytes
            )
            self._check_open()
            limit = self._settings.command_timeout if timeout is None else timeout
            try:
                async with asyncio.timeout(limit):
                    reply = await self._window.request(checked)
            except TimeoutError as exc:
                raise RequestTimeout(
                    f"the game did not answer /{checked[:60]} within {limit:g} s on connection "
                    f"#{self.id}; the world may be paused or the connection stalled"
                ) from exc
        except McbewsError as exc:
            if record:
                elapsed = time.monotonic() - start
                self._record_command(line, f"✗ {type(exc).__name__}", elapsed, error=str(exc))
            raise
        code, message = reply.status_code, reply.status_message
        result = CommandResult(
            checked, code, message, reply.body, time.monotonic() - start, reply.request_id
        )
        if record:
            self._record_command(
                checked,
                f"→ {code}",
                result.elapsed_seconds,
                status_code=code,
                status_message=message,
            )
        return result

    @same_call(GameCalls.command)
    async def command(self, line: str, *, timeout: float | None = None) -> CommandResult:
        if not self.observers:  # watched() would only await it: save its coroutine
            return await self._command(line, timeout, record=True)
        request = {"line": line, "timeout": timeout}
        work = self._command(line, timeout, record=True)
        return await watched(self.observers, self, EventKind.COMMAND, request, work, command_reply)

    async def probe_command(self, line: str, timeout: float) -> CommandResponse | GameError:
        """Send ``line`` past the frame budget and return the game's raw reply (the doctor's
        ``--probe-limits`` only: the game may refuse the frame or close the connection)."""
        self._check_open()

        def unchecked(text: str) -> tuple[str, str]:
            request_id = str(uuid.uuid4())
            return request_id, encode_command(
                request_id, text, budget_bytes=_UNLIMITED, frame_budget_bytes=_UNLIMITED
            )

        try:
            async with asyncio.timeout(timeout):
                return await self._window.request(line, unchecked)
        except TimeoutError as exc:
            raise RequestTimeout(f"no answer to a {len(line)}-byte probe line") from exc

    def _record_command(self, line: str, outcome: str, elapsed: float, **data: Any) -> None:
        # One shape for both outcomes of a ``command`` entry; ``data`` holds what differs.
        summary = f"/{line[:60]} {outcome}"
        self._record(EventKind.COMMAND, summary, command=line, **data, elapsed=elapsed)

    @same_call(GameCalls.call)
    async def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        if fields:
            payload = {**(payload or {}), **fields}
        request = {"capability": capability, "payload": dict(payload or {}), "timeout": timeout}
        work = self._call(capability, payload, timeout)
        return await watched(
            self.observers, self, EventKind.CAPABILITY, request, work, lambda r: {"result": r}
        )

    async def _call(
        self, capability: str, payload: Mapping[str, Any] | None, timeout: float | None
    ) -> dict[str, Any]:
        self._check_open()
        limit = self._settings.call_timeout if timeout is None else timeout
        deadline = time.monotonic() + limit
        try:
            async with asyncio.timeout(limit):
                transport = await self._transport.wait()
        except TimeoutError as exc:
            raise RequestTimeout(
                f"connection #{self.id} is still finding out how the addon answers "
                f"(probing for {self._settings.probe_timeout:g} s); call again"
            ) from exc
        self._check_open()
        remaining = max(deadline - time.monotonic(), 0.001)
        if transport == "pull":
            self._start_polling()
            return await self._pull.call(capability, payload, remaining)
        if transport == "chat":
            return await self._calls.call(capability, payload, remaining)
        raise RequestTimeout(f"connection #{self.id}: {self._transport.explain()}")

    @same_call(GameCalls.send_text)
    async def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        progress: Progress | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
    ) -> int:
        request = {
            "player": player,
            "text": text,
            "role": role,
            "conversation_id": conversation_id,
            "title": title,
        }
        work = self._send_text(player, text, role, progress, conversation_id, title)
        return await watched(
            self.observers, self, EventKind.TEXT, request, work, lambda n: {"frames": n}
        )

    async def _send_text(
        self,
        player: str,
        text: str,
        role: str,
        progress: Progress | None,
        conversation_id: str | None,
        title: str | None,
    ) -> int:
        self._check_open()
        interval = self._settings.text_interval
        lines = encode_text_lines(
            player,
            text,
            role=role,
            conversation_id=conversation_id,
            title=title,
            interval=interval,
            budget_bytes=self.proto.budget_bytes,
            frame_budget_bytes=self.proto.frame_budget_bytes,
        )
        start = time.monotonic()
        sent = await deliver_text(
            lambda line: self._command(line, None),
            lines,
            prelude=self._settings.text_prelude,
            interval=interval,
            progress=progress,
            cancelled=self.cancel_notices.add,
        )
        self._record(
            EventKind.TEXT,
            f"{sent} frame(s) to {player} ({len(text)} chars)",
            player=player,
            role=role,
            frames=sent,
            chars=len(text),
            elapsed=time.monotonic() - start,
        )
        return sent
