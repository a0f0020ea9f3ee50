"""The notebooks as committed: clean (no outputs to copy a stale token from), and the first
one leads to every other by a link. Fast: the files are read, not run (test_notebooks.py
runs them)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from .clean import clean

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
ALL = sorted(NOTEBOOKS.glob("*.ipynb"))


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_a_committed_notebook_holds_no_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    assert clean(nb) == nb, f"{path.name} holds outputs of a run: make notebooks clears them"
    text = path.read_text(encoding="utf-8")
    # No old token a reader might type (a placeholder such as <token> may stand there).
    assert not re.search(r"/connect [\w.:\[\]-]+:\d+/(?!<)", text), "an old run's token"
    assert not re.search(r"20\d\d-\d\d-\d\dT\d\d:\d\d", text)  # no times of an old run


def test_the_first_notebook_links_to_every_other() -> None:
    first = nbformat.read(ALL[0], as_version=4)
    after = "".join(c.source for c in first.cells if c.cell_type == "markdown").split("## Next")
    assert len(after) == 2, "01 has a Next section"
    linked = re.findall(r"\[[^\]]+\]\(([\w.]+\.ipynb)\)", after[1])
    assert linked == [p.name for p in ALL[1:]], linked  # every one, in order, as a link
