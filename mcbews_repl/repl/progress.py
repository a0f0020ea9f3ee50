"""A progress bar for long text deliveries in a notebook."""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["progress_bar"]


def progress_bar(text_length: int) -> Callable[[int, int], None] | None:
    """A progress bar for long deliveries in a notebook (no bar for short texts)."""
    # Below this many characters a delivery takes about a second: a bar would only flicker.
    if text_length < 2000 or "ipykernel" not in sys.modules:
        return None
    from IPython.display import HTML, display

    handle = display(HTML(""), display_id=True)  # type: ignore[no-untyped-call]

    def update(sent: int, total: int) -> None:
        if handle is not None:
            pct = 100 * sent // max(total, 1)
            handle.update(
                HTML(  # type: ignore[no-untyped-call]
                    f"<progress value='{sent}' max='{total}'></progress> "
                    f"{sent}/{total} frames ({pct}%)"
                )
            )

    return update
