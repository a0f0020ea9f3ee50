"""The tools handed to a function-calling client: a scripted model (no API key) drives the
simulated world through OpenAI- and Anthropic-style tool calls, under the guard."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema

from mcbews_repl.toolkit import Guard, Policy, Tools
from mcbews_repl.toolkit.catalogue import CATALOGUE

from .conftest import World

LESSON = Policy(read_only=False, protect_host=False)


class ScriptedChat:
    """Stands in for ``client.chat.completions.create``: each call answers with the next
    scripted turn, after checking its tool calls against the tools it was given."""

    def __init__(self, turns: list[list[tuple[str, dict[str, Any]]] | str]) -> None:
        self.turns: Iterator[list[tuple[str, dict[str, Any]]] | str] = iter(turns)
        self.seen: list[list[dict[str, Any]]] = []

    def create(self, *, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        self.seen.append(list(messages))
        turn = next(self.turns)
        if isinstance(turn, str):
            return {"role": "assistant", "content": turn}
        schemas = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
        calls = []
        for k, (name, args) in enumerate(turn):
            jsonschema.validate(args, schemas[name])  # the model keeps to the schema
            calls.append({"id": f"call_{len(self.seen)}_{k}", "type": "function",
                          "function": {"name": name, "arguments": json.dumps(args)}})  # fmt: skip
        return {"role": "assistant", "content": None, "tool_calls": calls}


async def agent_loop(tools: Tools, model: ScriptedChat, task: str) -> list[dict[str, Any]]:
    """The loop a harness runs: ask, run the tool calls, answer them, until a text."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    while True:
        reply = model.create(messages=messages, tools=tools.json_schemas())
        messages.append(reply)
        if not reply.get("tool_calls"):
            return messages
        for call in reply["tool_calls"]:
            messages.append(await tools.answer(call))


async def test_a_scripted_model_drives_the_world_within_the_guard(world: World) -> None:
    tools = Tools(world.mc, guard=Guard(LESSON))
    model = ScriptedChat([
        [("players", {})],
        [("command", {"command": "give Alex apple 3"}), ("command", {"command": "op Alex"})],
        [("item_count", {"player": "Alex", "item": "minecraft:apple"})],
        "Alex has 3 apples; making Alex an operator was refused by the guard (forbidden).",
    ])  # fmt: skip
    messages = await agent_loop(tools, model, "Give Alex three apples and make Alex op.")
    answers = [json.loads(m["content"]) for m in messages if m.get("role") == "tool"]
    assert [a["tool"] for a in answers] == ["players", "command", "command", "item_count"]
    assert answers[0]["total"] == 2
    assert answers[1]["ok"] is True
    assert answers[2]["ok"] is False and answers[2]["refused_by"] == "forbidden"
    assert answers[3]["value"] == 3
    ids = [m["tool_call_id"] for m in messages if m.get("role") == "tool"]
    assert ids == ["call_1_0", "call_2_0", "call_2_1", "call_3_0"]
    assert messages[-1]["content"].startswith("Alex has 3 apples")
    assert world.sim.client is not None
    assert not any(line.startswith("op") for _, line in world.sim.client.received)


async def test_anthropic_style_tool_use_blocks(world: World) -> None:
    tools = Tools(world.mc, guard=Guard(Policy()))
    definitions = tools.anthropic_schemas()
    assert [d["name"] for d in definitions] == [s.name for s in CATALOGUE]
    assert definitions[0].keys() == {"name", "description", "input_schema"}
    by_name = {d["name"]: d for d in definitions}
    jsonschema.Draft202012Validator.check_schema(by_name["entities"]["input_schema"])
    used = {"type": "tool_use", "id": "toolu_1", "name": "tags", "input": {"player": "Alex"}}
    result = await tools.answer(used)
    assert result["type"] == "tool_result" and result["tool_use_id"] == "toolu_1"
    assert result["is_error"] is False and json.loads(result["content"])["count"] == 2
    refused = await tools.answer(
        {
            "type": "tool_use",
            "id": "toolu_2",
            "name": "score_set",
            "input": {"holder": "Alex", "objective": "kills", "value": 1},
        }
    )
    assert refused["is_error"] is True
    assert json.loads(refused["content"])["refused_by"] == "read_only"


async def test_malformed_tool_calls_are_answered_not_raised(world: World) -> None:
    tools = Tools(world.mc, guard=Guard(Policy()))
    bad: list[Any] = [
        {"id": "1", "type": "function", "function": {"name": "players", "arguments": "{oops"}},
        {"id": "2", "type": "function", "function": {"name": "players", "arguments": "[1]"}},
        {"id": "3", "type": "function", "function": {"name": "nope", "arguments": "{}"}},
        {"id": "4", "type": "function"},
        {"type": "tool_use", "id": "5", "name": "players", "input": "all"},
        "not a call",
    ]
    for call in bad:
        answer = await tools.answer(call)
        content = json.loads(answer["content"])
        assert content["ok"] is False and content["why"] and content["how_to"], call
