"""The agent tool surface: self-description, JSON Schema export, results that are bounded
and described, and a failure path for every tool that answers with why and how_to."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator
from typing import Any

import jsonschema
import pytest

import mcbews_repl
from mcbews_repl.toolkit import ChatContexts, Tools
from mcbews_repl.toolkit.catalogue import CATALOGUE
from mcbews_repl.toolkit.results import DESCRIBE_CHARS

from .conftest import World

NAMES = [spec.name for spec in CATALOGUE]
# One valid call per tool; against the default simulated world each one succeeds.
EXAMPLES: dict[str, dict[str, Any]] = {
    "status": {},
    "capabilities": {},
    "players": {"limit": 1},
    "inventory": {"player": "Steve", "limit": 2},
    "item_count": {"player": "Steve", "item": "minecraft:bread"},
    "tags": {"player": "Alex"},
    "scores": {"holder": "Steve"},
    "score": {"holder": "Steve", "objective": "kills"},
    "objectives": {"limit": 1},
    "objective_scores": {"objective": "kills"},
    "testfor": {"selector": "@e[type=cow]"},
    "entities": {"entity_type": "minecraft:cow", "x": 0, "y": 64, "z": 0, "radius": 50},
    "block": {"x": 2, "y": 64, "z": 2, "block": "minecraft:chest"},
    "region": {"x": -1, "y": 63, "z": -1, "dx": 3, "dy": 1, "dz": 3, "block": "stone", "limit": 4},
    "blocks": {"x1": -2, "y1": 63, "z1": -2, "x2": 1, "y2": 64, "z2": 1},
    "events": {"limit": 3},
    "game_events": {"subscribe": "player_break_block", "limit": 3},
    "chat_context": {"context_id": "filled in by the test"},
    "command": {"command": "time query daytime"},
    "send_text": {"player": "Steve", "text": "hi"},
    "score_set": {"holder": "#t", "objective": "kills", "value": 4},
    "score_add": {"holder": "#t", "objective": "kills", "delta": -1},
    "score_reset": {"holder": "Alex", "objective": "kills"},
    "score_operation": {
        "holder": "Steve",
        "objective": "kills",
        "operator": "+=",
        "source_holder": "Alex",
        "source_objective": "kills",
    },
    "objective_add": {"objective": "gems", "display_name": "Gems"},
    "objective_remove": {"objective": "coins"},
    "objective_setdisplay": {"slot": "sidebar", "objective": "kills", "sort_order": "ascending"},
    "fill": {"x1": 0, "y1": 100, "z1": 0, "x2": 3, "y2": 101, "z2": 3, "block": "glass"},
    "shape": {"shape": "sphere", "x": 20, "y": 110, "z": 0, "radius": 2, "block": "red_wool"},
    "set_blocks": {"x": 0, "y": 120, "z": 0, "dx": 2, "dy": 1, "dz": 2, "palette": "stone,air",
                   "runs": "0*3,1"},
    "undo": {},  # after the fill of test_every_tool_succeeds
}  # fmt: skip
# One call per tool that the world (or a local rule) refuses.
FAILURES: dict[str, dict[str, Any]] = {
    "status": {"verbose": True},
    "capabilities": {"limit": 0},
    "players": {"limit": "all"},
    "inventory": {"player": "Herobrine"},
    "item_count": {"player": "Herobrine", "item": "dirt"},
    "tags": {"player": "@a"},
    "scores": {"holder": "*"},
    "score": {"holder": "Steve", "objective": "no such"},
    "objectives": {"limit": 10_000},
    "objective_scores": {"objective": "a" * 17},
    "testfor": {"selector": "@q"},
    "entities": {"x": 1, "radius": 5},
    "block": {"x": 0, "y": 999, "z": 0, "block": "stone"},
    "region": {"x": 0, "y": 0, "z": 0, "dx": 16, "dy": 16, "dz": 16, "block": "stone"},
    "blocks": {"x1": 0, "y1": 0, "z1": 0, "x2": 16, "y2": 15, "z2": 15},
    "events": {"since": -1},
    "game_events": {"subscribe": "BlockBroke"},
    "chat_context": {"context_id": "ctx_unknown"},
    "command": {"command": "fly away"},
    "send_text": {"player": "Steve"},
    "score_set": {"holder": "Steve", "objective": "nothing", "value": 1},
    "score_add": {"holder": "Steve", "objective": "kills", "delta": 2**31},
    "score_reset": {"holder": "@p", "objective": "kills"},
    "score_operation": {
        "holder": "Steve",
        "objective": "kills",
        "operator": "+=",
        "source_holder": "Nobody",
        "source_objective": "kills",
    },
    "objective_add": {"objective": "kills"},
    "objective_remove": {"objective": "ghosts"},
    "objective_setdisplay": {"slot": "belowname", "objective": "kills", "sort_order": "ascending"},
    "fill": {"x1": 0, "y1": 100, "z1": 0, "x2": 1, "y2": 100, "z2": 1, "block": "unobtainium"},
    "shape": {"shape": "line", "x": 0, "y": 100, "z": 0, "block": "stone"},
    "set_blocks": {"x": 0, "y": 120, "z": 0, "dx": 2, "dy": 1, "dz": 2, "palette": "stone",
                   "runs": "0*3"},
    "undo": {},  # nothing was built in this world
}  # fmt: skip


@pytest.fixture
async def tools(world: World) -> AsyncIterator[Tools]:
    contexts = ChatContexts(world.mc)
    contexts.start()
    yield Tools(world.mc, contexts=contexts)
    contexts.stop()


async def chat_context_id(world: World, tools: Tools) -> str:
    """Alex chats in the panel; the events tool shows the context id captured for it."""
    world.sim.ui_chat("Alex", "context please")
    for _ in range(200):
        events = (await tools.call("events", kind="ui_chat"))["events"]
        if events and "context_id" in events[0]:
            return str(events[0]["context_id"])
        await asyncio.sleep(0.01)
    raise AssertionError("no context was captured")


def assert_failure(result: dict[str, Any]) -> None:
    assert result["ok"] is False, result
    assert isinstance(result["why"], str) and result["why"]
    assert isinstance(result["how_to"], str) and result["how_to"]
    assert result["describe"].startswith("failed:") and len(result["describe"]) <= DESCRIBE_CHARS


def test_the_tables_cover_every_tool() -> None:
    assert set(EXAMPLES) == set(FAILURES) == set(NAMES)


def test_catalogue_and_implementation_agree() -> None:
    for spec in CATALOGUE:
        body = getattr(Tools, f"tool_{spec.name}")
        assert inspect.iscoroutinefunction(body), spec.name
        params = list(inspect.signature(body).parameters.values())[1:]
        assert [p.name for p in params] == [p.name for p in spec.params], spec.name
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params), spec.name
    extra = {n.removeprefix("tool_") for n in dir(Tools) if n.startswith("tool_")} - set(NAMES)
    assert not extra


def test_describe_lists_every_tool_with_parameters() -> None:
    described = Tools.describe(Tools.__new__(Tools))
    assert described["count"] == len(NAMES) == len(described["tools"])
    by_name = {t["name"]: t for t in described["tools"]}
    entities = {p["name"]: p for p in by_name["entities"]["params"]}
    assert entities["limit"] == {
        "name": "limit",
        "required": False,
        "type": "integer",
        "minimum": 1,
        "maximum": 64,
        "default": 16,
        "description": "the most entities",
    }
    assert {t["kind"] for t in described["tools"]} == {"observe", "act"}
    assert described["conventions"]["known"] and described["tips"]


def test_json_schema_export_validates() -> None:
    functions = Tools.json_schemas(Tools.__new__(Tools))
    assert [f["function"]["name"] for f in functions] == NAMES
    for function in functions:
        schema = function["function"]["parameters"]
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        name = function["function"]["name"]
        assert validator.is_valid(EXAMPLES[name]), name
        assert not validator.is_valid({**EXAMPLES[name], "unexpected": 1}), name
    score_add = {f["function"]["name"]: f for f in functions}["score_add"]["function"]
    validator = jsonschema.Draft202012Validator(score_add["parameters"])
    assert not validator.is_valid({"holder": "A", "objective": "bad name", "delta": 1})
    assert not validator.is_valid({"holder": "A", "objective": "k", "delta": 2**31})
    assert not validator.is_valid({"holder": "A", "objective": "k"})


@pytest.mark.parametrize("name", NAMES)
async def test_every_tool_succeeds_with_a_described_bounded_result(
    world: World, tools: Tools, name: str
) -> None:
    kwargs = dict(EXAMPLES[name])
    if name == "chat_context":
        kwargs["context_id"] = await chat_context_id(world, tools)
    if name == "undo":
        assert (await tools.call("fill", **EXAMPLES["fill"]))["ok"]
    result = await tools.call(name, **kwargs)
    assert result["ok"] is True, result
    assert result["tool"] == name
    assert isinstance(result["describe"], str) and 0 < len(result["describe"]) <= DESCRIBE_CHARS
    for key in ("players", "capabilities", "slots", "objectives", "events", "positions"):
        if key in result:
            assert len(result[key]) <= result["limit"]
            assert {"total", "truncated"} <= set(result)


async def test_bounded_results_say_they_were_cut(tools: Tools) -> None:
    players = await tools.call("players", limit=1)
    assert (len(players["players"]), players["total"], players["truncated"]) == (1, 2, True)
    entities = await tools.call("entities", limit=2)
    assert (len(entities["entities"]), entities["truncated"], entities["total"]) == (2, True, None)
    events = await tools.call("events", limit=1)
    assert events["truncated"] and events["total"] > 1 and events["next_since"] > 0


@pytest.mark.parametrize("name", NAMES)
async def test_every_tool_fails_with_why_and_how_to(tools: Tools, name: str) -> None:
    assert_failure(await tools.call(name, **FAILURES[name]))


async def test_unknown_tools_and_arguments_are_answered(tools: Tools) -> None:
    unknown = await tools.call("teleport_everyone")
    assert_failure(unknown)
    assert "players" in unknown["available"]
    missing = await tools.call("item_count", player="Steve")
    assert_failure(missing)
    assert "item" in missing["why"] and "item" in missing["how_to"]
    typed = await tools.call("block", x="1", y=2, z=3, block="stone")
    assert_failure(typed)
    assert "integer" in typed["why"]
    unknown_count = await tools.call("item_count", player="Steve", item="minecraft:dirt ")
    assert_failure(unknown_count)


@pytest.mark.parametrize("name", NAMES)
async def test_without_a_game_every_tool_still_answers(name: str) -> None:
    async with mcbews_repl.serve(port=0) as mc:
        result = await Tools(mc).call(name, **EXAMPLES[name])
    if name in ("status", "events"):
        assert result["ok"] is True
    else:
        assert_failure(result)


async def test_a_bug_in_a_tool_is_a_failure_not_a_traceback(
    tools: Tools, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(self: Tools, *, limit: int) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(Tools, "tool_players", broken)
    result = await tools.call("players")
    assert_failure(result)
    assert "internal error RuntimeError: boom" in result["why"]


async def test_unknown_counts_stay_unknown_in_tool_results(world: World, tools: Tools) -> None:
    result = await tools.call("item_count", player="Herobrine", item="dirt")
    assert (result["known"], result["value"], result["reason"]) == (False, None, "no_target")
    assert "players" in result["how_to"]


def test_a_full_command_queue_becomes_a_failure_with_advice() -> None:
    from mcbews_repl.exceptions import CommandQueueFull
    from mcbews_repl.toolkit.results import exception_failure

    answer = exception_failure(CommandQueueFull(10_000, 100))
    assert answer["ok"] is False and answer["limit"] == 10_000
    assert "queue is full" in answer["why"] and "retry" in answer["how_to"]


async def test_blocks_shows_a_box_as_text_and_numbers(tools: Tools) -> None:
    result = await tools.call("blocks", x1=3, y1=65, z1=2, x2=-2, y2=63, z2=-2)
    assert result["ok"] and result["origin"] == [-2, 63, -2] and result["size"] == [6, 3, 5]
    keys = {p["block"]: p["key"] for p in result["palette"]}
    assert keys["minecraft:air"] == "." and keys["minecraft:chest"] != "."
    layer = next(layer for layer in result["layers"] if layer["y"] == 64)
    assert layer["rows"][2 - (-2)][2 - (-2)] == keys["minecraft:chest"]  # chest at 2 64 2
    index = {p["key"]: p["index"] for p in result["palette"]}
    for grid, numbers in zip(result["layers"], result["ids"], strict=True):
        assert [[index[k] for k in row] for row in grid["rows"]] == numbers
    assert sum(p["count"] for p in result["palette"]) == 6 * 3 * 5
    assert result["unknown"] == 0 and result["grid_complete"] is True
    assert result["describe"] == "90 blocks, 4 kinds"


async def test_game_events_hears_every_player_through_the_addon_after_a_cursor(
    world: World, tools: Tools
) -> None:
    first = await tools.call("game_events", subscribe="player_break_block,BlockBroken")
    assert first["ok"] and {"player_break_block", "BlockBroken"} <= set(first["subscribed"])
    world.sim.break_block("Alex", 3, 63, 3)  # not the connected client: only the addon hears
    for _ in range(500):
        found = await tools.call("game_events", since=first["next_since"])
        if found["events"]:
            break
        await asyncio.sleep(0.01)
    (event,) = found["events"]
    assert event["event"] == "player_break_block" and event["player"] == "Alex"
    assert (event["x"], event["y"], event["z"]) == (3, 63, 3) and found["missed"] == 0
    again = await tools.call("game_events", since=found["next_since"])
    assert again["events"] == [] and again["next_since"] >= found["next_since"]


async def test_game_events_names_the_known_kinds_for_an_unknown_one(tools: Tools) -> None:
    result = await tools.call("game_events", subscribe="player_break_block, BlockBroke")
    assert_failure(result)
    assert "BlockBroken" in result["why"] and "player_break_block" in result["why"]
