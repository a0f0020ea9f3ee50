"""A capture's format: JSON Lines, one record a line, read and written here.

The first line is the header; then frames and call outcomes in the order they happened;
the last line says why the recording ended (docs/captures.md)::

    {"type": "header", "format": "mcbews-capture", "version": 1, "package": "...", ...}
    {"type": "frame", "t": 0.012, "conn": 1, "dir": "out", "text": "{\\"header\\": ...}"}
    {"type": "call", "t": 0.015, "conn": 1, "kind": "command", "at": 0.011, ...}
    {"type": "end", "t": 3.2, "reason": "stopped on request", "frames": 40, ...}

``t`` is seconds since the recording began. A frame is the plaintext both sides exchanged
(after decryption); a frame that was binary and not encrypted is kept as ``b64``, and one
longer than ``capture_frame_max_bytes`` keeps its head and says ``cut`` (its full size).

A capture may come from anyone (a bug report), so reading one is bounded before anything is
parsed: each line's length (read no further than the limit), the file's total, and how
deeply a line nests (a scan of its brackets outside strings), each refused with a
:class:`CaptureError` that names the line and the limit.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from ..exceptions import CaptureError
from ..limits import CAPTURE_JSON_DEPTH_MAX, CAPTURE_LINE_MAX_BYTES, CAPTURE_READ_MAX_BYTES

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "CallRecord",
    "Capture",
    "EndRecord",
    "FrameRecord",
    "Header",
    "encode_line",
    "json_depth",
    "read_capture",
]

FORMAT = "mcbews-capture"
FORMAT_VERSION = 1


@dataclass
class Header:
    """What the capture is: who wrote it, the bridge's settings, the games' facts."""

    package: str
    started: float  # wall clock (epoch seconds) when recording began
    settings: dict[str, Any] = field(default_factory=dict)
    bridge: dict[str, Any] = field(default_factory=dict)  # url, connect line
    games: dict[str, dict[str, Any]] = field(default_factory=dict)  # connection id -> facts
    redacted: bool = False
    max_bytes: int = 0
    complete: bool = False  # the header was completed when the recording stopped
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The header as its JSON line's object (``type``, ``format``, ``version`` first)."""
        return {"type": "header", "format": FORMAT, "version": FORMAT_VERSION, **vars(self)}


@dataclass
class FrameRecord:
    """One WebSocket frame: when (``t``, seconds since the start), which game, which way."""

    t: float
    conn: int
    dir: Literal["in", "out"]
    text: str | None = None  # the frame's text (None: see raw)
    raw: bytes | None = None  # a binary frame that was not encrypted
    cut: int | None = None  # the full size in bytes when only the head was kept

    def to_json(self) -> dict[str, Any]:
        """The frame as its JSON line's object (a binary frame as ``b64``)."""
        line: dict[str, Any] = {"type": "frame", "t": self.t, "conn": self.conn, "dir": self.dir}
        if self.raw is not None:
            line["b64"] = base64.b64encode(self.raw).decode("ascii")
        else:
            line["text"] = self.text
        if self.cut is not None:
            line["cut"] = self.cut
        return line

    def json(self) -> dict[str, Any] | None:
        """The frame's JSON object, or None when it is not one (binary, cut, junk)."""
        if self.text is None or self.cut is not None:
            return None
        try:
            value = json.loads(self.text)
        except (ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None


@dataclass
class CallRecord:
    """How one call ended (gateway/observer.py ``Outcome``), on connection ``conn``."""

    t: float
    conn: int
    kind: str  # command, capability, text, ui_chat
    at: float  # when it began, seconds since the recording began
    elapsed: float
    request: dict[str, Any]
    result: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The call as its JSON line's object."""
        return {"type": "call", **vars(self)}


@dataclass
class EndRecord:
    """The last line: why the recording stopped, and how many frames, calls and bytes."""

    t: float
    reason: str
    frames: int
    calls: int
    bytes: int

    def to_json(self) -> dict[str, Any]:
        """The end as its JSON line's object."""
        return {"type": "end", **vars(self)}


Record = FrameRecord | CallRecord


@dataclass
class Capture:
    """A whole capture: its header, its records in order, and how it ended."""

    header: Header
    records: list[Record] = field(default_factory=list)
    end: EndRecord | None = None
    path: Path | None = None

    @property
    def frames(self) -> list[FrameRecord]:
        """The frame records, in order."""
        return [r for r in self.records if isinstance(r, FrameRecord)]

    @property
    def calls(self) -> list[CallRecord]:
        """The call records, in order."""
        return [r for r in self.records if isinstance(r, CallRecord)]

    def connections(self) -> list[int]:
        """The recorded connection ids, in the order they first appear."""
        seen: dict[int, None] = {}
        for record in self.records:
            seen.setdefault(record.conn, None)
        return list(seen)

    def facts(self, conn: int) -> dict[str, Any]:
        """What the header knows of game ``conn`` (player, versions ...); {} if nothing."""
        return self.header.games.get(str(conn), {})

    def lines(self) -> Iterator[bytes]:
        """The capture as UTF-8 JSON lines: header, records, end."""
        yield encode_line(self.header.to_json())
        for record in self.records:
            yield encode_line(record.to_json())
        if self.end is not None:
            yield encode_line(self.end.to_json())

    def write(self, path: str | Path) -> None:
        """Write :meth:`lines` to ``path``, replacing what is there.

        Raises:
            OSError: the file cannot be written.
        """
        with open(path, "wb") as out:
            out.writelines(self.lines())


def encode_line(value: dict[str, Any]) -> bytes:
    """One record as a UTF-8 line: compact JSON with non-ASCII text kept readable (all of
    it escaped only when a lone surrogate, which UTF-8 cannot hold, is in it)."""
    line = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr) + "\n"
    try:
        return line.encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(value, separators=(",", ":"), default=repr) + "\n").encode("ascii")


