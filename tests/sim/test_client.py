"""The game client over a real WebSocket: frames, the in-flight window, the byte budget,
echo of the server's own chat, closewebsocket. The world runs without the addon here."""

from __future__ import annotations

import asyncio
import json
import uuid

import pytest

from mcbews_repl.sim import SimWorld

from ..corpus import FACTS, exact, lang
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


def stress_frame(text_bytes: int, request_id: str) -> str:
    """The reference's stepped stress probe (sources.json, mcbe-ai-agent-stress) of
    ``text_bytes`` characters of text: a ``tellraw @a`` of "§aLOAD_TEST:SIZE_<n>_SEQ_1XXX…"
    (the colon written full-width) in a commandRequest written by json.dumps with its
    default spaces and ASCII escapes."""
    text = f"LOAD_TEST\uff1aSIZE_{text_bytes}_SEQ_1"  # it wrote ":" as the full-width colon
    text += "X" * (text_bytes - len(text))
    line = 'tellraw @a {"rawtext":[{"text":"§a' + text + '"}]}'
    header = {"requestId": request_id, "messagePurpose": "commandRequest", "version": 1,
              "EventName": "commandRequest"}  # fmt: skip
    body = {"origin": {"type": "say"}, "commandLine": line, "version": 17039360}
    return json.dumps({"header": header, "body": body})


async def test_the_games_ceilings_drop_requests_without_a_word(bare_server: BareServer) -> None:
    """The stress probe the corpus records: its 461-byte line in a 697-byte frame is answered,
    the next size (462 and 698) gets nothing at all; so do a frame over 697 with a short line
    and a line over 461 in a small frame. Nothing comes back for them, not even an error: the
    command after them is the next thing answered."""
    line_limit = FACTS["limits"]["command_line_bytes"]["value"]
    frame_limit = FACTS["limits"]["frame_bytes"]["value"]
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)
        ids = {name: str(uuid.uuid4()) for name in ("accepted", "refused", "after")}
        accepted, refused = stress_frame(420, ids["accepted"]), stress_frame(421, ids["refused"])
        for frame, size in ((accepted, frame_limit), (refused, frame_limit + 1)):
            assert len(frame.encode()) == size
        assert len(json.loads(accepted)["body"]["commandLine"].encode()) == line_limit
        quotes = command_frame("say " + '"' * 250, str(uuid.uuid4()))[1]  # 254 bytes of line
        assert len(quotes.encode()) > frame_limit
        long_line = "say " + "é" * 228 + "xx"  # 462 bytes, in a frame well under 697
        bare = {"header": {"requestId": "over-line", "messagePurpose": "commandRequest"},
                "body": {"commandLine": long_line, "version": 17039360}}  # fmt: skip
        over_line = json.dumps(bare, ensure_ascii=False, separators=(",", ":"))
        assert len(over_line.encode()) < frame_limit
        after = command_frame("say after", ids["after"])[1]
        for frame in (accepted, refused, quotes, over_line, after):
            await ws.send(frame)
        replies = [await recv_json(ws), await recv_json(ws)]
        assert [(r["header"]["messagePurpose"], r["header"]["requestId"]) for r in replies] == [
            ("commandResponse", ids["accepted"]),
            ("commandResponse", ids["after"]),
        ]
        assert sim.client is not None and sim.client.oversized == 3
        said = [line.message for line in sim.chat_log if line.type == "say"]
        assert said == ["[External] after"]  # neither long say ran
        told = {line.message for line in sim.chat_log if line.type == "tell"}
        assert len(told) == 1 and "SIZE_420" in told.pop()  # the refused tellraw did not run
        with pytest.raises(TimeoutError):
            await recv_json(ws, timeout=0.2)  # and nothing later either


async def test_requests_it_cannot_take_get_the_games_own_words(bare_server: BareServer) -> None:
    """A commandRequest without a commandLine, without body.version or with a version that is
    no whole number, and a message purpose the game does not know: error frames carrying the
    language file's strings (facts.json websocket_error_texts)."""
    async with SimWorld(fast=True, addon=False) as sim:
        ws = await connected(bare_server, sim)

        def request(rid: str, purpose: str, body: dict[str, object]) -> str:
            header = {"requestId": rid, "messagePurpose": purpose, "version": 1}
            return json.dumps({"header": header, "body": body})

        await ws.send(request("no-line", "commandRequest", {"version": 17039360}))
        await ws.send(request("no-version", "commandRequest", {"commandLine": "say hi"}))
        await ws.send(request("bad-version", "commandRequest", {"commandLine": "say hi",
                                                                 "version": "new"}))  # fmt: skip
        await ws.send(request("odd", "teleportRequest", {}))
        replies = {r["header"]["requestId"]: r for r in [await recv_json(ws) for _ in range(4)]}
        wanted = {
            "no-line": "commands.generic.malformed.body",
            "no-version": "commands.generic.version.missing",
            "bad-version": "commands.generic.version.mismatch",
            "odd": "commands.generic.malformed.type",
        }
        for rid, key in wanted.items():
            assert replies[rid]["header"]["messagePurpose"] == "error", rid
            assert replies[rid]["body"] == {"statusCode": -2147418111, "statusMessage": lang(key)}
        assert sim.chat_log == []  # none of them ran


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
        assert events[0]["header"] == exact("chat-17104896")["header"]  # the 2026 version


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
        await ws.send("[" * 100_000 + "]" * 100_000)  # dropped unanswered, as any oversize
        await ws.send(command_frame("getlocalplayername", "still-here")[1])
        assert (await recv_json(ws))["header"]["requestId"] == "still-here"
