"""A capture as a regression test: replay it through a fresh bridge, compare the results.

:func:`replay_capture` starts a bridge on a free port, connects one :class:`ReplayGame`
per recorded connection, then makes the recorded calls again (each ``command``, ``call``
and ``send_text``, on the same connection, a call starting once every call that had ended
before it began in the recording has ended), and compares what each returns with what it
returned when recorded:

- a command: its status code, message and body;
- a capability call: its result, or the error's type and code (``CapabilityError``) or
  type (a timeout: a call that timed out when recorded gets ``lost_timeout`` seconds);
- a text: that it was delivered (or failed the same way); how many frames it took may
  change when the bridge cuts texts differently;
- UI chat: the messages the bridge delivered, per connection, in order.

Everything else (ids, timings) may differ. The report lists every difference and every
request the capture had no answer for.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..exceptions import McbewsError
from ..gateway import Bridge, GameConnection, UiChat, command_reply, failure, serve
from ..vocabulary import EventKind
from .records import CallRecord, Capture, read_capture
from .replay import ReplayGame, ReplaySummary

__all__ = ["Difference", "ReplayReport", "replay_capture"]

# Settings a replay takes from the capture's header (the rest are the defaults).
_KEPT_SETTINGS = (
    "encrypt", "encryption_mode", "encryption_handshake", "command_timeout", "call_timeout",
    "handshake_timeout", "max_in_flight", "transport", "probe_timeout", "poll_interval",
)  # fmt: skip
_CONNECT_TIMEOUT_SECONDS = 15.0
_SETTLE_SECONDS = 0.05  # a last look for UI chat after the game sent everything


@dataclass
class Difference:
    """One call whose result differs from the recorded one."""

    index: int
    conn: int
    kind: str
    request: dict[str, Any]
    expected: Any
    got: Any

    def describe(self) -> str:
        """One line: which call, what it was, what was recorded and what came now."""
        what = self.request.get("line") or self.request.get("capability") or self.kind
        return f"call {self.index} ({self.kind} {what!s:.60} on #{self.conn}): " \
               f"recorded {self.expected!r:.300}, now {self.got!r:.300}"  # fmt: skip


@dataclass
class ReplayReport:
    """What replaying a capture found: the calls replayed, those whose results differ from
    the recording, and what each replayed game answered or could not."""

    path: Path | None
    calls: int = 0
    differences: list[Difference] = field(default_factory=list)
    games: dict[int, ReplaySummary] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Every result as recorded, and every request answered from the capture."""
        return not self.differences and not any(g.unanswered for g in self.games.values())

    def describe(self) -> str:
        """The report as lines of text: a summary, then each difference and each game."""
        lines = [f"{self.path or 'capture'}: {self.calls} calls replayed, "
                 f"{len(self.differences)} differ"]  # fmt: skip
        lines += [f"  {d.describe()}" for d in self.differences]
        for conn, summary in self.games.items():
            lines.append(f"  game #{conn}: {summary.describe()}")
            lines += [f"    no recorded answer: {line[:120]}" for line in summary.unanswered]
        return "\n".join(lines)


def _ui_chat(fields: dict[str, Any]) -> dict[str, Any]:
    """What a UI chat message is compared by (not its id, which the addon makes up)."""
    return {key: fields.get(key) for key in ("player", "message", "conversation_id")}


def _fields_of(message: UiChat) -> dict[str, Any]:
    return {
        "player": message.player,
        "message": message.message,
        "conversation_id": message.conversation_id,
    }


def _transport_of(capture: Capture) -> dict[str, Any]:
    """A capture that began after its game connected holds no transport probe to answer:
    its replay takes the transport the game had chosen, as a setting, and probes nothing."""
    late = [capture.facts(c) for c in capture.connections() if capture.facts(c).get("joined_late")]
    chosen = {facts.get("transport") for facts in late}
    if len(chosen) == 1 and (transport := chosen.pop()) in ("pull", "chat"):
        return {"transport": transport}
    return {}


def _same(kind: str, expected: dict[str, Any], got: dict[str, Any]) -> bool:
    if "error" in expected or "error" in got:
        return (expected.get("error"), expected.get("code")) == (got.get("error"), got.get("code"))
    if kind == EventKind.TEXT:
        return True  # delivered both times; the frame count may change with the cutting
    return expected == got


def _timeout(record: CallRecord, lost_timeout: float) -> float | None:
    if record.result.get("error") == "RequestTimeout":
        return lost_timeout
    value = record.request.get("timeout")
    return float(value) if isinstance(value, int | float) else None


