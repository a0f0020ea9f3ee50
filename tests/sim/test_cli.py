"""``mcbews-repl sim``'s log lines reach a terminal: they show control characters as marks."""

from __future__ import annotations

import logging

from mcbews_repl.sim.cli import _CleanFormatter


def test_log_lines_show_control_characters_as_marks() -> None:
    record = logging.LogRecord("mcbews_repl.sim", logging.DEBUG, __file__, 1,
                               "ran %s", ("tell \x1b]0;pwned\x07Eve\u202e hi",), None)  # fmt: skip
    line = _CleanFormatter(logging.BASIC_FORMAT).format(record)
    assert line == "DEBUG:mcbews_repl.sim:ran tell ␛]0;pwned␇Eve⟨U+202E⟩ hi"
