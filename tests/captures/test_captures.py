"""Every capture in this folder, replayed through a fresh bridge, gives the recorded results.

The folder starts with sessions recorded from the simulated world (make_captures.py): the
notebook flows, one of them redacted, and encrypted, refused and plaintext sessions. A
capture of a real game becomes a regression test by being dropped in (docs/captures.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbews_repl.testing import read_capture, replay_capture

HERE = Path(__file__).resolve().parent
CAPTURES = sorted(HERE.glob("*.jsonl"))


@pytest.mark.parametrize("path", CAPTURES, ids=[p.stem for p in CAPTURES])
async def test_a_capture_replays_with_the_recorded_results(path: Path) -> None:
    report = await replay_capture(path)
    assert report.ok, report.describe()
    assert report.calls == len([c for c in read_capture(path).calls if c.kind != "ui_chat"])


def test_the_folder_holds_the_notebook_flows_and_an_encrypted_session() -> None:
    names = {p.stem for p in CAPTURES}
    transports = {read_capture(p).facts(1).get("transport") for p in CAPTURES}
    assert {"pull", "chat"} <= transports  # both ways answers travel
    assert {"01_getting_started", "02_exploring_a_world", "03_inventory_analysis",
            "04_ui_chat_bot", "04_ui_chat_bot_redacted"} <= names  # fmt: skip
    encrypted = [read_capture(p).facts(1).get("encrypted") for p in CAPTURES]
    assert encrypted.count(True) >= 5 and False in encrypted
    assert read_capture(HERE / "04_ui_chat_bot_redacted.jsonl").header.redacted


async def test_the_doctors_captures_are_here_too_each_failure_replayed() -> None:
    doctors = {p.stem for p in CAPTURES if p.stem.startswith("doctor_")}
    assert doctors == {
        "doctor_healthy", "doctor_healthy_by_chat", "doctor_no_addon",
        "doctor_beta_pack_without_beta_apis", "doctor_encryption_required",
        "doctor_script_error", "doctor_custom_command_message_lost", "doctor_chat_lost",
    }  # fmt: skip
    # The doctor began recording after the game connected, and this game never answered
    # anything: its start (who its player is, the transport probes) is not in the capture,
    # and the replay says so instead of failing.
    report = await replay_capture(HERE / "doctor_encryption_required.jsonl")
    start = report.games[1].before_capture
    assert report.ok and start[0] == "getlocalplayername"
    assert start[1].startswith("mcbews:ask ") and "mcbews:bridge_req" in start[2]
    assert "mcbews:tags_req" in start[3] and set(start[4:]) == {"tag @s list"}
    assert f"{len(start)} from before the recording began" in report.describe()
