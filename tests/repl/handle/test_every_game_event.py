"""Every WebSocket game event of the vocabulary that the game sends, end to end: subscribed
through the notebook handle (``mc.on``), fired by the simulated world as the connected
client's doing, and heard as its typed event with the values of the corpus's frame: a
captured event's published frame (``sim/evidence/captures.json``), an assumed event's keys
(``facts.json`` ``game_events``). Real shell, real sockets, the shipped addon."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from mcbews_repl.game_events import ADDON_EVENTS, GAME_EVENTS, Field, Source
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.sim.facts import corpus

SENT = [
    name
    for name, kind in GAME_EVENTS.items()
    if kind.source is Source.WEBSOCKET and kind.fires and not kind.always
]
FRAMES = {c["id"]: c["exact"] for c in corpus("captures")["captures"]}
FACTS = corpus("facts")["game_events"]


def wait_until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.02)
    return found


def at(body: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        body = body[key]
    return body


def expected(field: Field, body: dict[str, Any]) -> dict[str, Any]:
    """The columns ``field`` makes from a frame's body, as the evidence spells them."""
    value = at(body, field.path)
    if field.type == "id":
        return {field.name: value["id"], f"{field.name}_id": f"{value['namespace']}:{value['id']}"}
    if field.type == "type_id":
        return {field.name: value.rpartition(":")[2], f"{field.name}_id": value}
    return {field.name: value}


def test_the_list_is_every_event_the_corpus_has_a_shape_for() -> None:
    shaped = {n for n in FACTS if not n.startswith(("$", "player_keys", "not_firing"))}
    assert set(SENT) == shaped


@pytest.mark.parametrize("name", SENT)
def test_each_game_event_arrives_typed_with_the_corpus_values(shell: Any, name: str) -> None:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft) and mc.sim is not None
    kind = GAME_EVENTS[name]
    heard: list[Any] = []
    mc.on(name, heard.append)
    try:
        wait_until(lambda: name in mc.sim.raw.client.subscriptions)  # the game has it
        steve = mc.sim.world.players["Steve"]
        assert mc.sim.fire_event(name, "Steve") is True
        wait_until(lambda: heard)
    finally:
        assert mc.off(name) == 1
        mc.unsubscribe(name).result(10)
    (got,) = heard
    event = got.event
    assert type(event) is kind.cls and event.name == name
    where = steve.location
    assert (event.player, event.x, event.y, event.z) == ("Steve", where.x, where.y, where.z)
    assert event.dimension == 0 and event.yaw == steve.yaw
    frame = FRAMES.get(f"{name}-16842752")
    own = kind.fields[6:]  # after the player's
    if frame is not None:  # captured: the published frame's values, the player's aside
        assert frame["header"]["eventName"] == name
        for field in own:
            for column, value in expected(field, frame["body"]).items():
                assert getattr(event, column) == value, (name, column)
    else:  # assumed: each field reads a key the corpus lists, and none is left empty
        keys = FACTS[name]["value"]["body"]
        for field in own:
            assert field.path[0] in keys, (name, field.path)
            for column in field.columns:
                assert getattr(event, column) is not None, (name, column)
    row = mc.events(kind=name, last=1).result(10).iloc[-1]
    assert row["player"] == "Steve"
    for column in kind.columns:
        assert row[column] == getattr(event, column), (name, column)


# Each addon kind's doing in the simulated world (Alex is not the connected client), and
# what the event must say: the doing's values, read back through the shipped addon's bundle.
ADDON_DOINGS: dict[str, tuple[Callable[[Any], Any], dict[str, Any]]] = {
    "player_break_block": (lambda s: (s.place_block("Alex", 6, 80, 6, "stone"),
                                      s.break_block("Alex", 6, 80, 6)),
                           {"block_id": "minecraft:stone", "x": 6, "y": 80, "z": 6}),
    "player_place_block": (lambda s: s.place_block("Alex", 7, 80, 7, "oak_planks"),
                           {"block_id": "minecraft:oak_planks", "x": 7, "y": 80, "z": 7}),
    "entity_hit_block": (lambda s: s.hit_block("Alex", 1, 62, 1, "East"),
                         {"face": "East", "entity_id": "minecraft:player", "x": 1}),
    "entity_die": (lambda s: s.kill_mob("Alex", "minecraft:zombie"),
                   {"victim_id": "minecraft:zombie", "cause": "entityAttack"}),
    "player_spawn": (lambda s: s.join("Zed"), {"player": "Zed", "initial_spawn": True}),
    "player_leave": (lambda s: (s.join("Yan"), s.leave("Yan")), {"player": "Yan"}),
    "item_use": (lambda s: s.use_item("Alex", "bread"), {"item_id": "minecraft:bread"}),
    "item_start_use": (lambda s: s.start_use("Alex", "bow", duration=72000),
                       {"item": "bow", "item_id": "minecraft:bow", "use_duration": 72000}),
    "item_complete_use": (lambda s: s.complete_use("Alex", "bread"),
                          {"item_id": "minecraft:bread", "use_duration": 0}),
    "item_release_use": (lambda s: s.release_use("Alex", "bow", ticks_left=71990),
                         {"item_id": "minecraft:bow", "count": 1, "use_duration": 71990}),
    "item_stop_use": (lambda s: s.stop_use("Alex", "bow", ticks_left=5),
                      {"item_id": "minecraft:bow", "use_duration": 5}),
    "item_start_use_on": (lambda s: s.start_use_on("Alex", 2, 62, 3, "North"),
                          {"face": "North", "x": 2, "y": 62, "z": 3}),
    "item_stop_use_on": (lambda s: s.stop_use_on("Alex", 3, 62, 2), {"x": 3, "y": 62, "z": 2}),
    "player_interact_with_block": (lambda s: s.interact_block("Alex", 2, 62, 2, "South"),
                                   {"face": "South", "first": True}),
    "button_push": (lambda s: s.push_button("Alex", 3, 64, 3),
                    {"entity_id": "minecraft:player", "x": 3, "y": 64, "z": 3}),
    "lever_action": (lambda s: s.flip_lever("Alex", 4, 64, 4, powered=False),
                     {"block_id": "minecraft:air", "powered": False}),
}  # fmt: skip


def test_every_addon_kind_has_a_doing() -> None:
    assert set(ADDON_DOINGS) == set(ADDON_EVENTS)


@pytest.mark.parametrize("name", list(ADDON_EVENTS))
def test_each_addon_event_arrives_typed_through_the_shipped_addon(shell: Any, name: str) -> None:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft) and mc.sim is not None
    kind = ADDON_EVENTS[name]
    doing, values = ADDON_DOINGS[name]
    heard: list[Any] = []
    mc.on(name, heard.append)
    try:
        wait_until(lambda: all(name in (c.raw.forwarding or {}) for c in mc.connections))
        doing(mc.sim)
        wait_until(lambda: heard)
    finally:
        assert mc.off(name) == 1
        mc.unsubscribe(name).result(10)
    event = heard[-1].event
    assert type(event) is kind.cls and event.name == name
    assert event.player == values.get("player", "Alex")
    assert event.dimension == (None if name == "player_leave" else 0)  # a name alone
    for column, value in values.items():
        assert getattr(event, column) == value, (name, column)
    assert mc.sim.script_errors == []
