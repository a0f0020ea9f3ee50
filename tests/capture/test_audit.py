"""The guard's audit log is a capture: read back by read_capture, its actions listed and
replayed through fresh tools with the same verdicts; the game replay skips its records."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.capture import (
    AUDIT_KIND,
    AuditLog,
    audit_entries,
    read_capture,
    replay_audit,
    replay_capture,
)
from mcbews_repl.exceptions import CaptureError
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import CATALOGUE, Guard, Policy, Tools
from mcbews_repl.toolkit.tools import AUDIT_ARGUMENT_CHARS, audit_arguments

LESSON: list[tuple[str, dict[str, Any]]] = [
    ("players", {}),
    ("command", {"command": "give Alex apple 1"}),
    ("command", {"command": "op Alex"}),
    ("command", {"command": "tp @a 0 64 0"}),
    ("score_set", {"holder": "Alex", "objective": "kills", "value": 2}),
    ("block", {"x": 0, "y": 64, "z": "high", "block": "stone"}),
]
POLICY = Policy(read_only=False)


async def run_lesson(path: Path | None) -> tuple[list[dict[str, Any]], AuditLog | None]:
    log = AuditLog(path) if path else None
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        tools = Tools(mc, guard=Guard(POLICY, on_action=log), world="Steve")
        results = [await tools.call(name, **args) for name, args in LESSON]
    if log is not None:
        log.close()
    return results, log


async def test_the_audit_log_reads_back_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "lesson.jsonl"
    results, _ = await run_lesson(path)
    assert [r.get("refused_by") for r in results] == [
        None, None, "forbidden", "named_players", None, None,
    ]  # fmt: skip
    capture = read_capture(path)
    assert capture.end is not None and capture.end.calls == len(LESSON)
    assert all(c.kind == AUDIT_KIND for c in capture.calls)
    assert "audit" in capture.header.notes[0]
    entries = audit_entries(path)
    assert [e.tool for e in entries] == [name for name, _ in LESSON]
    assert [e.verdict for e in entries] == [
        "allowed", "allowed", "refused", "refused", "allowed", "invalid",
    ]  # fmt: skip
    assert entries[2].refused_by == "forbidden" and entries[2].arguments == LESSON[2][1]
    assert entries[0].world == "Steve" and entries[0].result["ok"] is True

    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        tools = Tools(mc, guard=Guard(POLICY))

        async def again(tool: str, world: str | None, args: dict[str, Any]) -> dict[str, Any]:
            return await tools.call(tool, **args)

        report = await replay_audit(path, again)
        assert report.actions == len(LESSON) and report.same, report.differences

        strict = Tools(mc, guard=Guard(Policy()))

        async def strictly(tool: str, world: str | None, args: dict[str, Any]) -> dict[str, Any]:
            return await strict.call(tool, **args)

        differs = await replay_audit(path, strictly)
        # read-only refuses the give, the score and (before named_players) the tp
        assert [d.tool for d in differs.differences] == ["command", "command", "score_set"]
        assert "read_only" in differs.differences[0].describe()


async def test_the_game_replay_skips_tool_records(tmp_path: Path) -> None:
    path = tmp_path / "lesson.jsonl"
    await run_lesson(path)
    report = await replay_capture(path)
    assert report.calls == 0 and report.differences == []


def test_an_audit_log_in_a_folder_is_a_new_dated_file_each_time(tmp_path: Path) -> None:
    first, second = AuditLog(tmp_path), AuditLog(tmp_path)  # two launches, the same path
    first.close()
    second.close()
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 2 and first.path != second.path, names
    assert all(re.fullmatch(r"lesson-\d{4}-\d\d-\d\d-\d{6}(-\d+)?\.jsonl", n) for n in names)
    assert read_capture(first.path).end is not None


def test_the_audit_keeps_the_tools_longest_arguments_whole() -> None:
    longest = max(p.max_length or 0 for spec in CATALOGUE for p in spec.params)
    assert longest <= AUDIT_ARGUMENT_CHARS
    kept = audit_arguments({"runs": "0*1," * (longest // 4), "n": 3, "ok": None, "xs": [1, 2]})
    assert kept == {"runs": "0*1," * (longest // 4), "n": 3, "ok": None, "xs": [1, 2]}
    huge = "x" * (AUDIT_ARGUMENT_CHARS + 1)
    cut = audit_arguments({"text": huge})["text"]
    assert cut == {
        "omitted": "longer than the audit keeps",
        "characters": len(huge),
        "sha256": hashlib.sha256(huge.encode()).hexdigest(),
        "start": huge[:200],
    }


def test_an_audit_log_refuses_a_bad_path(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="no folder"):
        AuditLog(tmp_path / "missing" / "a.jsonl")
    (tmp_path / "a.jsonl").write_text("x", encoding="utf-8")
    with pytest.raises(CaptureError, match="already exists; give a folder"):
        AuditLog(tmp_path / "a.jsonl")
    AuditLog(tmp_path / "a.jsonl", overwrite=True).close()
