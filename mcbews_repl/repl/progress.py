"""Progress bars for long deliveries and reads in a notebook (none at a terminal)."""

from __future__ import annotations

import sys
from collections.abc import Callable

__all__ = ["blocks_bar", "progress_bar", "samples_bar"]

Update = Callable[[int, int], None]


def _bar(unit: str) -> Update | None:
    if "ipykernel" not in sys.modules:
        return None
    from IPython.display import HTML, display

    handle = display(HTML(""), display_id=True)  # type: ignore[no-untyped-call]

    def update(done: int, total: int) -> None:
        if handle is not None:
            pct = 100 * done // max(total, 1)
            handle.update(
                HTML(  # type: ignore[no-untyped-call]
                    f"<progress value='{done}' max='{total}'></progress> "
                    f"{done}/{total} {unit} ({pct}%)"
                )
            )

    return update


def progress_bar(text_length: int) -> Update | None:
    """A progress bar for long text deliveries (no bar for short texts)."""
    # Below this many characters a delivery takes about a second: a bar would only flicker.
    if text_length < 2000:
        return None
    return _bar("frames")


def blocks_bar(volume: int, parts: int) -> Update | None:
    """A progress bar for a block read that takes more than one request."""
    return _bar(f"blocks in {parts} parts") if parts > 1 else None


def samples_bar(samples: int) -> Update | None:
    """A progress bar for ``mc.track``: the snapshots taken so far."""
    return _bar("snapshots") if samples > 1 else None
