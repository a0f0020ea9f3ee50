"""The doctor's diagnosis for each state of the world the simulated world can play, through
the real gateway and the addon in QuickJS (both packs, both transports); its capture; and
the limits probe."""

from __future__ import annotations

from pathlib import Path

import pytest

import mcbews_repl
from mcbews_repl.capture import read_capture
from mcbews_repl.doctor import DoctorReport, run_doctor
from mcbews_repl.doctor.addon import PullProbe, _combined
from mcbews_repl.doctor.checks import game_language
from mcbews_repl.doctor.view import report_plain
from mcbews_repl.testing import replay_capture

from ..corpus import lang
from ..gateway.fakegame import FakeGame
from .conftest import FAST_BRIDGE, QUICK, world_in


async def diagnose(mode: str, tmp_path: Path, **options: object) -> DoctorReport:
    async with world_in(mode) as (mc, _):
        return await run_doctor(mc, capture=tmp_path / f"{mode}.jsonl", waits=QUICK, **options)


def verdicts(report: DoctorReport) -> str:
    return "".join({"ok": "+", "failed": "x", "unsure": "?"}[c.verdict] for c in report.checks)


@pytest.mark.parametrize(
    ("mode", "transport"), [("healthy", "pull"), ("healthy_by_chat", "chat"), ("education", "pull")]
)
async def test_a_healthy_world(mode: str, transport: str, tmp_path: Path) -> None:
    report = await diagnose(mode, tmp_path)
    assert verdicts(report) == "++++??" and report.ok
    assert [c.name for c in report.checks] == [
        "The connection", "Commands answer", "Events flow", "The addon answers",
        "Text display", "Command limits",
    ]  # fmt: skip
    first = report.check(1).observed
    assert "encrypted (ws:encrypt, AES-256-cfb8)" in first and "version 17104896" in first
    assert "players online" in report.check(2).observed
    assert report.check(2).data["p50_ms"] <= report.check(2).data["p95_ms"]
    addon = report.check(4)
    assert "list_capabilities" in addon.data["capabilities"]
    assert addon.data["transport"] == transport and f"({transport})" in addon.observed
    # The pull transport's assumption, confirmed on this game with both packs.
    assert addon.data["pull"] == "confirmed"
    assert "A custom command's message came back as commandResponse.statusMessage" in (
        addon.observed
    )
    assert report.check(5).next_step.startswith("sent; look at the game: Steve should see")
    assert "--probe-limits" in report.check(6).next_step
    assert report.capture == tmp_path / f"{mode}.jsonl" and report.capture_note == "redacted"


@pytest.mark.parametrize("language", ["zh_CN", "ja_JP"])
async def test_the_doctor_says_the_games_language(language: str, tmp_path: Path) -> None:
    report = await diagnose(language, tmp_path)
    assert verdicts(report) == "++++??" and report.ok  # every check works in that language
    assert report.check(2).data["language"] == language
    printed = report_plain(report)
    assert f"the game writes in {language}" in printed
    online = lang("commands.players.list", 2, 10, language=language)
    assert online in report.check(2).observed


async def test_an_english_game_is_en_us_or_en_gb_a_strange_one_unknown(tmp_path: Path) -> None:
    report = await diagnose("healthy", tmp_path)
    assert "the game writes in en_US or en_GB (their /list answers are alike)" in report_plain(
        report
    )
    assert game_language("Es sind 2 Spieler da") == (
        "unknown",
        "the game's language is unknown (its /list answer is no language's)",
    )


@pytest.mark.parametrize("mode", ["no_addon", "beta_pack_without_beta_apis"])
async def test_no_pack_running_means_apply_one_or_turn_beta_apis_on(
    mode: str, tmp_path: Path
) -> None:
    report = await diagnose(mode, tmp_path)
    assert verdicts(report) == "+++x??" and not report.ok
    addon = report.check(4)
    assert "mcbews:pull is an unknown command here" in addon.observed
    assert "MCBEWS_BRIDGE is not in the world" in addon.observed
    assert "pull: refused by the game: Unknown command: mcbews:ask" in addon.observed
    assert "no mcbews pack runs in this world" in addon.next_step
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


@pytest.mark.parametrize("mode", ["script_error", "script_error_by_chat"])
async def test_a_script_error_in_the_addon(mode: str, tmp_path: Path) -> None:
    report = await diagnose(mode, tmp_path)
    assert verdicts(report) == "+++x??"
    addon = report.check(4)
    # Over either transport the pack's custom command fails on the request as well.
    assert "mcbews:pull failed (-2147352576: '')" in addon.observed
    assert "the pack runs, but its script failed on it" in addon.observed
    assert "content log" in addon.next_step
    assert addon.data["transport"] == ("none" if mode == "script_error" else "chat")


