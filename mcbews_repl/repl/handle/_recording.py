"""``mc.record(path)`` and ``%mc record``: a capture of this session (docs/captures.md).

The recorder (``mcbews_repl.capture``) lives on the runtime thread's loop, where the
bridge reports every frame to it; :class:`Recording` is the notebook's handle to it: it
shows where it records and how much, and ``stop()`` ends it. When the recording stops on
its own (its size limit, a full disk) the session says so once, in the cell output.
"""

from __future__ import annotations

import contextvars
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ...capture import STOPPED_ON_REQUEST, Recorder, size_text, start_recording
from ...exceptions import CaptureError
from ...limits import CAPTURE_MAX_BYTES
from ..runtime import Runtime
from ._core import Handle

if TYPE_CHECKING:
    pass

__all__ = ["Recording", "Recordings", "recording_fields"]

T = TypeVar("T")

_STOP_TIMEOUT_SECONDS = 30.0  # finishing reads and rewrites the file (at most its limit)


class Recording:
    """A recording of the bridge's traffic: ``stop()`` ends it; it shows as a card."""

    def __init__(self, recorder: Recorder, runtime: Runtime) -> None:
        self.recorder = recorder  # the capture writer: touch it only on the runtime's loop
        self._runtime = runtime

    @property
    def path(self) -> Path:
        """The file the capture is written to."""
        return self.recorder.path

    @property
    def recording(self) -> bool:
        """True while it records; False once stopped (asked to, or by itself)."""
        return self.recorder.state == "recording"

    @property
    def stop_reason(self) -> str:
        """Why it stopped (``"stopped on request"``, its size limit ...); "" while recording."""
        return self.recorder.stop_reason

    def stop(self) -> Recording:
        """Stop and write the finished capture (redacted, if asked); returns itself."""
        if self.recording and self._runtime.running:

            async def stop() -> None:
                self.recorder.stop()

            self._runtime.run(stop(), _STOP_TIMEOUT_SECONDS)
        return self

    def __enter__(self) -> Recording:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<Recording {self.recorder.describe()}>"


def recording_fields(recording: Recording) -> tuple[str, str, list[tuple[str, object]]]:
    """(title, subtitle, rows) of a recording's card."""
    rec = recording.recorder
    rows: list[tuple[str, object]] = [
        ("file", str(rec.path)),
        ("recorded", f"{rec.frames} frames, {rec.calls} calls"),
        ("size", f"{size_text(rec.bytes)} of at most {size_text(rec.max_bytes)}"),
        ("redacted", "yes: player names, chat texts and the token" if rec.redact else "no"),
    ]
    if recording.recording:
        rows.append(("stop it", "%mc record stop (or .stop())"))
        return "recording", "every frame both ways, and every call's result", rows
    rows.append(("why it stopped", rec.stop_reason))
    if rec.finish_error:
        rows.append(("problem", rec.finish_error))
    rows.append(("next", f"replay it: mcbews-repl replay {rec.path} --url ws://..."))
    return "recording stopped", "the capture is complete", rows


class Recordings(Handle):
    """``mc.record`` and ``mc.recording`` (the core keeps the latest recording)."""

    def record(
        self,
        path: str | Path,
        redact: bool = False,
        *,
        max_bytes: int = CAPTURE_MAX_BYTES,
        overwrite: bool = False,
    ) -> Recording:
        """Record every frame both ways and every call's result to ``path`` (JSON Lines).

        ``redact=True`` replaces player names, chat texts and the path token with stable
        placeholders when the recording stops. It stops with a message once the file
        reaches ``max_bytes``. ``mc.recording.stop()`` (or ``%mc record stop``) ends it.

        Raises:
            CaptureError: a recording is already running, or ``path`` cannot be recorded to
                (a folder, a missing folder, an existing file without ``overwrite=True``).
        """
        if self.recording is not None and self.recording.recording:
            raise CaptureError(
                f"already recording to {self.recording.path}; stop it first "
                "(%mc record stop, or mc.recording.stop())"
            )

        async def start() -> Recorder:
            return start_recording(
                self._bridge, path, redact=redact, max_bytes=max_bytes, overwrite=overwrite,
                on_stop=self._recording_stopped,
            )  # fmt: skip

        recorder = self._submit(start(), "record").result()
        recording = self.recording = Recording(recorder, self._runtime)
        return recording

    def _recording_stopped(self, recorder: Recorder) -> None:
        """Say it once when a recording stops by itself (not when asked to)."""
        if recorder.stop_reason == STOPPED_ON_REQUEST:
            return
        message = (
            f"The recording to {recorder.path} stopped: {recorder.stop_reason}. "
            "The capture holds everything up to then."
        )
        loop = self._kernel_loop
        if loop is not None and not loop.is_closed():
            # An empty context: ipykernel then sends the text to the cell running now. The
            # bridge thread's own context may hold the header of the cell that started the
            # bridge (a stop found by the reader task), and the text went there, unseen.
            quiet = contextvars.Context()
            loop.call_soon_threadsafe(lambda: print(message, file=sys.stderr), context=quiet)
        else:
            print(message, file=sys.stderr)
