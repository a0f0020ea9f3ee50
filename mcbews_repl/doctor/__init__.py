"""The doctor: diagnose a connected game step by step, and save the session as a capture.

    report = await run_doctor(mc)           # on the bridge's event loop
    report.ok, report.checks, report.capture

In IPython ``%mc doctor`` (``mc.doctor()``) shows the report as a card; from the shell
``mcbews-repl doctor`` starts a bridge, waits for a game and prints a table.
"""

from __future__ import annotations

from .checks import CHECK_NAMES, Doctor, Waits
from .probe import PROBE_WARNING
from .report import GLYPHS, Check, DoctorReport, Verdict
from .run import captures_folder, default_capture_path, run_doctor
from .view import report_html, report_text

__all__ = [
    "CHECK_NAMES",
    "GLYPHS",
    "PROBE_WARNING",
    "Check",
    "Doctor",
    "DoctorReport",
    "Verdict",
    "Waits",
    "captures_folder",
    "default_capture_path",
    "report_html",
    "report_text",
    "run_doctor",
]