def test_a_whisper_that_arrives_puts_the_blame_on_the_addon() -> None:
    # The chat route's other outcome (the simulated world cannot fail a chat answer and
    # not its custom commands): the game delivers the whisper, the addon did not answer.
    pull = PullProbe("confirmed", "A custom command's message came back")
    check = _combined("no answer", pull, (True, "a whisper reached it in 3 ms"), "c.jsonl", {})
    assert check.verdict == "failed" and "the addon did not answer" in check.observed
    assert "content log" in check.next_step
    lost = _combined("no answer", pull, (False, "a whisper never arrived"), "c.jsonl", {})
    assert "please share c.jsonl" in lost.next_step and "stable pack" not in lost.next_step
    unknown = _combined("no answer", pull, (None, "could not be made"), "c.jsonl", {})
    assert unknown.verdict == "unsure"


async def test_a_game_that_does_not_return_custom_command_messages(tmp_path: Path) -> None:
    report = await diagnose("custom_command_message_lost", tmp_path)
    assert verdicts(report) == "+++x??"
    addon = report.check(4)
    assert "mcbews:pull ran (status 0) but its message did not come back" in addon.observed
    assert "does not return a custom command's message over the WebSocket" in addon.observed
    assert "the beta pack with Beta APIs on can answer by chat" in addon.next_step
    share = f"please share {tmp_path / 'custom_command_message_lost.jsonl'} in a bug report"
    assert share in addon.next_step


async def test_a_world_where_only_tags_answer(tmp_path: Path) -> None:
    report = await diagnose("neither_premise", tmp_path)
    addon = report.check(4)
    assert addon.verdict == "ok" and addon.data["transport"] == "tags"
    assert addon.data["working_paths"] == ["tags"]
    printed = report_plain(report)
    assert "through tags on the connected player (tags)" in printed
    assert "mcbews:pull ran (status 0) but its message did not come back" in printed
    assert (
        "Answer paths on this world: pull: no readable answer (MALFORMED_RESPONSE); "
        "chat: no answer; tags: answers (working: tags)"
    ) in " ".join(printed.split())


async def test_a_world_held_to_a_way_that_fails_names_the_ways_that_work(
    tmp_path: Path,
) -> None:
    report = await diagnose("custom_command_message_lost", tmp_path)
    addon = report.check(4)
    assert addon.verdict != "ok" and addon.data["working_paths"] == ["tags"]
    assert "answers can travel by tags here: serve(transport='auto')" in addon.next_step


async def test_a_game_that_keeps_the_bridge_players_chat_from_the_websocket(
    tmp_path: Path,
) -> None:
    report = await diagnose("chat_lost", tmp_path)
    assert verdicts(report) == "+++x??"
    addon = report.check(4)
    assert "The beta pack runs (its bridge player is in the world) but its chat does not " \
           "reach the WebSocket" in addon.observed  # fmt: skip
    assert "a whisper made by MCBEWS_BRIDGE never arrived" in addon.observed
    assert "no public capture confirms" in addon.observed
    assert f"please share {tmp_path / 'chat_lost.jsonl'} in a bug report" in addon.next_step


async def test_events_that_never_come_back(tmp_path: Path) -> None:
    async with (
        mcbews_repl.serve(port=0, transport="chat", **FAST_BRIDGE) as mc,
        FakeGame(mc.url) as game,
    ):
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
    report = await diagnose("chat_lost", tmp_path)
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
    # The corpus's 461 bytes of line and 697 of frame: a plain line meets the line ceiling
    # first (its frame is 673 bytes), a quote-heavy one the frame ceiling.
    assert limits.data == {"line_bytes": 461, "line_frame_bytes": 673, "frame_bytes": 697,
                           "frame_line_bytes": 259}  # fmt: skip
    assert "the line ceiling" in limits.observed
    assert "The bridge's budget: 461 bytes of line, 661 of frame" in limits.observed


async def test_the_addon_says_which_pack_and_version_it_is(tmp_path: Path) -> None:
    stable = (await diagnose("healthy", tmp_path)).check(4)
    assert stable.data["version"] == "0.2.0" and "the stable pack, version 0.2.0" in stable.observed
    beta = (await diagnose("healthy_by_chat", tmp_path)).check(4)
    assert "the beta pack, version 0.2.0" in beta.observed
