"""What the doctor found: one :class:`Check` per step, and the :class:`DoctorReport`.

A check's verdict is ``ok``, ``failed`` or ``unsure``, shown as a glyph *and* a word
(``✓ ok``, ``✗ failed``, ``? unsure``): the glyphs are in the fonts JupyterLab and terminals
use (the browser test checks they render), and the word carries the meaning where one
does not. Each check says what was observed and, when something is wrong or unknown,
what to do next.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..cleantext import clean_text

__all__ = ["GLYPHS", "Check", "DoctorReport", "Verdict", "shown_verdict"]

Verdict = Literal["ok", "failed", "unsure"]
GLYPHS: dict[Verdict, str] = {"ok": "✓", "failed": "✗", "unsure": "?"}


def shown_verdict(verdict: Verdict) -> str:
    """How a verdict reads: its glyph, then its word."""
    return f"{GLYPHS[verdict]} {verdict}"


@dataclass(frozen=True)
class Check:
    """One step of the doctor: what it looked at, what it saw, what to do about it."""

    number: int
    name: str
    verdict: Verdict
    observed: str
    next_step: str = ""
    data: dict[str, Any] = field(default_factory=dict, compare=False)  # the numbers seen

    @property
    def shown(self) -> str:
        """The verdict as the table shows it: its glyph, then its word."""
        return shown_verdict(self.verdict)


@dataclass
class DoctorReport:
    """Every check in order, who was examined, and where the session's capture went."""

    game: str
    checks: list[Check]
    capture: Path | None = None
    capture_note: str = ""
    elapsed: float = 0.0
    # How print() writes it: the doctor gives the terminal's table (view.py's
    # report_printed); this module stays below the view, which imports it.
    printer: Callable[[DoctorReport], str] | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """No check failed (an unsure one, such as the text nobody can confirm, is not)."""
        return all(c.verdict != "failed" for c in self.checks)

    def check(self, number: int) -> Check:
        """The check numbered ``number`` (1 to 6).

        Raises:
            StopIteration: the report holds no check with that number.
        """
        return next(c for c in self.checks if c.number == number)

    @property
    def headline(self) -> str:
        """One line: how many checks passed, or how many failed and which to start with."""
        failed = [c for c in self.checks if c.verdict == "failed"]
        passed = sum(c.verdict == "ok" for c in self.checks)
        if not failed:
            return f"{passed} of {len(self.checks)} checks ok, nothing failed"
        first = failed[0]
        return f"{len(failed)} check(s) failed; start with {first.number}. {first.name}"

    @property
    def capture_line(self) -> str:
        """Where the session's capture was saved (or why not), to attach to a bug report."""
        if self.capture is None:
            return f"not saved: {self.capture_note}" if self.capture_note else "not saved"
        note = f" ({self.capture_note})" if self.capture_note else ""
        return f"saved to {self.capture}{note}; attach it to a bug report"

    def __str__(self) -> str:
        """The table the terminal shows, without colour: what ``print(report)`` writes in a
        script (doctor/view.py, ``report_printed``); a report made by hand, without a
        printer, reads as its headline and one line a check."""
        if self.printer is not None:
            return self.printer(self)
        lines = [f"{self.game}: {self.headline}"]
        lines += [f"{c.number}. {c.name}: {c.shown}, {c.observed}" for c in self.checks]
        return clean_text("\n".join(lines))

    def __repr__(self) -> str:
        verdicts = " ".join(f"{c.number}{GLYPHS[c.verdict]}" for c in self.checks)
        return clean_text(f"<DoctorReport {self.game}: {verdicts}; {self.headline}>")
