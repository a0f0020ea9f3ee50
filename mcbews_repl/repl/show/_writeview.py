"""How a ``WriteResult`` (what ``mc.set_blocks`` answers) looks in a notebook and at a
terminal: a headline, its notes (what an undo undid, older undos dropped), one row per
outcome, the positions not written named first of all.
Registered by type name, so numpy is imported only when a result is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cleantext import clean_text, escape_html

if TYPE_CHECKING:
    from ...toolkit import WriteResult

__all__ = ["WRITE_TYPE", "write_html", "write_text"]

WRITE_TYPE = ("mcbews_repl.toolkit.writes", "WriteResult")
_SHOWN = 5  # positions named per outcome that was not written


def _headline(result: WriteResult) -> str:
    parts = f"{result.requests} request{'s' * (result.requests != 1)}"
    return f"{result.describe()} ({parts}, {result.seconds:.2f} s)"


def _missed(result: WriteResult) -> list[str]:
    """One line per reason positions were not written, with the first few of them."""
    lines = []
    for status, why in (("unloaded", "in an unloaded chunk"),
                        ("out_of_world", "outside the height range")):  # fmt: skip
        found = result.positions(status)
        if found:
            shown = ", ".join(str(p) for p in found[:_SHOWN])
            more = f" and {len(found) - _SHOWN:,} more" if len(found) > _SHOWN else ""
            lines.append(f"not written, {why}: {shown}{more}")
    return lines


def write_html(result: WriteResult) -> str:
    """The headline, the outcomes as a table, and what was not written (in red)."""
    rows = "".join(
        f"<tr><td style='text-align:left'>{escape_html(what)}</td><td>{n:,}</td></tr>"
        for what, n in result.rows()
    )
    missed = "".join(
        f"<div style='color:#b00'>{escape_html(line)}</div>" for line in _missed(result)
    )
    notes = "".join(f"<div><i>{escape_html(clean_text(n))}</i></div>" for n in result.notes)
    return (
        f"<div><b>WriteResult</b> {escape_html(clean_text(_headline(result)))}{notes}"
        f"<table><tr><th>blocks</th><th>count</th></tr>{rows}</table>{missed}</div>"
    )


def write_text(result: WriteResult) -> str:
    """The headline, one line per outcome and what was not written, for a terminal."""
    rows = result.rows()
    width = max((len(what) for what, _ in rows), default=0)
    lines = [f"WriteResult {clean_text(_headline(result))}"]
    lines += [f"  note: {clean_text(note)}" for note in result.notes]
    lines += [f"  {what:<{width}}  {n:>8,}" for what, n in rows]
    lines += [f"  {line}" for line in _missed(result)]
    lines.append("  (.counts .mask(status) .positions(status) .to_frame())")
    return "\n".join(lines)
