"""The tags transport through a real connection and the real addon bundle, in worlds where
the premises of pull and chat fail: what the status says, several calls and several worlds at
once, nothing left on the player, the bounds of one read, and the choice made again when the
chosen way stops answering."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.repl.show import Status, status_fields
from mcbews_repl.sansio import read_tag_list
from mcbews_repl.sansio.wire import TAGS_WINDOW_PAGES
from mcbews_repl.sim import SimWorld, default_world
from mcbews_repl.sim.facts import TAG_MAX_CHARS, restricted_execution

NEITHER: dict[str, Any] = {"report_custom_command_messages": False, "report_simulated_chat": False}


def page_tags(sim: SimWorld, player: str = "Steve") -> list[str]:
    return [t for t in sim.world.players[player].tags if t.startswith("mcbews.")]


async def until(check: Any, what: str, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never: {what}")


@asynccontextmanager
async def tags_world(**sim_options: Any) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    async with (
        mcbews_repl.serve(port=0, probe_timeout=1.0) as mc,
        SimWorld(**{"fast": True, **NEITHER, **sim_options}) as sim,
    ):
        await sim.connect(mc.url)
        connection = await mc.wait_connected(timeout=10)
        assert connection.transport == "tags", connection.transport_verdicts
        yield mc, sim
        assert sim.script_errors == []


async def test_the_status_says_answers_by_tags_and_why() -> None:
    async with tags_world() as (mc, _):
        connection = mc.connections[0]
        assert connection.transport_verdicts == {
            "pull": "no readable answer (MALFORMED_RESPONSE)",
            "chat": "no answer",
            "tags": "answers",
        }
        shown = " | ".join(f"{k}: {v}" for k, v in status_fields(Status.of(mc)))
        assert "Steve's game from 127.0.0.1:" in shown and ", answers by tags, " in shown
        assert (
            "answers through tags on the connected player (tags)"
            in [e.summary for e in mc.events() if e.kind == "transport"][-1]
        )


async def test_many_calls_at_once_and_nothing_stays_behind() -> None:
    async with tags_world() as (mc, sim):
        calls = [mc.call("get_inventory_snapshot", {}, timeout=20) for _ in range(10)]
        calls += [mc.call("list_capabilities", timeout=20) for _ in range(10)]
        calls += [mc.call("run_world_command", {"command": "testfor @a"}, timeout=20)]
        answers = await asyncio.gather(*calls)
        assert all(len(a["players"]) == 2 for a in answers[:10])
        assert all("capabilities" in a for a in answers[10:20])
        await until(lambda: not page_tags(sim), "every page tag acked away")
        assert sim.world.players["Steve"].tags == {"builder"}  # the player's own tag stays


async def test_one_read_shows_at_most_a_window_of_pages() -> None:
    async with tags_world() as (mc, sim):
        lists: list[str] = []
        original = sim.client._run_command if sim.client else None  # type: ignore[attr-defined]
        assert original is not None

        def spy(line: str) -> Any:
            out = original(line)
            if line == "tag @s list":
                lists.append(out.status_message)
            return out

        sim.client._run_command = spy  # type: ignore[attr-defined,union-attr]
        # Five inventories at once: 60 pages, written a window at a time.
        calls = (mc.call("get_inventory_snapshot", {}, timeout=30) for _ in range(5))
        assert all(a["players"] for a in await asyncio.gather(*calls))
        assert max(len(read_tag_list(text).pages) for text in lists) == TAGS_WINDOW_PAGES


async def test_two_worlds_each_answer_on_their_own_connection() -> None:
    second = default_world()
    async with (
        mcbews_repl.serve(port=0, probe_timeout=1.0) as mc,
        SimWorld(fast=True, **NEITHER) as one,
        SimWorld(second, fast=True, pack="beta", beta_apis=True, **NEITHER) as two,
    ):
        await one.connect(mc.url)
        first = await mc.wait_connected(timeout=10)
        await two.connect(mc.url)
        await until(lambda: len(mc.connections) == 2, "two connections")
        other = next(c for c in mc.connections if c is not first)
        await other.wait_ready()
        assert (first.transport, other.transport) == ("tags", "tags")
        one.run_command("give Steve diamond 7")
        answers = await asyncio.gather(
            *(c.call("list_capabilities", timeout=20) for c in (first, other) for _ in range(5))
        )
        packs = [a["addon"]["pack"] for a in answers]
        assert packs == ["stable"] * 5 + ["beta"] * 5  # each answer on its own connection
        mine, theirs = await asyncio.gather(
            first.call("get_inventory_snapshot", {"target": "Steve"}, timeout=20),
            other.call("get_inventory_snapshot", {"target": "Steve"}, timeout=20),
        )
        assert mine != theirs  # Steve got diamonds in the first world only
        await until(lambda: not page_tags(one) and not page_tags(two), "no page tags left")


async def test_a_game_that_reports_no_source_player_still_answers() -> None:
    """The request names the player to write on, so a script event reported from the Server
    (not captured either way) answers too."""
    async with tags_world(scriptevent_source="Server") as (mc, sim):
        assert "players" in await mc.call("get_player_snapshot", {"target": "@a"}, timeout=10)
        await until(lambda: not page_tags(sim), "no page tags left")


async def test_calls_that_end_unread_leave_no_tags() -> None:
    """A call cancelled, and one timed out, while their pages stand on the player (the
    game's list is held back meanwhile): the cancel notice removes them at once."""
    async with tags_world() as (mc, sim):
        assert sim.client is not None
        run = sim.client._run_command  # type: ignore[attr-defined]
        hold = True

        def held(line: str) -> Any:
            if hold and line == "tag @s list":
                return run("tag Alex list")  # some other list: no page tags in it
            return run(line)

        sim.client._run_command = held  # type: ignore[attr-defined]
        task = asyncio.ensure_future(mc.call("get_inventory_snapshot", {}, timeout=30))
        await until(lambda: page_tags(sim), "the answer's pages on Steve")
        task.cancel()
        await until(lambda: not page_tags(sim), "the cancel notice removed the tags")
        with pytest.raises(mcbews_repl.RequestTimeout, match="over the tags transport"):
            await mc.call("list_capabilities", timeout=0.5)
        await until(lambda: not page_tags(sim), "the timeout's cancel notice removed them")
        hold = False
        assert "capabilities" in await mc.call("list_capabilities", timeout=10)


async def test_the_choice_is_made_again_when_the_chosen_way_stops_answering() -> None:
    async with (
        mcbews_repl.serve(port=0, probe_timeout=1.0) as mc,
        SimWorld(fast=True, report_simulated_chat=False) as sim,
    ):
        await sim.connect(mc.url)
        connection = await mc.wait_connected(timeout=10)
        assert connection.transport == "pull"
        sim.report_custom_command_messages = False  # an update breaks what pull rests on
        for _ in range(3):
            with pytest.raises(mcbews_repl.CapabilityError, match="MALFORMED_RESPONSE"):
                await mc.call("list_capabilities", timeout=5)
        assert "capabilities" in await mc.call("list_capabilities", timeout=10)
        assert connection.transport == "tags"
        assert [e.data["transport"] for e in mc.events() if e.kind == "transport"] == [
            "pull",
            "tags",
        ]


def test_the_sims_tag_rules_follow_the_corpus() -> None:
    """addTag's limit and its refusal in restricted execution are the corpus' facts, and a
    list of several tags keeps the captured shape around each name."""
    limit, refused = TAG_MAX_CHARS, restricted_execution()["refused"]
    assert limit == 255 and {"Entity::addTag", "Entity::removeTag"} <= set(refused)
    sim = SimWorld(fast=True)
    assert sim.api.handle("add_tag", {"name": "Steve", "tag": "x" * limit}) is True
    with pytest.raises(ValueError, match="ArgumentOutOfBoundsError"):
        sim.api.handle("add_tag", {"name": "Steve", "tag": "x" * (limit + 1)})
    assert sim.api.handle("remove_tag", {"name": "Steve", "tag": "x" * limit}) is True
    sim.world.players["Steve"].tags = {"builder", "mcbews.a.k1.1.1.YQ."}
    listed = sim.run_command("tag Steve list").status_message
    assert listed.startswith("Steve has 2 tags: ")
    assert "\u00a7abuilder\u00a7r, \u00a7amcbews.a.k1.1.1.YQ.\u00a7r" in listed
    assert [p.message_id for p in read_tag_list(listed).pages] == ["k1"]
