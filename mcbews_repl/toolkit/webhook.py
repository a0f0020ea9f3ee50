"""Forward chosen event-log entries to an HTTP endpoint, signed with HMAC-SHA256.

The event log calls our listener synchronously on the bridge's loop, so the listener only
puts the entry in a bounded queue (a full queue drops it and counts the drop); one worker
task posts entries in order, retrying failures with exponential backoff. The HTTP request
runs in a worker thread (``asyncio.to_thread``), so a slow endpoint never stalls the bridge.

Each request carries ``X-Mcbews-Signature: t=<unix seconds>,v1=<hex>`` where ``v1`` is
HMAC-SHA256(secret, ``"<t>.<body>"``), plus ``X-Mcbews-Delivery`` (stable across retries,
for de-duplication) and ``X-Mcbews-Event`` (the entry's kind). :func:`verify_signature`
is the receiver's check.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from ..gateway import EventLog, LogEntry
from ..vocabulary import CHAT_KINDS

__all__ = [
    "DELIVERY_HEADER",
    "EVENT_HEADER",
    "SIGNATURE_HEADER",
    "EventForwarder",
    "sign",
    "verify_signature",
]

_log = logging.getLogger("mcbews_repl.toolkit")

SIGNATURE_HEADER = "X-Mcbews-Signature"
DELIVERY_HEADER = "X-Mcbews-Delivery"
EVENT_HEADER = "X-Mcbews-Event"
QUEUE_LIMIT = 256  # entries waiting to be posted; more are dropped (and counted)
ATTEMPTS = 5  # one try and four retries: about 7.5 s of backoff at the defaults
BACKOFF_SECONDS = 0.5  # doubled after each failure, with up to 50 % jitter
BACKOFF_MAX_SECONDS = 8.0
TIMEOUT_SECONDS = 5.0  # per HTTP request
SIGNATURE_TOLERANCE_SECONDS = 300  # receivers refuse older signatures (replayed requests)
_RETRY_STATUSES = frozenset({408, 425, 429})  # plus every 5xx

Post = Callable[[str, bytes, Mapping[str, str], float], Awaitable[int]]
Enrich = Callable[[LogEntry], Mapping[str, Any]]


def sign(secret: bytes, timestamp: int, body: bytes) -> str:
    """The signature header's value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret, f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def verify_signature(
    secret: bytes,
    header: str,
    body: bytes,
    *,
    now: float | None = None,
    tolerance_seconds: float = SIGNATURE_TOLERANCE_SECONDS,
) -> bool:
    """True when ``header`` signs ``body`` with ``secret`` and is recent enough."""
    fields = dict(part.partition("=")[::2] for part in header.split(",") if "=" in part)
    try:
        timestamp = int(fields["t"])
    except (KeyError, ValueError):
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance_seconds:
        return False
    return hmac.compare_digest(
        sign(secret, timestamp, body), f"t={timestamp},v1={fields.get('v1', '')}"
    )


