"""What ``%mc`` says about recent calls, read from a real shell's output: a capability that
ran and failed says why, one the addon would not run says it refused, and a long line is
cut between words (or after a JSON token), never inside one."""

from __future__ import annotations

import re
from typing import Any

import pytest

from mcbews_repl import CapabilityError

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def panel(shell: Any, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    shell.run_cell("%mc")
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


def test_a_capability_that_failed_says_why(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    mc = shell.user_ns["mc"]
    with pytest.raises(CapabilityError):
        mc.inventory("Nobody").result(20)
    shown = " ".join(panel(shell, capsys).split())  # the panel wraps long rows
    assert "get_inventory_snapshot failed: no player named Nobody is online (" in shown, shown
    assert "get_inventory_snapshot refused" not in shown


def test_a_capability_the_addon_would_not_run_is_refused(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    mc = shell.user_ns["mc"]
    with pytest.raises(CapabilityError):
        mc.call("no_such_cap").result(20)
    shown = " ".join(panel(shell, capsys).split())
    assert "no_such_cap refused: UNSUPPORTED_CAPABILITY: no such capability: no_such_cap (" in shown


def test_a_long_command_is_cut_between_words(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    mc = shell.user_ns["mc"]
    line = 'scriptevent demo:note {"greeting":"hello there everyone","names":["Steve","Alex"]}'
    mc.command(line).result(20)
    shown = panel(shell, capsys)
    [row] = [r for r in shown.splitlines() if "/scriptevent demo:note" in r]
    cut = row.split("/", 1)[1].split("…")[0]
    assert "…" in row and line.startswith(cut), row
    after = line[len(cut)]
    assert after.isspace() or cut[-1] in ",:{}[]", (cut, after)  # not inside a word


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("short enough", 20, "short enough"),
        ("the bridge paces its frames so the game keeps up", 24, "the bridge paces its…"),
        ('{"target":"@a","radius":12}', 20, '{"target":"@a",…'),
        ("x" * 30, 10, "xxxxxxxxx…"),  # one word longer than the room: the one thing cut
    ],
)
def test_shorten_cuts_at_a_boundary(text: str, limit: int, expected: str) -> None:
    from mcbews_repl.repl.show._status import shorten

    assert shorten(text, limit) == expected
    assert len(shorten(text, limit)) <= limit
