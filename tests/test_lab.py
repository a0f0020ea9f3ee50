"""``mcbews-repl lab``: the notebooks and the docs they link to copied into a folder of the
user's, a file already there never overwritten (and named), JupyterLab started through this
interpreter on the getting-started notebook, serving that folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from mcbews_repl import bundled
from mcbews_repl.lab import copy_notebooks, default_folder, jupyterlab_command

from .packaging.walkthrough import contents_status, free_port, start_lab, stop

NOTEBOOK = "notebooks/01_getting_started.ipynb"
COMMAND = Path(sys.executable).with_name("mcbews-repl")


def test_the_default_folder_is_in_the_home_folder(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:  # fmt: skip
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_folder() == tmp_path / "mcbews-notebooks"


def test_an_empty_folder_gets_everything_in_the_repositorys_layout(tmp_path: Path) -> None:
    copied = copy_notebooks(tmp_path / "notes")
    assert copied.copied == bundled.files() and not copied.kept and not copied.unchanged
    assert (tmp_path / "notes" / NOTEBOOK).read_bytes() == (bundled.root() / NOTEBOOK).read_bytes()
    assert (tmp_path / "notes" / "docs" / "capabilities.md").is_file()  # notebook 05's link
    assert copied.describe().splitlines() == [
        f"Your notebooks: {tmp_path / 'notes'}",
        f"  copied {len(bundled.files())} files (README.md, LICENSE, addon, docs, notebooks, "
        "magics)",
    ]


def test_a_file_already_there_is_never_overwritten(tmp_path: Path) -> None:
    copy_notebooks(tmp_path)
    edited = tmp_path / NOTEBOOK
    edited.write_text("my own notebook", encoding="utf-8")
    (tmp_path / "docs" / "sim.md").unlink()
    again = copy_notebooks(tmp_path)
    assert edited.read_text(encoding="utf-8") == "my own notebook"
    assert again.copied == ["docs/sim.md"] and again.kept == [NOTEBOOK]
    assert again.describe().splitlines()[1:] == [
        "  copied 1 file (docs)",
        "  kept 1 file you changed (delete one to get this version's copy back):",
        f"    {Path(NOTEBOOK)}",
        f"  {len(bundled.files()) - 2} files already there and up to date",
    ]


def test_jupyterlab_runs_through_this_python_on_the_getting_started_notebook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000, raising=False)
    assert jupyterlab_command(tmp_path, ["--no-browser"]) == [
        sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={tmp_path}",
        f"--LabApp.default_url=/lab/tree/{NOTEBOOK}", "--no-browser",
    ]  # fmt: skip
    monkeypatch.setattr(os, "geteuid", lambda: 0, raising=False)
    assert "--allow-root" in jupyterlab_command(tmp_path)  # JupyterLab refuses root without
    monkeypatch.delattr(os, "geteuid", raising=False)  # Windows has no geteuid
    assert "--allow-root" not in jupyterlab_command(tmp_path)


def test_lab_without_jupyterlab_names_the_extra_and_copies_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcbews_repl.cli import main

    monkeypatch.setitem(sys.modules, "jupyterlab", None)  # as if not installed
    assert main(["lab", str(tmp_path / "notes")]) == 1
    assert capsys.readouterr().err == (
        "mcbews-repl: mcbews-repl lab needs jupyterlab, which is not installed; it comes with "
        'the lab extra: python -m pip install "mcbews-repl[lab]"\n'
    )
    assert not (tmp_path / "notes").exists()


@pytest.mark.slow
@pytest.mark.timeout(300)  # JupyterLab's start on a busy machine
def test_the_url_it_prints_opens_the_notebook_and_its_docs(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path), "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"),
           "JUPYTER_DATA_DIR": str(tmp_path / "data"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt")}  # fmt: skip
    command = [str(COMMAND), "lab", "--no-browser", f"--port={free_port()}"]
    server, url = start_lab(command, env, tmp_path)
    try:
        assert f"/lab/tree/{NOTEBOOK}?token=" in url
        assert contents_status(url, NOTEBOOK) == 200
        assert contents_status(url, "docs/capabilities.md") == 200  # notebook 05's link
    finally:
        stop(server)
    assert (tmp_path / "mcbews-notebooks" / NOTEBOOK).is_file()  # the default folder
