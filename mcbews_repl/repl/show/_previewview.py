"""How a ``WritePreview`` (``mc.map(preview=region, at=origin)``) looks: its headline, the box
from above before and after the write with the columns that change marked in red, and in a
terminal a character map of those columns. Registered by type name, so numpy loads only when
a preview is shown."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING

from ...cleantext import clean_text, escape_html
from ...optional import needs

if TYPE_CHECKING:
    from ...toolkit import WritePreview

__all__ = ["PREVIEW_TYPE", "preview_html", "preview_text"]

PREVIEW_TYPE = ("mcbews_repl.toolkit.preview", "WritePreview")
_PIXELS = 256  # the longer side of each picture, in screen pixels
_LEGEND = "# a column that would change, . one that would not (x across, z down, north up)"


def _img(png: bytes, alt: str, width: float, height: float, extra: str = "") -> str:
    data = base64.b64encode(png).decode("ascii")
    return (
        f"<img src='data:image/png;base64,{data}' alt='{alt}' width='{width:.0f}' "
        f"height='{height:.0f}' style='image-rendering:pixelated;{extra}'/>"
    )


def _changes_png(preview: WritePreview) -> bytes:
    with needs("mc.map(preview=...)"):
        import numpy as np

    from ...toolkit import BlockRegion, surface_png

    cols = preview.columns
    ids = cols[:, None, :].astype(np.uint16)  # one block high: red where a column changes
    return surface_png(BlockRegion((0, 0, 0), ids, ("minecraft:air", "minecraft:red_concrete")))


def preview_html(preview: WritePreview) -> str:
    """The headline, and before and after side by side (the changes marked on the after)."""
    from ...toolkit import surface_png

    sx, _, sz = preview.before.size
    scale = _PIXELS / max(sx, sz)
    w, h = sx * scale, sz * scale
    before = _img(surface_png(preview.before), "before", w, h)
    after = _img(surface_png(preview.after), "after", w, h)
    marks = _img(_changes_png(preview), "what changes", w, h,
                 "position:absolute;left:0;top:0;opacity:0.55")  # fmt: skip
    caption = "<div style='font-size:0.85em;opacity:.7'>{}</div>"
    return (
        f"<div class='mcbews-preview'><div><b>WritePreview</b> "
        f"{escape_html(clean_text(preview.describe()))}</div>"
        "<div style='display:flex;gap:12px'>"
        f"<div>{before}{caption.format('before (from above)')}</div>"
        f"<div><div style='position:relative'>{after}{marks}</div>"
        f"{caption.format('after: red where a column would change')}</div>"
        "</div><div style='font-size:0.85em'>nothing is written until "
        "mc.set_blocks (or mc.build) is called</div></div>"
    )


def preview_text(preview: WritePreview) -> str:
    """The headline, the columns that would change as characters, and the legend."""
    rows = preview.text_map()
    width = max((len(r) for r in rows), default=0)
    lines = [f"WritePreview {clean_text(preview.describe())}", "+" + "-" * width + "+"]
    lines += ["|" + r.ljust(width) + "|" for r in rows]
    lines += ["+" + "-" * width + "+", f"  {_LEGEND}",
              "  (nothing is written until mc.set_blocks or mc.build is called)"]  # fmt: skip
    return "\n".join(lines)
