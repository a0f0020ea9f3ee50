"""End to end: the gateway, the simulated game client and the real addon bundle in QuickJS.

Every capability call here travels a real path, each test both ways (``route``):

- ``stable-pull``: the stable pack in a world without Beta APIs. Python -> commandRequest
  ``mcbews:ask <hex>`` -> the addon's callback -> the command's result message
  (``statusMessage``) -> ``mcbews:pull`` for more pages -> Python.
- ``beta-chat``: the beta pack with Beta APIs on, the chat transport set. Python ->
  /scriptevent -> the addon's router -> `tell @s` chunks by MCBEWS_BRIDGE -> PlayerMessage ->
  the gateway's reassembly -> Python.
- ``beta-tags``: the beta pack in a world where neither premise holds (a custom command's
  message does not come back, the bridge player's chat does not reach the WebSocket), the
  transport probed as on any connection. Python -> /scriptevent mcbews:tags_req -> the
  addon's router -> page tags on Steve (addTag) -> `tag @s list` -> Python, acked away.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError, GameDisconnected, RequestTimeout, UiChat
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import ChatContexts

BRIDGE = "MCBEWS_BRIDGE"
# Instant text pacing keeps the suite fast; the sim's in-flight window is still enforced.
FAST_BRIDGE: dict[str, Any] = {"text_prelude": 0.0, "text_interval": 0.0}


# The two ways answers travel, each with the pack and world it needs (the sim's options) and
# the bridge's transport setting.
ROUTES: dict[str, dict[str, Any]] = {
    "stable-pull": {"pack": "stable", "beta_apis": False, "transport": "auto"},
    "beta-chat": {"pack": "beta", "beta_apis": True, "transport": "chat"},
    "beta-tags": {
        "pack": "beta",
        "beta_apis": True,
        "transport": "auto",
        "report_custom_command_messages": False,
        "report_simulated_chat": False,
    },
}


@pytest.fixture(params=["plain", "encrypted"])
def encrypted(request: pytest.FixtureRequest) -> bool:
    """Every end-to-end test runs twice: unencrypted, and with the world requiring
    encryption ("Require Encrypted Websockets") and the bridge refusing anything less."""
    return bool(request.param == "encrypted")


@pytest.fixture(params=list(ROUTES))
def route(request: pytest.FixtureRequest) -> str:
    """... and every way: the pull transport (stable pack), the chat one (beta pack), and the
    tags one (beta pack, in a world where the other two fail)."""
    return str(request.param)


@asynccontextmanager
async def bridge_and_sim(
    route: str, encrypted: bool, **sim_options: Any
) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    """A gateway on a free port with a simulated game (running the addon) connected to it."""
    options = {**ROUTES[route], **sim_options}
    transport = options.pop("transport")
    async with (
        mcbews_repl.serve(
            host="127.0.0.1", port=0, encrypt=encrypted, transport=transport, **FAST_BRIDGE
        ) as mc,
        SimWorld(fast=True, require_encryption=encrypted, **options) as sim,
    ):
        await sim.connect(mc.url)
        connection = await mc.wait_connected(timeout=5)
        assert connection.encrypted is encrypted
        assert connection.local_player == "Steve"  # the handshake's command got through
        assert connection.transport == route.split("-")[1]
        yield mc, sim


@pytest.fixture
async def linked(route: str, encrypted: bool) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    async with bridge_and_sim(route, encrypted) as (mc, sim):
        yield mc, sim
        assert sim.script_errors == []


async def test_player_snapshot(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, sim = linked
    result = await mc.call("get_player_snapshot", target="Alex")
    [alex] = result["players"]
    assert alex["name"] == "Alex" and alex["id"] == sim.world.players["Alex"].id
    assert alex["location"] == {"x": 12.5, "y": 70, "z": -8.5}
    assert alex["health"] == {"current": 14, "max": 20}
    assert alex["gameMode"] == "Creative" and alex["tags"] == ["explorer", "vip"]
    everyone = await mc.call("get_player_snapshot")
    assert [p["name"] for p in everyone["players"]] == ["Steve", "Alex"]  # never the bridge


async def test_player_snapshot_sees_python_edits(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    sim.world.players["Steve"].tags.add("edited")
    (await mc.command("tp Steve 3 70 4")).raise_for_status()
    [steve] = (await mc.call("get_player_snapshot", target="@s"))["players"]
    # Whole x and z name a block: the game puts Steve at its centre (captures.json, teleport).
    assert steve["location"] == {"x": 3.5, "y": 70, "z": 4.5} and "edited" in steve["tags"]


async def test_inventory_snapshot(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, _ = linked
    [steve] = (await mc.call("get_inventory_snapshot", target="Steve"))["players"]
    sword = steve["slots"][0]
    assert sword["nameTag"] == "Excalibur"
    assert sword["lore"] == ["Pulled from a stone", "§6Legendary"]
    assert sword["enchantments"] == [
        {"id": "sharpness", "level": 5},
        {"id": "unbreaking", "level": 3},
    ]
    assert sword["durability"] == {"damage": 120, "max": 1561}
    assert [s["amount"] for s in steve["slots"] if s["typeId"] == "minecraft:cobblestone"] == [
        64,
        37,
    ]
    assert steve["equipment"]["head"]["typeId"] == "minecraft:iron_helmet"
    assert steve["equipment"]["legs"] is None


async def test_world_commands_allowed_and_denied(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    allowed = await mc.call("run_world_command", command="say from the notebook")
    assert allowed == {"command": "say", "successCount": 1}
    said = [line for line in sim.chat_log if line.type == "say"]
    assert [(s.sender, s.message) for s in said] == [
        ("Script Engine", "[Script Engine] from the notebook")
    ]
    with pytest.raises(CapabilityError) as denied:
        await mc.call("run_world_command", command="give @a diamond 64")
    assert denied.value.code == "CAPABILITY_FAILED"
    assert "not allowed" in str(denied.value)
    alex = sim.world.players["Alex"]
    assert not any(s and s.type_id == "minecraft:diamond" for s in alex.inventory)


async def test_list_and_unknown_capabilities(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, _ = linked
    listed = await mc.call("list_capabilities")
    names = [c["name"] for c in listed["capabilities"]]
    assert names == [
        "get_player_snapshot",
        "get_inventory_snapshot",
        "run_world_command",
        "describe_entities",
        "get_blocks",
        "set_blocks",
        "subscribe_events",
        "get_world_spawn",
        "list_capabilities",
    ]
    with pytest.raises(CapabilityError) as unknown:
        await mc.call("summon_dragon")
    assert unknown.value.code == "UNSUPPORTED_CAPABILITY"


async def test_ui_chat_reaches_a_python_callback(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    got: asyncio.Queue[UiChat] = asyncio.Queue()
    mc.on_ui_chat(got.put_nowait)
    text = 'hello 世界 @a §c "quoted" ' + "long " * 120
    sim.ui_chat("Steve", text)
    message = await asyncio.wait_for(got.get(), 5)
    assert (message.player, message.message) == ("Steve", text)
    assert sim.api.forms_shown[-1]["player"] == "Steve"


def mixed_text(size: int) -> str:
    pieces = ["你好世界 ", "🙂🚀 ", "@a @s ", "§c红§r ", "\"quotes\" 'single' ", "line\nbreak\n"]
    out = ""
    while len(out.encode()) < size:
        out += pieces[len(out) % len(pieces)] + str(len(out))
    return out


async def test_send_text_arrives_exactly(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, sim = linked
    text = mixed_text(20 * 1024)
    frames = await mc.send_text("Steve", text)
    assert frames > 40  # really chunked
    for _ in range(200):
        if sim.inbox("Steve"):
            break
        await asyncio.sleep(0.01)
    assert sim.inbox("Steve") == ["§a[assistant]§r " + text]
    assert sim.inbox("Alex") == []


HOSTILE = ('He said "no" \\ then\n"yes" @a §c 中文 😀 \x01 ' * 80)[:3000]


async def until_shown(sim: SimWorld, player: str) -> list[str]:
    for _ in range(300):
        if sim.inbox(player):
            break
        await asyncio.sleep(0.01)
    return sim.inbox(player)


async def test_hostile_traffic_fits_the_games_own_ceilings(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    """The simulated world enforces its own copy of 461 and 661 (from its evidence corpus):
    quotes, backslashes, newlines, escapes and CJK all go through without a refusal."""
    mc, sim = linked
    await mc.send_text("Steve", HOSTILE)
    assert await until_shown(sim, "Steve") == ["§a[assistant]§r " + HOSTILE]
    result = await mc.call("run_world_command", command="say " + HOSTILE[:40])
    assert result["successCount"] == 1
    assert (await mc.command("say " + '"' * 200)).ok  # 204 bytes of line, 616 of frame
    assert sim.client is not None and sim.client.oversized == 0


async def test_a_wrong_frame_budget_on_the_bridge_is_caught(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    """Were the bridge's frame ceiling wrong (here 900 bytes instead of 661), the game's
    copy in the simulated world drops the frame without a word, as the game was seen to
    (facts.json oversized_request), and what the caller reads says what most likely
    happened: the size, past the bridge's budget, and that the game drops such requests."""
    mc, sim = linked
    mc.connections[0].proto.frame_budget_bytes = 900
    line = "say " + '"' * 300  # 304 bytes of line, an 816-byte frame
    with pytest.raises(RequestTimeout) as silent:
        await mc.command(line, timeout=1.0)
    message = str(silent.value)
    assert "within 1 s on connection #" in message
    assert "it was sent in a 816-byte frame with a 304-byte command line" in message
    assert "past the bridge's budget (461 bytes of line, 661 of frame)" in message
    assert "the game drops a request over its size limit without any answer" in message
    assert "paused" not in message
    assert sim.client is not None and sim.client.oversized == 1
    assert (await mc.command("say still here")).ok  # the connection goes on


