"""What a command result looks like when the game gives it no statusMessage (say, me)."""

from __future__ import annotations

from typing import Any

from mcbews_repl.repl.render import command_html, command_text


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
