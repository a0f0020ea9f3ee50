"""How a doctor's report looks: a card in notebooks, a rich table in terminals, plain text.

rich is imported only when a terminal rendering is asked for (the ``repl`` extra has it;
``mcbews-repl doctor`` falls back to plain text without it). What the game said (a player's
name, a message) is cleaned (``mcbews_repl.cleantext``) in every form, and escaped in the
table's markup: a name holding ``[/]`` is shown, not parsed.
"""

from __future__ import annotations

import io
import shutil
import sys
from typing import IO, Any

from ..cleantext import clean_text, escape_html
from ..optional import needs
from .report import Check, DoctorReport, Verdict

__all__ = ["report_html", "report_plain", "report_printed", "report_table", "report_text"]

_HTML_COLOURS: dict[Verdict, str] = {"ok": "#1a7f37", "failed": "#cf222e", "unsure": "#9a6700"}
_RICH_STYLES: dict[Verdict, str] = {
    "ok": "bold green",
    "failed": "bold red",
    "unsure": "bold yellow",
}
_CELL = "padding:4px 8px;border-top:1px solid #ddd;vertical-align:top;text-align:left"


def _e(text: object) -> str:
    return escape_html(str(text))


def _row(check: Check) -> str:
    colour = _HTML_COLOURS[check.verdict]
    result = f"<b style='color:{colour};white-space:nowrap'>{_e(check.shown)}</b>"
    cells = [str(check.number), _e(check.name), result, _e(check.observed), _e(check.next_step)]
    return "<tr>" + "".join(f"<td style='{_CELL}'>{c}</td>" for c in cells) + "</tr>"


def report_html(report: DoctorReport) -> str:
    """The notebook card: a headline, one row a check, and where the capture went."""
    head = "".join(
        f"<th style='{_CELL};color:#555'>{h}</th>"
        for h in ("", "check", "result", "what was seen", "what to do next")
    )
    colour = _HTML_COLOURS["ok" if report.ok else "failed"]
    return (
        "<div class='mcbews-doctor' style='border:1px solid #ccc;border-left:4px solid "
        f"{colour};border-radius:6px;padding:8px 12px;max-width:1100px;"
        # JupyterLab's own content font (its fallbacks carry the check and cross glyphs)
        "font-family:var(--jp-content-font-family, sans-serif)'>"
        "<div style='font-size:1.2em;font-weight:bold'>mcbews doctor</div>"
        f"<div style='color:#666;margin-bottom:6px'>{_e(report.game)}: {_e(report.headline)}"
        f" ({report.elapsed:.1f} s)</div>"
        f"<table style='border-collapse:collapse'><tr>{head}</tr>"
        + "".join(_row(c) for c in report.checks)
        + "</table>"
        f"<div style='margin-top:6px'><b>capture</b>: {_e(report.capture_line)}</div></div>"
    )


def report_table(report: DoctorReport, width: int | None = None) -> Any:
    """A rich Table of the checks (for a console to print)."""
    with needs():
        from rich.markup import escape
        from rich.table import Table

    def words(text: object) -> str:
        return escape(clean_text(str(text)))

    table = Table(
        title=words(f"mcbews doctor: {report.game}"),
        caption=words(f"{report.headline}. Capture: {report.capture_line}"),
        show_lines=True,
        expand=False,
        width=width,
    )
    for header, ratio in (
        ("", None),
        ("check", None),
        ("result", None),
        ("what was seen", 3),
        ("what to do next", 2),
    ):
        table.add_column(header, ratio=ratio, overflow="fold")
    for check in report.checks:
        shown = f"[{_RICH_STYLES[check.verdict]}]{words(check.shown)}[/]"
        table.add_row(str(check.number), words(check.name), shown, words(check.observed),
                      words(check.next_step))  # fmt: skip
    return table


def report_text(report: DoctorReport, width: int | None = None) -> str:
    """The table as ANSI-coloured text, at the terminal's width (IPython's plain text)."""
    with needs():
        from rich.console import Console

    width = width or max(shutil.get_terminal_size((120, 40)).columns, 80)
    console = Console(width=width, force_terminal=True, force_jupyter=False, highlight=False)
    with console.capture() as capture:
        console.print(report_table(report))
    return capture.get().rstrip("\n")


def report_printed(report: DoctorReport, stream: IO[str] | None = None) -> str:
    """What ``print(report)`` writes to ``stream`` (default: ``sys.stdout``): the terminal's
    table without colour (paragraphs when rich is not installed). A stream whose encoding
    lacks the box lines (a Windows code page, cp1252, in a file the output was redirected
    to) gets the table in ASCII, and a ``?`` for each character it cannot encode (the
    glyphs: the word beside each says the same)."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        from rich import box
        from rich.console import Console
    except ImportError:
        return _encodable(report_plain(report), encoding)
    width = max(shutil.get_terminal_size((120, 40)).columns, 80)
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False,
                      force_jupyter=False, highlight=False)  # fmt: skip
    table = report_table(report)
    if _encodable(_BOX_LINES, encoding) != _BOX_LINES:
        table.box = box.ASCII
    with console.capture() as capture:
        console.print(table)
    lines = capture.get().rstrip("\n").splitlines()
    return _encodable("\n".join(line.rstrip() for line in lines), encoding)


_BOX_LINES = "─│┏┃┡━╇└┘"  # what rich's default table box draws with


def _encodable(text: str, encoding: str) -> str:
    try:
        return text.encode(encoding, errors="replace").decode(encoding)
    except LookupError:  # an encoding Python does not know: leave the text to the stream
        return text


def report_plain(report: DoctorReport) -> str:
    """Plain text, one paragraph a check (where rich is not installed), cleaned."""
    lines = [f"mcbews doctor: {report.game}: {report.headline}"]
    for check in report.checks:
        lines.append(f"{check.number}. {check.name}: {check.shown}")
        lines.append(f"   seen: {check.observed}")
        if check.next_step:
            lines.append(f"   next: {check.next_step}")
    lines.append(f"capture: {report.capture_line}")
    return clean_text("\n".join(lines))
