"""``mcbews-repl demo --protocol``: what the walk-through prints about the frame budget."""

from __future__ import annotations

import re

import pytest

from mcbews_repl.cli import main


def test_protocol_demo_shows_each_text_line_against_both_ceilings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--protocol"]) == 0
    out = capsys.readouterr().out
    sizes = [(int(a), int(b)) for a, b in re.findall(r"\[(\d+) B line, (\d+) B frame\]", out)]
    assert len(sizes) >= 2 and "461 bytes of line, 661 bytes of frame" in out
    assert all(line <= 461 and frame <= 661 for line, frame in sizes)
    assert sizes[0][1] == 661  # a full line is filled up to the frame ceiling
