"""Recording: an observer of the bridge (gateway/observer.py) that writes a capture file.

:func:`start_recording` checks the path, writes the header and registers the recorder;
from then on every frame both ways and every call's outcome becomes a line (records.py),
written at once so a crash loses nothing. The recording stops when asked, when the file
would grow past ``max_bytes``, or when the disk refuses a write; in each case it says why
(``stop_reason``, and ``on_stop``). Stopping completes the header with the games' facts
and, with ``redact=True``, writes the redacted capture (redact.py) in place of the raw
one, which is kept meanwhile in a private file (mode 0600) beside the target.

Everything here runs on the bridge's event loop: call :meth:`Recorder.stop` there too.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO, Any, Literal

from ..exceptions import CaptureError
from ..gateway import Bridge, Direction, GameConnection, Outcome
from ..limits import (
    CAPTURE_FRAME_MAX_BYTES,
    CAPTURE_LINE_MAX_BYTES,
    CAPTURE_MAX_BYTES,
    CAPTURE_READ_MAX_BYTES,
    KIB,
)
from ..version import __version__
from .records import CallRecord, EndRecord, FrameRecord, Header, encode_line, read_capture
from .redact import redact

__all__ = ["STOPPED_ON_REQUEST", "Recorder", "game_facts", "size_text", "start_recording"]

STOPPED_ON_REQUEST = "stopped on request"

_log = logging.getLogger("mcbews_repl.capture")
# Room kept under max_bytes for the end record, so a full recording still says why it ended.
_END_RESERVE_BYTES = 256
_MIN_MAX_BYTES = 4 * KIB  # the header and a few frames


def size_text(n: int) -> str:
    """A file size as people read it: KiB below a MiB, MiB above."""
    return f"{n / (1 << 20):.1f} MiB" if n >= 1 << 20 else f"{n / 1024:.1f} KiB"


def game_facts(connection: GameConnection, *, joined_late: bool) -> dict[str, Any]:
    """What a capture says about one game: how it connected and what it showed."""
    encryption = connection.encryption
    facts: dict[str, Any] = {
        "peer": connection.peer,
        "path": connection.path,
        "subprotocol": connection.subprotocol,
        "encrypted": connection.encrypted,
        "encryption": None
        if encryption is None
        else {"form": encryption.form, "mode": encryption.mode},
        "event_version": connection.protocol_version,
        "local_player": connection.local_player,
        "bridge_player_lines": connection.counters["bridge_player_lines"],
        "joined_late": joined_late,
        "closed": connection.closed,
    }
    transport = getattr(connection, "transport", None)
    if isinstance(transport, str):
        facts["transport"] = transport
    return facts


def _check_path(path: Path, overwrite: bool) -> None:
    if path.is_dir():
        raise CaptureError(f"{path} is a folder; give a file name, e.g. {path / 'session.jsonl'}")
    if not path.parent.is_dir():
        raise CaptureError(f"cannot record to {path}: the folder {path.parent} does not exist")
    if path.exists() and not overwrite:
        raise CaptureError(
            f"{path} already exists; choose another name, or overwrite it "
            "(overwrite=True, %mc record PATH --overwrite)"
        )


class Recorder:
    """Writes one capture; ``state`` is ``recording`` until it stops, then ``stopped``."""

    def __init__(
        self,
        path: str | Path,
        header: Header,
        *,
        redact: bool = False,
        max_bytes: int = CAPTURE_MAX_BYTES,
        only: GameConnection | None = None,
        late: Iterable[int] = (),
        token: str | None = None,
        on_stop: Callable[[Recorder], object] | None = None,
    ) -> None:
        if max_bytes < _MIN_MAX_BYTES:
            raise ValueError(f"max_bytes must be at least {_MIN_MAX_BYTES}, not {max_bytes}")
        self.path = Path(path).expanduser()
        self.header = header
        self.redact = redact
        self.max_bytes = max_bytes
        self.state: Literal["recording", "stopped"] = "recording"
        self.stop_reason = ""
        self.frames = self.calls = self.bytes = 0
        self.finish_error: str | None = None  # why the header could not be completed
        self._only = only
        self._late = set(late)
        self._token = token
        self._on_stop = on_stop
        self._detach: Callable[[], object] | None = None
        # Each game recorded: its connection while open, its facts once it has closed (a
        # game that left must not be kept alive by a recording, whatever it held).
        self._games: dict[int, GameConnection | dict[str, Any]] = {}
        self._start = time.monotonic()
        self._raw_path = self.path
        self._file: IO[bytes] | None = None

    # --- life ---------------------------------------------------------------------------

    def open(self, *, overwrite: bool = False) -> None:
        """Create the file and write the header.

        Raises:
            CaptureError: the path is a folder, its folder does not exist, the file exists
                and ``overwrite`` is False, or the file cannot be written (the message says
                what to do).
        """
        _check_path(self.path, overwrite)
        try:
            if self.redact:  # the raw lines wait in a private file until they are redacted
                fd, raw = tempfile.mkstemp(
                    prefix=f".{self.path.name}.", suffix=".raw", dir=self.path.parent
                )
                self._raw_path, self._file = Path(raw), os.fdopen(fd, "wb")
            else:
                self._file = open(self.path, "wb")  # noqa: SIM115 - closed by stop()
            self._write_now(self.header.to_json())
        except OSError as exc:
            self._close_file()
            raise CaptureError(f"cannot record to {self.path}: {exc.strerror or exc}") from exc

    def stop(self, reason: str = STOPPED_ON_REQUEST) -> None:
        """Stop recording, complete the header (and redact); safe to call twice."""
        if self.state == "stopped":
            return
        self.state, self.stop_reason = "stopped", reason
        if self._detach is not None:
            self._detach()
        if self._file is not None:
            end = EndRecord(self._now(), reason, self.frames, self.calls, self.bytes)
            try:
                self._write_now(end.to_json())
            except OSError as exc:
                self.finish_error = f"the last line could not be written: {exc.strerror}"
            self._close_file()
            self._finish()
        _log.info("recording to %s stopped: %s", self.path, reason)
        if self._on_stop is not None:
            self._on_stop(self)

    def describe(self) -> str:
        """One sentence: where, how much, and (once stopped) why it stopped."""
        what = f"{self.frames} frames, {self.calls} calls, {size_text(self.bytes)}"
        redacted = ", redacted" if self.redact else ""
        if self.state == "recording":
            return f"recording to {self.path}{redacted}: {what} of {size_text(self.max_bytes)}"
        problem = f"; {self.finish_error}" if self.finish_error else ""
        return f"stopped ({self.stop_reason}): {self.path}{redacted}, {what}{problem}"

    def __repr__(self) -> str:
        return f"<Recorder {self.describe()}>"

    # --- the observer -------------------------------------------------------------------

    def frame(self, connection: GameConnection, direction: Direction, data: str | bytes) -> None:
        """Record one WebSocket frame of ``connection`` (a frame past the size cap keeps its
        head and its full size); nothing when not recording or not this recorder's game."""
        if self.state != "recording" or not self._wanted(connection):
            return
        record = FrameRecord(self._now(), connection.id, direction)
        size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "replace"))
        if size > CAPTURE_FRAME_MAX_BYTES:
            record.cut = size
            data = data[:CAPTURE_FRAME_MAX_BYTES]
            if isinstance(data, str):  # a character may take 4 bytes: cut on bytes
                head = data.encode("utf-8", "replace")[:CAPTURE_FRAME_MAX_BYTES]
                data = head.decode("utf-8", "ignore")
        if isinstance(data, bytes):
            record.raw = data
        else:
            record.text = data
        self.frames += self._write(record.to_json())

    def outcome(self, connection: GameConnection, outcome: Outcome) -> None:
        """Record one finished call of ``connection``: its request, result and timing."""
        if self.state != "recording" or not self._wanted(connection):
            return
        at = round(outcome.started - self.header.started, 6)
        record = CallRecord(
            self._now(), connection.id, outcome.kind, at, round(outcome.elapsed, 6),
            outcome.request, outcome.result,
        )  # fmt: skip
        self.calls += self._write(record.to_json())

    # --- inside -------------------------------------------------------------------------

    def _wanted(self, connection: GameConnection) -> bool:
        if self._only is not None and connection is not self._only:
            return False
        if connection.id not in self._games:  # a new game: the closed ones become facts
            self._games = {cid: self._facts(cid, g) for cid, g in self._games.items()}
            self._games[connection.id] = connection
        return True

    def _facts(
        self, cid: int, game: GameConnection | dict[str, Any]
    ) -> GameConnection | dict[str, Any]:
        """``game``'s facts once it has closed (they no longer change), else the game."""
        if isinstance(game, dict) or not game.closed:
            return game
        return game_facts(game, joined_late=cid in self._late)

    def _now(self) -> float:
        return round(time.monotonic() - self._start, 6)

    def _write_now(self, value: dict[str, Any], data: bytes | None = None) -> None:
        assert self._file is not None
        data = encode_line(value) if data is None else data
        self._file.write(data)
        self._file.flush()  # one write a line: a crash loses nothing already seen
        self.bytes += len(data)

    def _write(self, value: dict[str, Any]) -> int:
        """Write one record; 1 if written, 0 if the recording had to stop instead."""
        data = encode_line(value)
        if self.bytes + len(data) > self.max_bytes - _END_RESERVE_BYTES:
            self.stop(f"it reached its size limit of {size_text(self.max_bytes)}")
            return 0
        try:
            self._write_now(value, data)
        except OSError as exc:
            self._close_file()
            self.stop(f"cannot write to {self._raw_path}: {exc.strerror or exc}")
            return 0
        return 1

    def _close_file(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:
                self.finish_error = f"closing the file failed: {exc.strerror}"
            self._file = None

    def _finish(self) -> None:
        """Complete the header with the games' facts; write the redacted capture if asked."""
        try:
            # Its own file: as large as it was allowed to grow.
            capture = read_capture(
                self._raw_path,
                max_bytes=max(self.max_bytes, CAPTURE_READ_MAX_BYTES),
                max_line_bytes=max(self.max_bytes, CAPTURE_LINE_MAX_BYTES),
            )
            capture.header.games = {
                str(cid): g if isinstance(g, dict) else game_facts(g, joined_late=cid in self._late)
                for cid, g in self._games.items()
            }
            capture.header.complete = True
            if self.redact:
                capture = redact(capture, token=self._token)
            spare = self.path.with_name(f".{self.path.name}.finishing")
            capture.write(spare)
            os.replace(spare, self.path)
        except (OSError, CaptureError) as exc:
            self.finish_error = f"the header could not be completed: {exc}"
            return
        if self._raw_path != self.path:
            self._raw_path.unlink(missing_ok=True)


def start_recording(
    bridge: Bridge,
    path: str | Path,
    *,
    redact: bool = False,
    max_bytes: int = CAPTURE_MAX_BYTES,
    overwrite: bool = False,
    connection: GameConnection | None = None,
    on_stop: Callable[[Recorder], object] | None = None,
) -> Recorder:
    """Record ``bridge``'s traffic (only ``connection``'s, if given) to ``path``.

    Call it on the bridge's event loop. Games already connected are marked ``joined_late``
    in the header: their encryption handshake and first commands are not in the capture.

    Raises:
        CaptureError: ``path`` is a folder, its folder does not exist, the file exists and
            ``overwrite`` is False, or it cannot be written (the message says what to do).
    """
    games = bridge.connections if connection is None else [connection]
    header = Header(
        package=f"mcbews-repl {__version__}",
        started=time.time(),
        settings=dataclasses.asdict(bridge.settings),
        bridge={"url": bridge.url, "connect_command": bridge.connect_command,
                "token": bridge.token},
        games={str(c.id): game_facts(c, joined_late=True) for c in games},
        redacted=redact,
        max_bytes=max_bytes,
    )  # fmt: skip
    recorder = Recorder(
        path, header, redact=redact, max_bytes=max_bytes, only=connection,
        late=[c.id for c in games], token=bridge.token, on_stop=on_stop,
    )  # fmt: skip
    recorder.open(overwrite=overwrite)
    for game in games:
        recorder._games[game.id] = game
    bridge.observe(recorder)
    recorder._detach = lambda: bridge.unobserve(recorder)
    return recorder
