"""Captures: sessions recorded frame by frame, redacted, and replayed (docs/captures.md).

recorder = start_recording(mc, "session.jsonl")   # on the bridge's loop
...
recorder.stop()
capture = read_capture("session.jsonl")
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from .audit import AUDIT_KIND, AuditDifference, AuditLog, AuditReplay, audit_entries, replay_audit
from .recorder import STOPPED_ON_REQUEST, Recorder, game_facts, size_text, start_recording
from .records import CallRecord, Capture, EndRecord, FrameRecord, Header, read_capture
from .redact import redact

if TYPE_CHECKING:
    from .drive import Difference, ReplayReport, replay_capture
    from .replay import ReplayGame, ReplaySummary

# The replay plays the game's side with the simulated world's client: it (and the drive that
# runs it) loads when first named, so recording (the doctor, say) does not load the sim.
_LAZY = {
    "Difference": ".drive",
    "ReplayReport": ".drive",
    "replay_capture": ".drive",
    "ReplayGame": ".replay",
    "ReplaySummary": ".replay",
}

__all__ = [
    "AUDIT_KIND",
    "STOPPED_ON_REQUEST",
    "AuditDifference",
    "AuditLog",
    "AuditReplay",
    "CallRecord",
    "Capture",
    "Difference",
    "EndRecord",
    "FrameRecord",
    "Header",
    "Recorder",
    "ReplayGame",
    "ReplayReport",
    "ReplaySummary",
    "audit_entries",
    "game_facts",
    "read_capture",
    "redact",
    "replay_audit",
    "replay_capture",
    "size_text",
    "start_recording",
]

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
