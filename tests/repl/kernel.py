"""Cells run in a real Jupyter kernel (nbclient), read back by name."""

from __future__ import annotations

from typing import Any

import nbformat
from nbclient import NotebookClient


def run_in_kernel(
    cells: dict[str, str], *, timeout: int = 90, allow_errors: bool = False
) -> dict[str, Any]:
    """Run ``cells`` in order in one fresh kernel; each executed cell under its name."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells.values()])
    NotebookClient(nb, timeout=timeout, kernel_name="python3", allow_errors=allow_errors).execute()
    return dict(zip(cells, nb.cells, strict=True))
