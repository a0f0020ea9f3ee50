"""What a person sees of game events, read from a real shell's output: ``%mc events list``,
an unknown name, the table of one event's rows, and ``on``/``off`` at the prompt."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from mcbews_repl.game_events import GAME_EVENTS
from mcbews_repl.sansio.wire import FORWARD_EVENTS_PER_SECOND_MAX

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
    assert len(shown.strip().splitlines()) == 1  # the one line, not the whole listing again
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
    assert shown.strip() == "Unsubscribed from BlockBroken; this world hears PlayerMessage."


def test_the_listing_says_which_events_cover_every_player(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(shell, capsys, "%mc events list")
    rows = {line.split()[0]: line for line in shown.splitlines() if line.split()}
    for name in ("player_break_block", "entity_hit_block", "lever_action"):
        row = next(line for line in shown.splitlines() if f" {name} " in f" {line} ")
        assert "addon" in row and "every player" in row and "documented" in row, row
    assert "BlockBroken" in shown and rows  # the game's own are listed beside them


def test_every_players_blocks_at_the_prompt(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The classroom case as a person sees it: Alex is not the connected client, and the
    addon's event hears Alex's block, shown in the event's own columns."""
    shown = shown_by(shell, capsys, "%mc events on player_break_block")
    assert "Subscribed to player_break_block" in shown and "player_break_block" in shown
    mc = shell.user_ns["mc"]
    shown_by(shell, capsys, "mc.sim.break_block('Alex', 7, 62, 7)")
    deadline = time.monotonic() + 20
    while not mc.events(kind="player_break_block").result(10).shape[0]:
        assert time.monotonic() < deadline, "player_break_block never arrived"
        time.sleep(0.05)
    shown = shown_by(shell, capsys, "%mc events player_break_block")
    header = next(line for line in shown.splitlines() if "player" in line.split())
    for column in ("time", "player", "x", "y", "z", "block", "tool"):
        assert column in header.split(), column
    row = next(line for line in shown.splitlines() if "Alex" in line.split())
    assert row.split()[-5:] == ["7", "62", "7", "dirt", "arrow"], row
    shown = shown_by(shell, capsys, "mc.subscribe('PlayerMessage', rate=2)")
    assert "ValueError" in shown and "has no rate" in shown
    shown = shown_by(shell, capsys, "%mc events off player_break_block")
    assert "Unsubscribed from player_break_block" in shown


def test_the_status_panel_counts_what_a_flood_of_forwarded_events_dropped(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from .test_bounds_shown import panel

    shown_by(shell, capsys, "%mc events on item_use")
    flood = FORWARD_EVENTS_PER_SECOND_MAX + 36  # in one tick: past what goes up in a second
    doings = f"[mc.sim.raw.use_item('Alex', 'bread') for _ in range({flood})]"
    shown_by(shell, capsys, f"mc.sim.on_loop(lambda: {doings})")
    mc = shell.user_ns["mc"]
    deadline = time.monotonic() + 60
    said = re.compile(r"(\d+) forwarded events dropped by the addon \(its bounds\)")
    while True:  # every event of the flood is either heard or said to be dropped
        heard = mc.events(kind="item_use").result(10).shape[0]
        dropped = said.search(text := panel(shell))
        if dropped is not None and heard + int(dropped[1]) == flood:
            break
        assert time.monotonic() < deadline, (heard, text[text.find("limits") :][:200])
        time.sleep(0.05)
    assert heard >= FORWARD_EVENTS_PER_SECOND_MAX - 64, heard  # within the second's byte bound too
    shown_by(shell, capsys, "%mc events off item_use")


def test_tab_completes_the_addons_events_too(shell: Any) -> None:
    from .test_magics import completions

    offered = completions(shell, "%mc events on player_")
    assert {"player_break_block", "player_place_block", "player_leave"} <= set(offered)
    assert "entity_hit_block" in completions(shell, "%mc events entity_")


def test_no_meaning_shown_has_markup(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The docstrings' ``literal`` markup stays in the source: the listing reads plainly."""
    assert not [k.name for k in GAME_EVENTS.values() if "``" in k.meaning or "`" in k.meaning]
    shown = shown_by(shell, capsys, "%mc events list")
    assert "MobKilled" in shown and "`" not in shown
    row = next(line for line in shown.splitlines() if " MobKilled " in f" {line} ")
    assert "victim is its type" in row, row


def test_the_logs_one_line_summaries_round_their_numbers(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    mc = shell.user_ns["mc"]
    shown_by(shell, capsys, "%mc events on PlayerTravelled")
    deadline = time.monotonic() + 20
    while "PlayerTravelled" not in mc.sim.raw.client.subscriptions:
        assert time.monotonic() < deadline, "the game never subscribed"
        time.sleep(0.02)
    shown_by(shell, capsys, "mc.sim.walk('Steve', 0.5, 63, 0.5); mc.sim.walk('Steve', 3, 63, 3)")
    deadline = time.monotonic() + 20
    while len(mc.events(kind="PlayerTravelled").result(10)) < 2:
        assert time.monotonic() < deadline, "PlayerTravelled never arrived"
        time.sleep(0.05)
    shown = shown_by(shell, capsys, "%mc events --last 3")
    shown_by(shell, capsys, "%mc events off PlayerTravelled")
    assert "meters_travelled 3.54" in shown, shown
    assert "3.5355" not in shown


def test_on_with_a_rate_at_the_prompt_keeps_it(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(shell, capsys, "%mc events on PlayerTravelled --rate 2")
    assert shown.strip() == (
        "Subscribed to PlayerTravelled (at most 2 a second per player); "
        "this world now hears PlayerMessage, PlayerTravelled."
    )
    mc = shell.user_ns["mc"]
    deadline = time.monotonic() + 20
    while "PlayerTravelled" not in mc.sim.raw.client.subscriptions:
        assert time.monotonic() < deadline, "the game never subscribed"
        time.sleep(0.02)
    before = mc.events(kind="PlayerTravelled").result(10).shape[0]  # earlier tests' walks
    steps = "[mc.sim.raw.walk('Steve', 10 + i, 62, 10) for i in range(10)]"
    shown_by(shell, capsys, f"mc.sim.on_loop(lambda: {steps})")  # ten steps in one tick
    deadline = time.monotonic() + 20
    over = re.compile(r"(\d+) game events over their subscription's rate")
    while not (said := over.search(text := panel_of(shell))) or int(said[1]) < 8:
        assert time.monotonic() < deadline, text
        time.sleep(0.05)
    assert mc.events(kind="PlayerTravelled").result(10).shape[0] - before == 2
    shown_by(shell, capsys, "%mc events off PlayerTravelled")


def test_a_rate_without_on_or_out_of_range_says_what_to_write(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shown = shown_by(shell, capsys, "%mc events off PlayerTravelled --rate 2")
    assert "--rate goes with on, e.g. %mc events on PlayerTravelled --rate 2" in shown
    shown = shown_by(shell, capsys, "%mc events on PlayerTravelled --rate 500")
    assert "Traceback" not in shown and "%mc events:" in shown and "rate" in shown, shown


def panel_of(shell: Any) -> str:
    from .test_bounds_shown import panel

    return str(panel(shell))
