"""Replay: a recorded session played again through a fresh bridge gives the same results;
a changed result, a request without a recorded answer and the recorded timing all show."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

import mcbews_repl
from mcbews_repl import LogEntry
from mcbews_repl.capture import read_capture, start_recording
from mcbews_repl.sim import SimWorld
from mcbews_repl.testing import ReplayGame, replay_capture

from .conftest import FAST_BRIDGE, notebook_flow, recorded_session

COMMAND = str(Path(sys.executable).with_name("mcbews-repl"))


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
async def test_a_notebook_flow_round_trips(tmp_path: Path, encrypted: bool) -> None:
    path = tmp_path / "flow.jsonl"
    async with recorded_session(path, encrypted=encrypted) as (mc, sim, _):
        await notebook_flow(mc, sim)
    report = await replay_capture(path)
    assert report.ok, report.describe()
    assert report.calls == 7 and report.games[1].answered >= 9
    assert report.games[1].events_left == 0


async def test_a_changed_answer_is_reported_as_a_difference(tmp_path: Path) -> None:
    path = tmp_path / "flow.jsonl"
    async with recorded_session(path) as (mc, sim, _):
        await notebook_flow(mc, sim)
    capture = read_capture(path)
    for frame in capture.frames:  # the game now answers /list differently
        if frame.text and "players online" in frame.text:
            frame.text = frame.text.replace("players online", "players about")
    report = await replay_capture(capture)
    assert not report.ok and len(report.differences) == 1
    assert "call 0 (command list on #1)" in report.describe()
    assert "players about" in report.describe()


async def test_a_request_the_capture_cannot_answer_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "flow.jsonl"
    async with recorded_session(path) as (mc, _sim, _):
        await mc.command("list")
    heard: list[str] = []
    async with mcbews_repl.serve(port=0, token=None) as mc:
        game = ReplayGame(read_capture(path), fast=True, on_unanswered=heard.append)
        await game.connect(mc.url)
        await mc.wait_connected(timeout=10)
        assert (await mc.command("list")).status_message.startswith("There are 2/10")
        with pytest.raises(mcbews_repl.RequestTimeout):
            await mc.command("time query daytime", timeout=0.3)
        await game.close()
    assert heard == ["time query daytime"] == game.unanswered
    assert "1 without a recorded answer" in game.finish().describe()


async def test_a_capture_that_joined_late_answers_the_handshake_from_its_header(
    tmp_path: Path,
) -> None:
    path = tmp_path / "late.jsonl"
    async with mcbews_repl.serve(port=0, **FAST_BRIDGE) as mc, SimWorld(fast=True) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        recorder = start_recording(mc, path)
        await mc.call("get_player_snapshot", target="Alex")
        recorder.stop()
    report = await replay_capture(path)
    assert report.ok, report.describe()
    # The start of the connection, and the UI chat poll once the recorded polls ran out.
    assert report.games[1].synthesized == [
        "subscribe PlayerMessage",
        "getlocalplayername",
        "mcbews:poll",
    ]


async def test_two_games_each_get_their_own_answers(tmp_path: Path) -> None:
    path = tmp_path / "two.jsonl"
    async with (
        mcbews_repl.serve(port=0, **FAST_BRIDGE) as mc,
        SimWorld(fast=True) as first,
        SimWorld(fast=True) as second,
    ):
        recorder = start_recording(mc, path)
        await first.connect(mc.url)
        one = await mc.wait_connected(timeout=10)
        second.world.players["Steve"].tags.add("second_world")
        await second.connect(mc.url)
        two = await mc.wait_connected(timeout=10)
        await mc.command("tag Steve list", connection=one)
        await mc.command("tag Steve list", connection=two)
        recorder.stop()
    capture = read_capture(path)
    assert capture.connections() == [1, 2]
    report = await replay_capture(capture)
    assert report.ok, report.describe()


async def test_without_fast_the_recorded_delays_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "slow.jsonl"
    async with recorded_session(path) as (mc, sim, _):
        await mc.command("list")
        sim.chat("Alex", "first")
        await asyncio.sleep(0.4)
        sim.chat("Alex", "second")
        await asyncio.sleep(0.1)
    arrivals: dict[str, float] = {}
    async with mcbews_repl.serve(port=0, token=None) as mc:
        loop = asyncio.get_running_loop()

        def heard(entry: LogEntry) -> None:
            if entry.kind == "chat":
                arrivals.setdefault(str(entry.data.get("message")), loop.time())

        mc.log.add_listener(heard)
        game = ReplayGame(read_capture(path))
        await game.connect(mc.url)
        await mc.wait_connected(timeout=10)
        await mc.command("list")
        while len(arrivals) < 2:
            await asyncio.sleep(0.01)
        await game.close()
    assert arrivals["second"] - arrivals["first"] >= 0.3


async def test_the_command_line_replays_a_capture_and_names_what_it_cannot_answer(
    tmp_path: Path,
) -> None:
    path = tmp_path / "flow.jsonl"
    async with recorded_session(path) as (mc, _sim, _):
        await mc.command("list")
        await mc.call("get_player_snapshot", target="Steve")
    async with mcbews_repl.serve(port=0, token="s3cret") as mc:
        child = await asyncio.create_subprocess_exec(
            COMMAND, "replay", str(path), "--url", mc.url, "--fast", "--until-done",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        await mc.wait_connected(timeout=30)
        snapshot = await mc.call("get_player_snapshot", target="Steve")
        with pytest.raises(mcbews_repl.RequestTimeout):
            await mc.command("weather query", timeout=0.5)
        await mc.command("list")
        out, _ = await asyncio.wait_for(child.communicate(), 60)
    shown = out.decode()
    assert child.returncode == 3, shown
    assert snapshot["players"][0]["name"] == "Steve"
    assert f"Replaying {path}, recorded " in shown
    assert "game #1: no recorded answer for /weather query" in shown
    assert "Every recorded answer and event was used." in shown
    assert "1 without a recorded answer" in shown


def test_the_command_line_says_what_is_wrong_with_a_bad_capture(tmp_path: Path) -> None:
    import subprocess

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"type": "frame"}) + "\n", encoding="utf-8")
    done = subprocess.run([COMMAND, "replay", str(bad), "--url", "ws://127.0.0.1:9/x"],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert "bad.jsonl, line 1: not a capture record (a frame needs text" in done.stdout


def test_the_command_line_refuses_a_hostile_capture_by_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcbews_repl.capture.cli import replay_main
    from mcbews_repl.capture.records import Header, encode_line

    header = encode_line(Header("p", 0.0).to_json()).decode()
    deep = tmp_path / "deep.jsonl"
    deep.write_text(header + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    assert replay_main([str(deep), "--url", "ws://127.0.0.1:9/x"]) == 2
    shown = capsys.readouterr().out
    assert f"mcbews-repl replay: {deep}, line 2: nested more than 100 levels deep" in shown
    big = tmp_path / "big.jsonl"
    frame = encode_line({"type": "frame", "t": 0, "conn": 1, "dir": "in", "text": "z" * 4000})
    big.write_bytes(header.encode() + frame * 600)  # about 2.4 MB
    assert replay_main([str(big), "--url", "ws://127.0.0.1:9/x", "--max-mb", "1"]) == 2
    assert "the capture passes 1,048,576 bytes" in capsys.readouterr().out


async def test_game_events_are_recorded_and_replayed(tmp_path: Path) -> None:
    """A subscribed game event is a frame like any other: recorded, and sent again by the
    replayed game once the bridge subscribes the same way; the log keeps it typed."""
    path = tmp_path / "events.jsonl"
    async with recorded_session(path) as (mc, sim, _):
        await mc.subscribe("BlockBroken")
        for _ in range(500):
            if "BlockBroken" in sim.client.subscriptions:
                break
            await asyncio.sleep(0.01)
        sim.break_block("Steve", 0, 62, 0)
        await mc.command("list")  # a round trip: the event has arrived before the end
    capture = read_capture(path)
    assert any(f.text and '"eventName":"BlockBroken"' in f.text for f in capture.frames)
    async with mcbews_repl.serve(port=0, token=None, **FAST_BRIDGE) as mc:
        game = ReplayGame(capture, fast=True)
        await game.connect(mc.url)
        await mc.wait_connected(timeout=10)
        await mc.subscribe("BlockBroken")
        await mc.command("list")
        for _ in range(500):
            entries = [e for e in mc.events() if e.kind == "game_event"]
            if entries:
                break
            await asyncio.sleep(0.01)
        assert [(e.data["event"], e.data["player"]) for e in entries] == [("BlockBroken", "Steve")]
        await game.close()


async def test_forwarded_events_are_recorded_and_replayed(tmp_path: Path) -> None:
    """The addon's forwarded events travel in frames like UI chat (on pull, a poll's
    answer): recorded, and replayed to a bridge that asks for them the same way."""
    path = tmp_path / "forwarded.jsonl"
    async with recorded_session(path) as (mc, sim, _):
        await mc.subscribe("player_break_block")
        sim.break_block("Alex", 0, 62, 0)
        for _ in range(500):
            if [e for e in mc.events() if e.kind == "game_event"]:
                break
            await asyncio.sleep(0.01)
    capture = read_capture(path)
    assert any(f.text and "player_break_block" in f.text and '\\"fwd\\"' in f.text
               for f in capture.frames)  # fmt: skip
    async with mcbews_repl.serve(port=0, token=None, **FAST_BRIDGE) as mc:
        game = ReplayGame(capture, fast=True)
        await game.connect(mc.url)
        connection = await mc.wait_connected(timeout=10)
        await connection.wait_ready()
        await mc.subscribe("player_break_block")
        for _ in range(1000):
            entries = [e for e in mc.events() if e.kind == "game_event"]
            if entries:
                break
            await asyncio.sleep(0.01)
        assert [(e.data["event"], e.data["player"]) for e in entries] == [
            ("player_break_block", "Alex")
        ]
        await game.close()
