"""A simulated class of three worlds on one bridge, over real sockets: names, routing, mc.each.

Every world runs the real addon and is hosted by its own student (Ana, Ben, Chloe). A call
sent to the wrong world would show up in the wrong world's state or inbox, where these
tests look; a call not told which world must reach none of them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

import mcbews_repl
from mcbews_repl import NotConnected, WhichWorld
from mcbews_repl.repl.handle import Minecraft, UiMessage
from mcbews_repl.repl.handle._classroom import _worlds_players, class_names, classroom_world
from mcbews_repl.repl.handle._events import WorldEvent
from mcbews_repl.repl.handle._simulate import SimHandle
from mcbews_repl.sim import SimWorld

from .test_two_worlds import record_commands, wait_until

HOSTS = ["Ana", "Ben", "Chloe"]


def received_by(sim: SimHandle) -> list[str]:
    """Every command line the simulated game runs from now on, as it received them."""
    return record_commands(sim.raw)


@pytest.fixture(scope="module")
def mc() -> Iterator[Minecraft]:
    with mcbews_repl.start(port=0) as handle:
        sims = handle.simulate(worlds=3).result(60)
        assert [s.world.local_player for s in sims] == HOSTS
        yield handle


@pytest.fixture(scope="module")
def sims(mc: Minecraft) -> dict[str, SimHandle]:
    return {s.world.local_player: s for s in mc.sims}


def inbox_with(sim: SimHandle, player: str, needle: str) -> list[str]:
    return [line for line in sim.inbox(player) if needle in line]


def test_a_class_has_its_own_students_seeds_and_kits() -> None:
    assert class_names(3) == HOSTS
    assert class_names(28)[26:] == ["Ana2", "Ben2"]
    ana, ben = classroom_world(["Ana", "Kai"], 1), classroom_world(["Ben"], 2)
    assert list(ana.players) == ["Ana", "Kai"] and ana.local_player == "Ana"
    assert ana.terrain.seed == 1 and ben.terrain.seed == 2
    kits = [[s.type_id for s in p.inventory if s] for p in (ana.players["Ana"],
                                                           ben.players["Ben"])]  # fmt: skip
    assert all(len(kit) == 4 for kit in kits) and kits[0] != kits[1]


def test_players_name_the_hosts_or_each_worlds_players() -> None:
    assert _worlds_players(2, None) == [["Ana"], ["Ben"]]
    assert _worlds_players(2, ["Kai", "Lu"]) == [["Kai"], ["Lu"]]
    assert _worlds_players(2, [["Ana", "Kai"], "Ben"]) == [["Ana", "Kai"], ["Ben"]]
    with pytest.raises(ValueError, match="worlds must be 1 or more"):
        _worlds_players(0, None)


def test_simulate_says_what_players_takes(mc: Minecraft) -> None:
    with pytest.raises(ValueError, match="players= takes 2 entries for worlds=2"):
        mc.simulate(["Ana"], worlds=2)
    with pytest.raises(ValueError, match="every world needs its own host"):
        mc.simulate(["Ana", "Ana"], worlds=2)


def test_worlds_are_listed_by_their_host(mc: Minecraft) -> None:
    worlds = mc.worlds
    assert list(worlds["name"]) == HOSTS
    assert list(worlds.columns) == ["id", "name", "connected", "address", "encrypted",
                                    "connected since", "players", "pending",
                                    "last event"]  # fmt: skip
    assert worlds["connected"].all() and list(worlds.index) == [0, 1, 2]
    assert all(address.startswith("127.0.0.1:") for address in worlds["address"])
    assert list(worlds["players"]) == HOSTS  # each host, until an answer says more


def test_a_call_not_told_which_world_asks_and_sends_nothing(
    mc: Minecraft, sims: dict[str, SimHandle]
) -> None:
    lines = {name: received_by(sim) for name, sim in sims.items()}
    ana = mc.world("Ana").id
    calls = {
        "players()": lambda: mc.players(),
        "command('say to whom?')": lambda: mc.command("say to whom?"),
        "call('list_capabilities')": lambda: mc.call("list_capabilities"),
        "inventory('Ben')": lambda: mc.inventory("Ben"),
        "blocks(...)": lambda: mc.blocks((0, 60, 0), (1, 61, 1)),
    }
    for called, call in calls.items():
        with pytest.raises(WhichWorld) as caught:
            call().result(10)
        said = str(caught.value)
        assert said.startswith("3 worlds are connected (Ana (id ")
        assert "Ben (id" in said and "Chloe (id" in said
        # the call that was made, not always players(), sent to a world by name or id
        assert f"mc.world('Ana').{called}, or mc.world({ana}).{called};" in said, said
        if called != "blocks(...)":
            assert f"mc.each.{called} asks every world" in said, said
    time.sleep(0.3)
    assert not any("say to whom" in line for found in lines.values() for line in found)


def test_a_named_world_gets_the_call(mc: Minecraft, sims: dict[str, SimHandle]) -> None:
    lines = {name: received_by(sim) for name, sim in sims.items()}
    assert list(mc.world("Ben").players().result(10)["name"]) == ["Ben"]
    chloe = mc.world("chloe")  # a name matches regardless of case when nothing matches exactly
    result = mc.world(chloe.id).command("say only in Chloe's world").result(10)
    assert result.ok
    assert any("only in Chloe's world" in line for line in lines["Chloe"])
    assert not any("only in Chloe's world" in line for line in lines["Ana"] + lines["Ben"])
    with pytest.raises(NotConnected, match="no world 'Dora'; connected: Ana"):
        mc.world("Dora")


def test_each_asks_every_world_at_once(mc: Minecraft, sims: dict[str, SimHandle]) -> None:
    players = mc.each.players().result(20)
    assert list(players["world"]) == HOSTS and list(players["name"]) == HOSTS
    assert players["error"].isna().all()
    given = mc.each.command("give @a apple 2").result(20)
    assert list(given["world"]) == HOSTS and given["ok"].all()
    assert [m.startswith(f"Gave Apple * 2 to {h}") for m, h in zip(given["message"], HOSTS,
                                                                 strict=True)]  # fmt: skip
    inventory = mc.each.inventory().result(20)
    apples = inventory[inventory["item"] == "apple"]
    assert set(apples["world"]) == set(HOSTS)
    for name, sim in sims.items():  # the worlds themselves hold what the table says
        held = sum(s.amount for s in sim.world.players[name].inventory
                   if s and s.type_id == "minecraft:apple")  # fmt: skip
        assert held == apples[apples["world"] == name]["amount"].sum()


def test_one_hung_world_costs_the_others_nothing(mc: Minecraft) -> None:
    # A client that completes the WebSocket handshake and then never answers anything.
    with connect(mc.url) as silent:
        wait_until(lambda: len(mc.worlds) == 4)
        started = time.monotonic()
        players = mc.each(timeout=1.5).players().result(20)
        elapsed = time.monotonic() - started
        assert elapsed < 5, elapsed
        good, bad = players[players["error"].isna()], players[players["error"].notna()]
        assert list(good["world"]) == HOSTS
        [error] = bad.to_dict("records")
        assert error["world"].startswith("world #")  # no host player known: its number
        assert "no answer within 1.5 s" in error["error"] or "RequestTimeout" in error["error"]
        silent.close()
    wait_until(lambda: len(mc.bridge.connections) == 3)


def test_a_world_that_closes_is_an_error_row(mc: Minecraft, sims: dict[str, SimHandle]) -> None:
    late = SimWorld(classroom_world(["Dora"], 9), seed=9)
    loop = sims["Ana"].raw.loop
    assert loop is not None
    asyncio.run_coroutine_threadsafe(late.connect(mc.url), loop).result(30)
    wait_until(lambda: "Dora" in list(mc.worlds["name"]))
    dora = mc.world("Dora")
    dora.command("help").result(20)  # ready: the transport is chosen
    # Dora's game stops answering and then goes: her row says so, the others answer.
    asyncio.run_coroutine_threadsafe(late.clock.stop(), loop).result(10)  # no more ticks
    pending = mc.each(timeout=8).players()
    time.sleep(0.3)
    asyncio.run_coroutine_threadsafe(late.close(), loop).result(30)
    players = pending.result(20)
    assert list(players[players["error"].isna()]["world"]) == HOSTS
    [row] = players[players["world"] == "Dora"].to_dict("records")
    # Asked while open: gone before the answer (GameDisconnected), or before the question
    # left (NotConnected); either way the row says the game closed.
    assert row["error"].startswith(("GameDisconnected:", "NotConnected:"))
    assert "closed" in row["error"]
    shown = mc.worlds.set_index("name")
    assert not shown.loc["Dora", "connected"] and shown.loc["Ana", "connected"]
    with pytest.raises(NotConnected, match="Dora's world is not connected"):
        dora.players().result(10)


def test_ui_chat_replies_go_back_to_their_world(mc: Minecraft, sims: dict[str, SimHandle]) -> None:
    seen: list[tuple[str, str]] = []

    def answer(msg: UiMessage) -> None:
        seen.append((msg.player, msg.world.name))
        msg.reply(f"{msg.world.name} asked: {msg.message}")

    mc.on_ui_chat(answer)
    try:
        shown = sims["Ben"].ask("Ben", "how do I make a torch?").result(20)
        assert "Ben asked: how do I make a torch?" in str(shown)
    finally:
        mc.off_ui_chat(answer)
    assert seen == [("Ben", "Ben")]
    for other in ("Ana", "Chloe"):
        assert not inbox_with(sims[other], other, "how do I make a torch")


def test_a_world_handle_hears_only_its_world(mc: Minecraft, sims: dict[str, SimHandle]) -> None:
    heard: list[str] = []
    ana = mc.world("Ana")
    ana.on_ui_chat(lambda msg: heard.append(msg.player))
    try:
        sims["Chloe"].ui_chat("Chloe", "not for Ana's handle")
        sims["Ana"].ui_chat("Ana", "for Ana's handle")
        wait_until(lambda: heard)
        time.sleep(0.3)
    finally:
        mc.world("Ana").off_ui_chat()  # another handle of the same world removes it
    assert heard == ["Ana"]
    assert len(mc._core.ui_chat) == 0


def test_event_callbacks_know_their_world(mc: Minecraft, sims: dict[str, SimHandle]) -> None:
    events: list[WorldEvent] = []

    def heard(event: WorldEvent) -> None:
        events.append(event)
        event.reply(f"heard you in {event.world_name}")

    mc.on_event(heard, kinds="chat")
    try:
        sims["Chloe"].chat("Chloe", "anyone there?")
        wait_until(lambda: inbox_with(sims["Chloe"], "Chloe", "heard you in Chloe"))
    finally:
        mc.off_event(heard)
    [event] = [e for e in events if e.player == "Chloe"]
    assert event.kind == "chat" and event.world_name == "Chloe"
    assert not inbox_with(sims["Ana"], "Ana", "heard you in")


def test_a_renamed_world_keeps_its_name_when_it_reconnects(
    mc: Minecraft, sims: dict[str, SimHandle]
) -> None:
    table = mc.world("Ben").rename("Table 2")
    first_id = table.id
    with pytest.raises(ValueError, match="another world is already called 'Ana'"):
        table.rename("Ana")
    table.close()
    wait_until(lambda: not mc.world("Table 2").connected)
    assert "Table 2" in [w["name"] for w in mc.status().worlds if not w["connected"]]
    again = SimWorld(classroom_world(["Ben"], 2), seed=2)
    loop = sims["Ana"].raw.loop
    assert loop is not None
    asyncio.run_coroutine_threadsafe(again.connect(mc.url), loop).result(30)
    try:
        wait_until(lambda: mc.world("Table 2").connected)
        back = mc.world("Table 2")
        assert back.id != first_id and first_id in back._record.ids
        assert list(back.players().result(20)["name"]) == ["Ben"]
        assert list(mc.worlds["name"]).count("Table 2") == 1
    finally:
        asyncio.run_coroutine_threadsafe(again.close(), loop).result(30)


def test_a_failing_event_callback_is_counted_and_said(
    mc: Minecraft, sims: dict[str, SimHandle], capfd: pytest.CaptureFixture[str]
) -> None:
    before = mc.callback_failure_count

    def broken(event: WorldEvent) -> None:
        raise RuntimeError(f"cannot handle {event.world_name}")

    mc.world("Ana").on_event(broken, kinds=["chat"])
    try:
        sims["Ana"].chat("Ana", "hello?")
        wait_until(lambda: mc.callback_failure_count > before)
    finally:
        mc.off_event(broken)
    said = capfd.readouterr().err
    assert "chat event callback" in said and "broken failed on Ana's message" in said
    assert "RuntimeError: cannot handle Ana" in said
    assert mc.callback_failures[-1].error == "RuntimeError('cannot handle Ana')"


def test_one_students_inventory_wherever_she_is(mc: Minecraft) -> None:
    found = mc.each.inventory("Chloe").result(20)
    assert set(found["world"]) == {"Chloe"} and found["error"].isna().all()
    nowhere = mc.each.inventory("Nobody").result(20)  # no world has her: each one says so
    assert len(nowhere) == len(mc.each.players().result(20)["world"].unique())
    assert all("no player named Nobody is online" in e for e in nowhere["error"])


def test_two_worlds_with_one_name_are_told_apart_by_id(
    mc: Minecraft, sims: dict[str, SimHandle]
) -> None:
    other = SimWorld(classroom_world(["Ana"], 11), seed=11)  # a second student called Ana
    connected = len(mc.bridge.connections)
    loop = sims["Ana"].raw.loop
    assert loop is not None
    asyncio.run_coroutine_threadsafe(other.connect(mc.url), loop).result(30)
    try:
        wait_until(lambda: list(mc.worlds["name"]).count("Ana") == 2)
        first, second = mc.worlds[mc.worlds["name"] == "Ana"]["id"]
        with pytest.raises(WhichWorld) as caught:
            mc.players().result(10)
        said = str(caught.value)
        # mc.world('Ana') would not choose between them: the message names the ids
        assert f"which: mc.world({first}).players();" in said, said
        assert "mc.world('Ana')" not in said and "two worlds are called 'Ana'" in said
        with pytest.raises(
            WhichWorld,
            match=rf"2 connected worlds are called 'Ana' \(id "
            rf"{first}, id {second}\): name one by its id, mc.world\({first}\)",
        ):
            mc.world("Ana")
        assert list(mc.world(int(second)).players().result(20)["name"]) == ["Ana"]
    finally:
        asyncio.run_coroutine_threadsafe(other.close(), loop).result(30)
    wait_until(lambda: len(mc.bridge.connections) == connected)
    assert mc.world("Ana").connected  # one Ana connected again: her name is enough
