"""Capability calls: chunked answers in any order, failures, timeouts, disconnects."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from mcbews_repl import (
    Bridge,
    CapabilityError,
    CommandFailed,
    FrameTooLarge,
    GameDisconnected,
    RequestTimeout,
)

from .conftest import ConnectGame, until
from .fakegame import BRIDGE_PLAYER

# Long enough for many chunks, with the characters the wire escapes and some non-ASCII.
NOTE = 'a@b§c 你好 | \\ " ' * 15


def snapshot(payload: dict[str, Any]) -> dict[str, Any]:
    return {"ok": True, "result": {"name": payload["target"], "health": 20, "note": NOTE}}


@pytest.mark.parametrize(
    "options",
    [
        {"order": "forward"},
        {"order": "reverse", "chunk_chars": 7},
        {"order": "shuffle", "duplicate": True, "chunk_chars": 13},
    ],
)
async def test_round_trip_with_chunked_answers(
    mc: Bridge, connect_game: ConnectGame, options: dict[str, Any]
) -> None:
    game = await connect_game(**options)
    game.capabilities["get_player_snapshot"] = snapshot
    result = await mc.call("get_player_snapshot", target="Steve")
    assert result == {"name": "Steve", "health": 20, "note": NOTE}
    assert mc.connections[0].proto.pending_requests == 0
    (entry,) = [e for e in mc.events() if e.kind == "capability"]
    assert entry.data["outcome"] == "ok" and entry.data["capability"] == "get_player_snapshot"
    if options.get("duplicate"):
        assert mc.connections[0].counters["duplicate_chunks"] > 0


async def test_payload_mapping_and_fields_merge(mc: Bridge, connect_game: ConnectGame) -> None:
    game = await connect_game()
    game.capabilities["echo"] = lambda payload: {"ok": True, "result": payload}
    assert await mc.call("echo", {"timeout": 3}, extra=[1, 2]) == {"timeout": 3, "extra": [1, 2]}


async def test_hostile_payloads_fit_the_frame_or_are_refused_locally(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    game.capabilities["echo"] = lambda payload: {"ok": True, "result": payload}
    text = 'q"b\\ @a §c 中 😀\n\x01' * 6  # every character escapes at least once more
    assert await mc.call("echo", text=text) == {"text": text}
    # Within 461 bytes of line, over 661 of frame: sent as bulk parts, each within both.
    sent = len(game.commands)
    assert await mc.call("echo", text='"' * 150) == {"text": '"' * 150}
    assert len(game.commands) - sent == 2
    assert all(line.startswith("scriptevent mcbews:bulk ") for line in game.commands[sent:])
    assert max(game.frame_sizes) <= 661
    # Over what the addon keeps for one request: refused before anything is sent.
    sent = len(game.commands)
    with pytest.raises(FrameTooLarge, match="split it"):
        await mc.call("echo", text="x" * 300_000)
    assert len(game.commands) == sent and mc.connections[0].proto.pending_requests == 0


async def test_ok_false_raises_capability_error(mc: Bridge, connect_game: ConnectGame) -> None:
    await connect_game()
    with pytest.raises(CapabilityError) as info:
        await mc.call("no_such_thing")
    assert info.value.code == "UNSUPPORTED_CAPABILITY"
    assert info.value.capability == "no_such_thing"
    assert mc.connections[0].pending == 0


async def test_refused_scriptevent_raises_command_failed(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()

    async def refuse(request_id: str, line: str) -> None:
        body = {"statusCode": -2147483647, "statusMessage": "Unknown command: scriptevent"}
        await game._respond("commandResponse", request_id, body)

    game._run = refuse  # type: ignore[method-assign]
    with pytest.raises(CommandFailed, match="Unknown command"):
        await mc.call("anything")
    assert mc.connections[0].proto.pending_requests == 0


async def test_timeout_explains_and_cleans_up(mc: Bridge, connect_game: ConnectGame) -> None:
    game = await connect_game()
    game.silent.add("get_player_snapshot")
    await game.chat("Steve", "MCBEWS|BRIDGE|abc|1/1|{}")  # right prefix, wrong sender
    with pytest.raises(RequestTimeout) as info:
        await mc.call("get_player_snapshot", target="Steve", timeout=0.05)
    message = str(info.value)
    assert "addon is not installed" in message and "Beta APIs" in message
    assert BRIDGE_PLAYER in message
    assert "1 MCBEWS| frame(s) were seen on this connection but not matched" in message
    assert f"No chat from {BRIDGE_PLAYER} has reached this connection yet" in message
    connection = mc.connections[0]
    assert connection.pending == 0 and connection.proto.pending_requests == 0
    # A late answer finds nothing: ignored and counted.
    rid = json.loads(game.commands[-1].split(" ", 2)[2])["request_id"]
    await game.bridge_chunks("BRIDGE", rid, '{"ok":true,"result":{}}')
    await mc.command("say sync")
    assert connection.counters["unknown_request_id"] == 1
    # Once the bridge player's chat has been seen, the message stops suspecting delivery.
    with pytest.raises(RequestTimeout) as again:
        await mc.call("get_player_snapshot", target="Steve", timeout=0.05)
    assert connection.counters["bridge_player_lines"] == 1
    assert "No chat from" not in str(again.value)


async def test_disconnect_fails_pending_calls_at_once(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    game.silent.add("slow")
    calls = [asyncio.ensure_future(mc.call("slow", timeout=60)) for _ in range(3)]
    connection = mc.connections[0]
    await until(
        lambda: (
            connection.proto.pending_requests == 3 and connection.stats()["commands_in_flight"] == 0
        )
    )
    await game.close()
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert all(isinstance(o, GameDisconnected) and o.__cause__ for o in outcomes)
    assert connection.pending == 0 and connection.proto.pending_requests == 0
