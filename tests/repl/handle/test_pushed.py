"""Pushed positions: what the game's events say about where players are stands in for the
map's and the track's looks while it covers everyone, and gives way to asking the world
when it does not (another player, a kind unsubscribed, a newcomer, pushes gone silent).

First the rules on their own (log entries in, answers out, an explicit clock), then
against the simulated world: Steve walks (``mc.sim.walk``), the map follows from the
PlayerTravelled events and sends no command until its next check."""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.gateway import LogEntry
from mcbews_repl.repl.handle import Minecraft, _pushed
from mcbews_repl.repl.handle._pushed import (
    PUSHED_RECHECK_SECONDS,
    PushedPositions,
    position_kinds,
)
from mcbews_repl.repl.show import StaticMap
from mcbews_repl.sim import Vec3, make_player
from mcbews_repl.vocabulary import EventKind

_cursor = itertools.count(1)


@dataclass
class Game:
    """What the positions read of a connection: its id, its host, what it hears."""

    id: int = 1
    local_player: str = "Steve"
    events: frozenset[str] = field(default_factory=lambda: frozenset({"PlayerTravelled"}))


def event(name: str, player: str, x: float, z: float, connection: int = 1, **more: Any) -> Any:
    data = {"event": name, "player": player, "x": x, "y": 64.0, "z": z, "dimension": 0,
            "yaw": 90.0, **more}  # fmt: skip
    return LogEntry(next(_cursor), 0.0, EventKind.GAME_EVENT, connection, name, data)


def answer(**where: tuple[float, float]) -> dict[str, Any]:
    return {"players": [{"name": n, "dimension": "minecraft:overworld", "health": {"current": 20},
                         "location": {"x": x, "y": 64, "z": z}, "rotation": {"yaw": 0}}
                        for n, (x, z) in where.items()]}  # fmt: skip


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def where(stood_in: dict[str, Any] | None) -> dict[str, tuple[float, float]]:
    assert stood_in is not None
    return {p["name"]: (p["location"]["x"], p["location"]["z"]) for p in stood_in["players"]}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def positions(clock: Clock) -> PushedPositions:
    return PushedPositions(now=clock)


def test_the_kinds_that_push_positions_are_known_events() -> None:
    assert position_kinds()[:2] == ["PlayerTravelled", "PlayerTransform"]


def test_pushes_stand_in_for_a_look_once_one_asked_the_world(positions: PushedPositions) -> None:
    game = Game()
    positions.on_entry(event("PlayerTravelled", "Steve", 3, 4))  # before any look: nothing
    assert positions.stand_in(game) is None and positions.why_polled(game) == "a first look"
    positions.looked(game, answer(Steve=(0.5, 0.5)))
    assert where(positions.stand_in(game)) == {"Steve": (0.5, 0.5)}
    positions.on_entry(event("PlayerTravelled", "Steve", 10, -5))
    stood_in = positions.stand_in(game)
    assert where(stood_in) == {"Steve": (10.0, -5.0)}
    assert stood_in is not None
    [steve] = stood_in["players"]
    assert steve["rotation"]["yaw"] == 90.0 and steve["dimension"] == "minecraft:overworld"
    assert steve["health"] == {"current": 20}  # the rest as the look saw it
    positions.on_entry(event("BlockBroken", "Steve", 11, -5, block="stone"))  # any position
    assert where(positions.stand_in(game)) == {"Steve": (11.0, -5.0)}


def test_without_a_position_kind_subscribed_every_look_asks(positions: PushedPositions) -> None:
    game = Game(events=frozenset({"PlayerMessage", "BlockBroken"}))
    positions.looked(game, answer(Steve=(0, 0)))
    assert positions.stand_in(game) is None
    assert positions.why_polled(game).startswith("no position events subscribed")


def test_the_connected_clients_events_leave_other_players_out(positions: PushedPositions) -> None:
    game = Game()
    positions.looked(game, answer(Steve=(0, 0), Alex=(5, 5)))
    positions.on_entry(event("PlayerTravelled", "Steve", 3, 3))
    assert positions.stand_in(game) is None
    assert positions.why_polled(game) == (
        "PlayerTravelled covers the connected client only, not Alex"
    )


