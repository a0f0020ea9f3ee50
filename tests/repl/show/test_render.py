"""What a command result and a card look like: no empty line for a result without a
statusMessage (say, me), rows styled by the card itself, a player card that says where."""

from __future__ import annotations

import re
from typing import Any

from mcbews_repl.repl.show._render import card_html, command_html, command_text

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_a_result_without_a_message_shows_no_empty_line() -> None:
    text = command_text("say hi", True, 0, "", {"message": "hi", "time": "1.0 ms"})
    lines = text.splitlines()
    assert len(lines) == 3 and all(line.strip() for line in lines)
    assert "message:" in lines[1] and "hi" in lines[1]
    html = command_html("say hi", True, 0, "", {"message": "hi"})
    assert "<br>" not in html and ">hi</td>" in html


def test_a_result_with_a_message_shows_it_under_the_command() -> None:
    text = command_text("list", True, 0, "There are 2/10 players online:", {})
    assert text.splitlines()[1].strip() == "There are 2/10 players online:"
    html = command_html("list", True, 0, "There are 2/10 players online:", {})
    assert "<br>There are 2/10 players online:" in html


def test_body_fields_read_as_words_not_python_reprs(shell: Any) -> None:
    result = shell.run_line_magic("mc", "/tp Alex 3 64 -2")
    try:
        formatters = shell.display_formatter.formatters
        html = formatters["text/html"].lookup(result)(result)
        text = formatters["text/plain"](result)
        for shown in (html, text):
            assert "3.5, 64, -1.5" in shown and "Alex" in shown
            assert "{'x'" not in shown and "['Alex']" not in shown
    finally:
        shell.run_line_magic("mc", "/tp Alex 12.5 70 -8.5")


def test_the_player_card_says_where_and_how_they_play(shell: Any) -> None:
    steve = shell.user_ns["mc"].player("Steve").result(20)
    formatters = shell.display_formatter.formatters
    html = formatters["text/html"].lookup(steve)(steve)
    subtitle = re.findall(r"margin-bottom:4px'>([^<]*)</div>", html)
    assert subtitle == ["Survival in the overworld"], subtitle  # not the raw entity id
    text = ANSI.sub("", formatters["text/plain"](steve))
    assert text.splitlines()[0] == "Steve  Survival in the overworld"
    assert text.splitlines()[-1] == f"  entity id: {steve.data['id']}"  # still there, last


def test_card_rows_have_one_look_of_their_own() -> None:
    """Every row of a command card and of a card styles its own cells: the notebook's
    table stylesheet (right-aligned cells, striped rows) has nothing left to decide."""
    shown = [
        command_html("tp Alex 3 64 -2", True, 0, "Teleported Alex", {"a": 1, "b": 2, "c": 3}),
        card_html("Steve", "Survival in the overworld", [("a", 1), ("b", 2), ("c", 3)]),
    ]
    for html in shown:
        rows = re.findall(r"<tr[^>]*>.*?</tr>", html)
        assert len(rows) == 3
        for row in rows:
            assert "background:transparent" in row.split(">", 1)[0]
            cells = re.findall(r"<t[hd] style='([^']*)'", row)
            assert len(cells) == 2 and all("text-align:left" in c for c in cells), row
            assert all("background:transparent" in c for c in cells), row
