"""A game played from a capture: connect to a bridge and answer as the recorded game did.

:class:`ReplayGame` dials the bridge like ``/connect`` (offering encryption when the
recorded game did, and playing the handshake afresh with the simulated game's own code),
answers each request with the recorded answer whose key matches (matching.py), in the
recorded order, and sends what the game sent unasked once its anchor has come (script.py):
after the recorded delay, or at once with ``fast=True``. A request the capture has no
answer for gets none; it is listed in :attr:`ReplayGame.unanswered` (and passed to
``on_unanswered``), except the connection's own start (``subscribe``, and
``getlocalplayername`` when the recording began after the game connected), which is
answered from the capture's header and listed in :attr:`ReplayGame.synthesized`; so are
UI chat polls past the recorded ones and cancel notices (``mcbews:cancel``), whose timing
is the bridge's.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from ..sansio import CANCEL_EVENT, EMPTY_REPLY, POLL_COMMAND, TAG_LIST_COMMAND, read_tag_list
from ..sim import (
    GameCipher,
    HandshakeRefused,
    accept_key_exchange,
    dial,
    hang_up,
    parse_enable_encryption,
)
from .matching import RequestKey, key_of
from .records import Capture
from .script import Follower, GameScript, Request, game_script

__all__ = ["ReplayGame", "ReplaySummary"]

_log = logging.getLogger("mcbews_repl.capture")
# What the bridge sends on every connect: a capture that began later may lack the answers.
_START_KEYS = ("subscribe PlayerMessage", "getlocalplayername")


@dataclass
class ReplaySummary:
    """What a replayed game did: answered from the capture, made up, could not answer."""

    answered: int = 0
    synthesized: list[str] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    # The connection's own start, unanswerable: the recording began after it (joined late).
    before_capture: list[str] = field(default_factory=list)
    events_sent: int = 0
    events_left: int = 0
    requests_left: int = 0

    def describe(self) -> str:
        """One line: how many requests were answered from the capture, made up from its
        header, from before the recording, or left unanswered."""
        parts = [f"{self.answered} requests answered from the capture"]
        if self.synthesized:
            parts.append(f"{len(self.synthesized)} answered from its header")
        if self.before_capture:
            parts.append(f"{len(self.before_capture)} from before the recording began, unanswered")
        if self.unanswered:
            parts.append(f"{len(self.unanswered)} without a recorded answer")
        parts.append(f"{self.events_sent} recorded events sent")
        if self.events_left:
            parts.append(f"{self.events_left} never sent (their request never came)")
        if self.requests_left:
            parts.append(f"{self.requests_left} recorded requests never asked for")
        return ", ".join(parts)


def _status_message(text: str) -> object:
    try:
        return json.loads(text)["body"].get("statusMessage")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _frame(header: dict[str, Any], body: dict[str, Any]) -> str:
    return json.dumps({"body": body, "header": header}, ensure_ascii=False, separators=(",", ":"))


def _response(request_id: str, body: dict[str, Any], purpose: str = "commandResponse") -> str:
    return _frame({"messagePurpose": purpose, "requestId": request_id, "version": 1}, body)


class ReplayGame:
    """One recorded game connection, played again against a live bridge."""

    def __init__(
        self,
        capture: Capture | GameScript,
        conn: int | None = None,
        *,
        fast: bool = False,
        on_unanswered: Callable[[str], object] | None = None,
        marks_start: bool = False,
    ) -> None:
        if isinstance(capture, GameScript):
            self.script = capture
        else:
            conns = capture.connections()
            if not conns:
                raise ValueError("the capture holds no game connection to replay")
            if conn is not None and conn not in conns:
                raise ValueError(f"the capture has no connection #{conn} (it has {conns})")
            self.script = game_script(capture, conns[0] if conn is None else conn)
        self.fast = fast
        self.summary = ReplaySummary()
        self.closed = asyncio.Event()
        self._on_unanswered = on_unanswered
        self._ws: ClientConnection | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._cipher: GameCipher | None = None
        self._ids: dict[str, str] = {}  # recorded bridge-made id -> the live run's
        self._fired: dict[int | None, float] = {}  # anchor -> when it arrived live
        self._queue: list[tuple[float, float, int, str | bytes]] = []
        # Recorded answers the live connection's start took (see started()), when the
        # capture began after its game had connected and so holds no start of its own.
        self._spent_at_start: list[Request] = []
        # Whoever connects the game says when its start is over (started()): replay_capture
        # does; the command line cannot tell, and only the start's own requests are spared.
        self._starting = marks_start and bool(self.script.facts.get("joined_late"))
        self._wake = asyncio.Event()
        self._order = 0

    @property
    def unanswered(self) -> list[str]:
        """The requests the capture held no answer for, as sent."""
        return self.summary.unanswered

    @property
    def synthesized(self) -> list[str]:
        """The requests answered from the capture's header rather than a recorded answer."""
        return self.summary.synthesized

    # --- life ---------------------------------------------------------------------------

    async def connect(self, url: str, *, open_timeout: float = 10.0) -> None:
        """Dial the bridge as the game's ``/connect`` does."""
        self._ws = await dial(url, offer_encryption=self.script.encrypted, timeout=open_timeout)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._read(), name="replay-read"),
            loop.create_task(self._write(), name="replay-write"),
        ]

    async def close(self) -> None:
        """Hang up and stop reading and writing; ``closed`` is set."""
        await hang_up(self._ws, self._tasks)
        self._tasks = []
        self.closed.set()

    def _owed(self, request: Request) -> bool:
        """A recorded answer still to give (an idle poll answer is not owed to anyone)."""
        idle = request.key.again or (
            request.key.idle is not None
            and request.answers
            and (_status_message(request.answers[0][1]) == request.key.idle)
        )
        return bool(request.answers) and not request.used and not idle

    def started(self) -> None:
        """The live connection's start (its handshake and transport probe) is over.

        A capture that began after its game connected holds no answers for that start, so
        the start took the first recorded answers of the same requests (the doctor's own
        transport probe, say): they are given back for the requests they were recorded for,
        with what the game sent after them."""
        self._starting = False
        spent = {r.index for r in self._spent_at_start}
        for request in self._spent_at_start:
            request.used = False
            self._fired.pop(request.index, None)
            self.summary.answered -= 1
        for follower in self.script.followers:
            if follower.anchor in spent and follower.sent:
                follower.sent = False
                self.summary.events_sent -= 1
        self._spent_at_start = []

    def done(self) -> bool:
        """Every recorded answer given and every recorded event sent."""
        requests = not any(self._owed(r) for r in self.script.requests)
        return requests and all(f.sent for f in self.script.followers) and not self._queue

    def finish(self) -> ReplaySummary:
        """The summary, with what was never asked for or never sent counted."""
        self.summary.events_left = sum(1 for f in self.script.followers if not f.sent)
        self.summary.requests_left = sum(1 for r in self.script.requests if self._owed(r))
        return self.summary

    # --- frames in ----------------------------------------------------------------------

    async def _read(self) -> None:
        assert self._ws is not None
        try:
            async for raw in self._ws:
                text = raw if isinstance(raw, str) or self._cipher is None else None
                if text is None:
                    assert self._cipher is not None
                    text = self._cipher.decrypt(raw)  # type: ignore[arg-type]
                elif isinstance(text, bytes):
                    text = text.decode("utf-8", "replace")
                await self._receive(text)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._wake.set()

    async def _receive(self, text: str) -> None:
        try:
            data = json.loads(text)
            header, body = data["header"], data.get("body") or {}
            purpose, request_id = header["messagePurpose"], str(header.get("requestId", ""))
        except (ValueError, KeyError, TypeError):
            _log.warning("replay: ignoring a frame that is not a request (%d chars)", len(text))
            return
        if purpose == "ws:encrypt":
            mode = body.get("mode", "cfb8")
            await self._encrypt(request_id, body.get("publicKey"), body.get("salt"), mode)
            return
        line = body.get("commandLine")
        legacy = parse_enable_encryption(line) if isinstance(line, str) else None
        if legacy is not None:
            await self._encrypt(request_id, *legacy, command=True)
            return
        key = key_of(data)
        if key is not None:
            self._answer(request_id, key, data)

    async def _encrypt(
        self, request_id: str, key: object, salt: object, mode: object, *, command: bool = False
    ) -> None:
        assert self._ws is not None
        try:
            ours, cipher = accept_key_exchange(key, salt, mode)
        except HandshakeRefused as exc:
            body = {"statusCode": -2147418111, "statusMessage": f"Encryption failed: {exc}"}
            await self._ws.send(_response(request_id, body, "error"))
            return
        if command:  # the legacy enableencryption command answers as a command does
            reply = _response(request_id, {"publicKey": ours, "statusCode": 0})
        else:
            reply = _response(request_id, {"publicKey": ours}, "ws:encrypt")
        await self._ws.send(reply)  # in plaintext; every frame after it is encrypted
        self._cipher = cipher

    # --- answering ----------------------------------------------------------------------

    def _take(self, key: RequestKey) -> Request | None:
        same = [r for r in self.script.requests if r.answers and r.key.key == key.key]
        if key.key == TAG_LIST_COMMAND:
            return self._take_read(same)
        for request in same:
            if not request.used:
                return request
        if key.idle is not None:  # used up: an idle answer again (a poll finding nothing)
            return next((r for r in same if _status_message(r.answers[0][1]) == key.idle), None)
        if key.again and same:  # used up: the last one again (a tag read, an ack)
            return same[-1]
        return None

    def _take_read(self, same: list[Request]) -> Request | None:
        """A tag read: the first unused recorded read whose answer pages belong to requests
        this run made (their ids known), else the last recorded read with no page of ours in
        it (a run reads as often as its timing makes it, so order alone would not line up)."""
        blank = None
        for request in same:
            pages = read_tag_list(_status_message(request.answers[0][1])).pages
            ours = {p.message_id for p in pages if p.kind == "answer"}
            if not ours:
                if not request.used and pages:  # UI chat: the addon's ids, as recorded
                    return request
                if not pages:
                    blank = request
            elif not request.used and ours <= set(self._ids):
                return request
        return blank

    def _answer(self, request_id: str, key: RequestKey, data: dict[str, Any]) -> None:
        now = asyncio.get_running_loop().time()
        self._fired.setdefault(None, now)  # the connection's start: its first request
        request = self._take(key)
        if request is None:
            self._unmatched(request_id, key, data)
        else:
            if request.used:  # an idle answer given again: no followers, no count
                self._send_at(now, request.t, self._rewrite(request.answers[0][1], request_id))
                return
            request.used = True
            if self._starting:
                self._spent_at_start.append(request)
            self._ids.update(zip(request.key.ids, key.ids, strict=False))
            self._fired[request.index] = now
            for delay, text in request.answers:
                due = now + (0.0 if self.fast else delay)
                self._send_at(due, request.t + delay, self._rewrite(text, request_id))
            self.summary.answered += 1
        self._release()

    def _unmatched(self, request_id: str, key: RequestKey, data: dict[str, Any]) -> None:
        body = data.get("body") or {}
        made_up = self._from_header(key.key)
        shown = str(body.get("commandLine", key.key))
        if made_up is not None:
            self._send_at(0.0, 0.0, _response(request_id, made_up))
            if shown not in self.summary.synthesized:  # the poll asks many times: once
                self.summary.synthesized.append(shown)
            return
        late = self.script.facts.get("joined_late")
        if self._starting or (late and key.key in _START_KEYS):
            self.summary.before_capture.append(shown)  # its answer was never recorded
            return
        self.summary.unanswered.append(shown)
        _log.info("replay: no recorded answer for %s", shown[:120])
        if self._on_unanswered is not None:
            self._on_unanswered(shown)

    def _from_header(self, key: str) -> dict[str, Any] | None:
        """An answer for the connection's own start (and for the UI chat poll past the
        recorded ones: nothing waits) when the capture lacks it."""
        if key.startswith("subscribe ") or key.startswith("unsubscribe "):
            return {"statusCode": 0}
        if key == POLL_COMMAND:
            return {"statusCode": 0, "statusMessage": EMPTY_REPLY}
        if key.startswith(f"scriptevent {CANCEL_EVENT}"):
            # A cancel notice follows a call the bridge gave up on: when that happens is the
            # bridge's own timing, not the game's, and the game's answer to a script event
            # says nothing (docs/protocol.md, Cancelling).
            return {"statusCode": 0}
        player = self.script.facts.get("local_player")
        if key == "getlocalplayername" and isinstance(player, str):
            return {"localplayername": player, "statusCode": 0, "statusMessage": player}
        return None

    def _rewrite(self, text: str, request_id: str | None = None) -> str:
        """A recorded frame with the live run's ids (and, for an answer, its requestId)."""
        for recorded, live in self._ids.items():
            if recorded in text:
                text = text.replace(recorded, live)
        if request_id is None:
            return text
        data = json.loads(text)
        data["header"]["requestId"] = request_id
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def _release(self) -> None:
        """Schedule every follower whose anchor has come and whose ids are known."""
        for follower in self.script.followers:
            if follower.sent or follower.anchor not in self._fired:
                continue
            if any(made not in self._ids for made in follower.ids):
                continue
            follower.sent = True
            due = self._fired[follower.anchor] + (0.0 if self.fast else follower.delay)
            self._send_at(due, follower.t, self._payload(follower))
            self.summary.events_sent += 1

    def _payload(self, follower: Follower) -> str | bytes:
        if follower.text is None:
            return follower.raw or b""
        return self._rewrite(follower.text)

    # --- frames out ---------------------------------------------------------------------

    def _send_at(self, due: float, recorded_t: float, frame: str | bytes) -> None:
        self._order += 1
        heapq.heappush(self._queue, (due, recorded_t, self._order, frame))
        self._wake.set()

    async def _write(self) -> None:
        assert self._ws is not None
        loop = asyncio.get_running_loop()
        try:
            while not self.closed.is_set():
                if not self._queue:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                wait = self._queue[0][0] - loop.time()
                if wait > 0:
                    self._wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), wait)
                    continue
                frame = heapq.heappop(self._queue)[3]
                if self._cipher is not None and isinstance(frame, str):
                    frame = self._cipher.encrypt(frame)
                await self._ws.send(frame)
        except ConnectionClosed:
            pass
