"""The renderings' muted colour, defined once: JupyterLab's theme variable first (so a
dark theme shows them right), a fallback for a page without it (the classic notebook,
nbconvert's HTML)."""

from __future__ import annotations

__all__ = ["MUTED", "MUTED_COLOUR"]

# Secondary text: labels, footers, "… 3 more", a map's grid numbers.
MUTED_COLOUR = "var(--jp-ui-font-color2, #888)"
MUTED = f"color:{MUTED_COLOUR}"
