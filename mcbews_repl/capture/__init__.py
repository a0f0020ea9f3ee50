"""Captures: sessions recorded frame by frame, redacted, and replayed (docs/captures.md).

recorder = start_recording(mc, "session.jsonl")   # on the bridge's loop
...
recorder.stop()
capture = read_capture("session.jsonl")
"""

from __future__ import annotations

from .recorder import Recorder, game_facts, start_recording
from .records import CallRecord, Capture, EndRecord, FrameRecord, Header, read_capture
from .redact import redact

__all__ = [
    "CallRecord",
    "Capture",
    "EndRecord",
    "FrameRecord",
    "Header",
    "Recorder",
    "game_facts",
    "read_capture",
    "redact",
    "start_recording",
]
