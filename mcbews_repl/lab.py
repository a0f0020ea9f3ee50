"""``mcbews-repl lab [FOLDER]``: the notebooks in JupyterLab, on any system, without make.

It copies the bundled notebooks, and the docs, scripts and READMEs they link to, into a folder
of the user's (in the repository's layout, so a notebook's ``../docs/...`` links work), never
overwriting a file that is already there, then starts JupyterLab there on the getting-started
notebook (which connects the simulated world by default).

The default folder is ``mcbews-notebooks`` in the home folder, not the current directory: the
command may be typed from anywhere (PowerShell starts in the home folder, a terminal wherever
it was), and the second run should reopen the notebooks edited in the first, not make a new
set somewhere else.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import bundled
from .optional import require

__all__ = ["DEFAULT_FOLDER_NAME", "Copied", "copy_notebooks", "default_folder",
           "jupyterlab_command", "run_lab"]  # fmt: skip

DEFAULT_FOLDER_NAME = "mcbews-notebooks"


def default_folder() -> Path:
    """``~/mcbews-notebooks`` (on Windows ``C:\\Users\\<name>\\mcbews-notebooks``)."""
    return Path.home() / DEFAULT_FOLDER_NAME


@dataclass
class Copied:
    """What :func:`copy_notebooks` did, file by file (relative POSIX paths)."""

    folder: Path
    copied: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # already there, the same
    kept: list[str] = field(default_factory=list)  # already there and different: the user's

    def describe(self) -> str:
        """What the terminal shows: the folder, then what was copied, kept and unchanged."""
        lines = [f"Your notebooks: {self.folder}"]
        if self.copied:
            lines.append(f"  copied {_count(self.copied)} ({_kinds(self.copied)})")
        if self.kept:
            lines.append(
                f"  kept {_count(self.kept)} you changed (delete one to get this version's "
                "copy back):"
            )
            kept = ", ".join(str(Path(name)) for name in self.kept)  # Windows: backslashes
            lines += textwrap.wrap(kept, 92, initial_indent="    ", subsequent_indent="    ",
                                   break_on_hyphens=False)  # fmt: skip
        if self.unchanged:
            lines.append(f"  {_count(self.unchanged)} already there and up to date")
        return "\n".join(lines)


def _count(names: list[str]) -> str:
    return f"{len(names)} file" + ("" if len(names) == 1 else "s")


def _kinds(names: list[str]) -> str:
    """ "README.md, docs, notebooks ...": the top-level parts copied, in bundle order."""
    order = list(dict.fromkeys(key.split("/")[0] for key in bundled.CONTENTS))
    tops = {name.split("/")[0] for name in names}
    return ", ".join(top for top in order if top in tops)


def copy_notebooks(folder: Path) -> Copied:
    """Copy every bundled file that ``folder`` lacks; leave every file it has alone.

    Raises:
        OSError: the folder cannot be made or written (the message names the path).
        FileNotFoundError: the installation holds no notebooks (see :func:`bundled.root`).
    """
    source = bundled.root()
    report = Copied(folder.resolve())
    for relative in bundled.files(source):
        target = folder / relative
        if target.exists():
            same = filecmp.cmp(source / relative, target, shallow=False)
            (report.unchanged if same else report.kept).append(relative)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / relative, target)
        report.copied.append(relative)
    return report


def jupyterlab_command(folder: Path, extra: Sequence[str] = ()) -> list[str]:
    """JupyterLab through this interpreter (``python -m jupyterlab``: no script on PATH
    needed, the same on Windows), serving ``folder``, opening the getting-started notebook.

    As root, JupyterLab refuses to start without ``--allow-root`` (a container, CI), so it
    is passed there as ``make run`` does.
    """
    words = [
        sys.executable, "-m", "jupyterlab",
        f"--ServerApp.root_dir={folder}",
        f"--LabApp.default_url=/lab/tree/{bundled.GETTING_STARTED}",
    ]  # fmt: skip
    if getattr(os, "geteuid", lambda: 1)() == 0 and "--allow-root" not in extra:
        words.append("--allow-root")
    return [*words, *extra]


def run_lab(folder: Path | None, extra: Sequence[str] = ()) -> int:
    """``mcbews-repl lab``: copy, say what was copied and kept, start JupyterLab and wait.

    Raises:
        MissingDependency: JupyterLab is not installed (checked before anything is copied).
    """
    require("jupyterlab", "mcbews-repl lab")
    report = copy_notebooks(folder or default_folder())
    print(report.describe())
    notebook = Path(*bundled.GETTING_STARTED.split("/"))
    print(f"Starting JupyterLab on {notebook}; press Ctrl+C twice to stop it.", flush=True)
    server = subprocess.Popen(jupyterlab_command(report.folder, extra))
    while True:
        try:
            return server.wait()
        except KeyboardInterrupt:
            continue  # JupyterLab has the same Ctrl+C: it asks, or stops, on its own