def _record(data: dict[str, Any]) -> Record | EndRecord | Header:
    kind = data.pop("type", None)
    if kind == "frame":
        raw = base64.b64decode(data["b64"]) if "b64" in data else None
        text = data.get("text")
        if raw is None and not isinstance(text, str):
            raise ValueError("a frame needs text or b64")
        return FrameRecord(
            float(data["t"]), int(data["conn"]), data["dir"], text, raw, data.get("cut")
        )
    if kind == "call":
        return CallRecord(**data)
    if kind == "end":
        return EndRecord(**data)
    if kind == "header":
        if data.pop("format", None) != FORMAT:
            raise ValueError(f"not a {FORMAT} header")
        version = data.pop("version", None)
        if version != FORMAT_VERSION:
            raise ValueError(f"format version {version}; this package reads {FORMAT_VERSION}")
        return Header(**data)
    raise ValueError(f"unknown record type {kind!r}")


def read_capture(
    path: str | Path,
    *,
    max_bytes: int = CAPTURE_READ_MAX_BYTES,
    max_line_bytes: int = CAPTURE_LINE_MAX_BYTES,
) -> Capture:
    """Read a capture file of at most ``max_bytes``, no line longer than ``max_line_bytes``.

    Raises:
        CaptureError: the file cannot be read, or which line is wrong and why (a bound
            passed, or not a capture record).
    """
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            return _read(_lines(handle, path, max_bytes, max_line_bytes), path)
    except OSError as exc:
        raise CaptureError(f"cannot read the capture {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CaptureError(f"{path} is not a capture: it is not UTF-8 text ({exc})") from exc


def _lines(
    handle: IO[bytes], path: Path, max_bytes: int, max_line_bytes: int
) -> Iterator[tuple[int, str]]:
    """``(number, text)`` of each line, each read no further than its bound."""
    total = 0
    for number in itertools.count(1):
        raw = handle.readline(max_line_bytes + 1)  # at most one byte past the bound
        if not raw:
            return
        if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
            raise CaptureError(
                f"{path}, line {number}: longer than {max_line_bytes:,} bytes, the most a "
                "capture line may hold; is it a file written by mc.record or the doctor?"
            )
        total += len(raw)
        if total > max_bytes:
            raise CaptureError(
                f"{path}, line {number}: the capture passes {max_bytes:,} bytes, the most "
                "read at once (read_capture(max_bytes=...), or --max-mb of mcbews-repl replay "
                "and redact)"
            )
        yield number, raw.decode("utf-8")


# A JSON string (escapes included), unrolled so a long string is one run of the regex engine.
# Its closing quote is optional: an unterminated string runs to the end of the text, so a
# failed match is never retried from each later quote (which took quadratic time on a line
# of escaped quotes).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest, without parsing it; any text.

    Brackets inside strings do not count. For valid JSON this is the value's depth; for any
    other text it is at least the depth a parser would reach before failing.
    """
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(itertools.accumulate(map(_NESTING.__getitem__, brackets), initial=0))


def _too_deep(line: str) -> bool:
    # The openers in all bound the depth: most lines need no scan.
    if line.count("[") + line.count("{") <= CAPTURE_JSON_DEPTH_MAX:
        return False
    return json_depth(line) > CAPTURE_JSON_DEPTH_MAX


def _read(lines: Iterable[tuple[int, str]], path: Path) -> Capture:
    capture: Capture | None = None
    for number, line in lines:
        if not line.strip():
            continue
        if _too_deep(line):
            raise CaptureError(
                f"{path}, line {number}: nested more than {CAPTURE_JSON_DEPTH_MAX} levels "
                "deep, far beyond any capture record; is it a file written by mc.record?"
            )
        try:
            data = json.loads(line)
            if not isinstance(data, dict):
                raise ValueError("a record is a JSON object")
            record = _record(data)
        except (ValueError, TypeError, KeyError) as exc:
            raise CaptureError(
                f"{path}, line {number}: not a capture record ({exc}); is it a file "
                "written by mc.record or the doctor?"
            ) from exc
        capture = _add(capture, record, path, number)
    if capture is None:
        raise CaptureError(f"{path} is empty: a capture starts with its header line")
    return capture


def _add(capture: Capture | None, record: Any, path: Path, number: int) -> Capture:
    if capture is None:
        if not isinstance(record, Header):
            raise CaptureError(f"{path}, line {number}: a capture starts with its header line")
        return Capture(record, path=path)
    if isinstance(record, Header):
        raise CaptureError(f"{path}, line {number}: a second header")
    if isinstance(record, EndRecord):
        capture.end = record
    else:
        capture.records.append(record)
    return capture
