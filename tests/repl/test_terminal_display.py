"""What terminal IPython shows, read from its screen (pexpect): the README's transcript replayed,
our errors as one short red line, other errors with their traceback, a bad %mc serve that
leaves the bridge working, and a stopped bridge that says so.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

README = Path(__file__).resolve().parents[2] / "README.md"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# What changes from run to run: ports and tokens, times, durations.
VOLATILE = [
    (re.compile(r"127\.0\.0\.1:\d+/[0-9a-f]{8}"), "127.0.0.1:PORT/TOKEN"),
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:PORT"),
    (re.compile(r"\b\d\d:\d\d:\d\d\b"), "HH:MM:SS"),
    (re.compile(r"\d+\.\d ms"), "N ms"),
]


def normal(line: str) -> str:
    line = ANSI.sub("", line).replace("\r", "").rstrip()
    for pattern, replacement in VOLATILE:
        line = pattern.sub(replacement, line)
    return line


class Terminal:
    """Terminal IPython in a pseudo-terminal; ``run`` types a line and returns the screen."""

    def __init__(self, tmp_path: Path) -> None:
        ipython = str(Path(sys.executable).with_name("ipython"))
        self.child = pexpect.spawn(
            ipython,
            ["--simple-prompt", "--no-banner", f"--ipython-dir={tmp_path}",
             "--HistoryManager.enabled=False"],
            encoding="utf-8",
            timeout=60,
            dimensions=(50, 200),
            env={"MCBEWS_PORT": "0", "TERM": "xterm-256color",
                 "PATH": str(Path(sys.executable).parent)},
        )  # fmt: skip
        self.child.expect(r"In \[1\]: ")

    def run(self, line: str) -> str:
        self.child.sendline(line)
        self.child.expect(r"In \[\d+\]: ")
        shown = self.child.before.split("\n", 1)[1] if "\n" in self.child.before else ""
        return shown

    def close(self) -> None:
        self.child.sendline("exit")
        self.child.expect(pexpect.EOF)
        self.child.close(force=True)


@pytest.fixture(scope="module")
def terminal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Terminal]:
    term = Terminal(tmp_path_factory.mktemp("ipython"))
    try:
        yield term
    finally:
        term.close()


def readme_session() -> list[tuple[str, list[str]]]:
    """The README's terminal transcript as (input, expected output lines)."""
    text = README.read_text(encoding="utf-8")
    block = text.split("In terminal IPython a session reads", 1)[1]
    block = block.split("```text\n", 1)[1].split("```", 1)[0]
    session: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if match := re.match(r"In \[\d+\]: (.*)", line):
            session.append((match[1], []))
        elif session:
            session[-1][1].append(line)
    return session


def test_the_readme_transcript_is_what_ipython_shows(terminal: Terminal) -> None:
    session = readme_session()
    assert len(session) >= 5
    for typed, expected in session:
        shown = [normal(line) for line in terminal.run(typed).splitlines()]
        # Each line the README shows appears, in order ("…" stands for lines left out).
        position = 0
        for want in (normal(w) for w in expected):
            if want in ("", "…"):
                continue
            found = next((k for k in range(position, len(shown)) if shown[k] == want), None)
            assert found is not None, f"{typed!r}: README line {want!r} not in {shown}"
            position = found + 1


def test_the_map_in_a_terminal_is_a_text_map(terminal: Terminal) -> None:
    # (after the transcript above, so the simulated world is connected)
    shown = [normal(line) for line in terminal.run("%mc map").splitlines()]
    start = next(k for k, line in enumerate(shown) if line.startswith("overworld, x "))
    assert "north is up" in shown[start]
    grid = shown[start + 2 : start + 20]
    assert all(row.startswith("|") and row.endswith("|") for row in grid), grid
    marks = "".join(grid)
    assert marks.count("S") == 1 and marks.count("A") == 1 and "c" in marks and "z" in marks
    assert "  S  Steve at 0.5, 64, 0.5" in shown and "  A  Alex at 12.5, 70, -8.5" in shown
    assert not any("MCBEWS_BRIDGE" in line for line in shown)


def test_our_errors_are_one_red_line_others_keep_their_traceback(terminal: Terminal) -> None:
    shown = terminal.run("%mc call get_inventory_snapshot player=123")
    assert "\x1b[1;31mCapabilityError:" in shown
    plain = ANSI.sub("", shown)
    assert 'unknown parameter "player" for get_inventory_snapshot; accepted: target' in plain
    assert "%mc caps lists each capability's parameters." in plain
    assert "Traceback" not in plain
    other = ANSI.sub("", terminal.run("1 / 0"))
    assert "Traceback (most recent call last)" in other and "ZeroDivisionError" in other


def test_a_bad_serve_leaves_the_bridge_working_and_stop_says_so(terminal: Terminal) -> None:
    shown = ANSI.sub("", terminal.run("%mc serve --port 99999"))
    assert shown.startswith("UsageError: %mc serve: argument --port: 99999 is not a port")
    assert "Traceback" not in shown
    assert "True" in terminal.run("(await mc.command('say still here')).ok")
    assert "Bridge stopped" in terminal.run("%mc stop")
    stopped = ANSI.sub("", terminal.run("await mc.players()"))
    assert stopped.startswith("BridgeStopped: the bridge that listened on ws://127.0.0.1:")
    assert "Start it again with %mc serve." in stopped
    panel = ANSI.sub("", terminal.run("mc"))
    assert "stopped; %mc serve starts a new one" in panel and "listening" not in panel
