"""The notebooks as they are committed: no outputs, no execution counts, no run metadata.

A saved output holds what one run printed: the ``/connect`` line with its port and token
(which a reader might type into a game where no bridge listens on it), the times of that
run, widget state. Every reader runs the notebooks afresh (against the simulated world, in
JupyterLab or in the tests), and the README's pictures are taken by the browser test, so
the committed files carry the code and the prose alone.

    .venv/bin/python tests/notebooks/clean.py notebooks/*.ipynb   (make notebooks)

``test_notebooks.py`` checks every committed notebook is already clean.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import nbformat

__all__ = ["clean", "main"]

# Metadata a run leaves: the widgets' saved state (notebook) and the kernel's timings (cell).
RUN_NOTEBOOK_METADATA = ("widgets",)
RUN_CELL_METADATA = ("execution", "scrolled", "collapsed")


def clean(nb: Any) -> Any:
    """A copy of ``nb`` without what a run leaves in it."""
    out = copy.deepcopy(nb)
    for key in RUN_NOTEBOOK_METADATA:
        out.metadata.pop(key, None)
    for cell in out.cells:
        for key in RUN_CELL_METADATA:
            cell.metadata.pop(key, None)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return out


def main(paths: list[str]) -> int:
    for name in paths:
        path = Path(name)
        nb = nbformat.read(path, as_version=4)
        cleaned = clean(nb)
        if cleaned != nb:
            nbformat.write(cleaned, path)
            print(f"cleaned {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