async def test_a_timeout_within_the_budget_does_not_blame_the_size(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    """A command the bridge's budget takes gets no word about size when it goes unanswered:
    the game takes such frames (a paused world here)."""
    mc, sim = linked
    sim.clock.paused = True
    with pytest.raises(RequestTimeout) as silent:
        await mc.command("say " + '"' * 200, timeout=0.5)  # 616 bytes of frame
    sim.clock.paused = False
    assert "the world may be paused or the connection stalled" in str(silent.value)
    assert "frame" not in str(silent.value)


@pytest.mark.parametrize(
    "shape",
    [{"event_version": 16842752}, {"legacy_events": True}],
    ids=["header-16842752", "legacy-properties"],
)
async def test_older_event_shapes_carry_answers_and_chat(
    route: str, encrypted: bool, shape: dict[str, Any]
) -> None:
    """Older games: the modern body under header version 16842752, or the legacy
    ``properties`` shape (both captured, evidence/captures.json). The bridge reads both."""
    async with bridge_and_sim(route, encrypted, **shape) as (mc, sim):
        [alex] = (await mc.call("get_player_snapshot", target="Alex"))["players"]
        assert alex["name"] == "Alex"
        sim.chat("Alex", "hello from an older game")
        for _ in range(300):
            chats = [e for e in mc.events() if e.kind == "chat"]
            if chats:
                break
            await asyncio.sleep(0.01)
        assert chats[-1].data["sender"] == "Alex"
        assert chats[-1].data["message"] == "hello from an older game"
        version = 16842752 if "event_version" in shape else 1
        assert mc.connections[0].protocol_version == version


async def test_a_thousand_concurrent_commands(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, sim = linked
    results = await asyncio.gather(
        *(mc.command("scoreboard players add Steve coins 1") for _ in range(1000))
    )
    assert all(r.ok for r in results)
    assert sim.world.objectives["coins"].scores["Steve"] == 1120
    assert sim.client is not None
    assert sim.client.refused == 0  # the gateway kept its window: nothing was refused
    assert sim.client.peak_in_flight > 1  # ... and the commands really overlapped


async def test_disconnect_during_a_call(linked: tuple[mcbews_repl.Bridge, SimWorld]) -> None:
    mc, sim = linked
    await sim.clock.stop()  # the world stops ticking: the request waits in the game
    call = asyncio.create_task(mc.call("get_player_snapshot", timeout=5))
    await asyncio.sleep(0.05)
    await sim.disconnect()
    with pytest.raises(GameDisconnected):
        await asyncio.wait_for(call, 5)


async def test_request_before_the_bridge_player_exists(encrypted: bool) -> None:
    """The chat transport only: a request waits in the addon until its bridge player is
    back (here its spawn fails until the operator lets it)."""
    async with bridge_and_sim("beta-chat", encrypted) as (mc, sim):
        sim.api.options.beta_apis = False
        sim.world.players.pop(BRIDGE)  # the bridge player left and cannot come back yet
        call = asyncio.create_task(mc.call("get_player_snapshot", target="Steve", timeout=5))
        await sim.advance(41)  # the addon tries to spawn it again every 40 ticks
        assert BRIDGE not in sim.world.players and not call.done()
        assert any("cannot spawn MCBEWS_BRIDGE" in w for w in sim.api.warnings)
        sim.api.options.beta_apis = True  # the spawn works again
        await sim.advance(40)  # the addon retries the spawn every 40 ticks
        result = await asyncio.wait_for(call, 5)
        assert result["players"][0]["name"] == "Steve"
        assert BRIDGE in sim.world.players


async def test_server_sourced_scriptevent_has_no_player(encrypted: bool) -> None:
    """A request by script event may arrive without its player (the chat transport's path);
    a custom command run over the WebSocket has the connected player as its source."""
    async with bridge_and_sim("beta-chat", encrypted, scriptevent_source="Server") as (mc, _):
        with pytest.raises(CapabilityError, match="@s needs a player source"):
            await mc.call("get_player_snapshot", target="@s")
    async with bridge_and_sim("stable-pull", encrypted, scriptevent_source="Server") as (mc, _):
        [steve] = (await mc.call("get_player_snapshot", target="@s"))["players"]
        assert steve["name"] == "Steve"


async def test_an_education_world_answers_by_pull(encrypted: bool) -> None:
    """Minecraft Education: no experiments toggle, so the stable pack and the pull transport,
    with "Require Encrypted Websockets" left on or off."""
    async with bridge_and_sim("stable-pull", encrypted, edition="education") as (mc, sim):
        assert sim.addon_refused is None and BRIDGE not in sim.world.players
        [alex] = (await mc.call("get_player_snapshot", target="Alex"))["players"]
        assert alex["name"] == "Alex"
        got: asyncio.Queue[UiChat] = asyncio.Queue()
        mc.on_ui_chat(got.put_nowait)
        sim.ui_chat("Alex", "from the classroom")
        assert (await asyncio.wait_for(got.get(), 5)).message == "from the classroom"


async def test_pull_ui_chat_waits_in_the_addon_within_its_bound(encrypted: bool) -> None:
    """Over the pull transport UI chat waits in the addon until polled. A burst larger than
    the addon keeps (UI_CHAT_WAITING_MAX, 64) reaches Python up to that bound; each player
    past it is told the message was not sent, so nothing is lost silently."""
    async with bridge_and_sim("stable-pull", encrypted) as (mc, sim):
        got: list[UiChat] = []
        mc.on_ui_chat(got.append)
        for i in range(100):  # all in one tick: the poller reads one message per command
            sim.ui_chat("Steve" if i % 2 else "Alex", f"burst {i}")
        for _ in range(500):
            if len(got) == 64:
                break
            await asyncio.sleep(0.01)
        refused = [m for p in ("Steve", "Alex") for m in sim.inbox(p) if "not sent" in m]
        assert len(got) == 64 and len(refused) == 36
        assert [m.message for m in got] == [f"burst {i}" for i in range(64)]
        assert "64 messages already wait for the notebook to read them" in refused[0]
        sim.ui_chat("Alex", "later")  # room again once polled
        for _ in range(500):
            if len(got) == 65:
                break
            await asyncio.sleep(0.01)
        assert got[-1].message == "later"


async def test_tellraw_to_everyone_echoes_to_each_recipient_and_none_reaches_chat_readers() -> None:
    """tellraw @a in a world with the bridge player (the beta pack): the game counts that
    simulated player as a recipient and echoes the line to it too, as the 2026 recording shows
    for its own (facts.json tellraw_recipients). The bridge marks every echo as its own, so the
    toolkit's chat readers (ChatContexts) capture none of them."""
    async with bridge_and_sim("beta-chat", False) as (mc, sim):
        contexts = ChatContexts(mc)
        contexts.start()
        result = await mc.command('tellraw @a {"rawtext":[{"text":"hello all"}]}')
        assert sorted(result.body["recipient"]) == sorted(["Steve", "Alex", BRIDGE])
        for _ in range(300):
            echoes = [e for e in mc.events(0) if e.kind == "chat" and e.data.get("type") == "tell"]
            if len(echoes) >= 3:
                break
            await asyncio.sleep(0.01)
        receivers = [line.receiver for line in sim.chat_log if line.type == "tell"]
        assert sorted(receivers) == sorted(["Steve", "Alex", BRIDGE])  # one echo each
        assert len(echoes) == 3 and all(e.data["is_echo"] for e in echoes)
        assert {e.data["sender"] for e in echoes} == {"External"}
        assert contexts.stats()["held"] == 0
        contexts.stop()


async def test_custom_commands_answer_to_their_bare_names_but_the_bridge_sends_full_ones(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    """The game registers /poll beside /mcbews:poll (facts.json custom_command_bare_alias);
    the bridge keeps to the namespaced form, which another pack's /poll cannot take."""
    mc, sim = linked
    await mc.call("get_player_snapshot", target="Steve")
    assert sim.client is not None
    sent = [line for _, line in sim.client.received]
    ours = [line for line in sent if line.split(" ", 1)[0] in ("ask", "pull", "poll", "chat")]
    assert ours == []
    assert any(line.startswith(("mcbews:", "scriptevent mcbews:")) for line in sent)
    if sim.api.custom_commands:  # the pack registered its commands: the bare names work too
        assert sim.api.bare_names == {name.split(":")[1]: name for name in sim.api.custom_commands}
        bare, full = await mc.command("poll"), await mc.command("mcbews:poll")
        assert (bare.status_code, bare.status_message) == (full.status_code, full.status_message)