def test_a_kind_covering_every_player_covers_them_all(
    positions: PushedPositions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """How the addon's every-player kinds join: by name in POSITION_KINDS, with their
    coverage from the vocabulary."""
    from mcbews_repl.game_events import GAME_EVENTS, Coverage

    every = dataclasses.replace(GAME_EVENTS["PlayerTransform"], covers=Coverage.EVERY_PLAYER)
    monkeypatch.setitem(GAME_EVENTS, "PlayerTransform", every)
    game = Game(events=frozenset({"PlayerTravelled", "PlayerTransform"}))
    assert positions.pusher(game) == "PlayerTransform"  # every player's kind first
    positions.looked(game, answer(Steve=(0, 0), Alex=(5, 5)))
    positions.on_entry(event("PlayerTransform", "Alex", -7, 2))
    assert where(positions.stand_in(game)) == {"Steve": (0.0, 0.0), "Alex": (-7.0, 2.0)}


def test_every_so_often_a_look_asks_the_world_again(
    positions: PushedPositions, clock: Clock
) -> None:
    game = Game()
    positions.looked(game, answer(Steve=(0, 0)))
    clock.now += PUSHED_RECHECK_SECONDS - 0.1
    assert positions.stand_in(game) is not None
    clock.now += 0.1
    assert positions.stand_in(game) is None
    assert positions.why_polled(game) == f"the look every {PUSHED_RECHECK_SECONDS:g} s"


def test_a_newcomer_makes_the_next_look_ask_and_forged_names_grow_nothing(
    positions: PushedPositions,
) -> None:
    game = Game()
    positions.looked(game, answer(Steve=(0, 0)))
    for n in range(500):
        positions.on_entry(event("PlayerTravelled", f"forged{n}", n, n))
    assert positions.stand_in(game) is None
    assert positions.why_polled(game) == "someone the last look did not see"
    positions.looked(game, answer(Steve=(0, 0)))
    assert where(positions.stand_in(game)) == {"Steve": (0.0, 0.0)}  # nothing of theirs kept


def test_a_player_who_moved_with_no_push_means_the_pushes_stopped(
    positions: PushedPositions,
) -> None:
    game = Game()
    positions.looked(game, answer(Steve=(0, 0)))
    positions.looked(game, answer(Steve=(0.5, 0)))  # a step the game did not report yet
    assert positions.stand_in(game) is not None
    positions.looked(game, answer(Steve=(20, 0)))  # twenty blocks, no event
    assert positions.stand_in(game) is None
    assert positions.why_polled(game).startswith("Steve moved with no PlayerTravelled event")
    positions.looked(game, answer(Steve=(20, 0)))  # still no push: still asking
    assert positions.stand_in(game) is None
    positions.on_entry(event("PlayerTravelled", "Steve", 21, 0))  # they come again
    assert where(positions.stand_in(game)) == {"Steve": (21.0, 0.0)}


def test_a_move_while_pushes_were_just_subscribed_is_not_silence(
    positions: PushedPositions,
) -> None:
    game = Game(events=frozenset({"PlayerMessage"}))
    positions.looked(game, answer(Steve=(0, 0)))
    game.events = frozenset({"PlayerTravelled"})
    positions.looked(game, answer(Steve=(30, 0)))  # moved before the pushes began
    assert positions.stand_in(game) is not None


def test_bad_positions_are_ignored_and_a_closed_connection_forgotten(
    positions: PushedPositions,
) -> None:
    game = Game()
    positions.looked(game, answer(Steve=(0, 0)))
    for bad in (float("nan"), float("inf"), "3", None, True):
        positions.on_entry(event("PlayerTravelled", "Steve", bad, 0))  # type: ignore[arg-type]
    positions.on_entry(event("PlayerTravelled", "Steve", 4, 4, connection=2))  # another world
    assert where(positions.stand_in(game)) == {"Steve": (0.0, 0.0)}
    gone = LogEntry(next(_cursor), 0.0, EventKind.DISCONNECTED, 1, "left", {})
    positions.on_entry(gone)
    assert positions.stand_in(game) is None and positions.why_polled(game) == "a first look"


# --- against the simulated world ---------------------------------------------------------


def wait_until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.02)
    return found


@pytest.fixture(scope="module")
def alone() -> Iterator[Minecraft]:
    """Steve alone in a simulated world: the connected client is everyone there."""
    with mcbews_repl.start(port=0) as mc:
        mc.simulate(["Steve"]).result(60)
        yield mc


def travelled(mc: Minecraft, on: bool) -> None:
    pending = mc.subscribe("PlayerTravelled") if on else mc.unsubscribe("PlayerTravelled")
    pending.result(10)
    heard = mc.sim.raw.client.subscriptions
    wait_until(lambda: ("PlayerTravelled" in heard) == on)  # the game took it


def commands_of(picture: StaticMap, looks: int) -> int:
    before = picture.commands
    for _ in range(looks):
        picture.refresh()
    return picture.commands - before


