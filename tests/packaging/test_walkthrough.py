"""docs/windows.md as the tests can run it here: every transcript after the install, each
PowerShell command run as its Linux equivalent in a temporary home folder, what it printed
read against the page. (``make wheel-smoke`` replays the install too, against the wheel.)"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcbews_repl import bundled

from .tools import REPO, clean_env
from .walkthrough import INSTALL, LAB, replay, steps

PAGE = (REPO / "docs" / "windows.md").read_text(encoding="utf-8")
COMMAND = Path(sys.executable).with_name("mcbews-repl")


def home_env(home: Path) -> dict[str, str]:
    return clean_env(HOME=str(home), USERPROFILE=str(home),
                     JUPYTER_CONFIG_DIR=str(home / ".jupyter"),
                     JUPYTER_DATA_DIR=str(home / ".jupyter-data"),
                     JUPYTER_RUNTIME_DIR=str(home / ".jupyter-runtime"))  # fmt: skip


def test_the_page_has_the_steps_a_newcomer_types() -> None:
    commands = [step.command for step in steps(PAGE)]
    assert commands[:5] == ["py -3.12 -m venv mcbews", r".\mcbews\Scripts\Activate.ps1",
                            "python -m pip install --upgrade pip", INSTALL, LAB]  # fmt: skip
    assert commands.count(LAB) == 2 and "mcbews-repl addon export" in commands


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_windows_walkthrough_reads_as_what_the_commands_print(tmp_path: Path) -> None:
    home = tmp_path / "ana"
    home.mkdir()
    problems = replay(PAGE, COMMAND, home, bundled.root(), home_env(home), install=None)
    assert problems == [], "\n\n".join(problems)
