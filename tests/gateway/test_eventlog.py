"""The event log: cursors, replay, the ring bound, listeners and live following."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from collections.abc import Callable

import pytest

from mcbews_repl import Bridge, RequestTimeout
from mcbews_repl.gateway import EventLog, LogEntry
from mcbews_repl.gateway.eventlog import truncate_text
from mcbews_repl.vocabulary import EventKind

from .conftest import ConnectGame


def test_cursors_increase_and_replay_after_a_cursor() -> None:
    log = EventLog(capacity=5, clock=lambda: 42.0)
    for i in range(8):
        log.append("chat", f"m{i}", 1, n=i)
    assert log.last_cursor == 8 and len(log) == 5
    assert [e.cursor for e in log.since(0)] == [4, 5, 6, 7, 8]  # the oldest fell off
    assert [e.cursor for e in log.since(6)] == [7, 8]
    assert log.since(8) == [] and log.since(100) == []
    entry = log.since(7)[0]
    assert (entry.kind, entry.summary, entry.data["n"], entry.at) == ("chat", "m7", 7, 42.0)


def test_listeners_see_entries_and_a_broken_one_is_contained() -> None:
    log = EventLog()
    seen: list[int] = []

    def broken(entry: LogEntry) -> None:
        raise RuntimeError("listener bug")

    log.add_listener(broken)
    remove = log.add_listener(lambda e: seen.append(e.cursor))
    log.append("chat", "a")
    remove()
    log.append("chat", "b")
    assert seen == [1] and log.last_cursor == 2


async def test_follow_replays_then_streams_live() -> None:
    log = EventLog()
    log.append("chat", "old")
    got: list[str] = []

    async def reader() -> None:
        async for entry in log.follow(since=0):
            got.append(entry.summary)
            if len(got) == 3:
                return

    task = asyncio.ensure_future(reader())
    await asyncio.sleep(0)  # the reader replays "old" and waits
    log.append("chat", "new1")
    log.append("chat", "new2")
    await asyncio.wait_for(task, 10)
    assert got == ["old", "new1", "new2"]


async def test_bridge_records_commands_with_timings(mc: Bridge, connect_game: ConnectGame) -> None:
    await connect_game()
    cursor = mc.log.last_cursor
    await mc.command("say logged")
    (entry,) = mc.events(since=cursor)
    assert entry.kind == "command" and entry.connection == mc.connections[0].id
    assert entry.data["command"] == "say logged" and entry.data["elapsed"] >= 0
    follower = mc.follow()
    next_entry = asyncio.ensure_future(anext(follower))
    await asyncio.sleep(0)
    await mc.command("say followed")
    assert (await asyncio.wait_for(next_entry, 10)).data["command"] == "say followed"
    await follower.aclose()


async def test_command_entries_share_one_shape_for_both_outcomes(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    await connect_game()
    cursor = mc.log.last_cursor
    await mc.command("/say answered")
    with pytest.raises(RequestTimeout):
        await mc.command("hang unanswered", timeout=0.05)
    answered, failed = mc.events(since=cursor)
    assert answered.summary == "/say answered → 0"
    assert list(answered.data) == ["command", "status_code", "status_message", "elapsed"]
    assert failed.summary == "/hang unanswered ✗ RequestTimeout"
    assert list(failed.data) == ["command", "error", "elapsed"]
    assert "did not answer" in failed.data["error"] and failed.data["elapsed"] >= 0.05


def test_long_text_keeps_head_and_tail_around_a_marker() -> None:
    log = EventLog(text_chars=300)
    text = "H" * 500 + "middle" + "T" * 500
    entry = log.append("chat", "s" * 1000, 1, message=text, sender="Steve", is_echo=False)
    message = entry.data["message"]
    assert len(message) <= 300 and message.startswith("HHH") and message.endswith("TTT")
    assert "[1,006 chars, cut to 300]" in message
    assert entry.data["truncated"] == {"summary": 1000, "message": 1006}
    assert len(entry.summary) <= 300 and "[1,000 chars, cut to 300]" in entry.summary
    assert entry.data["sender"] == "Steve" and log.counters["truncated"] == 1
    short = log.append("chat", "fine", 1, message="short")
    assert "truncated" not in short.data and log.counters["truncated"] == 1


def test_truncate_text_fits_the_limit() -> None:
    for limit in (256, 300, 4096):
        for length in (limit - 1, limit, limit + 1, 10 * limit):
            cut = truncate_text("é" * length, limit)
            assert len(cut) <= limit
            assert (cut == "é" * length) == (length <= limit)


def test_total_bytes_bound_drops_the_oldest_before_the_entry_cap() -> None:
    log = EventLog(capacity=1000, max_bytes=200_000, connection_max_bytes=200_000)
    for i in range(100):
        log.append("chat", f"m{i}", i % 3, message="x" * 4000)
    assert log.size_bytes <= 200_000 and 30 < len(log) < 100
    assert log.counters["dropped_for_bytes"] == 100 - len(log)
    assert [e.summary for e in log.since(0)][-1] == "m99"


def test_one_connection_cannot_push_out_another_ones_entries() -> None:
    log = EventLog(capacity=1000, max_bytes=400_000, connection_max_bytes=100_000)
    log.append("connected", "#2 quiet", 2)
    quiet = log.append("chat", "a quiet game's chat", 2, message="hi")
    for i in range(200):
        log.append("chat", f"flood {i}", 1, message="y" * 4000)
    assert log.connection_bytes(1) <= 100_000 and log.connection_bytes(2) < 2000
    assert log.counters["dropped_for_connection_share"] > 150
    held = log.since(0)
    assert quiet in held and held[-1].summary == "flood 199"
    # Replay after a cursor skips the gaps the flood's drops left in the middle.
    assert log.since(quiet.cursor)[0].summary.startswith("flood")
    assert log.since(quiet.cursor - 1)[0] is quiet


KIB, MIB = 1024, 1024 * 1024


def _flood(log: EventLog, games: range, rounds: int, text: str) -> None:
    for i in range(rounds):
        for game in games:
            log.append("chat", f"flood {i}", game, message=text)


def test_five_flooding_games_leave_a_quiet_games_history_whole() -> None:
    log = EventLog(capacity=10_000, max_bytes=2 * MIB, connection_max_bytes=512 * KIB)
    quiet = [log.append("chat", f"quiet {i}", 6, message="hello") for i in range(95)]
    bridge = [log.append("refused", f"refused {i}", None, reason="wrong_token") for i in range(20)]
    _flood(log, range(1, 6), 300, "y" * 4000)  # 5 x 1.4 MB against 2 MiB in all
    held = log.since(0)
    assert log.size_bytes <= 2 * MIB and log.counters["dropped_for_bytes"] > 500
    assert [e for e in held if e.connection == 6] == quiet
    assert [e for e in held if e.connection is None] == bridge
    floods = [sum(e.connection == g for e in held) for g in range(1, 6)]
    assert max(floods) - min(floods) <= 1  # the floods share what is left evenly
    assert [e.cursor for e in held] == sorted(e.cursor for e in held)
    assert held[-1].summary == "flood 299" and log.since(quiet[-1].cursor)[0].connection != 6


def test_a_flood_of_small_entries_evicts_its_own_before_a_quiet_games() -> None:
    log = EventLog(capacity=1000, max_bytes=16 * MIB, connection_max_bytes=4 * MIB)
    quiet = [log.append("chat", f"quiet {i}", 6) for i in range(95)]
    _flood(log, range(1, 6), 2000, "z")
    assert len(log) == 1000 and [e for e in log.since(0) if e.connection == 6] == quiet


def test_the_guaranteed_share_is_an_even_part_of_each_bound() -> None:
    log = EventLog(capacity=330, max_bytes=33 * 100_000, connection_max_bytes=33 * 100_000)
    assert (log.reserved_entries, log.reserved_bytes) == (10, 100_000)  # 32 games + bridge
    for i in range(50):  # a game past its share, alone: nothing else needs the room
        log.append("chat", f"only {i}", 1)
    assert len(log) == 50
    narrow = EventLog(capacity=100, shares=4)
    assert narrow.reserved_entries == 25


async def test_a_cursor_reader_sees_no_gap_but_the_evicted_ones() -> None:
    log = EventLog(capacity=100, shares=4)
    log.append("chat", "quiet", 9)
    cursor = log.last_cursor
    _flood(log, range(1, 4), 200, "f")
    got: list[LogEntry] = []
    async for entry in log.follow(since=0):
        got.append(entry)
        if entry.cursor == log.last_cursor:
            break
    assert got == log.since(0) and got[0].summary == "quiet"
    assert log.since(cursor)[0].cursor > cursor


def _held_and_estimated(fill: Callable[[EventLog], None], count: int) -> tuple[float, float]:
    log = EventLog(capacity=count, max_bytes=1 << 30, connection_max_bytes=1 << 30)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        fill(log)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return held / count, log.connection_bytes(1) / count


def test_the_byte_estimate_follows_what_game_event_entries_hold() -> None:
    # A game event is twenty numbers and names: an estimate of its strings alone once
    # counted 19% under, so a connection's byte bound held more than it said.
    def fill(log: EventLog) -> None:
        for k in range(2000):
            log.append(EventKind.GAME_EVENT, f"Steve broke stone at {k}", 1, event="BlockBroken",
                       player="Steve", x=k + 0.5, y=64.0, z=k / 3, dimension=0, yaw=k * 1.5,
                       block="stone", block_id="minecraft:stone", aux=0, count=1,
                       destruction_method=0, tool=None, tool_id=None)  # fmt: skip

    held, estimated = _held_and_estimated(fill, 2000)
    assert 0.9 * held <= estimated <= 1.25 * held, (held, estimated)


def test_the_byte_estimate_follows_what_command_entries_hold() -> None:
    # The entry of an answered command keeps its four fields in slots, not a dict: its
    # estimate still has to follow what is held, or the byte bounds would hold more.
    def fill(log: EventLog) -> None:
        for k in range(2000):
            line = f"testfor @s[x={k}]"  # a line of its own each time, as a user's would be
            log.append_command(1, line, 0, f"Found Steve {k}", k / 1000)

    held, estimated = _held_and_estimated(fill, 2000)
    assert 0.9 * held <= estimated <= 1.25 * held, (held, estimated)


def test_a_command_entry_reads_as_the_dict_it_stands_for() -> None:
    log = EventLog()
    entry = log.append_command(3, "say hi", 0, "hi", 0.25)
    plain = log.append(EventKind.COMMAND, "/say hi → 0", 3, command="say hi", status_code=0,
                       status_message="hi", elapsed=0.25)  # fmt: skip
    assert entry.summary == plain.summary and entry.kind == plain.kind
    assert dict(entry.data) == dict(plain.data) and entry.data == plain.data
    assert list(entry.data) == ["command", "status_code", "status_message", "elapsed"]
    assert entry.data.get("error") is None and "truncated" not in entry.data
    # A game's over-long message takes the ordinary way, truncated and counted.
    long = log.append_command(3, "say hi", 0, "x" * (log.text_chars + 10), 0.1)
    assert "truncated" in long.data and len(long.data["status_message"]) <= log.text_chars
