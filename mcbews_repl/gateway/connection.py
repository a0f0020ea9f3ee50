"""One game connection: its life (encrypt, handshake, read, close) and its calls.

The sans-I/O :class:`BridgeProtocol` decodes frames and keeps the bridge state; the
connection's parts move the data and own time, and each is handed what it needs when
the connection is made, so none calls back into it: the :class:`Link` (link.py) holds the
state and sends every frame, the :class:`CommandRunner` (runner.py) runs every command
line through the :class:`CommandWindow`, the :class:`ConnectionLog` (eventlog.py) records,
and what the game sends is read and handled by :class:`Inbound` (inbound.py), which hands
UI chat to the callbacks' queue itself. Capability answers travel one of three ways, chosen
when the game connects (transport.py): as custom-command results (pull.py), as the
bridge player's chat (calls.py) or as tags on the connected player (tags.py). When the game
goes away, everything still pending on it fails at once with :class:`GameDisconnected`, the
websockets error chained as its cause.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import Counter
from collections.abc import Mapping
from functools import partial
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed as WebSocketClosed

from ..exceptions import CapabilityError, McbewsError, RequestTimeout
from ..limits import FORWARDED_POLL_INTERVAL_SECONDS
from ..sansio import (
    ENCRYPT_SUBPROTOCOL,
    BridgeProtocol,
    CommandResponse,
    GameError,
    State,
    encode_command,
    silent_drop_hint,
)
from ..vocabulary import Capability, EventKind
from .calls import CapabilityCalls
from .cancel import CancelNotices
from .delivery import Progress, deliver_text, encode_text_lines
from .encryption import EncryptionError
from .eventlog import ConnectionLog, EventLog
from .forwarding import AddonForwarding
from .game_calls import GameCalls, check_command, check_send_text, same_call
from .inbound import Inbound
from .link import Link
from .negotiate import Negotiated, negotiate
from .observer import Observers, command_reply, watched
from .pull import Poller, PullCalls
from .results import CommandResult
from .runner import CommandRunner
from .settings import Settings
from .subscriptions import ALWAYS_SUBSCRIBED, SubscriptionBook, by_source, world_key
from .tags import TagCalls, TagReader
from .transport import NO_ANSWER_CODES, Transport, TransportChoice
from .uichat import UiChatHooks, UiChatQueue
from .window import CommandWindow

__all__ = ["GameConnection"]

_log = logging.getLogger("mcbews_repl.gateway")
_UNLIMITED = 1 << 30  # no budget: probe_command is how the game's own limits are found
_PROBE = Capability.LIST_CAPABILITIES  # what each transport is probed with (transport.py)


def _format_peer(address: Any) -> str:
    if isinstance(address, tuple) and len(address) >= 2:
        host = str(address[0])
        return f"[{host}]:{address[1]}" if ":" in host else f"{host}:{address[1]}"
    return str(address)


def _answered(result: dict[str, Any]) -> dict[str, Any]:
    return {"result": result}


def _frames(sent: int) -> dict[str, Any]:
    return {"frames": sent}


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
        subscriptions: SubscriptionBook | None = None,
    ) -> None:
        self.id = connection_id
        self.peer = _format_peer(websocket.remote_address)
        self.path = websocket.request.path if websocket.request else ""
        self.subprotocol = websocket.subprotocol  # the wsencrypt one when encryption is agreed
        self.connected_at = time.time()
        self.local_player: str | None = None
        self.encryption: Negotiated | None = None  # how: handshake form and cipher mode
        self.proto = BridgeProtocol(max_frame_bytes=settings.max_frame_bytes)
        # Who watches this connection's frames and outcomes (observer.py): the bridge's.
        self.observers = observers if observers is not None else Observers()
        self._ws = websocket
        self._settings = settings
        # Which game events are wanted where (the bridge's book, kept across reconnects),
        # and the ones this connection wanted before its world's host was known.
        self._book = subscriptions if subscriptions is not None else SubscriptionBook()
        self._own_events: dict[str, int] = {}  # name to its rate (0: none)
        wants_encryption = (
            settings.encrypt is not False and websocket.subprotocol == ENCRYPT_SUBPROTOCOL
        )
        self._link = Link(
            websocket,
            self,
            self.observers,
            connection_id=connection_id,
            peer=self.peer,
            encrypting=wants_encryption,
        )
        self._log = ConnectionLog(log, connection_id, self.proto.counters)
        self._window = CommandWindow(
            self._link.send,
            # Every line reaches the window through the runner, which checked it already.
            self.proto.checked_command_frame,
            limit=settings.max_in_flight,
            queue_limit=settings.queue_limit,
            queue_frame=self._link.queue,
        )
        self._runner = CommandRunner(
            self._link,
            self._window,
            self.proto,
            self._log.record,
            timeout=settings.command_timeout,
            record_answered=self._log.record_command,
        )
        self.ui_chats = UiChatQueue(
            ui_chat_hooks,
            in_flight=settings.ui_chat_in_flight,
            backlog=settings.ui_chat_backlog,
            backlog_bytes=settings.ui_chat_backlog_bytes,
        )
        self._make_calls(settings)
        self._ready = asyncio.Event()

    def _make_calls(self, settings: Settings) -> None:
        """The parts that make calls: each runs its commands through the runner and records
        through the log, handed over here, so none calls back into the connection."""
        run, record, where = self._runner.run, self._log.record, f"connection #{self.id}"
        # Calls cancelled after their request went down: the addon is told to drop the work.
        self.cancel_notices = CancelNotices(run, where=where)
        cancelled = self.cancel_notices.add
        self._calls = CapabilityCalls(self.proto, run, record, where=where, cancelled=cancelled)
        self._inbound = Inbound(
            self.proto,
            self._window,
            self._calls,
            record,
            link=self._link,
            ui_chats=self.ui_chats,
            stray_forwarded=lambda: self._addon_events.stray(self._forwarded_wanted),
        )
        self._addon_events = AddonForwarding(
            self.call,
            self._inbound.listening,
            lambda name: self.event_rates().get(name, 0),
            where=where,
            forwarding_changed=self._forwarding_changed,
        )
        self._pull = PullCalls(run, record, where=where, cancelled=cancelled)
        inbound = self._inbound
        self._poller = Poller(run, inbound.handle, inbound.reject, interval=settings.poll_interval)
        self._polling: asyncio.Task[None] | None = None
        self._tag_reader = TagReader(
            run,
            inbound.handle,
            inbound.reject,
            interval=settings.poll_interval,
            local_player=lambda: self.local_player,
        )
        self._tags = TagCalls(run, self._tag_reader, record, where=where, cancelled=cancelled)
        probe = settings.probe_timeout
        self._transport = TransportChoice(
            settings.transport,
            {
                "pull": partial(self._pull.call, _PROBE, {}, probe, record=False),
                "chat": partial(self._calls.call, _PROBE, {}, probe, record=False),
                "tags": partial(self._tags.call, _PROBE, {}, probe, record=False),
            },
            record,
        )

    # --- state ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """``ENCRYPTING`` while the key is agreed, ``OPEN`` while frames flow, ``CLOSED``."""
        return self._link.state

    @property
    def closed(self) -> bool:
        """True once the game went away (the state is ``CLOSED``)."""
        return self._link.closed

    @property
    def encrypted(self) -> bool:
        """True once ws:encrypt is agreed (frames are then binary)."""
        return self.encryption is not None

    @property
    def protocol_version(self) -> int | None:
        """The game's protocol version, from the header of its first event."""
        return self.proto.protocol_version or self._inbound.event_version

    @property
    def frames_in(self) -> int:
        """Frames received from the game, the encryption handshake's included."""
        return self._inbound.frames_in

    @property
    def frames_out(self) -> int:
        """Frames sent to the game (the encryption handshake's own not counted)."""
        return self._link.frames_out

    @property
    def counters(self) -> Counter[str]:
        """Dropped frames by reason, late answers, duplicates: what went wrong, counted."""
        return self.proto.counters

    def stats(self) -> dict[str, int]:
        """Live numbers: what is pending now, and how much traffic there has been."""
        return {
            "commands_in_flight": self._window.in_flight,
            "commands_queued": self._window.queued,
            "calls_pending": len(self._calls) + self._pull.pending + self._tags.pending,
            "bridge_requests_pending": self.proto.pending_requests,
            "retries": self._window.retries,
            "ui_chats_running": self.ui_chats.running,
            "ui_chats_queued": self.ui_chats.queued,
            "ui_chats_queued_bytes": self.ui_chats.queued_bytes,
            "ui_chat_polls": self._poller.polls,
            "tag_reads": self._tag_reader.reads,
            "frames_in": self.frames_in,
            "frames_out": self.frames_out,
        }

    @property
    def pending(self) -> int:
        """Commands in flight or queued plus capability calls awaiting an answer (UI chat
        polls and tag reads excluded: they are the pull and tags transports' idle traffic)."""
        idle = self._poller.in_window + self._tag_reader.in_window
        busy = self._window.in_flight + self._window.queued - idle
        return max(busy, 0) + len(self._calls) + self._pull.pending + self._tags.pending

    @property
    def transport(self) -> str:
        """How answers travel: ``pull`` (custom-command results), ``chat`` (the bridge
        player's chat), ``tags`` (tags on the connected player), ``probing`` (not known
        yet) or ``none`` (no addon answers)."""
        if self._transport.state == "chosen":
            return str(self._transport.chosen)
        return self._transport.state

    @property
    def transport_verdicts(self) -> dict[str, str]:
        """What each transport's probe showed (``answers``, or why not)."""
        return dict(self._transport.verdicts)

    async def try_transports(self, timeout: float) -> dict[str, str]:
        """Ask ``list_capabilities`` over each way answers can travel, whichever this
        connection uses: ``{"pull": "answers", "chat": "no answer", ...}`` (the doctor)."""
        self._link.check_open()
        timed: dict[Transport, Any] = {
            "pull": partial(self._pull.call, _PROBE, {}, timeout, record=False),
            "chat": partial(self._calls.call, _PROBE, {}, timeout, record=False),
            "tags": partial(self._tags.call, _PROBE, {}, timeout, record=False),
        }
        return await self._transport.try_each(timed)

    async def wait_ready(self) -> None:
        """Wait until the handshake (subscribe, getlocalplayername, the transport probe)
        finished or failed."""
        await self._ready.wait()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        who = self.local_player or "?"
        secure = " encrypted" if self.encrypted else ""
        return f"<GameConnection #{self.id} {self.peer} player={who}{secure} {state}>"

    # --- its life -------------------------------------------------------------------------

    async def run(self) -> None:
        """Encrypt if agreed, read frames until the game goes away, then fail everything
        still pending."""
        handshake: asyncio.Task[None] | None = None
        cause: BaseException | None = None
        try:
            if self.state is State.ENCRYPTING and (cause := await self._encrypt()) is not None:
                return
            handshake = asyncio.create_task(self._handshake())
            cause = await self._inbound.read(self._ws)
        finally:
            if handshake is not None:
                handshake.cancel()
            self._close_down(cause)

    async def _encrypt(self) -> BaseException | None:
        """Run the handshake; on failure close the socket and return why (None: encrypted)."""
        link = self._link
        try:
            agreed = await negotiate(self._ws, self._settings, self._inbound.feed, link.tap)
            self.encryption = agreed
            link.cipher = self._inbound.cipher = agreed.cipher  # one cipher: seals out, opens in
        except WebSocketClosed as exc:
            return exc
        except EncryptionError as exc:
            _log.warning("connection #%d: encryption failed: %s", self.id, exc)
            failed = f"#{self.id} not encrypted: {exc}"
            self._log.record(EventKind.ENCRYPTION_FAILED, failed, error=str(exc))
            await self._ws.close(1002, f"encryption handshake failed: {exc}"[:120])
            return exc
        finally:  # failed or cancelled: CLOSED, so sends waiting on the handshake end too
            link.settle(State.OPEN if self.encryption is not None else State.CLOSED)
        _log.info("connection #%d: encrypted (%s, %s)", self.id, agreed.form, agreed.mode)
        self._log.record(
            EventKind.ENCRYPTED,
            f"#{self.id} encrypted ({agreed.form}, aes-256-{agreed.mode})",
            form=agreed.form,
            mode=agreed.mode,
        )
        return None

    async def _handshake(self) -> None:
        try:
            for event_name in sorted(ALWAYS_SUBSCRIBED):
                await self._send_subscription(event_name, subscribe=True)
            reply = await self._runner.run("getlocalplayername", self._settings.handshake_timeout)
            name = reply.body.get("localplayername")
            if isinstance(name, str) and name:
                self.local_player = name
            _log.info("connection #%d: handshake done", self.id)
        except McbewsError as exc:
            _log.warning("connection #%d: handshake incomplete: %s", self.id, exc)
        try:  # what this world wanted before (a reconnect), and what every world wants
            await self.sync_subscriptions(addon=False)
        except McbewsError as exc:
            _log.warning("connection #%d: subscriptions not restored: %s", self.id, exc)
        try:
            self._read_ui_chat(await self._transport.choose())
            # The addon's events need its answer, so a transport: asked once it is known.
            await self._sync_forwarded(self._forwarded_wanted())
        finally:
            self._ready.set()

    # --- game events ----------------------------------------------------------------------

    @property
    def world_key(self) -> str | None:
        """The key its world's subscriptions are kept under (None: host not known yet)."""
        return world_key(self.local_player, self.peer)

    @property
    def events(self) -> frozenset[str]:
        """The game events this connection is subscribed to (PlayerMessage always)."""
        return frozenset(self._inbound.listening)

    def wanted_events(self) -> set[str]:
        """What the book says this connection should be subscribed to."""
        return self._book.wanted(self.world_key, self._own_events)

    def event_rates(self) -> dict[str, int]:
        """The rate of each event this connection should hear that has one: at most that
        many a second per player (its world's subscription's, else the one everywhere)."""
        return self._book.rates(self.world_key, self._own_events)

    def _forwarded_wanted(self) -> set[str]:
        """The addon's events this connection should hear."""
        return by_source(self.wanted_events())[1]

    def want(self, name: str, wanted: bool, rate: int = 0) -> None:
        """Want (or stop wanting) ``name`` on this connection alone, at most ``rate`` a
        second per player (0: none), its world's key not being known yet;
        :meth:`sync_subscriptions` sends the frames."""
        if wanted:
            self._own_events[name] = rate
        else:
            self._own_events.pop(name, None)

    async def sync_subscriptions(self, *, addon: bool = True) -> None:
        """Subscribe to what is wanted and not yet subscribed, unsubscribe from the rest:
        the game's events with its subscribe frames, the addon's (``addon``) with its
        ``subscribe_events`` capability.

        Raises:
            NotConnected: the connection is closed.
        """
        self._inbound.unknown_ok = set(self._book.unknown_ok)
        self._inbound.rates = self.event_rates()  # the game's own events' rates, kept here
        game, forwarded = by_source(self.wanted_events())
        listening = by_source(self._inbound.listening)[0]
        for name in sorted(game - listening):
            await self._send_subscription(name, subscribe=True)
        for name in sorted(listening - game):
            await self._send_subscription(name, subscribe=False)
        if addon:
            await self._sync_forwarded(forwarded)

    async def _sync_forwarded(self, kinds: set[str]) -> None:
        await self._addon_events.sync(kinds)

    @property
    def forwarding(self) -> dict[str, int] | None:
        """What the addon said it forwards here (kind to rate); None until it was asked."""
        return self._addon_events.forwarded

    def _forwarding_changed(self, forwarding: bool) -> None:
        """Read UI chat more often while the addon forwards events (a batch within 2 ticks)."""
        polled = FORWARDED_POLL_INTERVAL_SECONDS if forwarding else self._settings.poll_interval
        self._poller.interval = self._tag_reader.interval = polled

    async def _send_subscription(self, name: str, *, subscribe: bool) -> None:
        request_id, frame = self.proto.subscribe_frame(name, subscribe=subscribe)
        self._inbound.expect_ack(request_id)
        # Listen before the frame goes: the game's first event may follow its ack at once.
        if subscribe:
            self._inbound.listening.add(name)
        else:
            self._inbound.listening.discard(name)
        await self._link.send(frame)

    def _read_ui_chat(self, transport: Transport | None) -> None:
        """Read UI chat the way answers travel: by polling (pull) or reading tags (tags);
        chat brings it by itself. Each stops on close."""
        self._tag_reader.polling = False
        if transport == "pull":
            self._start_polling()
        elif transport == "tags" and not self.closed:
            self._tag_reader.start_polling()

    def _start_polling(self) -> None:
        """Read UI chat by polling, once this connection pulls (the poll stops on close)."""
        if self._polling is None and not self.closed:
            self._polling = asyncio.ensure_future(self._poller.run())

    def expire(self, now: float) -> None:
        """Drop bridge buffers past their TTL (the periodic sweep calls this)."""
        self._inbound.expire(now)

    def _let_go(self) -> None:
        """The game left: drop what it can no longer use (waiting UI chat, partial messages),
        so its memory goes now even while something still holds this connection."""
        self.proto.drop_buffers()
        waiting, size = self.ui_chats.close()
        if waiting:
            self.proto.counters["ui_chat_dropped"] += waiting
            self._log.record(
                EventKind.REJECTED,
                f"ui_chat_dropped: {waiting} UI chat messages ({size:,} bytes) still waited "
                "for the callbacks when the game left",
                reason="ui_chat_dropped",
                detail=f"{waiting} messages, {size:,} bytes",
            )

    def _close_down(self, cause: BaseException | None) -> None:
        self._link.close()
        self._transport.cancel()
        self._tag_reader.close()
        self.cancel_notices.close()
        if self._polling is not None:
            self._polling.cancel()
        self._addon_events.close()
        closed_error = partial(self._link.closed_error, cause)
        failed = self._window.fail_all(closed_error)
        failed += self._calls.fail_all(closed_error)
        self._let_go()
        self._ready.set()
        _log.info("connection #%d from %s closed; %d pending failed", self.id, self.peer, failed)
        self._log.record(
            EventKind.DISCONNECTED,
            f"#{self.id} {self.peer} closed",
            peer=self.peer,
            failed_pending=failed,
            cause=repr(cause),
        )

    async def close(self) -> None:
        """Close this game connection (the game may reconnect with /connect)."""
        await self._ws.close(1001, "server closing the bridge")

    # --- calls ----------------------------------------------------------------------------

    @same_call(GameCalls.command)
    async def command(self, line: str, *, timeout: float | None = None) -> CommandResult:
        check_command(line)
        if not self.observers.active:  # watched() would only await it: save its coroutine
            return await self._runner.run(line, timeout, record=True)
        request = {"line": line, "timeout": timeout}
        work = self._runner.run(line, timeout, record=True)
        return await watched(self.observers, self, EventKind.COMMAND, request, work, command_reply)

    async def probe_command(self, line: str, timeout: float) -> CommandResponse | GameError:
        """Send ``line`` past the frame budget and return the game's raw reply (the doctor's
        ``--probe-limits`` only: the game may refuse the frame or close the connection).

        Raises:
            NotConnected: the connection is closed.
            RequestTimeout: no answer within ``timeout``.
            GameDisconnected: the game went away before it answered.
        """
        self._link.check_open()

        def unchecked(text: str) -> tuple[str, str]:
            request_id = str(uuid.uuid4())
            return request_id, encode_command(
                request_id, text, budget_bytes=_UNLIMITED, frame_budget_bytes=_UNLIMITED
            )

        try:
            async with asyncio.timeout(timeout):
                return await self._window.request(line, unchecked)
        except TimeoutError as exc:
            raise RequestTimeout(
                f"no answer to a {len(line)}-byte probe line{silent_drop_hint(line)}"
            ) from exc

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
        if not self.observers.active:
            return await self._call(capability, payload, timeout)
        request = {"capability": capability, "payload": dict(payload or {}), "timeout": timeout}
        work = self._call(capability, payload, timeout)
        return await watched(self.observers, self, EventKind.CAPABILITY, request, work, _answered)

    async def _call(
        self, capability: str, payload: Mapping[str, Any] | None, timeout: float | None
    ) -> dict[str, Any]:
        self._link.check_open()
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
        self._link.check_open()
        remaining = max(deadline - time.monotonic(), 0.001)
        if transport is None:
            raise RequestTimeout(f"connection #{self.id}: {self._transport.explain()}")
        self._read_ui_chat(transport)
        calls = {"pull": self._pull.call, "chat": self._calls.call, "tags": self._tags.call}
        try:
            result = await calls[transport](capability, payload, remaining)
        except RequestTimeout:
            self._transport.note(failed=True)  # three in a row: probe every way again
            raise
        except CapabilityError as exc:  # an answer, even a refusal, unless none came back
            self._transport.note(failed=exc.code in NO_ANSWER_CODES)
            raise
        except McbewsError:
            self._transport.note(failed=False)
            raise
        self._transport.note(failed=False)
        return result

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
        check_send_text(player, text)
        work = self._send_text(player, text, role, progress, conversation_id, title)
        if not self.observers.active:
            return await work
        request = {
            "player": player,
            "text": text,
            "role": role,
            "conversation_id": conversation_id,
            "title": title,
        }
        return await watched(self.observers, self, EventKind.TEXT, request, work, _frames)

    async def _send_text(
        self,
        player: str,
        text: str,
        role: str,
        progress: Progress | None,
        conversation_id: str | None,
        title: str | None,
    ) -> int:
        self._link.check_open()
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
            self._runner.run,
            lines,
            prelude=self._settings.text_prelude,
            interval=interval,
            progress=progress,
            cancelled=self.cancel_notices.add,
        )
        self._log.record(
            EventKind.TEXT,
            f"{sent} frame(s) to {player} ({len(text)} chars)",
            player=player,
            role=role,
            frames=sent,
            chars=len(text),
            elapsed=time.monotonic() - start,
        )
        return sent
