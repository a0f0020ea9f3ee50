"""The toolkit at the prompt: %mc count/scores/entities/tools and the mc handle's additions,
in a real shell against the simulated world."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest
from IPython.core.error import UsageError

from mcbews_repl import CapabilityError
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.ipython._usage import BY_NAME
from mcbews_repl.toolkit import ItemCount, ScoreList
from mcbews_repl.toolkit.live import LiveEvents


def mc_of(shell: Any) -> Minecraft:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft)
    return mc


def wait_until(check: Callable[[], Any], seconds: float = 5.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.01)
    raise AssertionError("condition not met in time")


def test_the_new_sub_commands_are_listed() -> None:
    assert {"count", "scores", "entities", "tools"} <= set(BY_NAME)


def test_count(shell: Any) -> None:
    answer = shell.run_line_magic("mc", "count Steve cobblestone")
    assert isinstance(answer, ItemCount) and (answer.known, answer.value) == (True, 101)
    assert shell.run_line_magic("mc", "count Steve wool --data 14").value == 5
    unknown = shell.run_line_magic("mc", "count Herobrine dirt")
    assert (unknown.known, unknown.value, unknown.reason) == (False, None, "no_target")
    with pytest.raises(UsageError, match="player"):
        shell.run_line_magic("mc", "count @a dirt")  # refused before anything is sent


def test_scores(shell: Any) -> None:
    objectives = shell.run_line_magic("mc", "scores")
    assert list(objectives["name"]) == ["kills", "coins"]
    steve = shell.run_line_magic("mc", "scores Steve")
    assert dict(zip(steve["objective"], steve["value"], strict=True)) == {"kills": 3, "coins": 120}
    kills = shell.run_line_magic("mc", "scores -o kills")
    assert dict(zip(kills["holder"], kills["value"], strict=True)) == {"Alex": 7, "Steve": 3}
    with pytest.raises(UsageError, match="objective"):
        shell.run_line_magic("mc", "scores -o 'not valid'")


def test_entities(shell: Any) -> None:
    cows = shell.run_line_magic("mc", "entities --type cow")
    assert isinstance(cows, pd.DataFrame)
    assert list(cows.columns) == ["id", "type", "typeId", "name", "dimension", "dimensionId",
                                  "x", "y", "z", "yaw"]  # fmt: skip
    assert cows[["type", "typeId", "name"]].values.tolist() == [["cow", "minecraft:cow", None]]
    assert cows[["dimension", "dimensionId"]].values.tolist() == [
        ["overworld", "minecraft:overworld"]
    ]
    everyone = shell.run_line_magic("mc", "entities")
    named = dict(zip(everyone["name"], everyone["type"], strict=True))
    assert named["Bob"] == "villager_v2" and named["Steve"] == "player"
    near = shell.run_line_magic("mc", "entities --players --near 12 70 -8 --radius 2")
    assert list(near["x"]) == [12.5]
    with pytest.raises(UsageError, match="limit"):
        shell.run_line_magic("mc", "entities --limit 0")


def test_tools_magic(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    table = shell.run_line_magic("mc", "tools")
    assert {"entities", "item_count", "score_operation"} <= set(table["name"])
    shell.run_line_magic("mc", "tools --schema")
    functions = json.loads(capsys.readouterr().out)
    assert len(functions) == len(table) and functions[0]["type"] == "function"
    result = shell.run_line_magic("mc", "tools item_count player=Steve item=minecraft:bread")
    assert result["ok"] and result["value"] == 12
    failed = shell.run_line_magic("mc", "tools item_count player=Steve")
    assert not failed["ok"] and failed["how_to"]
    with pytest.raises(UsageError, match="key=value"):
        shell.run_line_magic("mc", "tools players five")


def test_handle_queries_scoreboard_and_tools(shell: Any) -> None:
    mc = mc_of(shell)
    assert mc.query.tags("Alex").result().tags == ("explorer", "vip")
    assert isinstance(mc.scores("Steve").result(), ScoreList)
    assert list(mc.objective("kills").result()["holder"]) == ["Alex", "Steve"]
    assert len(mc.entities(entity_type="minecraft:zombie").result()) == 1
    assert mc.scoreboard.set("#test", "coins", 9).result().value == 9
    assert mc.tools.describe()["count"] == len(mc.tools.json_schemas())
    assert mc.tools.call("score", holder="#test", objective="coins").result()["value"] == 9
    assert mc.tools.call("nonsense").result()["ok"] is False


def test_contexts_through_the_handle(shell: Any) -> None:
    mc = mc_of(shell)
    mc.contexts.start().result()
    try:
        mc.sim.ui_chat("Alex", "where am I?")
        entry = wait_until(
            lambda: next(
                (e for e in mc.bridge.events(0) if e.data.get("message") == "where am I?"), None
            )
        )
        context_id = wait_until(lambda: mc.contexts.context_id_for(entry.cursor).result())
        bundle = mc.contexts.get(context_id).result()
        assert bundle["player"] == "Alex" and bundle["held"]["typeId"] == "minecraft:arrow"
        via_tool = mc.tools.call("chat_context", context_id=context_id, player="Steve").result()
        assert via_tool["reason"] == "player_mismatch" and "location" not in via_tool
    finally:
        mc.contexts.stop().result()


def test_events_follow(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    mc = mc_of(shell)
    live = mc.events(last=5, follow=True)
    try:
        assert isinstance(live, LiveEvents) and live.running
        assert "need a notebook" in capsys.readouterr().out  # a terminal shows a snapshot
        before = live.refreshes
        mc.command("say refresh me").result()
        wait_until(lambda: live.refreshes > before)
        wait_until(lambda: any("refresh me" in e.summary for e in live.entries()))
        assert len(live.entries()) == 5
    finally:
        live.stop()
    assert not live.running


def test_entities_without_describe_entities_keep_their_rows(
    shell: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An addon older than describe_entities: the table keeps its rows, type and name empty."""
    mc = mc_of(shell)
    real_call = mc.bridge.call

    async def older_addon(capability: str, *args: Any, **kwargs: Any) -> Any:
        if capability == "describe_entities":
            raise CapabilityError("UNSUPPORTED_CAPABILITY", "no such capability", capability)
        return await real_call(capability, *args, **kwargs)

    monkeypatch.setattr(mc.bridge, "call", older_addon)
    table = mc.entities(entity_type="minecraft:cow").result(20)
    assert len(table) == 1 and table["type"].isna().all() and table["name"].isna().all()
    assert table["dimension"].tolist() == ["overworld"]


