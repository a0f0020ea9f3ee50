"""The game client over a real WebSocket: frames, the in-flight window, the byte budget,
echo of the server's own chat, closewebsocket. The world runs without the addon here."""

from __future__ import annotations

import asyncio
import json
import uuid

from mcbews_repl.sim import SimWorld

from .conftest import BareServer, command_frame, recv_json, subscribe_frame

TOO_MANY_PENDING = -2147418109


async def connected(server: BareServer, sim: SimWorld):  # type: ignore[no-untyped-def]
    await sim.connect(server.url)
    return await asyncio.wait_for(server.connected.get(), 5)


async def test_connects_with_the_path_and_answers_a_command(bare_server: BareServer) -> None:
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        assert bare_server.paths == ["/tok123"]
        rid, frame = command_frame("getlocalplayername")
        await ws.send(frame)
        reply = await recv_json(ws)
        assert reply["header"] == {
            "messagePurpose": "commandResponse",
            "requestId": rid,
            "version": 1,
        }
        assert reply["body"]["localplayername"] == "Steve"
        assert reply["body"]["statusCode"] == 0


async def test_the_101st_command_in_flight_is_refused_and_not_run(
    bare_server: BareServer,
) -> None:
    async with SimWorld(clock="manual", addon=False) as sim:
        ws = await connected(bare_server, sim)
        frames = [command_frame(f"scoreboard players add Steve coins {1}") for _ in range(105)]
        for _, frame in frames:
            await ws.send(frame)
        errors = [await recv_json(ws) for _ in range(5)]  # refused at once, before any tick
        assert {e["header"]["messagePurpose"] for e in errors} == {"error"}
        assert [e["header"]["requestId"] for e in errors] == [rid for rid, _ in frames[100:]]
        assert errors[0]["body"] == {
            "statusCode": TOO_MANY_PENDING,
            "statusMessage": "Too many commands have been requested, wait for one to be done",
        }
        await sim.advance(1)
        replies = [await recv_json(ws) for _ in range(100)]
        assert [r["header"]["requestId"] for r in replies] == [rid for rid, _ in frames[:100]]
        assert sim.world.objectives["coins"].scores["Steve"] == 120 + 100  # 5 never ran


async def test_the_games_two_ceilings_are_enforced(bare_server: BareServer) -> None:
    """461 bytes of command line and 661 of frame: the simulated world's own copy of both
    numbers (evidence/facts.json), each checked on its own."""
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        ids = {"fits": str(uuid.uuid4()), "over-frame": str(uuid.uuid4())}
        fits = "say " + "x" * 445  # 449 bytes: a 661-byte frame with a UUID request id
        over_frame = fits + "x"  # 450 bytes of line, fine, but a 662-byte frame
        for name, line in (("fits", fits), ("over-frame", over_frame)):
            frame = command_frame(line, ids[name])[1]
            assert len(frame.encode()) == (661 if name == "fits" else 662)
            await ws.send(frame)
        # A bare envelope leaves room in the frame for a line one byte over 461.
        long_line = "say " + "é" * 228 + "xx"  # 4 + 456 + 2 = 462 bytes
        bare = {"header": {"requestId": "over-line", "messagePurpose": "commandRequest"},
                "body": {"commandLine": long_line}}  # fmt: skip
        await ws.send(json.dumps(bare, ensure_ascii=False, separators=(",", ":")))
        replies = {r["header"]["requestId"]: r for r in [await recv_json(ws) for _ in range(3)]}
        replies = {name: replies[rid] for name, rid in [*ids.items(), ("over-line", "over-line")]}
        assert replies["fits"]["header"]["messagePurpose"] == "commandResponse"
        for refused in ("over-frame", "over-line"):
            assert replies[refused]["header"]["messagePurpose"] == "error"
            assert replies[refused]["body"]["statusCode"] == -2147418111
        assert sim.client is not None and sim.client.oversized == 2
        assert len(sim.chat_log) == 1  # only the command that fit was said


async def test_say_and_tellraw_echo_from_external_once_subscribed(
    bare_server: BareServer,
) -> None:
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        await ws.send(command_frame("say before subscribing")[1])
        await recv_json(ws)
        _, sub = subscribe_frame()
        await ws.send(sub)
        assert (await recv_json(ws))["body"]["statusCode"] == 0
        await ws.send(command_frame("say hi @a")[1])
        await ws.send(command_frame('tellraw Steve {"rawtext":[{"text":"yo"}]}')[1])
        frames = [await recv_json(ws) for _ in range(4)]
        events = [f for f in frames if f["header"]["messagePurpose"] == "event"]
        assert [e["body"] for e in events] == [
            {
                "message": "[External] hi Steve, Alex",
                "receiver": "",
                "sender": "External",
                "type": "say",
            },
            {
                "message": '{"rawtext":[{"text":"yo"}]}\n',
                "receiver": "Steve",
                "sender": "External",
                "type": "tell",
            },
        ]
        assert events[0]["header"] == {
            "eventName": "PlayerMessage",
            "messagePurpose": "event",
            "version": 17039360,
        }


async def test_legacy_event_shape(bare_server: BareServer) -> None:
    async with SimWorld(fast=True, addon=False, legacy_events=True) as sim:
        ws = await connected(bare_server, sim)
        await ws.send(subscribe_frame()[1])
        await recv_json(ws)
        sim.run_command("say typed by Steve")
        event = await recv_json(ws)
        assert event["header"]["version"] == 1
        assert event["body"]["eventName"] == "PlayerMessage"
        assert event["body"]["properties"] == {
            "Message": "[Steve] typed by Steve",
            "MessageType": "say",
            "Sender": "Steve",
        }


async def test_closewebsocket_answers_then_closes(bare_server: BareServer) -> None:
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        await ws.send(command_frame("closewebsocket", request_id="bye")[1])
        reply = await recv_json(ws)
        assert reply["header"]["requestId"] == "bye"
        await asyncio.wait_for(ws.wait_closed(), 5)
        await asyncio.wait_for(sim.wait_disconnected(), 5)


async def test_junk_frames_are_ignored(bare_server: BareServer) -> None:
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        await ws.send("not json")
        await ws.send(json.dumps({"header": {}}))
        await ws.send(command_frame("list", request_id="after")[1])
        assert (await recv_json(ws))["header"]["requestId"] == "after"


async def test_commands_wait_for_a_tick_in_realtime(bare_server: BareServer) -> None:
    async with SimWorld(addon=False) as sim:
        ws = await connected(bare_server, sim)
        start = sim.clock.tick
        await ws.send(command_frame("list")[1])
        await recv_json(ws)
        assert sim.clock.tick > start


async def test_a_huge_or_deeply_nested_frame_is_refused_not_fatal(bare_server: BareServer) -> None:
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        await ws.send("[" * 100_000 + "]" * 100_000)
        refused = await recv_json(ws)
        assert refused["header"]["messagePurpose"] == "error"
        await ws.send(command_frame("getlocalplayername", "still-here")[1])
        assert (await recv_json(ws))["header"]["requestId"] == "still-here"
