"""What a person sees of game events, read from a real shell's output: ``%mc events list``,
an unknown name, the table of one event's rows, and ``on``/``off`` at the prompt."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from mcbews_repl.game_events import GAME_EVENTS

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def shown_by(shell: Any, capsys: pytest.CaptureFixture[str], code: str) -> str:
    shell.run_cell(code)
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


def test_the_listing_names_every_event_its_source_and_coverage(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(shell, capsys, "%mc events list")
    for name in GAME_EVENTS:
        assert name in shown
    assert "the connected client only" in shown and "websocket" in shown
    assert "reported not to fire" in shown


def test_an_unknown_name_says_what_the_known_ones_are(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(shell, capsys, "%mc events on BlockBroke")
    assert "did you mean 'BlockBroken'?" in shown
    assert "unknown_ok=True" in shown and "PlayerTravelled" in shown
    assert "Traceback" not in shown  # a UsageError: one message
    shown = shown_by(shell, capsys, "mc.subscribe('Blockbroken')")
    assert "UnknownEvent: no game event is called 'Blockbroken'" in shown


def test_on_at_the_prompt_and_the_events_table(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(shell, capsys, "%mc events on BlockBroken")
    assert "Subscribed to BlockBroken; this world now hears BlockBroken, PlayerMessage." in shown
    mc = shell.user_ns["mc"]
    deadline = time.monotonic() + 20  # the game takes the subscribe frame on its next read
    while "BlockBroken" not in mc.sim.raw.client.subscriptions:
        assert time.monotonic() < deadline, "the game never subscribed"
        time.sleep(0.02)
    broke = shown_by(shell, capsys, "mc.sim.break_block('Steve', 6, 62, 6)")
    assert "minecraft:" in broke, broke
    deadline = time.monotonic() + 20
    while not shell.user_ns["mc"].events(kind="BlockBroken").result(10).shape[0]:
        assert time.monotonic() < deadline, "BlockBroken never arrived"
        time.sleep(0.05)
    shown = shown_by(shell, capsys, "%mc events BlockBroken")
    header = next(line for line in shown.splitlines() if "destruction_method" in line)
    for column in ("time", "player", "x", "y", "z", "block", "aux", "count", "tool"):
        assert column in header.split(), column
    assert "dirt" in shown and "Steve" in shown and "..." not in shown  # all of it, no cut
    shown = shown_by(shell, capsys, "%mc events off BlockBroken")
    assert "Unsubscribed from BlockBroken; this world hears PlayerMessage." in shown
