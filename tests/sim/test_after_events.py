"""The simulated players' doings fire the Script API's world.afterEvents for every player,
with the event objects the 2.4.0 module documents (facts.json ``script_events``), and the
shipped addon forwards what it reads from them: the vocabulary's addon kinds, one signal
each, decode the batch the real bundle writes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcbews_repl.game_events import ADDON_EVENTS
from mcbews_repl.sansio import ForwardedBatch, interpret_ui_chat
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.facts import corpus

FACTS = corpus("facts")["script_events"]
SIGNALS = {n: f for n, f in FACTS.items() if isinstance(f, dict) and isinstance(f["value"], dict)}


def test_every_addon_kind_is_a_documented_signal() -> None:
    signals = {kind.signal.removeprefix("world.afterEvents.") for kind in ADDON_EVENTS.values()}
    assert signals == set(SIGNALS)
    for name, kind in ADDON_EVENTS.items():
        signal = kind.signal.removeprefix("world.afterEvents.")
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in signal)
        assert snake == name, (name, signal)


class Fired:
    """Stands in for the script host: keeps what each doing fires."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def after_event(self, signal: str, event: dict[str, Any]) -> None:
        self.events.append((signal, event))


def doings(world: SimWorld) -> None:
    world.break_block("Alex", 0, 62, 0)
    world.place_block("Alex", 0, 70, 0, "stone")
    world.hit_block("Alex", 1, 62, 1, "East")
    world.kill_mob("Alex", "minecraft:zombie")
    world.hurt("Alex", 100, cause="lava")
    world.use_item("Alex", "bread")
    world.start_use("Alex", "bread")
    world.complete_use("Alex", "bread")
    world.start_use("Alex", "bow", duration=72000)
    world.release_use("Alex", "bow", ticks_left=71980)
    world.stop_use("Alex", "bow", ticks_left=71980)
    world.start_use_on("Alex", 5, 62, 5, "West")
    world.stop_use_on("Alex", 5, 62, 5)
    world.interact_block("Alex", 2, 62, 2, "North")
    world.push_button("Alex", 3, 64, 3)
    world.flip_lever("Alex", 4, 64, 4, powered=False)
    world.join("Mia")
    world.leave("Mia")


def test_each_doing_fires_its_signal_with_the_documented_properties() -> None:
    world = SimWorld(fast=True, addon=False)
    fired = Fired()
    world.host = fired  # type: ignore[assignment]
    doings(world)
    seen = {signal for signal, _ in fired.events}
    assert seen == set(SIGNALS)
    for signal, event in fired.events:
        assert sorted(event) == SIGNALS[signal]["value"]["properties"], signal


async def test_the_shipped_addon_forwards_every_players_doings() -> None:
    async with SimWorld(fast=True) as world:
        kinds = {name: 0 for name in ADDON_EVENTS}
        request = {"v": 2, "request_id": "sub1", "capability": "subscribe_events",
                   "payload": {"kinds": kinds}}  # fmt: skip
        assert world.host is not None
        world.host.script_event("mcbews:pull_req", json.dumps(request), "Server", None)
        await world.advance(2)
        answer = world.run_command("mcbews:pull sub1").status_message
        assert '"ok":true' in answer
        doings(world)
        await world.advance(2)
        reply = world.run_command("mcbews:poll").status_message
        prefix, mid, page, text = reply.split("|", 4)[1:]
        assert prefix == "UI"
        for n in range(2, int(page.split("/")[1]) + 1):  # a batch of 1 KiB pages
            text += world.run_command(f"mcbews:pull {mid} {n}").status_message.split("|", 4)[4]
        batch = interpret_ui_chat(mid, text)
        assert isinstance(batch, ForwardedBatch) and batch.refused == 0
        names = [type(e).name for e in batch.events]
        assert set(names) == set(ADDON_EVENTS)
        by_name = {type(e).name: e for e in reversed(batch.events)}
        assert by_name["player_break_block"].block_id == "minecraft:dirt"
        assert by_name["entity_hit_block"].face == "East"
        assert by_name["lever_action"].powered is False
        assert by_name["player_spawn"].initial_spawn is True
        assert by_name["player_leave"].player == "Mia"
        died = [e for e in batch.events if type(e).name == "entity_die"]
        assert [(d.victim, d.cause) for d in died] == [
            ("zombie", "entityAttack"),
            ("player", "lava"),
        ]
        assert world.script_errors == []


@pytest.mark.parametrize("face", ["up", "Top", ""])
def test_a_face_that_is_not_a_direction_is_refused(face: str) -> None:
    world = SimWorld(fast=True, addon=False)
    with pytest.raises(ValueError, match="face is one of"):
        world.hit_block("Steve", 0, 62, 0, face)
