"""The notebook's simulated worlds run on threads of their own: a prototype that hangs one of
them holds up neither the bridge nor any other game, and closing ``mc`` ends those threads."""

from __future__ import annotations

import asyncio
import threading

import pytest

import mcbews_repl
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.handle._simulate import SimHandle
from mcbews_repl.sim import interrupt
from tests.gateway.fakegame import FakeGame

from .test_two_worlds import wait_until

# The simulated world's prototype: it marks the world (so the test knows the job began),
# then hangs where the loops' own checks cannot see (the engine's interrupt ends it).
HANG = """export default {
  name: "hang",
  description: "tags Steve, then hangs",
  params: {},
  run(payload, ctx) {
    ctx.runCommand("tag Steve add hanging");
    eval("while (true) {}");
    return { ok: true, result: {} };
  },
};
"""


def hang_ended(sim: SimHandle) -> bool:
    return any("script hang" in error for error in sim.script_errors)


def sim_threads() -> list[str]:
    """The worlds' threads (``mcbews-sim``, ``mcbews-sim-Ana``...), not their watchdogs'."""
    names = [t.name for t in threading.enumerate() if t.name.startswith("mcbews-sim")]
    return [name for name in names if name != interrupt.WATCHDOG_THREAD_NAME]


def watchdog_threads(before: frozenset[threading.Thread] = frozenset()) -> int:
    """The script hosts' engine watchdog threads, but those in ``before``."""
    found = {t for t in threading.enumerate() if t.name == interrupt.WATCHDOG_THREAD_NAME}
    return len(found - before)


async def another_game_answers(mc: Minecraft) -> list[str]:
    """A game connects (a new WebSocket open) and answers three commands sent through mc."""
    async with FakeGame(mc.url, player="Other") as game:
        while not [c for c in mc.connections if c.local_player == "Other"]:
            await asyncio.sleep(0.02)
        [other] = [c for c in mc.connections if c.local_player == "Other"]
        answers = [(await other.command(f"say {n}", timeout=30)).status_message for n in range(3)]
        assert game.executed["say 0"] == 1
        return answers


@pytest.mark.skipif(not interrupt.available(), reason="needs QuickJS's interrupt (eval hangs)")
def test_a_hung_prototype_holds_up_no_other_game() -> None:
    with mcbews_repl.start(port=0) as mc:
        sim = mc.simulate().result(60)
        mc.addon.define("hang", HANG)
        hung = mc.call("hang", timeout=60)
        wait_until(lambda: "hanging" in sim.world.players["Steve"].tags, 60)
        answers = asyncio.run(asyncio.wait_for(another_game_answers(mc), 30))
        assert answers == ["ran say 0", "ran say 1", "ran say 2"]
        assert not hang_ended(sim)  # the other game was answered while this world still hung
        wait_until(lambda: hang_ended(sim), 60)
        steve = mc.world("Steve").call("get_player_snapshot", target="Steve").result(30)
        assert steve["players"][0]["name"] == "Steve"  # and this world answers again
        hung.cancel()


def test_each_world_has_its_thread_and_close_joins_them() -> None:
    before = frozenset(threading.enumerate())  # an earlier test's host may still be ending
    with mcbews_repl.start(port=0) as mc:
        sims = mc.simulate(worlds=3).result(120)
        assert len(sim_threads()) == 3
        if interrupt.available():  # each world's script host has its engine watchdog's thread
            assert watchdog_threads(before) == 3
        assert len({sim.raw.loop for sim in sims}) == 3  # a loop each, none the bridge's
        assert all(sim.raw.loop is not mc._runtime.loop for sim in sims)
        first = mc.simulate().result(60)
        again = mc.simulate().result(60)  # %mc sim again: the first world's thread ends
        assert first.raw.loop is not again.raw.loop
        wait_until(lambda: len(sim_threads()) == 4, 60)
        wait_until(lambda: watchdog_threads(before) == 4 * interrupt.available(), 60)
    assert sim_threads() == []
    assert watchdog_threads(before) == 0
