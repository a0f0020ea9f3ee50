"""Every bound of limits.py driven past its limit over a real socket: the counter moves,
the marker shows, and the connection keeps working."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from mcbews_repl import Bridge, UiChat, serve
from mcbews_repl.limits import (
    HANDSHAKE_FAILURE_BURST,
    HANDSHAKE_FAILURES_PER_SECOND,
    HANDSHAKES_DELAYED_MAX,
    READER_FRAMES_PER_TURN,
    UI_CHAT_BACKLOG,
    UI_CHAT_IN_FLIGHT,
)

from .conftest import FAST, ConnectGame, until
from .fakegame import FakeGame

MIB = 1024 * 1024


@pytest.fixture
async def small_log() -> AsyncIterator[Bridge]:
    # Eight games at most: each game's guaranteed part of the log is a ninth of it.
    options = {"log_max_bytes": 2 * MIB, "log_connection_max_bytes": MIB, "max_connections": 8}
    async with serve(port=0, **FAST, **options) as bridge:
        yield bridge


async def test_huge_chats_are_truncated_and_the_log_stays_within_its_bytes(
    small_log: Bridge, connect_game: ConnectGame
) -> None:
    mc = small_log
    quiet = await connect_game(mc, player="Alex")
    hostile = await connect_game(mc)
    await quiet.chat("Alex", "a quiet game's chat")
    big = "x" * 1_000_000  # one frame just under the 1 MiB frame limit
    for _ in range(40):
        await hostile.chat("Griefer", big)
    assert (await mc.command("say alive", connection=mc.connections[1])).ok
    chats = [e for e in mc.events() if e.kind == "chat" and e.data["sender"] == "Griefer"]
    assert chats, "the newest chats are still in the log"
    for entry in chats:
        assert entry.data["truncated"] == {"message": 1_000_000}
        assert "[1,000,000 chars, cut to 4,096]" in entry.data["message"]
        assert len(entry.data["message"]) <= 4096
    connection = mc.connections[1]
    assert connection.counters["log_truncated"] == 40 == mc.log.counters["truncated"]
    for i in range(400):  # text within the field limit, enough to pass the game's share
        await hostile.chat("Griefer", f"{i} " + "y" * 4000)
    await mc.command("say sync", connection=connection)
    assert mc.log.counters["dropped_for_connection_share"] > 100
    # The log's estimate stays under both bounds, and the quiet game's entry survives.
    assert mc.log.size_bytes <= 2 * MIB and mc.log.connection_bytes(connection.id) <= MIB
    assert any(e.summary.startswith("<Alex> a quiet") for e in mc.events())
    assert (await mc.command("say still here", connection=mc.connections[0])).ok


async def test_ui_chat_flood_with_a_slow_callback_runs_a_few_and_drops_the_rest(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    release = asyncio.Event()
    served: list[str] = []

    @mc.on_ui_chat
    async def slow(msg: UiChat) -> None:
        await release.wait()
        served.append(msg.message)

    tasks_before = len(asyncio.all_tasks())
    for i in range(5000):
        await game.ui_chat("Steve", f"spam {i}", f"ui{i}")
    assert (await mc.command("say alive")).ok  # every frame before it has been handled
    connection = mc.connections[0]
    kept = UI_CHAT_IN_FLIGHT + UI_CHAT_BACKLOG
    assert (connection.ui_chats.running, connection.ui_chats.queued) == (4, 256)
    assert connection.counters["ui_chat_dropped"] == 5000 - kept
    assert len(asyncio.all_tasks()) - tasks_before <= UI_CHAT_IN_FLIGHT
    dropped = [e for e in mc.events() if e.data.get("reason") == "ui_chat_dropped"]
    assert dropped and "256 UI chat messages already wait" in dropped[-1].summary
    release.set()  # the slow callback catches up: every message kept is served once
    await until(lambda: len(served) == kept)
    assert sorted(served) == sorted(f"spam {i}" for i in range(kept))
    await until(lambda: connection.ui_chats.running == 0)
    await game.ui_chat("Steve", "after the flood", "ui-after")
    await until(lambda: served[-1] == "after the flood")


async def _knock(url: str, **options: Any) -> int:
    """One opening handshake; its HTTP status (101 when the connection opened)."""
    try:
        async with connect(url, **options):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


async def test_wrong_tokens_are_paced_per_address_after_a_burst(mc: Bridge) -> None:
    wrong = mc.url.rsplit("/", 1)[0] + "/0badc0de"
    start = time.monotonic()
    answers = [await _knock(wrong) for _ in range(HANDSHAKE_FAILURE_BURST + 5)]
    elapsed = time.monotonic() - start
    assert answers == [403] * len(answers)
    # One client asking as fast as answers come: the burst, then 2 checks a second.
    assert len(answers) <= HANDSHAKE_FAILURE_BURST + HANDSHAKE_FAILURES_PER_SECOND * elapsed + 1
    assert mc.counters["refused:wrong_token"] == len(answers) and mc.counters["delayed"] == 5
    throttled = [e for e in mc.events() if e.data.get("reason") == "throttled"]
    assert len(throttled) == 1 and "127.0.0.1" in throttled[0].summary  # said once
    # The right token from the same address is answered at once; another address is not
    # slowed by this one's failures.
    async with FakeGame(mc.url):
        await mc.wait_connected(timeout=10)
    assert await _knock(wrong, local_addr=("127.0.0.2", 0)) == 403
    assert mc.counters["delayed"] == 5


async def test_a_parallel_guesser_is_refused_unchecked_beyond_the_pace() -> None:
    async with serve(port=0, **FAST, handshake_max_delay=0.5) as mc:
        wrong = mc.url.rsplit("/", 1)[0] + "/0badc0de"
        answers = await asyncio.gather(*(_knock(wrong) for _ in range(40)))
        # The burst and one paced check (half a second at 2/s); the rest refused unchecked.
        assert sorted(answers) == [403] * 11 + [429] * 29
        assert mc.counters["refused:throttled"] == 29 and mc.counters["refused:wrong_token"] == 11
        async with FakeGame(mc.url, local_address="127.0.0.2"):  # another address gets in
            await mc.wait_connected(timeout=10)


async def test_the_token_is_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with serve(port=0, **FAST) as mc:
        assert mc.token is not None
        await _knock(mc.url.rsplit("/", 1)[0] + f"/{mc.token}x")
        async with FakeGame(mc.url):
            await mc.wait_connected(timeout=10)
            await mc.command("say hi")
        # The bridge's records (not the test's own client's, which dialled the URL).
        server = [r for r in caplog.records if not r.name.startswith("websockets.client")]
        assert any("GET /<token>" in r.getMessage() for r in server)
        assert not [r.getMessage() for r in server if mc.token in r.getMessage()]
        assert mc.token not in repr([e.data for e in mc.events()])


async def test_games_beyond_max_connections_are_refused() -> None:
    async with serve(port=0, **FAST, max_connections=2) as mc, AsyncExitStack() as stack:
        games = [await stack.enter_async_context(FakeGame(mc.url, player=p)) for p in "AB"]
        await until(lambda: len(mc.connections) == 2)
        assert await _knock(mc.url) == 503
        assert mc.counters["refused:max_connections"] == 1
        (refused,) = [e for e in mc.events() if e.kind == "refused"]
        assert "2 games already connected" in refused.summary
        assert (await mc.command("say still", connection=mc.connections[0])).ok
        await games[0].close()
        await until(lambda: len(mc.connections) == 1)
        async with FakeGame(mc.url, player="C"):  # room again
            await until(lambda: len(mc.connections) == 2)


async def test_a_flooding_reader_lets_the_event_loop_serve_others(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    hostile = await connect_game()
    quiet = await connect_game(player="Alex")
    connection = mc.connections[0]
    steps: list[int] = []
    sampling = True

    async def sample() -> None:  # runs once per event loop turn
        last = connection.frames_in
        while sampling:
            await asyncio.sleep(0)
            steps.append(connection.frames_in - last)
            last = connection.frames_in

    sampler = asyncio.ensure_future(sample())
    frame = json.dumps({"header": {"messagePurpose": "event"}, "body": {}})
    for _ in range(3000):  # small frames: one socket read holds hundreds of them
        await hostile.send_raw(frame)
    await mc.command("say sync", connection=connection)
    sampling = False
    await sampler
    assert sum(steps) >= 3000 and max(steps) <= READER_FRAMES_PER_TURN
    assert (await mc.command("say fine", connection=mc.connections[1])).ok
    assert quiet.executed["say fine"] == 1


async def test_held_wrong_guesses_are_capped_across_addresses() -> None:
    options = {"handshake_failure_burst": 1, "handshake_failures_per_second": 2.0}
    # The budget across all addresses made large: this test is about the held answers.
    everyone = {"handshake_failure_burst_all": 1000}
    async with serve(port=0, **FAST, **options, **everyone, handshake_max_delay=2.5) as mc:
        wrong = mc.url.rsplit("/", 1)[0] + "/0badc0de"
        sources = [f"127.0.0.{k}" for k in range(10, 30)]  # 20 addresses, 6 guesses each
        knocks = [_knock(wrong, local_addr=(a, 0)) for a in sources for _ in range(6)]
        answers = await asyncio.gather(*knocks)
        # Each address: 1 at full speed and 5 paced (0.5 to 2.5 s); only 64 answers are
        # held back at once (HANDSHAKES_DELAYED_MAX), the others are answered at once.
        assert answers == [403] * 120
        assert mc._admission.delayed_peak == HANDSHAKES_DELAYED_MAX == 64
        assert mc.counters["delayed"] < 100
        mc._admission.throttle.tracked = 8  # the address table's bound, made small to reach
        others = [f"127.0.0.{k}" for k in range(40, 50)]
        await asyncio.gather(*(_knock(wrong, local_addr=(a, 0)) for a in others))
        assert len(mc._admission.throttle) == 8
        async with FakeGame(mc.url):
            await mc.wait_connected(timeout=10)


async def test_several_flooding_games_stay_within_the_log_in_all(
    small_log: Bridge, connect_game: ConnectGame
) -> None:
    mc = small_log
    games = [await connect_game(mc, player=name) for name in ("A", "B", "C")]
    for game in games:  # each fills its 1 MiB share; together more than the 2 MiB in all
        for i in range(300):
            await game.chat(game.player, f"{i} " + "w" * 4000)
    for connection in mc.connections:
        assert (await mc.command("say sync", connection=connection)).ok
    assert mc.log.counters["dropped_for_bytes"] > 0
    assert mc.log.size_bytes <= 2 * MIB
    newest = mc.events()[-1]
    assert newest.kind == "command" and newest.data["command"] == "say sync"


async def test_five_flooding_games_leave_a_quiet_games_log_entries(
    small_log: Bridge, connect_game: ConnectGame
) -> None:
    mc = small_log
    quiet_game = await connect_game(mc, player="Quiet")
    quiet = mc.connections[0]
    for i in range(95):
        await quiet_game.chat("Quiet", f"quiet {i}")
    assert (await mc.command("say sync", connection=quiet)).ok
    kept = [e.cursor for e in mc.events() if e.connection == quiet.id]
    floods = [await connect_game(mc, player=f"F{n}") for n in range(5)]
    for i in range(300):  # 5 x 1.4 MB of chat against the log's 2 MiB in all
        for game in floods:
            await game.chat(game.player, f"{i} " + "w" * 4000)
    for connection in mc.connections:
        assert (await mc.command("say sync", connection=connection)).ok
    assert mc.log.counters["dropped_for_bytes"] > 500 and mc.log.size_bytes <= 2 * MIB
    held = [e.cursor for e in mc.events() if e.connection == quiet.id]
    assert held[: len(kept)] == kept  # 95 chats, the handshake's entries and the sync
    # Its guaranteed part: an even ninth of the log (8 games and the bridge).
    assert mc.log.connection_bytes(quiet.id) < mc.log.reserved_bytes == 2 * MIB // 9
