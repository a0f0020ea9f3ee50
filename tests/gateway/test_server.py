"""The server: addresses, the path token, handshake, several games, wait_connected."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from mcbews_repl import Bridge, GameDisconnected, NotConnected, RequestTimeout, Settings, serve
from mcbews_repl.sansio.handshake import State

from .conftest import FAST, ConnectGame, until
from .fakegame import FakeGame


async def test_addresses_tell_the_real_port_and_token(mc: Bridge) -> None:
    assert mc.port != 0
    assert mc.token and len(mc.token) == 8
    assert mc.url == f"ws://127.0.0.1:{mc.port}/{mc.token}"
    assert mc.connect_command == f"/connect 127.0.0.1:{mc.port}/{mc.token}"


async def test_handshake_subscribes_and_learns_the_player(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game(player="Alex")
    (connection,) = mc.connections
    assert game.subscriptions == ["PlayerMessage"]
    assert game.commands[0] == "getlocalplayername"
    assert connection.local_player == "Alex"
    assert connection.peer.startswith("127.0.0.1:")
    assert connection.encrypted is False
    assert connection.protocol_version is None  # no event yet
    await game.chat("Alex", "hello")
    await mc.command("say sync")  # a round trip: the chat frame was read before its answer
    assert connection.protocol_version == 17039360
    kinds = [e.kind for e in mc.events()]
    assert kinds[:1] == ["connected"] and "chat" in kinds


async def test_wrong_token_is_refused(mc: Bridge) -> None:
    wrong = mc.url.rsplit("/", 1)[0] + "/not-the-token"
    with pytest.raises(InvalidStatus) as info:
        async with connect(wrong):
            pass
    assert info.value.response.status_code == 403
    assert mc.connections == []
    assert [e.kind for e in mc.events()] == ["refused"]


async def test_token_none_accepts_any_path() -> None:
    async with serve(port=0, token=None, **FAST) as mc:
        assert mc.connect_command == f"/connect 127.0.0.1:{mc.port}"
        async with FakeGame(mc.url + "whatever/path"):
            connection = await mc.wait_connected(timeout=10)
            assert connection.path == "/whatever/path"


async def test_wait_connected_timeout_says_what_to_type(mc: Bridge) -> None:
    with pytest.raises(RequestTimeout, match=r"/connect 127\.0\.0\.1"):
        await mc.wait_connected(timeout=0.01)


async def test_closing_the_bridge_wakes_waiters_and_fails_pending() -> None:
    mc = await serve(port=0, **FAST).start()
    waiter = asyncio.ensure_future(mc.wait_connected())
    await asyncio.sleep(0)
    await mc.close()
    with pytest.raises(NotConnected, match="closed"):
        await waiter
    async with serve(port=0, **FAST) as mc, FakeGame(mc.url):
        connection = await mc.wait_connected(timeout=10)
        assert connection.state is State.OPEN
        hanging = asyncio.ensure_future(mc.command("hang", timeout=60))
        await until(lambda: connection.pending == 1)
        await mc.close()
        with pytest.raises(GameDisconnected):
            await hanging
        assert mc.connections == [] and connection.closed and connection.state is State.CLOSED


async def test_two_games_at_once(mc: Bridge, connect_game: ConnectGame) -> None:
    first = await connect_game(player="Steve")
    second = await connect_game(player="Alex")
    assert [c.local_player for c in mc.connections] == ["Steve", "Alex"]
    await mc.command("say to the latest")
    await mc.command("say to the first", connection=mc.connections[0])
    await mc.connections[0].command("say direct")
    assert second.executed["say to the latest"] == 1 and first.executed["say to the latest"] == 0
    assert first.executed["say to the first"] == 1 and first.executed["say direct"] == 1
    await second.close()
    await until(lambda: len(mc.connections) == 1)
    result = await mc.command("say after the latest left")  # falls back to the other game
    assert result.ok and first.executed["say after the latest left"] == 1


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="max_in_flight"):
        Settings(max_in_flight=101)
    with pytest.raises(ValueError, match="text_interval"):
        Settings(text_interval=-1)
    with pytest.raises(ValueError, match="token"):
        serve(token="has space")
