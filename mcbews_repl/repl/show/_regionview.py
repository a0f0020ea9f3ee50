"""How a ``BlockRegion`` looks in a notebook (a small picture and its counts) and at a
terminal (its counts as text). Registered by type name, so numpy and matplotlib are
imported only when a region is actually shown."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from ...cleantext import clean_text, escape_html

if TYPE_CHECKING:
    from ...toolkit import BlockRegion

__all__ = ["REGION_TYPE", "region_html", "region_text"]

REGION_TYPE = ("mcbews_repl.toolkit.region", "BlockRegion")
_ROWS = 12  # counts shown; the rest are summed in one line


def _headline(region: BlockRegion) -> str:
    parts = f"{region.requests} request{'s' * (region.requests != 1)}"
    return f"{region.describe()} ({parts}, {region.seconds:.2f} s)"


def _counts(region: BlockRegion) -> list[tuple[str, int]]:
    counts = region.counts()
    rows = [(clean_text(str(block)), int(n)) for block, n in counts.items()]
    if len(rows) > _ROWS:
        rest = sum(n for _, n in rows[_ROWS - 1 :])
        rows = [*rows[: _ROWS - 1], (f"… {len(rows) - _ROWS + 1} more kinds", rest)]
    return rows


def _picture(region: BlockRegion) -> str:
    try:
        from ...toolkit import picture_png
    except ImportError:
        return "<p><i>pip install mcbews-repl[lab] (matplotlib) for a picture</i></p>"
    try:
        png = picture_png(region)
    except ImportError:
        return "<p><i>pip install mcbews-repl[lab] (matplotlib) for a picture</i></p>"
    data = base64.b64encode(png).decode("ascii")
    width = int.from_bytes(png[16:20], "big")  # the PNG header's width: shown at its own size
    return (f"<img src='data:image/png;base64,{data}' width='{width}' "
            "style='max-width:100%;flex:none' alt='block region'>")  # fmt: skip


def region_html(region: BlockRegion) -> str:
    """The picture (top-down map and cross-section) beside the counts table."""
    rows = "".join(
        f"<tr><td style='text-align:left'>{escape_html(block)}</td><td>{n:,}</td></tr>"
        for block, n in _counts(region)
    )
    table = f"<table><tr><th>block</th><th>count</th></tr>{rows}</table>"
    return (
        f"<div><b>BlockRegion</b> {escape_html(_headline(region))}"
        f"<div style='display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start'>"
        f"{_picture(region)}{table}"
        "</div></div>"
    )


def region_text(region: BlockRegion) -> str:
    """The headline and the counts, for a terminal; ``.plot()`` draws the picture."""
    rows = _counts(region)
    width = max(len(block) for block, _ in rows)
    lines = [f"BlockRegion {clean_text(_headline(region))}"]
    lines += [f"  {block:<{width}}  {n:>8,}" for block, n in rows]
    lines.append("  (.counts() .to_frame() .heightmap() .plot())")
    return "\n".join(lines)
