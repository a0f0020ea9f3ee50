"""Commands: results, failures, the budget, the in-flight window and its retries."""

from __future__ import annotations

import asyncio

import pytest

from mcbews_repl import (
    Bridge,
    CommandFailed,
    CommandQueueFull,
    FrameTooLarge,
    GameDisconnected,
    McbewsError,
    NotConnected,
    RequestTimeout,
    serve,
)

from .conftest import FAST, ConnectGame, until


async def test_success_is_a_result_with_body(mc: Bridge, connect_game: ConnectGame) -> None:
    await connect_game(player="Steve")
    result = await mc.command("/getlocalplayername")
    assert result.ok and result.status_code == 0
    assert result.command == "getlocalplayername"
    assert result["localplayername"] == "Steve" == result.body["localplayername"]
    assert result.raise_for_status() is result
    assert repr(result).startswith("<CommandResult ok /getlocalplayername → 'ran ")


async def test_failure_is_a_result_until_raise_for_status(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    await connect_game()
    result = await mc.command("fail this")
    assert not result.ok and result.status_code == -2147483648
    assert "FAILED -2147483648" in repr(result)
    with pytest.raises(CommandFailed) as info:
        result.raise_for_status()
    assert info.value.status_code == -2147483648 and info.value.command == "fail this"
    entry = mc.events()[-1]
    assert entry.kind == "command" and entry.data["status_code"] == -2147483648


async def test_over_budget_line_is_refused_before_sending(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    sent_before = len(game.commands)
    with pytest.raises(FrameTooLarge):
        await mc.command("say " + "é" * 300)
    with pytest.raises(FrameTooLarge) as info:  # 444 bytes of line, 1,096 of frame
        await mc.command("say " + '"' * 440)
    assert (info.value.line_bytes, info.value.frame_bytes) == (444, 1096)
    assert "(the limit is 461)" in str(info.value) and "(the limit is 661," in str(info.value)
    with pytest.raises(ValueError, match="line break"):
        await mc.command("say a\nsay b")
    await mc.command("say sync")
    assert game.commands[sent_before:] == ["say sync"]
    assert "FrameTooLarge" in [e for e in mc.events() if e.kind == "command"][-3].summary


async def test_no_game_raises_not_connected(mc: Bridge) -> None:
    with pytest.raises(NotConnected, match="/connect"):
        await mc.command("say hi")


async def test_thousand_concurrent_commands_each_complete_once(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game(reply_delay=0.002)  # answers lag, so the window fills
    lines = [f"say n{i}" for i in range(1000)]
    results = await asyncio.gather(*(mc.command(line) for line in lines))
    assert [r.status_message for r in results] == [f"ran {line}" for line in lines]
    assert all(game.executed[line] == 1 for line in lines)
    assert game.max_seen_in_flight == 100  # the window was full and never overflowed
    assert game.rejected == 0
    assert mc.connections[0].pending == 0


async def test_rejected_101st_is_retried_and_runs_once(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    # A busy game (another client holds 90 of its 100 slots) refuses with the real frame.
    game = await connect_game(reply_delay=0.002, max_in_flight=10)
    lines = [f"say r{i}" for i in range(1000)]
    results = await asyncio.gather(*(mc.command(line) for line in lines))
    assert all(r.ok for r in results)
    assert game.rejected > 0
    assert mc.connections[0].stats()["retries"] == game.rejected
    ran = [line for line in game.executed.elements() if line.startswith("say r")]
    assert sorted(ran) == sorted(lines)  # exactly once each


async def test_window_can_be_set_lower(connect_game: ConnectGame) -> None:
    async with serve(port=0, max_in_flight=5, **FAST) as mc:
        game = await connect_game(mc, reply_delay=0.002)
        await asyncio.gather(*(mc.command(f"say w{i}") for i in range(50)))
        assert game.max_seen_in_flight == 5


async def test_queue_is_bounded(connect_game: ConnectGame) -> None:
    async with serve(port=0, max_in_flight=1, queue_limit=2, **FAST) as mc:
        await connect_game(mc)
        stuck = [asyncio.ensure_future(mc.command(f"hang {i}", timeout=30)) for i in range(3)]
        await until(lambda: mc.connections[0].stats()["commands_queued"] == 2)
        with pytest.raises(CommandQueueFull, match="queue is full") as info:
            await mc.command("say one too many")
        assert isinstance(info.value, McbewsError)
        assert info.value.limit == 2 and info.value.in_flight == 1
        assert "await earlier commands" in str(info.value) and "queue_limit" in str(info.value)
        assert mc.connections[0].stats()["commands_queued"] == 2  # the refused one never queued
        assert mc.events()[-1].summary == "/say one too many ✗ CommandQueueFull"
        for task in stuck:
            task.cancel()
        await asyncio.gather(*stuck, return_exceptions=True)
        assert mc.connections[0].pending == 0


async def test_timeout_cleans_up(mc: Bridge, connect_game: ConnectGame) -> None:
    await connect_game()
    with pytest.raises(RequestTimeout, match="did not answer /hang") as info:
        await mc.command("hang forever", timeout=0.05)
    assert isinstance(info.value, TimeoutError)
    assert mc.connections[0].pending == 0
    assert (await mc.command("say still fine")).ok


async def test_disconnect_fails_every_pending_command_at_once(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    connection = mc.connections[0]
    pending = [asyncio.ensure_future(mc.command(f"hang {i}", timeout=60)) for i in range(5)]
    await until(lambda: connection.stats()["commands_in_flight"] == 5)
    await game.close()
    outcomes = await asyncio.gather(*pending, return_exceptions=True)
    assert all(isinstance(o, GameDisconnected) for o in outcomes)
    assert all(o.__cause__ is not None for o in outcomes)  # the websockets error, chained
    assert connection.closed and connection.pending == 0
    with pytest.raises(NotConnected):
        await connection.command("say gone")
    (gone,) = [e for e in mc.events() if e.kind == "disconnected"]
    assert gone.data["failed_pending"] == 5
