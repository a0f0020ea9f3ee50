"""The status panel (``mc``, ``%mc``): what the bridge is doing, in sentences.

Each row reads on its own: "Steve's game from 127.0.0.1:50112, encrypted, nothing pending",
"12:03:04  Game #1 connected from 127.0.0.1:50112." The event log keeps its terse
summaries for tables; the panel turns the recent entries into sentences here.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...gametext import strip_codes
from ...gateway import Bridge, LogEntry, describe_transport
from ...vocabulary import EventKind

__all__ = [
    "EVENT_SENTENCE_CHARS",
    "STATUS_RECENT_EVENTS",
    "Status",
    "event_sentence",
    "shorten",
    "status_fields",
    "world_sentence",
]

# How many recent events the status panel shows.
STATUS_RECENT_EVENTS = 5
# The longest event sentence, and the longest command line and game message within one:
# a panel row stays about two lines of a notebook.
EVENT_SENTENCE_CHARS = 160
_COMMAND_CHARS, _MESSAGE_CHARS = 60, 80
# Where a shortened text may end: before a space, or after JSON's punctuation.
_BREAK = re.compile(r"(?=\s)|(?<=[,:;{}\[\]])")
# The addon's codes for a request it would not run (docs/protocol.md): "refused". Any
# other code (CAPABILITY_FAILED: it ran and failed) is "failed", with its message.
_REFUSALS = ("MALFORMED_JSON", "INVALID_REQUEST", "UNSUPPORTED_VERSION", "UNSUPPORTED_CAPABILITY")


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut at a space or after a JSON token (``,``
    ``:`` ``}`` ...) and ended with an ellipsis, never inside a word; a single word longer
    than half the room is the one thing cut where it stands."""
    if len(text) <= limit:
        return text
    room = limit - 1  # the ellipsis
    ends = [m.start() for m in _BREAK.finditer(text, 0, room + 1)
            if room // 2 <= m.start() <= room]  # fmt: skip
    end = ends[-1] if ends else room
    return text[:end].rstrip() + "…"


@dataclass(frozen=True)
class Status:
    """A snapshot of the bridge for the status panel."""

    url: str
    connect_command: str
    connections: list[dict[str, Any]]
    pending: int
    recent: list[LogEntry] = field(repr=False)
    stopped: bool = False
    # What the bridge's bounds did (handle/_counters.py): rows shown only once something happened.
    limits: list[tuple[str, str]] = field(default_factory=list, repr=False)
    # The worlds (handle/_worlds.py's records as rows), connected and dropped, when mc knows them.
    worlds: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @classmethod
    def of(
        cls,
        bridge: Bridge,
        *,
        stopped: bool = False,
        limits: list[tuple[str, str]] | None = None,
        worlds: list[dict[str, Any]] | None = None,
    ) -> Status:
        """The status of ``bridge`` now: its games, what is pending, its latest events."""
        games = [] if stopped else bridge.connections
        connections: list[dict[str, Any]] = [
            {
                "id": c.id,
                "player": c.local_player,
                "peer": c.peer,
                "encrypted": c.encrypted,
                "transport": c.transport,
                "pending": c.pending,
                "protocol": c.protocol_version,
            }
            for c in games
        ]
        recent = bridge.events(0)[-STATUS_RECENT_EVENTS:]
        pending = sum(c["pending"] for c in connections)
        return cls(
            bridge.url, bridge.connect_command, connections, pending, recent, stopped,
            limits or [], [] if stopped else worlds or [],
        )  # fmt: skip

    @property
    def headline(self) -> str:
        """One line: ``stopped``, or where it listens and how many games are connected."""
        if self.stopped:
            return "stopped"
        games = len(self.connections)
        said = f"listening on {self.url}, {games} game{'' if games == 1 else 's'} connected"
        dropped = sum(not w["connected"] for w in self.worlds)
        return said + (f", {dropped} dropped" if dropped else "")


# How each connection's answers travel, as the status panel says it (transport.py).
_ANSWERS = {
    "pull": "answers by pull",
    "chat": "answers by chat",
    "tags": "answers by tags",
    "probing": "asking how the addon answers",
    "none": "no addon answers",
}


def _game(c: Mapping[str, Any]) -> str:
    who = f"{c['player']}'s game" if c["player"] else "a game (player not known yet)"
    secure = ", encrypted" if c["encrypted"] else ""
    answers = _ANSWERS.get(str(c.get("transport")), str(c.get("transport")))
    waiting = "nothing pending" if not c["pending"] else f"{c['pending']} pending"
    return f"{who} from {c['peer']}{secure}, {answers}, {waiting}"


def _transport(e: LogEntry, d: Mapping[str, Any]) -> str:
    chosen = d.get("transport")
    if chosen:
        return f"Game #{e.connection} answers through {describe_transport(chosen)}"
    verdicts = d.get("verdicts") or {}
    said = "; ".join(f"{name}: {verdict}" for name, verdict in verdicts.items())
    return f"Game #{e.connection}: no addon answers ({said})"


def status_fields(s: Status) -> list[tuple[str, object]]:
    """The panel's rows: how to connect, each game, what the bounds did, the latest events."""
    if s.stopped:
        rows: list[tuple[str, object]] = [
            ("bridge", "stopped; %mc serve starts a new one (in a script: mcbews_repl.start())")
        ]
    else:
        rows = [("to connect", f"type {s.connect_command} in Minecraft")]
        rows += _world_rows(s) if _by_world(s) else [(f"game #{c['id']}", _game(c))
                                                     for c in s.connections]  # fmt: skip
        if not s.connections:
            rows.append(("games", "none yet; no Minecraft at hand? run %mc sim"))
        rows += s.limits
    names = {i: w["name"] for w in s.worlds for i in w["ids"]} if _by_world(s) else {}
    for entry in s.recent:
        at = dt.datetime.fromtimestamp(entry.at).strftime("%H:%M:%S")
        rows.append((at, _in_world(event_sentence(entry), entry, names)))
    return rows


def _by_world(s: Status) -> bool:
    """One world that never dropped reads as before; several, or any drop, by world."""
    return len(s.worlds) > 1 or any(not w["connected"] for w in s.worlds)


def _clock(at: float | None) -> str:
    return "?" if at is None else dt.datetime.fromtimestamp(at).strftime("%H:%M:%S")


def _world_rows(s: Status) -> list[tuple[str, object]]:
    """Connected worlds first (who, since when, how), then the ones that dropped."""
    games = {c["id"]: c for c in s.connections}
    rows: list[tuple[str, object]] = []
    for w in sorted(s.worlds, key=lambda w: not w["connected"]):
        label = f"{w['name']} (#{w['id']})"
        game = games.get(w["id"])
        if w["connected"] and game is not None:
            rows.append((label, f"connected since {_clock(w['since'])}: {_game(game)}"))
        else:
            rows.append((label, f"dropped at {_clock(w['dropped'])} (was {w['address']}); "
                                "keeps its name when it connects again"))  # fmt: skip
    return rows


def _in_world(sentence: str, entry: LogEntry, names: Mapping[int, str]) -> str:
    """The sentence told by world: "Ana: ..." in place of, or before, "Game #3"."""
    name = names.get(entry.connection) if entry.connection is not None else None
    if name is None:
        return sentence
    for said in (f"Game #{entry.connection}", f"game #{entry.connection}"):
        if said in sentence:
            return sentence.replace(said, f"{name} (#{entry.connection})")
    return f"{name}: {sentence}"


def _ms(data: Mapping[str, Any]) -> str:
    return f"{float(data.get('elapsed') or 0) * 1000:.1f} ms"


def _command(d: Mapping[str, Any]) -> str:
    line = shorten(str(d.get("command", "")), _COMMAND_CHARS)
    if "error" in d:
        return f"/{line} got no answer: {d['error']}"
    message = shorten(strip_codes(str(d.get("status_message", ""))), _MESSAGE_CHARS)
    return f"/{line} answered {d.get('status_code')} in {_ms(d)}" + (
        f": {message}" if message else ""
    )


def _capability(d: Mapping[str, Any]) -> str:
    name, outcome, code = d.get("capability"), str(d.get("outcome")), d.get("code")
    if outcome == "failed" and d.get("message"):  # the addon said why: say it too
        refused = code in _REFUSALS
        said = f"refused: {code}: {d['message']}" if refused else f"failed: {d['message']}"
        return f"{name} {said} ({_ms(d)})"
    verdicts = {"ok": "answered", "timeout": "timed out", "cancelled": "was cancelled"}
    return f"{name} {verdicts.get(outcome, 'failed')} in {_ms(d)}"


_SENTENCES: dict[str, Callable[[LogEntry, Mapping[str, Any]], str]] = {
    EventKind.CONNECTED: lambda e, d: f"Game #{e.connection} connected from {d.get('peer')}",
    EventKind.DISCONNECTED: lambda e, d: f"Game #{e.connection} left",
    EventKind.ENCRYPTED: lambda e, d: (
        f"Game #{e.connection} is encrypted (AES-256-{d.get('mode')})"
    ),
    EventKind.ENCRYPTION_FAILED: lambda e, d: (
        f"Game #{e.connection} could not encrypt: {d.get('error')}"
    ),
    EventKind.REFUSED: lambda e, d: f"Refused a connection: {e.summary}",
    EventKind.CHAT: lambda e, d: f"{d.get('sender')} said: {strip_codes(str(d.get('message')))}",
    EventKind.UI_CHAT: lambda e, d: f"{d.get('player')} wrote in the panel: {d.get('message')}",
    EventKind.COMMAND: lambda e, d: _command(d),
    EventKind.CAPABILITY: lambda e, d: _capability(d),
    EventKind.TRANSPORT: _transport,
    EventKind.TEXT: lambda e, d: f"Sent {d.get('player')} a text in {d.get('frames')} frame(s)",
    EventKind.REJECTED: lambda e, d: (
        f"Dropped a frame from game #{e.connection}: {d.get('reason')}"
    ),
    EventKind.EXPIRED: lambda e, d: f"Dropped a partial message from game #{e.connection}",
    EventKind.CALLBACK_ERROR: lambda e, d: f"Callback {d.get('callback')} failed: {d.get('error')}",
}


def event_sentence(entry: LogEntry) -> str:
    """One log entry as a short sentence (the entry's own summary for kinds not listed)."""
    make = _SENTENCES.get(entry.kind)
    text = make(entry, entry.data) if make is not None else f"{entry.kind}: {entry.summary}"
    return shorten(text, EVENT_SENTENCE_CHARS)


def world_sentence(entry: LogEntry) -> str:
    """The sentence as a world's own row says it: without "Game #3" in front
    ("connected from 127.0.0.1:50112", "answers through ...")."""
    text = event_sentence(entry)
    said = f"Game #{entry.connection} "
    return text.removeprefix(said) if text.startswith(said) else text
