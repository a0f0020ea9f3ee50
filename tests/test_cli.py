"""The ``mcbews-repl`` command as a person runs it: its help reads as plain text, and the demo
shows game text the way the player sees it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

COMMAND = str(Path(sys.executable).with_name("mcbews-repl"))


@pytest.mark.parametrize(
    "words", [["--help"], ["demo", "--help"], ["sim", "--help"], ["addon", "export", "--help"]]
)
def test_help_is_plain_text(words: list[str]) -> None:
    done = subprocess.run([COMMAND, *words], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "usage: mcbews-repl" in done.stdout
    assert "``" not in done.stdout  # no reStructuredText markup from a docstring


def test_help_says_what_the_command_does() -> None:
    done = subprocess.run([COMMAND, "--help"], capture_output=True, text=True, timeout=60)
    assert "demo: a bridge and a simulated world" in " ".join(done.stdout.split())


def test_the_demo_shows_clean_text_when_piped() -> None:
    done = subprocess.run([COMMAND, "demo"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "he sees: [assistant] Hello Steve! 你好 @a" in done.stdout
    assert "§" not in done.stdout


def test_the_demo_shows_the_game_colours_on_a_terminal() -> None:
    child = pexpect.spawn(COMMAND, ["demo"], encoding="utf-8", timeout=120)
    try:
        child.expect(r"he sees: (.*)\r\n")
        seen = child.match.group(1)
    finally:
        child.close(force=True)
    assert "\x1b[38;2;85;255;85m[assistant]\x1b[0m Hello Steve!" in seen and "§" not in seen
