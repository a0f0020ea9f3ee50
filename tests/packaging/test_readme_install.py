"""The README offers the pip path first, Windows beside Linux and macOS, with the same
commands as the Windows walkthrough, and sends no reader to the clone's ``.venv`` to reach a
command."""

from __future__ import annotations

import re

from .tools import REPO
from .walkthrough import INSTALL, LAB, steps

README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_pip_path_comes_before_make() -> None:
    headings = re.findall(r"^## (.+)$", README, flags=re.M)
    assert headings.index("Install") < headings.index("From a clone: two commands")
    assert README.index("mcbews-repl lab") < README.index("make run")


def test_windows_and_linux_side_by_side_with_the_walkthroughs_commands() -> None:
    rows = [line for line in section("Install").splitlines() if line.startswith("| ")]
    assert rows[0] == "| step | Windows (PowerShell) | Linux and macOS (a terminal) |"
    windows = [re.findall(r"`([^`]+)`", row.split(" | ")[1]) for row in rows[1:]]
    typed = {step.command for step in steps((REPO / "docs" / "windows.md").read_text("utf-8"))}
    assert [w[0] for w in windows][1:] == [
        r".\mcbews\Scripts\Activate.ps1",
        "python -m pip install --upgrade pip",
        INSTALL,
        LAB,
    ]
    assert {w[0] for w in windows[1:]} <= typed  # the walkthrough replays them
    assert "source mcbews/bin/activate" in rows[2]


def test_connecting_a_real_world_needs_no_venv_path() -> None:
    first_step = section("Connecting a real world").split("\n2. ", 1)[0]
    assert "`mcbews-repl addon export`" in first_step
    assert ".venv/bin/" not in first_step
