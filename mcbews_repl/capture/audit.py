"""The guard's audit log as a capture: every tool action, allowed or refused, one line each.

An :class:`AuditLog` is a guard's ``on_action`` sink (toolkit/guard.py). It writes a
capture file (records.py): the header, then one ``call`` record of kind ``tool`` per action,
and the end line when it is closed::

    {"type": "header", "format": "mcbews-capture", "version": 1, ..., "notes": ["audit ..."]}
    {"type": "call", "t": 1.2, "conn": 0, "kind": "tool", "at": 1.19, "elapsed": 0.01,
     "request": {"tool": "command", "arguments": {"command": "op Ana"}, "world": "Ana"},
     "result": {"verdict": "refused", "refused_by": "forbidden", "ok": false, ...}}

So :func:`~.records.read_capture` reads it, ``mcbews-repl replay`` accepts it (a tool record
is not a game call: the replay skips it), and :func:`replay_audit` runs the lesson's calls
again through tools (a fresh simulated world's, say) and reports where the verdicts differ.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..exceptions import CaptureError
from ..toolkit import AuditEntry
from ..version import __version__
from .records import CallRecord, Capture, EndRecord, Header, encode_line, read_capture

__all__ = [
    "AUDIT_KIND",
    "AuditDifference",
    "AuditLog",
    "AuditReplay",
    "audit_entries",
    "dated_path",
    "replay_audit",
]

AUDIT_KIND = "tool"  # the kind of a tool action's call record (not a game call)
AUDIT_NOTE = "audit: every tool action the guard judged (mcbews-repl mcp, mc.tools)"


def dated_path(folder: Path) -> Path:
    """A new file in ``folder`` named by the local time: ``lesson-2026-03-02-091500.jsonl``
    (``-2``, ``-3`` ... when a launch in the same second took it)."""
    stem = time.strftime("lesson-%Y-%m-%d-%H%M%S")
    path, k = folder / f"{stem}.jsonl", 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}.jsonl"
    return path


class AuditLog:
    """Writes each :class:`AuditEntry` it is given to a capture file, at once (a crash
    loses nothing already judged); :meth:`close` writes the end line.

    ``path`` is a file that does not exist yet, or a folder: then each log is a new file in
    it named by the date and time it started (:func:`dated_path`), so the same path serves
    every launch of a server and every lesson keeps its own file.

    Raises (on construction):
        CaptureError: the path's folder does not exist, or the file exists and ``overwrite``
            is False, or it cannot be written.
    """

    def __init__(
        self, path: str | Path, *, overwrite: bool = False, notes: tuple[str, ...] = ()
    ) -> None:
        self.path = Path(path).expanduser()
        if self.path.is_dir():
            self.path = dated_path(self.path)
        if not self.path.parent.is_dir():
            raise CaptureError(
                f"cannot write the audit log {self.path}: no folder {self.path.parent}"
            )
        if self.path.exists() and not overwrite:
            raise CaptureError(f"{self.path} already exists; give a folder (each log is then "
                               "a new file in it, named by its date) or another name")  # fmt: skip
        self._start = time.monotonic()
        self.calls = self.bytes = 0
        header = Header(package=f"mcbews-repl {__version__}", started=time.time(),
                        notes=[AUDIT_NOTE, *notes])  # fmt: skip
        try:
            self._file: IO[bytes] | None = open(  # noqa: SIM115 - close()
                self.path, "wb" if overwrite else "xb"
            )
            self._write(header.to_json())
        except OSError as exc:
            raise CaptureError(f"cannot write the audit log {self.path}: {exc.strerror}") from exc

    def __call__(self, entry: AuditEntry) -> None:
        """Write one entry (nothing once closed)."""
        if self._file is None:
            return
        now = round(time.monotonic() - self._start, 6)
        record = CallRecord(
            t=now, conn=0, kind=AUDIT_KIND, at=round(max(now - entry.elapsed, 0.0), 6),
            elapsed=entry.elapsed,
            request={"tool": entry.tool, "arguments": entry.arguments, "world": entry.world,
                     "wall_clock": entry.at},
            result={"verdict": entry.verdict, "refused_by": entry.refused_by, "why": entry.why,
                    **entry.result},
        )  # fmt: skip
        try:
            self._write(record.to_json())
            self.calls += 1
        except OSError:
            self.close()

    def _write(self, value: dict[str, Any]) -> None:
        assert self._file is not None
        data = encode_line(value)
        self._file.write(data)
        self._file.flush()
        self.bytes += len(data)

    def close(self, reason: str = "closed") -> None:
        """Write the end line and close the file; safe to call twice."""
        if self._file is None:
            return
        end = EndRecord(round(time.monotonic() - self._start, 6), reason, 0, self.calls, self.bytes)
        with contextlib.suppress(OSError):
            self._write(end.to_json())
        self._file.close()
        self._file = None


def audit_entries(capture: Capture | str | Path) -> list[AuditEntry]:
    """The tool actions of an audit log (or of any capture: those of kind ``tool``).

    Raises:
        CaptureError: ``capture`` is a path that cannot be read as a capture.
    """
    if not isinstance(capture, Capture):
        capture = read_capture(capture)
    out = []
    for call in capture.calls:
        if call.kind != AUDIT_KIND:
            continue
        request, result = call.request, dict(call.result)
        out.append(
            AuditEntry(
                at=float(request.get("wall_clock") or 0.0), tool=str(request.get("tool")),
                arguments=dict(request.get("arguments") or {}), world=request.get("world"),
                verdict=str(result.pop("verdict", "")), refused_by=result.pop("refused_by", None),
                why=result.pop("why", None), result=result, elapsed=call.elapsed,
            )
        )  # fmt: skip
    return out


@dataclass(frozen=True, slots=True)
class AuditDifference:
    """One replayed action whose verdict (or ``ok``) differs from the recorded one."""

    index: int
    tool: str
    recorded: dict[str, Any]
    now: dict[str, Any]

    def describe(self) -> str:
        """One line: which action, what it was then, what it is now."""
        return f"action {self.index} ({self.tool}): recorded {self.recorded}, now {self.now}"


@dataclass
class AuditReplay:
    """What :func:`replay_audit` found: how many actions ran again, which differ."""

    actions: int = 0
    differences: list[AuditDifference] = field(default_factory=list)

    @property
    def same(self) -> bool:
        """True when every action got the verdict it had."""
        return not self.differences


async def replay_audit(
    capture: Capture | str | Path,
    call: Callable[[str, str | None, dict[str, Any]], Awaitable[dict[str, Any]]],
) -> AuditReplay:
    """Run an audit log's actions again, in order: ``call(tool, world, arguments)`` (for
    instance guarded tools over a fresh simulated class) must return the tool's result.
    Compares each result's ``ok`` and ``refused_by`` with the recorded ones.

    Raises:
        CaptureError: ``capture`` is a path that cannot be read as a capture.
    """
    report = AuditReplay()
    for index, entry in enumerate(audit_entries(capture)):
        got = await call(entry.tool, entry.world, entry.arguments)
        recorded = {"ok": entry.result.get("ok"), "refused_by": entry.refused_by}
        now = {"ok": got.get("ok"), "refused_by": got.get("refused_by")}
        report.actions += 1
        if recorded != now:
            report.differences.append(AuditDifference(index, entry.tool, recorded, now))
    return report
