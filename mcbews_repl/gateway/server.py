"""The bridge server and its public handle, ``mc``.

``serve()`` returns a :class:`Bridge`; ``async with`` starts the WebSocket server the game
dials with ``/connect`` and stops it (and every connection) on exit. Calls on the handle go
to the most recent game connection unless ``connection=`` names another one.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import re
import secrets
import socket
import time
import traceback
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Mapping, Sequence
from dataclasses import replace
from types import TracebackType
from typing import Any

from websockets.asyncio.server import Server, ServerConnection
from websockets.asyncio.server import serve as websocket_serve
from websockets.typing import Subprotocol

from ..exceptions import AddressInUse, NotConnected, RequestTimeout, wrong_type
from ..limits import ACCEPT_BACKLOG, READ_LIMIT_FACTOR
from ..sansio import ENCRYPT_SUBPROTOCOL
from ..vocabulary import EventKind
from .admission import Admission, redacting_logger
from .connection import GameConnection
from .delivery import Progress
from .eventlog import EventLog, LogEntry
from .game_calls import GameCalls, same_call
from .observer import Observer, Observers
from .results import CommandResult, UiChat
from .settings import Settings
from .sockets import AcceptErrors, host_of
from .subscriptions import ALWAYS_SUBSCRIBED, SubscriptionBook, check_event_name, check_rate
from .uichat import UiChatCallback, UiChatHooks

__all__ = ["Bridge", "UiChatCallback", "serve"]

_log = logging.getLogger("mcbews_repl.gateway")
# What the bridge adds to every game call (game_calls.py).
_ROUTED = "On the bridge, ``connection`` picks the game (default: the newest one)."

# The player types the token after /connect: URL-unreserved characters only.
_TOKEN_PATTERN = re.compile(r"[A-Za-z0-9._~-]{1,64}")
_AUTO_TOKEN_BYTES = 4  # 8 hex digits: a convenience secret (the game shows the URI in chat)
_WILDCARD_HOSTS = ("", "0.0.0.0", "::")
_PORT_MAX = 65535  # TCP ports are 16-bit
# websockets' open_timeout bounds a whole opening handshake: the request's arrival
# (request_timeout), a wrong guess held (handshake_max_delay), and this for our answer.
_ANSWER_SECONDS = 2.0


def _lan_address() -> str:
    """This machine's address on its default route (a UDP connect sends no packet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _make_token(token: str | None) -> str | None:
    if token == "auto":
        return secrets.token_hex(_AUTO_TOKEN_BYTES)
    if token is not None and not _TOKEN_PATTERN.fullmatch(token):
        raise ValueError("token must be 1-64 letters, digits or ._~- (or 'auto', or None)")
    return token


def _check_types(host: object, port: object, token: object) -> None:
    if not isinstance(host, str):
        raise wrong_type("host must be a string (an address such as '127.0.0.1' or '0.0.0.0')",
                         host)  # fmt: skip
    if isinstance(port, bool) or not isinstance(port, int):
        raise wrong_type(f"port must be a whole number 0..{_PORT_MAX} (0 picks a free one)", port)
    if token is not None and not isinstance(token, str):
        raise wrong_type("token must be a string of 1-64 letters, digits or ._~- (or 'auto', "
                         "or None)", token)  # fmt: skip


