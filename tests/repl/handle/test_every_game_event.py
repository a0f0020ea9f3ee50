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

from mcbews_repl.game_events import GAME_EVENTS, Field, Source
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
