"""The simulated world's game events have the corpus's shapes: a captured event's frame has
exactly the keys of its published frame (all the way down), an assumed one the keys
facts.json lists; and the bridge's vocabulary reads the same wire names the corpus has."""

from __future__ import annotations

from typing import Any

import pytest

from mcbews_repl.game_events import GAME_EVENTS, Source, Status
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.facts import corpus
from mcbews_repl.sim.game_events import body_of, captured_body, event_facts, event_frame

FACTS = event_facts()
EVENTS = [n for n in FACTS if not n.startswith("$") and n not in ("player_keys", "not_firing")]
CAPTURED = [n for n in EVENTS if FACTS[n]["status"] == "captured"]


def shape(value: Any) -> Any:
    """The keys of a JSON value, nested (a list by its first element's)."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__ if not isinstance(value, bool | int | float) else "number"


class Recorder:
    """Stands in for the game client: keeps what the world would send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def report_event(self, name: str, frame: dict[str, Any]) -> bool:
        self.sent.append((name, frame))
        return True


def recording_world() -> tuple[SimWorld, Recorder]:
    world = SimWorld(fast=True, addon=False)
    recorder = Recorder()
    world.client = recorder
    return world, recorder


@pytest.mark.parametrize("name", CAPTURED)
def test_a_captured_events_frame_has_the_published_frames_keys(name: str) -> None:
    world, recorder = recording_world()
    assert world.fire_event(name, "Steve")
    ((sent_name, frame),) = recorder.sent
    captured = next(c["exact"] for c in corpus("captures")["captures"]
                    if c["id"] == f"{name}-16842752")  # fmt: skip
    assert sent_name == name
    assert shape(frame["body"]) == shape(captured["body"])
    assert frame["header"] == {**captured["header"], "version": world.event_version}
    assert frame["body"]["player"]["name"] == "Steve"


@pytest.mark.parametrize("name", [n for n in EVENTS if n not in CAPTURED])
def test_an_assumed_events_body_has_the_listed_keys(name: str) -> None:
    world, recorder = recording_world()
    assert world.fire_event(name, "Steve")
    assert sorted(recorder.sent[0][1]["body"]) == FACTS[name]["value"]["body"]


def test_the_player_object_has_the_captured_keys() -> None:
    world, recorder = recording_world()
    world.walk("Steve", 3.0, 63.0, 4.0)
    player = recorder.sent[0][1]["body"]["player"]
    assert sorted(player) == FACTS["player_keys"]["value"]
    assert player["position"] == {"x": 3.0, "y": 63.0, "z": 4.0}


def test_the_vocabulary_reads_the_corpus_wire_names() -> None:
    """Every field path of the bridge's vocabulary starts at a body key the corpus records
    for that event, and the statuses agree: the two sides were written apart."""
    for name, kind in GAME_EVENTS.items():
        if kind.source is Source.ADDON:
            continue  # the Script API's: tests/sim/test_after_events.py
        if name == "PlayerMessage" or not kind.fires:
            assert not kind.fires or kind.always
            continue
        fact = FACTS[name]
        assert kind.status == Status(fact["status"]), name
        keys = set(fact["value"]["body"])
        for field in kind.fields:
            assert field.path[0] in keys, (name, field.path)
    assert set(FACTS["not_firing"]["value"]["body"]) == {
        n for n, k in GAME_EVENTS.items() if not k.fires
    }


def test_another_players_doings_send_nothing() -> None:
    world, recorder = recording_world()
    assert world.fire_event("BlockBroken", "Alex") is False
    world.break_block("Alex", 0, 62, 0)
    assert recorder.sent == []


def test_an_event_the_corpus_does_not_record_is_refused() -> None:
    world, _ = recording_world()
    with pytest.raises(ValueError, match="records no WebSocket event"):
        world.fire_event("PortalBuilt", "Steve")
    with pytest.raises(ValueError, match="has no"):
        body_of("BlockBroken", world.world.players["Steve"], colour=1)


def test_the_captured_body_is_a_copy() -> None:
    body = captured_body("BlockBroken")
    assert body is not None
    body["count"] = 99
    assert captured_body("BlockBroken") != body
    frame = event_frame("BlockBroken", body, 1)
    assert frame["header"]["eventName"] == "BlockBroken"
