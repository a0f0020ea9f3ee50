"""Bridge.observe(): every frame both ways and every call's outcome reach an observer, over a
real socket; a failing observer costs the game nothing; unobserve() stops the reports."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from mcbews_repl import Bridge, CapabilityError, RequestTimeout
from mcbews_repl.gateway import GameConnection
from mcbews_repl.gateway.observer import Direction, Outcome

from .conftest import ConnectGame, until


class Watcher:
    def __init__(self) -> None:
        self.frames: list[tuple[int, Direction, str | bytes]] = []
        self.outcomes: list[tuple[int, Outcome]] = []

    def frame(self, connection: GameConnection, direction: Direction, data: str | bytes) -> None:
        self.frames.append((connection.id, direction, data))

    def outcome(self, connection: GameConnection, outcome: Outcome) -> None:
        self.outcomes.append((connection.id, outcome))

    def lines(self, direction: Direction) -> list[dict[str, Any]]:
        return [json.loads(d) for _, way, d in self.frames if way == direction]


class Broken:
    def frame(self, connection: GameConnection, direction: Direction, data: str | bytes) -> None:
        raise RuntimeError("observer bug")

    def outcome(self, connection: GameConnection, outcome: Outcome) -> None:
        raise RuntimeError("observer bug")


async def test_frames_both_ways_in_order(mc: Bridge, connect_game: ConnectGame) -> None:
    watcher = Watcher()
    mc.observe(watcher)
    await connect_game()
    result = await mc.command("say hi")
    out = watcher.lines("out")
    assert [f["header"]["messagePurpose"] for f in out[:2]] == ["subscribe", "commandRequest"]
    sent = next(f for f in out if f["body"].get("commandLine") == "say hi")
    answer = next(
        f for f in watcher.lines("in") if f["header"]["requestId"] == sent["header"]["requestId"]
    )
    assert answer["body"]["statusMessage"] == result.status_message == "ran say hi"


async def test_outcomes_of_each_kind_of_call(mc: Bridge, connect_game: ConnectGame) -> None:
    watcher = Watcher()
    mc.observe(watcher)
    game = await connect_game()
    game.capabilities["echo"] = lambda payload: {"ok": True, "result": {"got": payload}}
    game.silent.add("quiet")
    await mc.command("fail now")
    assert await mc.call("echo", target="Alex") == {"got": {"target": "Alex"}}
    with pytest.raises(CapabilityError):
        await mc.call("missing")
    with pytest.raises(RequestTimeout):
        await mc.call("quiet", timeout=0.2)
    assert await mc.send_text("Steve", "hello") == 1
    await game.ui_chat("Alex", "hi from the panel")
    await until(lambda: any(o.kind == "ui_chat" for _, o in watcher.outcomes))
    got = {(o.kind, json.dumps(o.request, sort_keys=True)): o.result for _, o in watcher.outcomes}
    failed = got[("command", json.dumps({"line": "fail now", "timeout": None}))]
    assert failed["status_code"] == -2147483648 and failed["status_message"].startswith("Syntax")
    echo = {"capability": "echo", "payload": {"target": "Alex"}, "timeout": None}
    assert got[("capability", json.dumps(echo, sort_keys=True))] == {
        "result": {"got": echo["payload"]}
    }
    missing = next(
        o.result for _, o in watcher.outcomes if o.request.get("capability") == "missing"
    )
    assert missing["error"] == "CapabilityError" and missing["code"] == "UNSUPPORTED_CAPABILITY"
    quiet = next(o.result for _, o in watcher.outcomes if o.request.get("capability") == "quiet")
    assert quiet["error"] == "RequestTimeout" and "no answer to quiet" in quiet["message"]
    text = next(o for _, o in watcher.outcomes if o.kind == "text")
    assert text.request["player"] == "Steve" and text.result == {"frames": 1}
    chat = next(o for _, o in watcher.outcomes if o.kind == "ui_chat")
    assert (chat.result["player"], chat.result["message"]) == ("Alex", "hi from the panel")
    assert all(o.started > 0 and o.elapsed >= 0 for _, o in watcher.outcomes)


async def test_a_failing_observer_is_logged_and_the_game_carries_on(
    mc: Bridge, connect_game: ConnectGame, caplog: pytest.LogCaptureFixture
) -> None:
    watcher = Watcher()
    mc.observe(Broken())
    mc.observe(watcher)
    await connect_game()
    with caplog.at_level(logging.ERROR, "mcbews_repl.gateway"):
        assert (await mc.command("say still here")).ok
    assert "observer" in caplog.text and "failed" in caplog.text
    assert any(o.kind == "command" for _, o in watcher.outcomes)  # the next one still heard


async def test_unobserve_stops_the_reports(mc: Bridge, connect_game: ConnectGame) -> None:
    watcher = Watcher()
    mc.observe(watcher)
    await connect_game()
    await mc.command("say one")
    mc.unobserve(watcher)
    seen = len(watcher.frames), len(watcher.outcomes)
    await mc.command("say two")
    assert (len(watcher.frames), len(watcher.outcomes)) == seen
    mc.unobserve(watcher)  # twice: no error