class Bridge:
    """The handle users call ``mc``: the server, its game connections and the event log."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 19131,
        token: str | None = "auto",
        *,
        settings: Settings | None = None,
        **options: Any,
    ) -> None:
        _check_types(host, port, token)
        self.settings = replace(settings or Settings(), **options)
        if not 0 <= port <= _PORT_MAX:
            raise ValueError(f"port must be 0..{_PORT_MAX} (0 picks a free one), not {port}")
        self.host = host
        self.token = _make_token(token)
        self.log = EventLog(
            self.settings.log_capacity,
            max_bytes=self.settings.log_max_bytes,
            connection_max_bytes=self.settings.log_connection_max_bytes,
            text_chars=self.settings.log_text_chars,
            shares=self.settings.max_connections + 1,  # every game and the bridge's own
        )
        self._port = port
        self._server: Server | None = None
        self._connections: list[GameConnection] = []
        self._next_id = 1
        self._arrival = asyncio.Event()
        self._ui_callbacks: list[UiChatCallback] = []
        self._observers = Observers()  # every connection reports to these (observer.py)
        # The game events wanted everywhere and per world, kept across reconnects.
        self.subscriptions = SubscriptionBook()
        self._tasks: set[asyncio.Future[Any]] = set()
        self._ui_chat_hooks = UiChatHooks(self._ui_callbacks, self._spawn, self._callback_failed)
        self._admission = Admission(
            self.token, self.settings, self.log, lambda: len(self._connections)
        )
        self._accept_errors = AcceptErrors(self._admission.refusals)
        self._closed = False

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> Bridge:
        """Start listening; ``port=0`` picks a free port (``url`` tells which).

        Raises:
            AddressInUse: another program already listens on the port.
        """
        self._closed = False
        settings = self.settings
        try:
            self._server = await websocket_serve(
                self._handle,
                self.host,
                self._port,
                create_connection=self._admission.connection_class,
                open_timeout=settings.request_timeout
                + settings.handshake_max_delay
                + _ANSWER_SECONDS,
                process_request=self._admission.check,
                select_subprotocol=self._select_subprotocol,
                max_size=self.settings.max_frame_bytes * READ_LIMIT_FACTOR,
                compression=None,  # frames are small; deflate would cost more than it saves
                backlog=ACCEPT_BACKLOG,
                logger=redacting_logger(self.token),
            )
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise AddressInUse(self.host, self._port, "the address is already in use") from exc
        self._port = self._server.sockets[0].getsockname()[1]
        self._accept_errors.install(asyncio.get_running_loop(), self._server.sockets)
        self._spawn(self._expire_loop())
        _log.info("bridge listening on %s:%d", self.host, self._port)
        return self

    async def close(self) -> None:
        """Stop the server, close every game connection and cancel background tasks."""
        self._closed = True
        self._arrival.set()  # wake wait_connected() so it can say the bridge is closed
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
            self._accept_errors.uninstall()
        self._admission.refusals.flush(time.monotonic(), every=True)  # the counts still owed
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def __aenter__(self) -> Bridge:
        return await self.start()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    def _spawn(self, awaitable: Awaitable[Any]) -> asyncio.Future[Any]:
        task = asyncio.ensure_future(awaitable)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _expire_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.expire_interval)
            now = time.monotonic()
            self._admission.refusals.flush(now)
            for connection in list(self._connections):
                # One connection's failure must not end the sweep for all of them: a dead
                # sweep would let stale buffers and requests pile up silently.
                try:
                    connection.expire(now)
                except Exception:
                    _log.exception("expiring stale state of connection #%d failed", connection.id)

    # --- addresses ------------------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port the bridge listens on (the one the OS picked when asked for 0)."""
        return self._port

    def _public_host(self) -> str:
        host = _lan_address() if self.host in _WILDCARD_HOSTS else self.host
        return f"[{host}]" if ":" in host else host

    @property
    def url(self) -> str:
        """The WebSocket URL the game connects to."""
        return f"ws://{self._public_host()}:{self._port}/{self.token or ''}"

    @property
    def connect_command(self) -> str:
        """What the player types in Minecraft (cheats on, operator)."""
        path = f"/{self.token}" if self.token else ""
        return f"/connect {self._public_host()}:{self._port}{path}"

    def __repr__(self) -> str:
        return f"<Bridge {self.url} connections={len(self._connections)}>"

    # --- connections ----------------------------------------------------------------------

    def _select_subprotocol(
        self, websocket: ServerConnection, offered: Sequence[Subprotocol]
    ) -> Subprotocol | None:
        # Accepting the subprotocol is what tells the game we will run ws:encrypt; a client
        # that offers nothing (or encrypt=False) simply goes on unencrypted.
        if self.settings.encrypt is not False and ENCRYPT_SUBPROTOCOL in offered:
            return Subprotocol(ENCRYPT_SUBPROTOCOL)
        return None

    async def _handle(self, websocket: ServerConnection) -> None:
        address = host_of(websocket.remote_address)
        if (full := self._admission.over_limit(address)) is not None:
            # Handshakes that passed the check together can overshoot it; 1013: try later.
            await websocket.close(1013, full[1][:120])
            return
        connection = GameConnection(
            websocket,
            self._next_id,
            self.settings,
            self.log,
            self._ui_chat_hooks,
            self._observers,
            self.subscriptions,
        )
        self._next_id += 1
        self._connections.append(connection)
        _log.info("connection #%d from %s", connection.id, connection.peer)
        self.log.append(
            EventKind.CONNECTED,
            f"#{connection.id} {connection.peer}",
            connection.id,
            peer=connection.peer,
            subprotocol=websocket.subprotocol,
        )
        self._arrival.set()
        self._arrival = asyncio.Event()
        self._admission.game_opened(address)
        try:
            await connection.run()
        finally:
            self._connections.remove(connection)
            self._admission.game_closed(address)

    @property
    def counters(self) -> Counter[str]:
        """Refused connections by reason (``refused:wrong_token``, ``refused:throttled``,
        ``refused:throttled_all``, ``refused:unencrypted``, ``refused:max_connections``,
        ``refused:max_connections_per_address``, ``refused:max_half_open``,
        ``refused:max_half_open_per_address``, ``refused:request_timeout``,
        ``refused:accept_error``) and ``delayed`` answers (docs/gateway.md)."""
        return self._admission.counters

    @property
    def connections(self) -> list[GameConnection]:
        """The open game connections, oldest first."""
        return list(self._connections)

    def pick(self, connection: GameConnection | None = None) -> GameConnection:
        """``connection`` if given, else the most recently connected game's.

        Raises:
            NotConnected: no game is connected (the message says what to type in Minecraft).
        """
        if connection is not None:
            return connection
        if not self._connections:
            raise NotConnected(f"no game is connected; in Minecraft type: {self.connect_command}")
        return self._connections[-1]

    async def wait_connected(self, timeout: float | None = None) -> GameConnection:
        """Wait for a game to connect and finish its handshake; return its connection.

        Raises:
            RequestTimeout: no game connected within ``timeout`` (the message says what
                to type in Minecraft).
            NotConnected: the bridge was closed meanwhile.
        """
        try:
            async with asyncio.timeout(timeout):
                while True:
                    if self._connections:
                        connection = self._connections[-1]
                        await connection.wait_ready()
                        if not connection.closed:
                            return connection
                        continue
                    if self._closed:
                        raise NotConnected("the bridge is closed; start a new one with serve()")
                    await self._arrival.wait()
        except TimeoutError as exc:
            raise RequestTimeout(
                f"no game connected within {timeout:g} s; in Minecraft (cheats on, "
                f"operator) type: {self.connect_command}"
            ) from exc

    # --- calls ----------------------------------------------------------------------------

    @same_call(GameCalls.command, _ROUTED)
    async def command(
        self,
        line: str,
        *,
        timeout: float | None = None,
        connection: GameConnection | None = None,
    ) -> CommandResult:
        return await self.pick(connection).command(line, timeout=timeout)

    @same_call(GameCalls.call, _ROUTED)
    async def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        connection: GameConnection | None = None,
        **fields: Any,
    ) -> dict[str, Any]:
        merged = {**(payload or {}), **fields}
        return await self.pick(connection).call(capability, merged, timeout=timeout)

    @same_call(GameCalls.send_text, _ROUTED)
    async def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        progress: Progress | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
        connection: GameConnection | None = None,
    ) -> int:
        return await self.pick(connection).send_text(
            player,
            text,
            role=role,
            progress=progress,
            conversation_id=conversation_id,
            title=title,
        )

    # --- UI chat and the event log --------------------------------------------------------

    def on_ui_chat(self, callback: UiChatCallback) -> UiChatCallback:
        """Register ``callback(msg)`` (sync or async) for UI chat; usable as a decorator."""
        self._ui_callbacks.append(callback)
        return callback

    def off_ui_chat(self, callback: UiChatCallback) -> None:
        """Remove a callback registered with :meth:`on_ui_chat` (no error if absent)."""
        if callback in self._ui_callbacks:
            self._ui_callbacks.remove(callback)

    def _callback_failed(
        self, callback: UiChatCallback, message: UiChat, exc: BaseException
    ) -> None:
        name = getattr(callback, "__qualname__", repr(callback))
        _log.error("UI chat callback %s raised", name, exc_info=exc)
        connection_id = message.connection.id if message.connection else None
        self.log.append(
            EventKind.CALLBACK_ERROR,
            f"{name} raised {type(exc).__name__}: {exc}",
            connection_id,
            callback=name,
            error=repr(exc),
            traceback="".join(traceback.format_exception(exc)),
        )

    def observe(self, observer: Observer) -> None:
        """Report every connection's frames and call outcomes to ``observer`` (observer.py):
        synchronously, on this bridge's loop; ``unobserve`` stops it."""
        self._observers.add(observer)

    def unobserve(self, observer: Observer) -> None:
        """Stop reporting to ``observer`` (no error if it was not registered)."""
        self._observers.remove(observer)

    # --- game events ----------------------------------------------------------------------

    async def subscribe(
        self,
        name: str,
        *,
        connection: GameConnection | None = None,
        unknown_ok: bool = False,
        rate: int | None = None,
    ) -> frozenset[str]:
        """Subscribe to the game event ``name`` (mcbews_repl/game_events.py): on every
        connection, now and after each reconnect, or only on ``connection``'s world (also
        after it reconnects). A WebSocket event is sent by the game itself; an addon event
        is forwarded by the addon for every player. ``rate``: at most that many a second
        per player (the addon keeps an addon event's, the gateway a WebSocket event's; what
        is over it is dropped and counted); None or 0 for none. The rate is this
        subscription's: subscribing again sets it again (no rate: none), and a world's own
        comes before the one everywhere. Returns what that connection (or the newest) now
        hears.

        Raises:
            UnknownEvent: no event of that name is known and ``unknown_ok`` is not set.
            ValueError: too many names are subscribed to already, an ``unknown_ok`` name
                that cannot be an event's, or a rate out of range or for PlayerMessage.
        """
        name = check_event_name(name, unknown_ok=unknown_ok)
        rate = check_rate(name, rate)
        self._book_change(name, connection, wanted=True, unknown_ok=unknown_ok, rate=rate)
        return await self._sync(connection)

    async def unsubscribe(
        self, name: str, *, connection: GameConnection | None = None
    ) -> frozenset[str]:
        """Stop the game event ``name`` everywhere (``connection`` None) or in that
        connection's world; PlayerMessage stays (the bridge needs it). Returns what that
        connection (or the newest) still hears: a name wanted everywhere stays in a world.

        Raises:
            ValueError: ``name`` is one the bridge subscribes to by itself (PlayerMessage).
        """
        name = check_event_name(name, unknown_ok=True)
        if name in ALWAYS_SUBSCRIBED:
            raise ValueError(
                f"{name} stays subscribed: it carries chat and the addon's chat answers; "
                "a callback can be removed with off()"
            )
        self._book_change(name, connection, wanted=False, unknown_ok=False)
        return await self._sync(connection)

    def _book_change(
        self,
        name: str,
        connection: GameConnection | None,
        *,
        wanted: bool,
        unknown_ok: bool,
        rate: int = 0,
    ) -> None:
        book = self.subscriptions
        key = None if connection is None else connection.world_key
        if wanted:
            book.add(name, key, everywhere=connection is None, unknown_ok=unknown_ok, rate=rate)
        else:
            book.remove(name, key, everywhere=connection is None)
        if connection is not None and key is None:
            connection.want(name, wanted, rate)  # host not known yet: this connection's own

    async def _sync(self, connection: GameConnection | None) -> frozenset[str]:
        chosen = [connection] if connection is not None else list(self._connections)
        for game in chosen:
            if not game.closed:
                await game.sync_subscriptions()
        if connection is not None:
            return connection.events
        return self._connections[-1].events if self._connections else frozenset()

    def events(self, since: int = 0) -> list[LogEntry]:
        """Event log entries with a cursor greater than ``since`` (0: all still held)."""
        return self.log.since(since)

    def follow(self, since: int | None = None) -> AsyncIterator[LogEntry]:
        """``async for entry in mc.follow():`` replay after ``since``, then live entries."""
        return self.log.follow(since)


def serve(
    host: str = "127.0.0.1", port: int = 19131, token: str | None = "auto", **options: Any
) -> Bridge:
    """Make the bridge server; use ``async with serve(...) as mc:`` to run it.

    ``port=0`` picks a free port. ``token="auto"`` makes a random path token and refuses
    other paths; ``token=None`` accepts any path. ``options`` are :class:`Settings` fields,
    among them ``encrypt``: ``"auto"`` (default) encrypts whenever the game offers to,
    ``True`` refuses games that cannot, ``False`` never encrypts (docs/encryption.md).

    Raises:
        TypeError: ``host``, ``port`` or ``token`` has the wrong type, or an option is not
            a :class:`Settings` field.
        ValueError: ``port`` is not 0..65535, the token is malformed, or an option's value
            is out of its range (the message names it).
    """
    return Bridge(host, port, token, **options)