async def _perform(record: CallRecord, game: GameConnection, lost: float) -> dict[str, Any]:
    request, timeout = record.request, _timeout(record, lost)
    try:
        if record.kind == EventKind.COMMAND:
            return command_reply(await game.command(request["line"], timeout=timeout))
        if record.kind == EventKind.CAPABILITY:
            payload = request.get("payload") or {}
            return {"result": await game.call(request["capability"], payload, timeout=timeout)}
        frames = await game.send_text(
            request["player"], request["text"], role=request.get("role") or "assistant",
            conversation_id=request.get("conversation_id"), title=request.get("title"),
        )  # fmt: skip
        return {"frames": frames}
    except McbewsError as exc:
        return failure(exc)


class _Driver:
    def __init__(self, capture: Capture, bridge: Bridge, *, fast: bool, lost: float) -> None:
        self.capture, self.bridge, self.fast, self.lost = capture, bridge, fast, lost
        self.games: dict[int, tuple[ReplayGame, GameConnection]] = {}
        self.ui_chats: list[tuple[object, dict[str, Any]]] = []  # (its connection, fields)
        self.report = ReplayReport(capture.path)

    def on_ui_chat(self, message: UiChat) -> None:
        # Its game may not be in self.games yet: UI chat can come before wait_connected().
        self.ui_chats.append((message.connection, _ui_chat(_fields_of(message))))

    async def connect(self) -> None:
        for conn in self.capture.connections():
            game = ReplayGame(self.capture, conn, fast=self.fast, marks_start=True)
            await game.connect(self.bridge.url)
            live = await self.bridge.wait_connected(_CONNECT_TIMEOUT_SECONDS)
            game.started()  # its handshake and transport probe are over
            self.games[conn] = (game, live)

    async def run_calls(self) -> None:
        # The game's calls; UI chat is compared apart, and a tool action (an audit log's
        # record, audit.py) is no call of the game's.
        played = (EventKind.COMMAND, EventKind.CAPABILITY, EventKind.TEXT)
        calls = sorted((c for c in self.capture.calls if c.kind in played), key=lambda c: c.at)
        tasks: list[tuple[CallRecord, asyncio.Task[dict[str, Any]]]] = []
        for record in calls:
            before = [t for r, t in tasks if r.at + r.elapsed <= record.at]
            if before:
                await asyncio.wait(before)
            game = self.games.get(record.conn)
            if game is None:
                continue
            tasks.append((record, asyncio.ensure_future(_perform(record, game[1], self.lost))))
        for index, (record, task) in enumerate(tasks):
            got = await task
            if not _same(record.kind, record.result, got):
                difference = Difference(
                    index, record.conn, record.kind, record.request, record.result, got
                )
                self.report.differences.append(difference)
        self.report.calls = len(tasks)

    async def settle(self, deadline: float) -> None:
        """Wait (up to ``deadline``) until every game sent what it recorded, then compare
        the UI chat the bridge delivered with the recorded messages."""
        while time.monotonic() < deadline and not all(g.done() for g, _ in self.games.values()):
            await asyncio.sleep(0.01)
        await asyncio.sleep(_SETTLE_SECONDS)
        expected = [
            (c.conn, _ui_chat(c.result)) for c in self.capture.calls if c.kind == EventKind.UI_CHAT
        ]
        recorded_id = {id(live): conn for conn, (_, live) in self.games.items()}
        got = [(recorded_id.get(id(live), 0), fields) for live, fields in self.ui_chats]
        if expected != got:
            self.report.differences.append(Difference(-1, 0, EventKind.UI_CHAT, {}, expected, got))
        for conn, (game, _) in self.games.items():
            self.report.games[conn] = game.finish()


async def replay_capture(
    capture: Capture | str | Path,
    *,
    fast: bool = True,
    lost_timeout: float = 0.5,
    settle_timeout: float = 5.0,
) -> ReplayReport:
    """Replay ``capture`` through a fresh bridge and compare every result (see above).

    Raises:
        CaptureError: ``capture`` is a path whose file cannot be read as a capture (the
            message names the line and what is wrong with it).
    """
    if not isinstance(capture, Capture):
        capture = read_capture(capture)
    kept = {k: v for k, v in capture.header.settings.items() if k in _KEPT_SETTINGS}
    kept.update(_transport_of(capture))
    if fast:  # no pauses; and a handshake the capture cannot answer need not hold 5 s
        kept.update(text_prelude=0.0, text_interval=0.0)
        kept["handshake_timeout"] = min(float(kept.get("handshake_timeout", 1.0)), 1.0)
        # A replayed answer comes at once: a probe it does not answer has nothing to wait for.
        kept["probe_timeout"] = min(float(kept.get("probe_timeout", 0.5)), 0.5)
    async with serve(port=0, token=None, **kept) as bridge:
        driver = _Driver(capture, bridge, fast=fast, lost=lost_timeout)
        bridge.on_ui_chat(driver.on_ui_chat)
        await driver.connect()
        try:
            await driver.run_calls()
            await driver.settle(time.monotonic() + settle_timeout)
        finally:
            for game, _ in driver.games.values():
                await game.close()
    return driver.report
