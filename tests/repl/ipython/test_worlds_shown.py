"""What a person sees with several worlds connected, read from a real shell's output.

The shell's world is ``%mc sim``'s (Steve); ``%mc sim --worlds 2`` adds a class of two
(Ana, Ben). A call not told which world, the status panel, ``%mc worlds`` and the
``--all`` / ``--world`` forms are run as typed, and the test reads what was printed.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def shown_by(shell: Any, capsys: pytest.CaptureFixture[str], code: str) -> str:
    shell.run_cell(code)
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


@pytest.fixture(scope="module")
def classroom(shell: Any) -> Any:
    shell.run_line_magic("mc", "sim --worlds 2")
    return shell


def test_a_call_not_told_which_world_says_so(
    classroom: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = {
        "await mc.players()": "players()",
        "%mc players": "players()",
        "%mc /say hi": "command('say hi')",
        "await mc.inventory()": "inventory()",
    }
    for code, called in asked.items():
        shown = shown_by(classroom, capsys, code)
        assert "WhichWorld: 3 worlds are connected (Steve (id 1), Ana (id " in shown, code
        assert f"so this call needs to be told which: mc.world('Steve').{called}" in shown
        assert "%mc --world NAME ... or %mc --all ..." in shown
        assert "Traceback" not in shown  # one short message, as for every error of ours


def test_the_status_panel_groups_by_world(
    classroom: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(classroom, capsys, "%mc")
    assert "3 games connected" in shown
    for name in ("Steve", "Ana", "Ben"):
        assert re.search(rf"{name} \(#\d+\): connected since \d\d:\d\d:\d\d: {name}'s game "
                         r"from 127\.0\.0\.1:\d+", shown), name  # fmt: skip


def test_all_and_world_forms_show_tables(
    classroom: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(classroom, capsys, "%mc --all players")
    header = next(line for line in shown.splitlines() if "world" in line)
    assert header.split()[:2] == ["world", "name"] and "error" not in header
    rows = [line.split()[:2] for line in shown.splitlines() if line.split()[:1] in
            (["Steve"], ["Ana"], ["Ben"])]  # fmt: skip
    assert rows == [["Steve", "Steve"], ["Steve", "Alex"], ["Ana", "Ana"], ["Ben", "Ben"]]
    shown = shown_by(classroom, capsys, "%mc --world Ana players")
    assert "Ana" in shown and "Steve" not in shown and "Ben" not in shown
    shown = shown_by(classroom, capsys, "%mc --all /give @a bread 1")
    assert shown.count("Gave Bread * 1 to") == 3
    shown = shown_by(classroom, capsys, "%mc --world Nobody players")
    assert "UsageError: %mc --world: no world 'Nobody'; connected: Steve (id 1)" in shown
    shown = shown_by(classroom, capsys, "%mc --all caps")
    assert "UsageError: usage: %mc --all players | inv [name] | /<command>" in shown


def test_who_is_connected_and_who_dropped(
    classroom: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    classroom.run_cell("mc.world('Ben').close()")
    mc = classroom.user_ns["mc"]
    deadline = time.monotonic() + 20
    while len(mc.connections) > 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    capsys.readouterr()
    shown = shown_by(classroom, capsys, "%mc")
    assert "2 games connected, 1 dropped" in shown
    assert re.search(r"Ben \(#\d+\): dropped at \d\d:\d\d:\d\d \(was 127\.0\.0\.1:\d+\); "
                     "keeps its name when it connects again", shown)  # fmt: skip
    assert re.search(r"\d\d:\d\d:\d\d: Ben \(#\d+\) left", shown)
    listing = shown_by(classroom, capsys, "%mc worlds")
    ben = next(line for line in listing.splitlines() if " Ben " in f" {line} ")
    assert "no, dropped" in ben and "False" not in ben
    assert shown_by(classroom, capsys, "await mc.players()").count("WhichWorld: 2 worlds") == 1


def test_tab_completes_the_worlds(classroom: Any) -> None:
    from mcbews_repl.repl.ipython._completion import candidates

    mc = classroom.user_ns["mc"]
    assert candidates("%mc --", mc) == ("--", ["--all", "--world"])
    assert candidates("%mc --world A", mc) == ("A", ["Ana"])
    assert candidates("%mc --world Ana pl", mc) == ("pl", ["player", "players"])
    assert candidates("%mc --all p", mc) == ("p", ["players"])


def test_a_world_handle_shows_its_own_game(
    classroom: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(classroom, capsys, "mc.world('Ana')")
    assert re.search(r"<world Ana \(id \d+\) from 127\.0\.0\.1:\d+; mc.world\('Ana'\)", shown)
    shown = shown_by(classroom, capsys, "mc.world('Ana').status()")
    assert "1 game connected" in shown
    assert re.search(r"game #\d+: Ana's game from 127\.0\.0\.1:\d+", shown)
    assert "Steve's game" not in shown and "Ben" not in shown


def test_the_list_of_worlds_reads_as_a_table(
    classroom: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = shown_by(classroom, capsys, "mc.worlds")
    header, *rows = [line for line in listing.splitlines()
                     if line.strip() and not line.startswith("Out[")]  # fmt: skip
    assert header.split()[:4] == ["id", "name", "connected", "address"], header
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", listing)  # times to the second, no µs
    steve = next(row for row in rows if " Steve " in f" {row} ")
    assert re.match(r"\s*1\s+Steve\s+yes, since \d\d:\d\d:\d\d\s+127\.0\.0\.1:\d+", steve), steve
    # the latest event in words ("answers through ..."), never a bare kind ("transport")
    assert not re.search(r"\d\d:\d\d:\d\d (transport|capability|command)\b", listing), listing
    worlds = classroom.user_ns["mc"].worlds  # a terminal has HTML off: what a notebook uses
    html = classroom.display_formatter.formatters["text/html"].lookup(worlds)(worlds)
    assert "mcbews-table" in html and ">id</th>" in html and "<th>id</th>" not in html
