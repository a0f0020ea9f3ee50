"""A recorded game's part, read from a capture: what it answered, what it sent unasked.

For one recorded connection, :func:`game_script` sorts the game's frames into

- **answers**: a ``commandResponse`` or ``error`` frame carrying the ``requestId`` of a
  request the bridge sent; it belongs to that request (matching.py gives its key);
- **followers**: everything else the game sent (chat, the addon's answer chunks, UI chat).
  Each is tied to an *anchor*: the request whose bridge-made id it carries (an answer chunk
  names its capability request), else the last request the bridge sent before it. A
  replayed game sends a follower once its anchor has arrived, after the recorded delay.

The encryption handshake is left out: a replayed game plays it afresh (replay.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .matching import RequestKey, key_of
from .records import Capture, FrameRecord

__all__ = ["Follower", "GameScript", "Request", "game_script"]

# Ids the bridge makes are letters and digits (hex, UUID parts); a follower's candidate ids.
_TOKEN = re.compile(r"[A-Za-z0-9]{6,64}")


@dataclass
class Request:
    """A request the bridge sent in the recording, and the game's recorded answer(s)."""

    index: int
    key: RequestKey
    t: float
    request_id: str
    answers: list[tuple[float, str]] = field(default_factory=list)  # (delay, frame text)
    used: bool = False


@dataclass
class Follower:
    """A frame the game sent on its own (or as a chunked answer), tied to its anchor."""

    t: float
    text: str | None
    raw: bytes | None
    anchor: int | None  # a Request index; None: the start of the connection
    delay: float  # seconds after the anchor
    ids: tuple[str, ...]  # bridge-made ids it carries (sent with the live ones)
    sent: bool = False


@dataclass
class GameScript:
    """One recorded game as a replay plays it: its facts, the requests it answered
    (and how), and the frames it sent on its own.
    """

    conn: int
    facts: dict[str, Any]
    requests: list[Request]
    followers: list[Follower]
    encrypted: bool  # the recorded session ran ws:encrypt (or enableencryption)
    handshake_frames: int = 0

    def describe(self) -> str:
        """One line: how many requests were recorded and answered, and how many
        frames the game sent unasked.
        """
        answered = sum(1 for r in self.requests if r.answers)
        return (
            f"connection #{self.conn}: {len(self.requests)} recorded requests "
            f"({answered} answered), {len(self.followers)} frames the game sent on its own"
        )


def _header(data: dict[str, Any]) -> dict[str, Any]:
    header = data.get("header")
    return header if isinstance(header, dict) else {}


class _Builder:
    def __init__(self, conn: int, facts: dict[str, Any]) -> None:
        self.script = GameScript(conn, facts, [], [], encrypted=bool(facts.get("encrypted")))
        self.by_request_id: dict[str, Request] = {}
        self.by_id: dict[str, int] = {}  # bridge-made id -> the request that carried it
        self.handshake: set[str] = set()  # requestIds of the encryption handshake

    def out(self, frame: FrameRecord) -> None:
        data = frame.json()
        if data is None:
            return
        request_id = str(_header(data).get("requestId", ""))
        key = key_of(data)
        if key is None:  # ws:encrypt or enableencryption: the replayed game plays it afresh
            self.handshake.add(request_id)
            self.script.encrypted = True
            self.script.handshake_frames += 1
            return
        request = Request(len(self.script.requests), key, frame.t, request_id)
        self.script.requests.append(request)
        self.by_request_id[request_id] = request
        for made in key.ids:
            self.by_id[made] = request.index

    def into(self, frame: FrameRecord) -> None:
        data = frame.json() or {}
        header = _header(data)
        request_id = str(header.get("requestId", ""))
        purpose = header.get("messagePurpose")
        if purpose == "ws:encrypt" or request_id in self.handshake:
            self.script.handshake_frames += 1
            return
        request = self.by_request_id.get(request_id)
        if purpose in ("commandResponse", "error") and request is not None and frame.text:
            request.answers.append((frame.t - request.t, frame.text))
            return
        self._follower(frame)

    def _follower(self, frame: FrameRecord) -> None:
        carried = tuple(
            dict.fromkeys(t for t in _TOKEN.findall(frame.text or "") if t in self.by_id)
        )
        requests = self.script.requests
        if carried:
            anchor: int | None = max(self.by_id[made] for made in carried)
        else:
            anchor = len(requests) - 1 if requests else None
        since = requests[anchor].t if anchor is not None else 0.0
        follower = Follower(frame.t, frame.text, frame.raw, anchor, frame.t - since, carried)
        self.script.followers.append(follower)


def game_script(capture: Capture, conn: int) -> GameScript:
    """The recorded game of connection ``conn``, ready to be played again."""
    builder = _Builder(conn, capture.facts(conn))
    first: float | None = None
    for frame in capture.frames:
        if frame.conn != conn:
            continue
        first = frame.t if first is None else first
        if frame.dir == "out":
            builder.out(frame)
        else:
            builder.into(frame)
    for follower in builder.script.followers:  # the connection's own start, not the file's
        if follower.anchor is None and first is not None:
            follower.delay = follower.t - first
    return builder.script