def test_the_map_follows_pushed_positions_and_asks_nothing(alone: Minecraft) -> None:
    mc = alone
    travelled(mc, True)
    try:
        picture = mc.map(live=False)  # the first look asks the world
        assert picture.commands > 0
        sent = picture.commands
        for x in (10, 20, 30):
            mc.sim.walk("Steve", x, 64, 5)
            wait_until(lambda x=x: f"Steve at {x}, 64, 5" in repr(picture.refresh()))
        assert picture.commands == sent  # every look since came from the pushes
        assert "(players as PlayerTravelled events put them; entities as seen at" in repr(picture)
        assert "players as PlayerTravelled events put them" in picture.html()
    finally:
        travelled(mc, False)
    assert commands_of(picture, 3) >= 3  # unsubscribed: every look asks again
    assert "players as" not in repr(picture)


def test_pushed_looks_send_a_tenth_of_the_commands_or_less(
    alone: Minecraft, monkeypatch: pytest.MonkeyPatch
) -> None:
    mc = alone
    picture = mc.map(live=False)
    polled = commands_of(picture, 20)
    travelled(mc, True)
    try:
        commands_of(picture, 1)  # the look the subscription starts from
        pushed = 0
        for k in range(20):
            mc.sim.walk("Steve", k, 64, 0)
            pushed += commands_of(picture, 1)
        assert polled >= 20 and pushed * 10 <= polled, (polled, pushed)
        monkeypatch.setattr(_pushed, "PUSHED_RECHECK_SECONDS", 0.0)
        assert commands_of(picture, 2) >= 2  # the check every so often asks the world
    finally:
        travelled(mc, False)


def test_a_silent_feed_sends_the_map_back_to_asking(
    alone: Minecraft, monkeypatch: pytest.MonkeyPatch
) -> None:
    mc = alone
    travelled(mc, True)
    try:
        picture = mc.map(live=False)
        monkeypatch.setattr(_pushed, "PUSHED_RECHECK_SECONDS", 0.0)  # every look checks
        picture.refresh()
        mc.sim.edit(lambda w: setattr(w.players["Steve"], "location", Vec3(-40.0, 64.0, 0.5)))
        picture.refresh()  # the check finds Steve 40 blocks away with no event about it
        monkeypatch.setattr(_pushed, "PUSHED_RECHECK_SECONDS", PUSHED_RECHECK_SECONDS)
        assert commands_of(picture, 2) >= 2
        assert "Steve moved with no PlayerTravelled event" in repr(picture)
        mc.sim.walk("Steve", -41, 64, 0.5)
        wait_until(lambda: "Steve at -41, 64, 0.5" in repr(picture.refresh()))
        assert commands_of(picture, 2) == 0  # trusted again
    finally:
        travelled(mc, False)
        mc.sim.walk("Steve", 0.5, 64, 0.5)


def test_a_track_reads_pushed_positions(alone: Minecraft) -> None:
    mc = alone
    travelled(mc, True)
    try:
        picture = mc.map(live=False)  # a look the pushes start from
        # Steve last moved while nothing was subscribed (the test before): that look may
        # find him moved with no event and ask again until a push is heard.
        mc.sim.walk("Steve", 0.0, 64, 0.5)
        wait_until(lambda: "players as PlayerTravelled events put them" in repr(picture.refresh()))
        tracking = mc.track(seconds=3.0, every=0.1)
        x = 0
        while not tracking.done() and x < 600:  # Steve walks on while the track lasts
            time.sleep(0.1)  # the track's first look first
            x += 1
            mc.sim.walk("Steve", float(x), 64, 0.5)
        frame = tracking.result(20)
        assert tracking.scope is not None and tracking.scope.total("commands_sent") == 0
        assert frame.x.iloc[0] < frame.x.iloc[-1] and frame.health.iloc[-1] == 20
    finally:
        travelled(mc, False)
        mc.sim.walk("Steve", 0.5, 64, 0.5)


def test_with_another_player_the_map_asks_and_says_why(
    alone: Minecraft, monkeypatch: pytest.MonkeyPatch
) -> None:
    mc = alone
    travelled(mc, True)
    try:
        picture = mc.map(live=False)
        mc.sim.edit(lambda w: w.add_player(_alex()))
        assert commands_of(picture, 1) == 0  # within the check's interval: Alex not seen yet
        assert "Alex" not in repr(picture)
        monkeypatch.setattr(_pushed, "PUSHED_RECHECK_SECONDS", 0.0)
        assert "Alex at 12.5, 70, -8.5" in repr(picture.refresh())  # the check sees him
        monkeypatch.setattr(_pushed, "PUSHED_RECHECK_SECONDS", PUSHED_RECHECK_SECONDS)
        assert commands_of(picture, 3) >= 3
        assert "PlayerTravelled covers the connected client only, not Alex" in repr(picture)
    finally:
        travelled(mc, False)
        mc.sim.edit(lambda w: w.players.pop("Alex"))


def _alex() -> Any:
    return make_player("Alex", Vec3(12.5, 70.0, -8.5))
