"""Hostile or broken peers: every bad input is dropped, counted and recorded; all else lives."""

from __future__ import annotations

import json
import time

from mcbews_repl import Bridge
from mcbews_repl.limits import ANSWER_RESERVED_BUFFERS
from mcbews_repl.sansio.wire import BUFFER_TTL_SECONDS

from .conftest import ConnectGame
from .fakegame import BRIDGE_PLAYER


async def test_junk_is_dropped_and_the_connection_keeps_serving(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    bystander = await connect_game(player="Alex")
    junk: list[str | bytes] = [
        "not json at all",
        "[1, 2, 3]",
        b"\x00\x01binary",
        json.dumps({"header": {"messagePurpose": "ws:encrypt"}, "body": {}}),
        json.dumps(
            {
                "header": {"messagePurpose": "commandResponse", "requestId": "nope"},
                "body": {"statusCode": 0},
            }
        ),
        "{" * 100_000,  # deep nesting
        json.dumps({"pad": "x" * (1024 * 1024 + 10)}),  # over the 1 MiB frame limit
    ]
    for frame in junk:
        await game.send_raw(frame)
    await game.chat(BRIDGE_PLAYER, "MCBEWS|BRIDGE|no-such-request|1/1|{}")
    await game.chat(BRIDGE_PLAYER, "MCBEWS|BRIDGE|x|0/1|bad index")
    await game.chat(BRIDGE_PLAYER, "MCBEWS|NOPE|x|1/1|unknown channel")
    await game.chat("Griefer", "MCBEWS|UI_CHAT|u|1/1|{}")
    assert (await mc.command("say alive", connection=mc.connections[0])).ok
    reasons = {e.data["reason"] for e in mc.events() if e.kind == "rejected"}
    assert {
        "not_json",
        "not_an_object",
        "binary_frame",
        "unknown_purpose",
        "late_response",
        "frame_too_large",
        "unknown_request_id",
        "bad_position",
        "bridge_prefix_not_matched",
    } <= reasons
    counters = mc.connections[0].counters
    assert counters["rejected:binary_frame"] == 1 and counters["bridge_prefix_not_matched"] == 2
    assert (await mc.command("say fine", connection=mc.connections[1])).ok
    assert bystander.executed["say fine"] == 1


async def test_junk_chunk_flood_stays_within_the_caps(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game(chunk_chars=100)
    rows = ["r" * 100] * 60  # an answer of ~62 chunks
    game.capabilities["big"] = lambda payload: {"ok": True, "result": {"rows": rows}}
    for i in range(300):  # partial UI chat messages that never complete
        await game.chat(BRIDGE_PLAYER, f"MCBEWS|UI_CHAT|flood{i}|1/128|" + "z" * 200)
    assert (await mc.command("say alive")).ok
    connection = mc.connections[0]
    reassembler = connection.proto._reassembler
    # Unsolicited streams hold only their share; the rest is kept for our answers.
    assert reassembler.buffer_count == ANSWER_RESERVED_BUFFERS == 32
    assert connection.counters["rejected:too_many_buffers"] == 300 - 32
    flood_entries = [e for e in mc.events() if e.data.get("reason") == "too_many_buffers"]
    assert "kept for answers" in flood_entries[-1].data["detail"]
    # While the flood holds its buffers, a multi-chunk answer still arrives whole.
    assert (await mc.call("big"))["rows"] == rows
    # The junk buffers die at their TTL (explicit clock: no sleeping in tests).
    connection.expire(time.monotonic() + BUFFER_TTL_SECONDS)
    assert reassembler.buffer_count == 0
    assert len([e for e in mc.events() if e.kind == "expired"]) == 32
    await game.ui_chat("Steve", "real message after the flood", "ui-real")
    await mc.command("say sync")
    assert [e for e in mc.events() if e.kind == "ui_chat"][-1].data["player"] == "Steve"


async def test_oversized_beyond_the_read_limit_closes_only_that_connection(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    other = await connect_game(player="Alex")
    await game.send_raw("x" * (4 * 1024 * 1024 + 1))  # past 4 x max_frame_bytes
    await game.ws.wait_closed()  # type: ignore[union-attr]
    assert game.ws.close_code == 1009  # type: ignore[union-attr]
    assert (await mc.command("say ok")).ok and other.executed["say ok"] == 1


def _event(name: str, body: object) -> str:
    return json.dumps({"header": {"eventName": name, "messagePurpose": "event",
                                  "version": 17104896}, "body": body})  # fmt: skip


async def test_forged_game_events_are_counted_and_dropped(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    """A hostile peer's events: malformed ones are recorded as rejected and counted, unasked
    ones counted and dropped, a flood keeps the log within its share; nothing crashes."""
    game = await connect_game()
    await mc.subscribe("BlockBroken")
    player = {"name": "Steve", "position": {"x": 1, "y": 2, "z": 3}, "dimension": 0}
    malformed = [
        {"player": "not an object"},
        {"player": {**player, "name": 7}},
        {"player": player, "count": "many"},
        {"player": player, "block": {"id": 5, "namespace": "minecraft"}},
        {"player": {**player, "position": {"x": True, "y": 0, "z": 0}}},
        {"player": player, "count": 1.5},
    ]
    for body in malformed:
        await game.send_raw(_event("BlockBroken", body))
    nan = '{"name":"S","position":{"x":NaN,"y":0,"z":0}}'  # not JSON, but Python reads it
    head = '{"header":{"eventName":"BlockBroken","messagePurpose":"event"},"body":{"player":'
    await game.send_raw(head + nan + "}}")
    for k in range(50):  # events never asked for, under ever new names
        await game.send_raw(_event(f"Forged{k}", {"player": player}))
        await game.send_raw(_event("MobKilled", {"player": player}))
    huge = {"player": {**player, "name": "E" * 100_000}, "count": 1}
    for _ in range(200):  # a flood of subscribed events with oversized strings
        await game.send_raw(_event("BlockBroken", huge))
    assert (await mc.command("say alive", connection=mc.connections[0])).ok
    connection = mc.connections[0]
    assert connection.counters["rejected:bad_game_event"] == len(malformed) + 1
    assert connection.counters["unsubscribed_event"] == 100
    kept = [e for e in mc.events() if e.kind == "game_event"]
    assert len(kept) == 200 and all(len(e.data["player"]) <= 256 for e in kept)
    assert mc.log.connection_bytes(connection.id) <= mc.log.connection_max_bytes
    assert len(connection.counters) < 20  # new names did not grow the counters
