"""Who may connect: the path token, paced per source address, and a connection limit.

The path token is short on purpose (a player types it after ``/connect``): 8 hex digits,
32 bits. Unthrottled, one client on loopback tried 2,293 wrong tokens a second. So every
source address gets a small budget of failed handshakes at full speed
(``handshake_failure_burst``); past it, its token checks are paced to
``handshake_failures_per_second``: a wrong guess is answered only after its turn comes,
and an attempt that would wait longer than ``handshake_max_delay`` is refused at once
(HTTP 429) without its token being checked. A right token is answered at once and costs
nothing. Tokens are compared in constant time and never logged (websockets' own debug
lines included: see :func:`redacting_logger`).

:class:`HandshakeThrottle` is the pacing alone, with the clock passed in;
:class:`Admission` applies it and the other checks to each opening handshake.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from ..limits import HANDSHAKE_TRACKED_ADDRESSES, HANDSHAKES_DELAYED_MAX
from ..sansio.encrypt import ENCRYPT_SUBPROTOCOL
from .eventlog import EventLog
from .settings import Settings

__all__ = ["Admission", "HandshakeThrottle", "redacting_logger"]

_log = logging.getLogger("mcbews_repl.gateway")


@dataclass(slots=True)
class _Budget:
    tokens: float  # failed handshakes this address may still make at once (may go below 0)
    at: float  # when ``tokens`` was last brought up to date
    announced: bool = False  # the log said once that this address is being throttled


class HandshakeThrottle:
    """A token bucket per source address: a burst at full speed, then paced, then refused."""

    def __init__(
        self,
        *,
        burst: int,
        per_second: float,
        max_delay: float,
        tracked: int = HANDSHAKE_TRACKED_ADDRESSES,
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.max_delay = max_delay
        self.tracked = tracked
        self._budgets: OrderedDict[str, _Budget] = OrderedDict()

    def __len__(self) -> int:
        return len(self._budgets)

    def admit(self, address: str, now: float) -> float | None:
        """Take one attempt's share: seconds to hold its answer if it fails (0.0: none), or
        None: refuse it now, unchecked (it would wait longer than ``max_delay``)."""
        budget = self._budget(address, now)
        if budget.tokens >= 1:
            budget.tokens -= 1
            return 0.0
        delay = (1 - budget.tokens) / self.per_second
        if delay > self.max_delay:
            return None
        budget.tokens -= 1
        return delay

    def succeeded(self, address: str, now: float) -> None:
        """The attempt had the right token: give its share back."""
        budget = self._budget(address, now)
        budget.tokens = min(self.burst, budget.tokens + 1)
        if budget.tokens >= self.burst:
            del self._budgets[address]  # nothing left to remember

    def announce(self, address: str) -> bool:
        """True the first time an address is held or refused since it was last at rest."""
        budget = self._budgets.get(address)
        if budget is None or budget.announced:
            return False
        budget.announced = True
        return True

    def throttled(self, now: float) -> int:
        """How many addresses have used up their burst."""
        return sum(1 for a in list(self._budgets) if self._budget(a, now).tokens < 1)

    def _budget(self, address: str, now: float) -> _Budget:
        budget = self._budgets.get(address)
        if budget is None:
            budget = self._budgets[address] = _Budget(float(self.burst), now)
            while len(self._budgets) > self.tracked:
                self._budgets.popitem(last=False)  # the least recently seen address
            return budget
        budget.tokens = min(self.burst, budget.tokens + (now - budget.at) * self.per_second)
        budget.at = now
        if budget.tokens >= 1:
            budget.announced = False
        self._budgets.move_to_end(address)
        return budget


def _same_secret(given: str, expected: str) -> bool:
    # Digests first: compare_digest is constant-time only for inputs of equal length.
    return hmac.compare_digest(
        hashlib.sha256(given.encode()).digest(), hashlib.sha256(expected.encode()).digest()
    )


class Admission:
    """The opening-handshake checks, in order: pace, path token, encryption, capacity."""

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
        # Refusals by reason (wrong_token, throttled, unencrypted, max_connections) and
        # wrong-token answers that were held back (delayed).
        self.counters: Counter[str] = Counter()
        self._delayed_now = 0
        self.delayed_peak = 0  # the most answers held back at once

    async def check(self, websocket: ServerConnection, request: Request) -> Response | None:
        """websockets' ``process_request``: None accepts, a Response refuses."""
        peer = websocket.remote_address
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        refusal = await self._check_token(websocket, request, address)
        return refusal or self._check_encryption(websocket, request) or self._check_room(websocket)

    def _refuse(
        self, websocket: ServerConnection, reason: str, status: HTTPStatus, text: str
    ) -> Response:
        self.counters[f"refused:{reason}"] += 1
        return websocket.respond(status, text)

    async def _check_token(
        self, websocket: ServerConnection, request: Request, address: str
    ) -> Response | None:
        if self._token is None:
            return None
        delay = self.throttle.admit(address, self._clock())
        if delay is None:
            self._announce(address, "refusing")
            text = "too many wrong /connect tokens from this address; wait a few seconds\n"
            response = self._refuse(websocket, "throttled", HTTPStatus.TOO_MANY_REQUESTS, text)
            response.headers["Retry-After"] = str(max(1, round(self._settings.handshake_max_delay)))
            return response
        path = request.path.split("?", 1)[0].rstrip("/")
        if _same_secret(path, f"/{self._token}"):
            self.throttle.succeeded(address, self._clock())
            return None
        _log.info("refused a connection from %s: wrong path (%d chars)", address, len(path))
        self._log.append("refused", f"wrong /connect path from {address}", None, peer=address)
        if delay > 0:
            await self._hold(address, delay)
        text = "wrong /connect path or token\n"
        return self._refuse(websocket, "wrong_token", HTTPStatus.FORBIDDEN, text)

    async def _hold(self, address: str, delay: float) -> None:
        """Answer a paced wrong guess late (each held answer keeps a socket: capped)."""
        if self._delayed_now >= HANDSHAKES_DELAYED_MAX:
            return
        self._announce(address, "slowing down")
        self.counters["delayed"] += 1
        self._delayed_now += 1
        self.delayed_peak = max(self.delayed_peak, self._delayed_now)
        try:
            await asyncio.sleep(delay)
        finally:
            self._delayed_now -= 1

    def _announce(self, address: str, doing: str) -> None:
        if not self.throttle.announce(address):
            return
        burst = self._settings.handshake_failure_burst
        rate = self._settings.handshake_failures_per_second
        _log.warning(
            "%s handshakes from %s: more than %d wrong /connect tokens; now %g a second",
            doing,
            address,
            burst,
            rate,
        )
        summary = f"throttling {address}: over {burst} wrong tokens, now {rate:g}/s"
        self._log.append("refused", summary, None, peer=address, reason="throttled")

    def _check_encryption(self, websocket: ServerConnection, request: Request) -> Response | None:
        """``encrypt=True``: refuse a client that does not offer the wsencrypt subprotocol."""
        if self._settings.encrypt is not True or offers_encryption(request):
            return None
        peer = str(websocket.remote_address)
        _log.info("refused a connection from %s: it cannot encrypt", peer)
        self._log.append("refused", f"unencrypted client {peer} (encrypt=True)", None, peer=peer)
        text = f"this bridge requires encryption; the client did not offer {ENCRYPT_SUBPROTOCOL}\n"
        return self._refuse(websocket, "unencrypted", HTTPStatus.FORBIDDEN, text)

    def _check_room(self, websocket: ServerConnection) -> Response | None:
        if self._open_connections() < self._settings.max_connections:
            return None
        text = self.over_capacity(str(websocket.remote_address))
        return websocket.respond(HTTPStatus.SERVICE_UNAVAILABLE, text + "\n")

    def over_capacity(self, peer: str) -> str:
        """Count, log and record a game refused for want of room; return why, for it."""
        limit = self._settings.max_connections
        self.counters["refused:max_connections"] += 1
        _log.warning(
            "refused a game connection from %s: %d game connections are open (max_connections=%d)",
            peer,
            limit,
            limit,
        )
        self._log.append(
            "refused", f"{peer}: {limit} games already connected", None, peer=peer, limit=limit
        )
        return f"this bridge already serves {limit} games (max_connections); try later"


def offers_encryption(request: Request) -> bool:
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
