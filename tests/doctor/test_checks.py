"""The doctor's diagnosis for each state of the world the simulated world can play, through
the real gateway and the addon in QuickJS; its capture; and the limits probe."""

from __future__ import annotations

from pathlib import Path

import pytest

import mcbews_repl
from mcbews_repl.capture import read_capture
from mcbews_repl.doctor import DoctorReport, run_doctor
from mcbews_repl.testing import replay_capture

from ..gateway.fakegame import FakeGame
from .conftest import FAST_BRIDGE, QUICK, world_in


async def diagnose(mode: str, tmp_path: Path, **options: object) -> DoctorReport:
    async with world_in(mode) as (mc, _):
        return await run_doctor(mc, capture=tmp_path / f"{mode}.jsonl", waits=QUICK, **options)


def verdicts(report: DoctorReport) -> str:
    return "".join({"ok": "+", "failed": "x", "unsure": "?"}[c.verdict] for c in report.checks)


async def test_a_healthy_world(tmp_path: Path) -> None:
    report = await diagnose("healthy", tmp_path)
    assert verdicts(report) == "++++??" and report.ok
    assert [c.name for c in report.checks] == [
        "The connection", "Commands answer", "Events flow", "The addon answers",
        "Text display", "Command limits",
    ]  # fmt: skip
    first = report.check(1).observed
    assert "encrypted (ws:encrypt, AES-256-cfb8)" in first and "version 17039360" in first
    assert "There are 3/10 players online" in report.check(2).observed
    assert report.check(2).data["p50_ms"] <= report.check(2).data["p95_ms"]
    assert "list_capabilities" in report.check(4).data["capabilities"]
    assert report.check(5).next_step.startswith("sent; look at the game: Steve should see")
    assert "--probe-limits" in report.check(6).next_step
    assert report.capture == tmp_path / "healthy.jsonl" and report.capture_note == "redacted"


@pytest.mark.parametrize("mode", ["no_addon", "beta_apis_off"])
async def test_no_bridge_player_means_beta_apis_off_or_no_pack(mode: str, tmp_path: Path) -> None:
    report = await diagnose(mode, tmp_path)
    assert verdicts(report) == "+++x??" and not report.ok
    addon = report.check(4)
    assert "bridge player MCBEWS_BRIDGE is not in the world" in addon.observed
    assert "Experiments > Beta APIs" in addon.next_step
    assert "mcbews-repl addon export" in addon.next_step
    assert "will likely not show" in report.check(5).next_step
    assert report.headline == "1 check(s) failed; start with 4. The addon answers"


async def test_a_world_that_requires_encryption(tmp_path: Path) -> None:
    report = await diagnose("encryption_required", tmp_path)
    assert verdicts(report) == "?x????"
    commands = report.check(2)
    assert "-2147418107: Encrypted session required" in commands.observed
    assert "--encrypt auto" in commands.next_step and "Require Encrypted" in commands.next_step
    assert "encrypt=False" in report.check(1).observed
    assert report.check(3).observed == "skipped: commands do not work (check 2)"


async def test_a_script_error_in_the_addon(tmp_path: Path) -> None:
    report = await diagnose("script_error", tmp_path)
    assert verdicts(report) == "+++x??"
    addon = report.check(4)
    assert "a whisper it made reached this connection" in addon.observed
    assert "the addon itself did not answer" in addon.observed
    assert "content log" in addon.next_step


async def test_a_game_that_keeps_the_bridge_players_chat_from_the_websocket(
    tmp_path: Path,
) -> None:
    report = await diagnose("lost_answer", tmp_path)
    assert verdicts(report) == "+++x??"
    addon = report.check(4)
    assert "The addon runs (its bridge player MCBEWS_BRIDGE is in the world) but its " \
           "chat does not reach the WebSocket" in addon.observed  # fmt: skip
    assert "the one step no public capture confirms" in addon.observed
    assert f"please share {tmp_path / 'lost_answer.jsonl'} in a bug report" in addon.next_step


async def test_events_that_never_come_back(tmp_path: Path) -> None:
    async with mcbews_repl.serve(port=0, **FAST_BRIDGE) as mc, FakeGame(mc.url) as game:
        await mc.wait_connected(timeout=10)  # this game answers commands, reports no chat
        game.capabilities["list_capabilities"] = lambda p: {"ok": True, "result": {}}
        report = await run_doctor(mc, save=False, waits=QUICK)
    events = report.check(3)
    assert events.verdict == "failed" and "no PlayerMessage came back" in events.observed
    assert "type /connect again" in events.next_step
    assert report.check(4).verdict == "ok" and report.capture is None


async def test_without_a_game_it_says_how_to_connect() -> None:
    async with mcbews_repl.serve(port=0) as mc:
        report = await run_doctor(mc)
    first = report.check(1)
    assert first.verdict == "failed" and first.observed == "no game is connected"
    assert mc.connect_command in first.next_step and report.capture is None


async def test_the_doctors_capture_is_redacted_and_replays(tmp_path: Path) -> None:
    report = await diagnose("lost_answer", tmp_path)
    assert report.capture is not None
    capture = read_capture(report.capture)
    text = report.capture.read_text(encoding="utf-8")
    assert capture.header.redacted and "Steve" not in text and "Alex" not in text
    lines = [c.request.get("line", "") for c in capture.calls if c.kind == "command"]
    assert "testfor MCBEWS_BRIDGE" in lines
    assert any(line.startswith("execute as MCBEWS_BRIDGE run tell @s") for line in lines)
    replayed = await replay_capture(capture)
    assert replayed.ok, replayed.describe()


async def test_the_capture_can_be_kept_plain_or_skipped(tmp_path: Path) -> None:
    kept = await diagnose("healthy", tmp_path, redact=False)
    assert kept.capture_note.startswith("not redacted")
    assert "Steve" in (tmp_path / "healthy.jsonl").read_text(encoding="utf-8")
    bad = await diagnose("healthy", tmp_path / "missing")
    assert bad.capture is None and "does not exist" in bad.capture_note
    assert "not saved: cannot record" in bad.capture_line and bad.ok


async def test_the_limits_probe_finds_the_simulated_worlds_ceilings(tmp_path: Path) -> None:
    report = await diagnose("healthy", tmp_path, probe_limits=True)
    limits = report.check(6)
    assert limits.verdict == "ok", limits.observed
    assert limits.data == {"line_bytes": 449, "line_frame_bytes": 661, "frame_bytes": 661,
                           "frame_line_bytes": 241}  # fmt: skip
    assert "the frame ceiling binds first" in limits.observed
    assert "The bridge's budget: 461 bytes of line, 661 of frame" in limits.observed