async def _urllib_post(url: str, body: bytes, headers: Mapping[str, str], timeout: float) -> int:
    def post() -> int:
        request = urllib.request.Request(url, body, dict(headers), method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return int(response.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    return await asyncio.to_thread(post)


class EventForwarder:
    """``EventForwarder(mc.log, url, secret, kinds=("chat",)).start()``; ``await stop()``.

    Posts each log entry of ``kinds`` as signed JSON (:func:`sign`) to ``url``, retrying
    with backoff; a full queue drops entries and counts them, it never blocks the log.

    Raises:
        ValueError: ``url`` is not http:// or https://, or ``secret`` is empty.
    """

    def __init__(
        self,
        log: EventLog,
        url: str,
        secret: str | bytes,
        *,
        kinds: Iterable[str] = CHAT_KINDS,
        queue_limit: int = QUEUE_LIMIT,
        attempts: int = ATTEMPTS,
        backoff_seconds: float = BACKOFF_SECONDS,
        backoff_max_seconds: float = BACKOFF_MAX_SECONDS,
        timeout_seconds: float = TIMEOUT_SECONDS,
        enrich: Enrich | None = None,
        post: Post | None = None,
    ) -> None:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"url must be http:// or https://, not {url!r}")
        if not secret:
            raise ValueError("secret must not be empty: the receiver checks the signature")
        self.url = url
        self.kinds = frozenset(kinds)
        self._log = log
        self._secret = secret.encode() if isinstance(secret, str) else secret
        self._queue: asyncio.Queue[LogEntry] = asyncio.Queue(queue_limit)
        self._attempts = attempts
        self._backoff = (backoff_seconds, backoff_max_seconds)
        self._timeout = timeout_seconds
        self._enrich = enrich
        self._post = post or _urllib_post
        self._remove: Callable[[], None] | None = None
        self._worker: asyncio.Task[None] | None = None
        self.counters = {"queued": 0, "delivered": 0, "retried": 0, "failed": 0, "dropped": 0}
        self.counters["rejected"] = 0  # the endpoint answered 4xx: retrying would not help

    def start(self) -> EventForwarder:
        """Begin forwarding (call on the bridge's loop); returns ``self``.

        Raises:
            RuntimeError: no event loop is running in this thread.
        """
        if self._remove is None:
            self._remove = self._log.add_listener(self._on_entry)
            self._worker = asyncio.get_running_loop().create_task(self._run())
        return self

    async def stop(self, *, drain_seconds: float = 0.0) -> None:
        """Stop listening; give queued entries up to ``drain_seconds`` to go out."""
        if self._remove is not None:
            self._remove()
            self._remove = None
        if self._worker is None:
            return
        if drain_seconds > 0:
            try:
                async with asyncio.timeout(drain_seconds):
                    await self._queue.join()
            except TimeoutError:
                pass
        self._worker.cancel()
        await asyncio.gather(self._worker, return_exceptions=True)
        self._worker = None

    def _on_entry(self, entry: LogEntry) -> None:
        if entry.kind not in self.kinds:
            return
        try:
            self._queue.put_nowait(entry)
            self.counters["queued"] += 1
        except asyncio.QueueFull:
            self.counters["dropped"] += 1

    def payload(self, entry: LogEntry) -> dict[str, Any]:
        """The JSON object posted for ``entry``."""
        body: dict[str, Any] = {
            "cursor": entry.cursor,
            "kind": entry.kind,
            "at": entry.at,
            "connection": entry.connection,
            "summary": entry.summary,
            "data": dict(entry.data),
        }
        if self._enrich is not None:
            body.update(self._enrich(entry))
        return body

    async def _run(self) -> None:
        while True:
            entry = await self._queue.get()
            try:
                await self._deliver(entry)
            except Exception:  # a bug here must not end forwarding for later entries
                _log.exception("forwarding entry %d failed", entry.cursor)
                self.counters["failed"] += 1
            finally:
                self._queue.task_done()

    async def _deliver(self, entry: LogEntry) -> None:
        body = json.dumps(self.payload(entry), default=str, ensure_ascii=False).encode()
        delivery = str(uuid.uuid4())
        for attempt in range(self._attempts):
            if attempt:
                self.counters["retried"] += 1
                await asyncio.sleep(self._delay(attempt))
            headers = {
                "Content-Type": "application/json",
                SIGNATURE_HEADER: sign(self._secret, int(time.time()), body),
                DELIVERY_HEADER: delivery,
                EVENT_HEADER: entry.kind,
            }
            try:
                status = await self._post(self.url, body, headers, self._timeout)
            except OSError as exc:
                _log.info("webhook %s: attempt %d failed: %s", delivery, attempt + 1, exc)
                continue
            if 200 <= status < 300:
                self.counters["delivered"] += 1
                return
            if status < 500 and status not in _RETRY_STATUSES:
                self.counters["rejected"] += 1
                return
        self.counters["failed"] += 1

    def _delay(self, attempt: int) -> float:
        first, most = self._backoff
        base = min(first * 2 ** (attempt - 1), most)
        return float(base * (1 + random.random() / 2))

    def stats(self) -> dict[str, int]:
        """Entries queued now, and counts of queued, delivered, retried, failed, dropped and
        rejected (4xx) ones."""
        return {"waiting": self._queue.qsize(), **self.counters}