def test_many_entities_are_described_in_requests_that_fit(shell: Any) -> None:
    """Sixty sheep: their ids are asked for in as many describe_entities requests as the
    game's line and frame ceilings need, none of them too large."""
    from mcbews_repl.sim.model import Entity, Vec3

    mc = mc_of(shell)

    def add_sheep(world: Any) -> None:
        world.entities += [Entity("minecraft:sheep", Vec3(40.0 + n, 64.0, 0.5)) for n in range(60)]

    mc.sim.edit(add_sheep)
    try:
        table = mc.entities(entity_type="minecraft:sheep").result(30)
        assert len(table) == 60 and (table["typeId"] == "minecraft:sheep").all()
    finally:
        mc.sim.edit(lambda w: setattr(w, "entities", w.entities[:-60]))


def test_handle_tools_are_guarded(shell: Any, tmp_path: Any) -> None:
    mc = mc_of(shell)
    assert mc.tools.policy.read_only is True  # the default policy: nothing changes
    refused = mc.tools.call("command", command="op Steve").result()
    assert refused["refused_by"] == "forbidden" and refused["how_to"]
    read_only = mc.tools.call("score_set", holder="#t", objective="coins", value=1).result()
    assert read_only["refused_by"] == "read_only" and "read_only" in read_only["how_to"]
    assert [e["verdict"] for e in mc.tools.audit(2)] == ["refused", "refused"]
    policy = tmp_path / "class.toml"
    policy.write_text("read_only = false\n", encoding="utf-8")
    audit = tmp_path / "audit.jsonl"
    try:
        assert mc.tools.use_policy(policy, audit=audit).read_only is False
        done = mc.tools.call("score_set", holder="#t", objective="coins", value=1).result()
        assert done["ok"] is True, done
        assert mc.tools.call("command", command="kill @a").result()["refused_by"] == "forbidden"
    finally:
        from mcbews_repl.toolkit import Policy

        mc.tools.use_policy(Policy())  # closes the audit log
    from mcbews_repl.capture import audit_entries

    assert [(e.tool, e.verdict) for e in audit_entries(audit)] == [
        ("score_set", "allowed"), ("command", "refused"),
    ]  # fmt: skip


def test_the_agent_loop_of_the_docs_runs(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    page = (Path(__file__).resolve().parents[3] / "docs" / "agents.md").read_text("utf-8")
    marker = "<!-- the agent loop (tests/repl/ipython/test_explore.py runs it) -->"
    after = page.split(marker, 1)[1]
    code = after.split("```python\n", 1)[1].split("```", 1)[0]
    expected = after.split("It prints what each call did, the refusal among them:\n\n```\n")[1]
    expected = expected.split("```", 1)[0]
    try:
        result = shell.run_cell(code)
        assert result.success, result.error_in_exec
    finally:
        from mcbews_repl.toolkit import Policy

        mc_of(shell).tools.use_policy(Policy())
    assert capsys.readouterr().out == expected
