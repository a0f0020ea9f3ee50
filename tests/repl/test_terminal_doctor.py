"""The doctor and the recorder as terminal users see them, read from a pseudo-terminal
(pexpect): %mc doctor's table in terminal IPython, %mc record's card, and the
``mcbews-repl doctor`` command checking a simulated game that runs in another process."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from mcbews_repl.capture import read_capture

from .test_terminal_display import ANSI, Terminal

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

COMMAND = str(Path(sys.executable).with_name("mcbews-repl"))
GREEN_OK, RED_FAILED = "\x1b[1;32m✓ ok", "\x1b[1;31m✗ failed"


@pytest.fixture(scope="module")
def terminal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Terminal]:
    term = Terminal(tmp_path_factory.mktemp("ipython"))
    try:
        term.run("%load_ext mcbews_repl")
        term.run("%mc sim")
        yield term
    finally:
        term.close()


def test_the_doctor_prints_a_table_in_terminal_ipython(terminal: Terminal, tmp_path: Path) -> None:
    shown = terminal.run(f"%mc doctor --capture {tmp_path}/doctor.jsonl")
    plain = ANSI.sub("", shown)
    assert "Checking Steve's game; this takes a few seconds" in plain
    assert "mcbews doctor: Steve's game from 127.0.0.1:" in plain
    assert shown.count(GREEN_OK) == 4 and shown.count("\x1b[1;33m? unsure") == 2
    for name in ("The connection", "Commands answer", "Events flow", "The addon answers",
                 "Text display", "Command limits"):  # fmt: skip
        assert re.search(rf"│ \d │ {name}", plain), name
    assert "4 of 6 checks ok, nothing failed" in plain
    assert f"saved to {tmp_path}/doctor.jsonl" in plain.replace("\n", "").replace("│", "")
    assert read_capture(tmp_path / "doctor.jsonl").header.complete


def test_record_shows_its_card_and_stops(terminal: Terminal, tmp_path: Path) -> None:
    started = ANSI.sub("", terminal.run(f"%mc record {tmp_path}/s.jsonl --redact"))
    assert "recording  every frame both ways" in started and "redacted: yes" in started
    terminal.run("%mc /say hello from the terminal")
    stopped = ANSI.sub("", terminal.run("%mc record stop"))
    assert "recording stopped  the capture is complete" in stopped
    assert "why it stopped: stopped on request" in stopped
    [call] = read_capture(tmp_path / "s.jsonl").calls
    assert call.request["line"] == "say hello from the terminal"


def table_rows(output: str) -> list[list[str]]:
    """The cells of the rich table on the screen: each cell's lines joined back together."""
    rows: list[list[str]] = []
    current: list[str] | None = None
    for line in ANSI.sub("", output).replace("\r", "").splitlines():
        if line.startswith(("├", "┡", "└")):
            if current is not None:
                rows.append([" ".join(cell.split()) for cell in current])
            current = None
        elif line.startswith("│"):
            cells = line.strip("│").split("│")
            current = (
                cells
                if current is None
                else [a + " " + b for a, b in zip(current, cells, strict=True)]
            )
    return rows


def run_doctor_against(tmp_path: Path, *sim_flags: str) -> tuple[str, int]:
    """``mcbews-repl doctor`` in a terminal, a ``mcbews-repl sim`` process as its game."""
    child = pexpect.spawn(
        COMMAND,
        ["doctor", "--port", "0", "--wait", "60", "--capture", str(tmp_path / "cli.jsonl")],
        encoding="utf-8", timeout=90, dimensions=(60, 160),
    )  # fmt: skip
    try:
        child.expect(r"listens on (ws://\S+)")
        url = child.match.group(1)
        child.expect("/connect 127.0.0.1:")
        game = subprocess.Popen([COMMAND, "sim", "--url", url, "--fast", *sim_flags],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        child.expect(pexpect.EOF)
        game.wait(30)
        output = child.before
    finally:
        child.close(force=True)
    return output, child.exitstatus


def test_the_command_checks_a_game_and_saves_the_session(tmp_path: Path) -> None:
    output, status = run_doctor_against(tmp_path)
    assert status == 0, output
    assert "Checking Steve's game from 127.0.0.1:" in output
    assert output.count(GREEN_OK) == 4
    assert "4 of 6 checks ok, nothing failed" in ANSI.sub("", output)
    capture = read_capture(tmp_path / "cli.jsonl")
    assert not capture.facts(1)["joined_late"] and capture.header.redacted
    assert capture.frames[0].dir == "out" and "ws:encrypt" in (capture.frames[0].text or "")


def test_the_command_says_what_to_do_when_the_pack_is_missing(tmp_path: Path) -> None:
    output, status = run_doctor_against(tmp_path, "--no-addon")
    assert status == 1
    rows = table_rows(output)
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    _, name, result, seen, advice = rows[3]
    assert (name, result) == ("The addon answers", "✗ failed") and RED_FAILED in output
    assert "mcbews:pull is an unknown command here" in seen
    assert "the beta pack's player MCBEWS_BRIDGE is not in the world" in seen
    assert "no mcbews pack runs in this world" in advice and "Beta APIs" in advice
    caption = " ".join(ANSI.sub("", output).split())
    assert "1 check(s) failed; start with 4. The addon answers" in caption


def test_the_command_gives_up_when_no_game_comes(tmp_path: Path) -> None:
    done = subprocess.run(
        [COMMAND, "doctor", "--port", "0", "--wait", "0.5", "--capture", str(tmp_path / "x.jsonl")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "/connect 127.0.0.1:" in done.stdout and "No game connected within 0.5 s." in done.stdout
