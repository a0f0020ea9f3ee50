"""Who may connect: sockets before their handshake, the path token under budgets, and room.

The path token is short on purpose (a player types it after ``/connect``): 8 hex digits,
32 bits. Unthrottled, one client on loopback tried 2,293 wrong tokens a second, so each
check of a token is budgeted (budgets.py), and an attempt over budget is refused (HTTP 429)
without its token being checked, which costs nothing:

* per source address: ``handshake_failure_burst`` at full speed, then paced to
  ``handshake_failures_per_second`` (a wrong guess is answered only when its turn comes;
  one that would wait longer than ``handshake_max_delay`` is refused unchecked);
* across all addresses that have not proved the token: ``handshake_failure_burst_all``,
  then ``handshake_failures_per_second_all``, however many addresses a guesser has.

An address whose game connected with the right token is remembered (``proven_address_ttl``
after its last game left) and its tokens are always checked: a right one is admitted at
once, whoever floods, even from that address. Two attempts from one address cannot be told
apart before their tokens are compared, so this is what it costs: whoever shares such an
address with a game is held to no budget (docs/gateway.md, "Who may connect").

Then ``encrypt=True``, then room: ``max_connections_per_address`` open games per address
(this machine's own address excepted) and ``max_connections`` in all. Sockets are counted
from accept to the handshake's answer (sockets.py). Every refusal is counted and recorded
(refusals.py). Tokens are compared in constant time and never logged (websockets' own
debug lines included: see :func:`redacting_logger`).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections import Counter
from collections.abc import Callable, MutableMapping
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from ..limits import HANDSHAKES_DELAYED_MAX
from ..sansio import ENCRYPT_SUBPROTOCOL
from ..vocabulary import EventKind
from .budgets import HandshakeThrottle, ProvenAddresses, SharedBudget
from .eventlog import EventLog
from .refusals import Refusals
from .settings import Settings
from .sockets import HalfOpen, Verdict, busy_response, guarded_connection, host_of, is_local

__all__ = ["Admission", "offers_encryption", "redacting_logger"]

_log = logging.getLogger("mcbews_repl.gateway")


def _same_secret(given: str, expected: str) -> bool:
    # Digests first: compare_digest is constant-time only for inputs of equal length.
    return hmac.compare_digest(
        hashlib.sha256(given.encode()).digest(), hashlib.sha256(expected.encode()).digest()
    )


# What a stranger over the shared budget is told (at accept, or after reading its request).
_BUSY_TEXT = "too many wrong /connect tokens from all addresses together; wait a few seconds"


class Admission:
    """The checks of every connection, from its accept to its opening handshake's answer."""

    def __init__(
        self,
        token: str | None,
        settings: Settings,
        log: EventLog,
        open_connections: Callable[[], int],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._token = token
        self._settings = settings
        self._log = log
        self._open_connections = open_connections
        self._clock = clock
        self.throttle = HandshakeThrottle(
            burst=settings.handshake_failure_burst,
            per_second=settings.handshake_failures_per_second,
            max_delay=settings.handshake_max_delay,
        )
        self.shared = SharedBudget(
            burst=settings.handshake_failure_burst_all,
            per_second=settings.handshake_failures_per_second_all,
            now=clock(),
        )
        self.proven = ProvenAddresses(settings.proven_address_ttl)
        self.half_open = HalfOpen(
            limit=settings.max_half_open, per_address=settings.max_half_open_per_address
        )
        self.request_timeout = settings.request_timeout
        # Refusals by reason (``refused:<reason>``, refusals.py) and wrong-token answers
        # that were held back (``delayed``).
        self.counters: Counter[str] = Counter()
        self.refusals = Refusals(log, self.counters)
        self.connection_class = guarded_connection(self)  # websockets' create_connection
        self._games: Counter[str] = Counter()  # open game connections by source address
        self._delayed_now = 0
        self.delayed_peak = 0  # the most answers held back at once

    # --- sockets before their handshake (sockets.Gate) -------------------------------------

    def opened(self, address: str) -> Verdict:
        """A socket was accepted: serve it, close it now, or answer it 429 now (recorded)."""
        now = self._clock()
        proven = self._proven(address, now)
        if (
            self._token is not None
            and not proven
            and self.shared.left(now) < 1
            and not self.throttle.spent(address, now)  # its own reason comes first
        ):
            # The strangers' budget is spent: this attempt would be refused unchecked, so
            # it is answered before websockets reads it (the flood's cost stays small).
            text = f"{address}: {_BUSY_TEXT}"
            self.refusals.refused("throttled_all", address, text, now)
            return "busy"
        reason = self.half_open.open(address, proven=proven)
        if reason is None:
            return "serve"
        if reason == "max_half_open":
            limit = f"{self.half_open.limit} connections have not finished their handshake"
        else:
            limit = f"{self.half_open.of(address)} connections from {address} have not finished"
        self.refusals.refused(reason, address, f"closed a socket from {address}: {limit}", now)
        return "close"

    def busy_answer(self) -> bytes:
        """The whole HTTP 429 answer, with a Retry-After, for a socket over the limits."""
        return busy_response(_BUSY_TEXT + "\n", self._retry_after())

    def _retry_after(self) -> int:
        return max(1, round(self._settings.handshake_max_delay))

    def finished(self, address: str) -> None:
        """``address``'s opening handshake ended: it no longer counts as half-open."""
        self.half_open.close(address)

    def timed_out(self, address: str) -> None:
        """``address`` sent no complete request in time: count it as a refusal."""
        summary = f"{address} sent no complete request within {self.request_timeout:g} s"
        self.refusals.refused("request_timeout", address, summary, self._clock())

    # --- the opening handshake (websockets' process_request) -------------------------------

    async def check(self, websocket: ServerConnection, request: Request) -> Response | None:
        """websockets' ``process_request``: None accepts, a Response refuses."""
        address = host_of(websocket.remote_address)
        refusal = await self._check_token(websocket, request, address)
        if refusal is not None:
            return refusal
        if (refusal := self._check_encryption(websocket, request, address)) is not None:
            return refusal
        if (full := self.over_limit(address)) is not None:
            status, text = full
            return websocket.respond(status, text + "\n")
        return None

    async def _check_token(
        self, websocket: ServerConnection, request: Request, address: str
    ) -> Response | None:
        if self._token is None:
            return None
        now = self._clock()
        proven = self._proven(address, now)
        delay = self.throttle.admit(address, now)
        if not proven and (refusal := self._over_budget(websocket, address, delay, now)):
            return refusal
        path = request.path.split("?", 1)[0].rstrip("/")
        if _same_secret(path, f"/{self._token}"):
            if not proven:
                self.shared.give_back(now)
            if delay is not None:
                self.throttle.succeeded(address, now)
            self.proven.prove(address, now)
            return None
        summary = f"wrong /connect path from {address} ({len(path)} chars)"
        self.refusals.refused("wrong_token", address, summary, now)
        if delay:  # None: a proven address past its pace, answered at once
            await self._hold(address, delay)
        return websocket.respond(HTTPStatus.FORBIDDEN, "wrong /connect path or token\n")

    def _over_budget(
        self, websocket: ServerConnection, address: str, delay: float | None, now: float
    ) -> Response | None:
        """A stranger's attempt past either budget: refused unchecked (HTTP 429)."""
        if delay is None:
            reason, whose = "throttled", "from this address"
        elif not self.shared.take(now):
            self.throttle.succeeded(address, now)  # refused unchecked: it costs nothing
            reason, whose = "throttled_all", "from all addresses together"
        else:
            return None
        text = f"too many wrong /connect tokens {whose}; wait a few seconds"
        self.refusals.refused(reason, address, f"{address}: {text}", now)
        response = websocket.respond(HTTPStatus.TOO_MANY_REQUESTS, text + "\n")
        response.headers["Retry-After"] = str(self._retry_after())
        return response

    async def _hold(self, address: str, delay: float) -> None:
        """Answer a paced wrong guess late (each held answer keeps a socket: capped)."""
        if self._delayed_now >= HANDSHAKES_DELAYED_MAX:
            return
        self._announce(address)
        self.counters["delayed"] += 1
        self._delayed_now += 1
        self.delayed_peak = max(self.delayed_peak, self._delayed_now)
        try:
            await asyncio.sleep(delay)
        finally:
            self._delayed_now -= 1

    def _announce(self, address: str) -> None:
        if not self.throttle.announce(address):
            return
        burst = self._settings.handshake_failure_burst
        rate = self._settings.handshake_failures_per_second
        _log.warning(
            "slowing down handshakes from %s: more than %d wrong /connect tokens; now %g a second",
            address,
            burst,
            rate,
        )
        summary = f"throttling {address}: over {burst} wrong tokens, now {rate:g}/s"
        self._log.append(EventKind.REFUSED, summary, None, peer=address, reason="throttled")

    def _check_encryption(
        self, websocket: ServerConnection, request: Request, address: str
    ) -> Response | None:
        """``encrypt=True``: refuse a client that does not offer the wsencrypt subprotocol."""
        if self._settings.encrypt is not True or offers_encryption(request):
            return None
        summary = f"unencrypted client {address} (encrypt=True)"
        self.refusals.refused("unencrypted", address, summary, self._clock())
        text = f"this bridge requires encryption; the client did not offer {ENCRYPT_SUBPROTOCOL}\n"
        return websocket.respond(HTTPStatus.FORBIDDEN, text)

    # --- room for one more game ------------------------------------------------------------

    def over_limit(self, address: str) -> tuple[HTTPStatus, str] | None:
        """None if a game from ``address`` fits; else count and record its refusal, and
        return the HTTP status and the words to send it."""
        per_address = self._settings.max_connections_per_address
        if not is_local(address) and self._games[address] >= per_address:
            summary = f"{address}: {per_address} games from it already connected"
            self.refusals.refused("max_connections_per_address", address, summary, self._clock())
            text = (
                f"this bridge already serves {per_address} games from {address} "
                "(max_connections_per_address); close one, or try later"
            )
            return HTTPStatus.TOO_MANY_REQUESTS, text
        limit = self._settings.max_connections
        if self._open_connections() < limit:
            return None
        summary = f"{address}: {limit} games already connected"
        self.refusals.refused("max_connections", address, summary, self._clock(), limit=limit)
        text = f"this bridge already serves {limit} games (max_connections); try later"
        return HTTPStatus.SERVICE_UNAVAILABLE, text

    def _proven(self, address: str, now: float) -> bool:
        """A game from ``address`` is connected, or one left less than the TTL ago."""
        if self._token is None or self.proven.ttl <= 0:
            return False  # no token to prove, or the standing turned off
        return address in self._games or self.proven.holds(address, now)

    def game_opened(self, address: str) -> None:
        """A game from ``address`` is connected: the address counts as proven while it stays."""
        self._games[address] += 1

    def game_closed(self, address: str) -> None:
        """A game from ``address`` left; with a token, the address stays proven for
        its time to live.
        """
        self._games[address] -= 1
        if self._games[address] <= 0:
            del self._games[address]
        if self._token is not None:
            self.proven.prove(address, self._clock())  # its TTL runs from when it left


def offers_encryption(request: Request) -> bool:
    """Whether the game's opening request offers the ``com.microsoft.minecraft.wsencrypt``
    subprotocol (a game that can encrypt does)."""
    offered = ",".join(request.headers.get_all("Sec-WebSocket-Protocol"))
    return ENCRYPT_SUBPROTOCOL in (name.strip() for name in offered.split(","))


class _Redacting(logging.LoggerAdapter[logging.Logger]):
    """Formats each message itself and replaces the token before it reaches a handler."""

    def __init__(self, logger: logging.Logger, secret: str) -> None:
        super().__init__(logger, {})
        self._secret = secret

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        if self.isEnabledFor(level):
            text = str(msg) % args if args else str(msg)
            kwargs.setdefault("stacklevel", 2)
            self.logger.log(level, text.replace(self._secret, "<token>"), **kwargs)

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, Any]:
        return msg, kwargs


def redacting_logger(token: str | None) -> logging.Logger | _Redacting:
    """websockets' server logger, with the path token blanked (its debug lines print the
    request line, which carries the token)."""
    logger = logging.getLogger("websockets.server")
    return logger if token is None else _Redacting(logger, token)
