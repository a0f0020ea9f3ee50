"""%mc record and mc.record() as a notebook user sees them, read from a real kernel's outputs:
the card while recording and after, the messages for a bad path and a full recording, and
the capture file it leaves."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from mcbews_repl.capture import read_capture

from .kernel import run_in_kernel
from .test_kernel_display import errors, texts

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow


def cells(folder: Path) -> dict[str, str]:
    return {
        "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
        "sim": "%mc sim",
        "none": "%mc record",
        "start": f"%mc record {folder}/session.jsonl",
        "command": "r = await mc.command('tag Steve list')\nprint(r.status_message)",
        "status": "%mc record",
        "again": f"%mc record {folder}/other.jsonl",
        "stop": "%mc record stop",
        "exists": f"%mc record {folder}/session.jsonl",
        "missing": f"%mc record {folder}/no/such/folder/s.jsonl",
        "bad_option": f"%mc record {folder}/x.jsonl --max-mb lots",
        "small": f"rec = mc.record('{folder}/small.jsonl', max_bytes=8192)\n"
        "for _ in range(300):\n    await mc.command('list')\nprint(rec.recording)",
        "redacted": f"with mc.record('{folder}/shared.jsonl', redact=True):\n"
        "    await mc.player('Alex')\nmc.recording",
    }


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("captures")
    return run_in_kernel(cells(folder), timeout=90, allow_errors=True), folder


def test_the_recording_card_says_where_and_how_much(shown: tuple[dict[str, Any], Path]) -> None:
    out, folder = shown
    assert "Not recording; %mc record PATH starts a recording." in texts(out["none"])
    started = texts(out["start"])
    assert "recording" in started and f"{folder}/session.jsonl" in started
    assert "%mc record stop" in started
    status = texts(out["status"])
    assert re.search(r"[1-9]\d* frames, 1 calls", status), status
    stopped = texts(out["stop"])
    assert "recording stopped" in stopped and "the capture is complete" in stopped
    assert f"mcbews-repl replay {folder}/session.jsonl" in stopped
    assert "why it stopped: stopped on request" in stopped and "KiB of at most 16.0 MiB" in stopped


def test_the_capture_holds_what_the_notebook_did(shown: tuple[dict[str, Any], Path]) -> None:
    _, folder = shown
    capture = read_capture(folder / "session.jsonl")
    [call] = capture.calls
    assert call.request["line"] == "tag Steve list" and "builder" in call.result["status_message"]
    assert capture.header.complete and capture.facts(1)["local_player"] == "Steve"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("again", "CaptureError: already recording to"),
        ("exists", "session.jsonl already exists; choose another name"),
        ("missing", "the folder"),
    ],
)
def test_mistakes_are_one_short_message(
    shown: tuple[dict[str, Any], Path], name: str, message: str
) -> None:
    cell = shown[0][name]
    [error] = errors(cell)
    assert error.ename == "CaptureError"
    plain = texts(cell)
    assert message in plain and "Traceback" not in plain


def test_a_bad_option_is_a_usage_error(shown: tuple[dict[str, Any], Path]) -> None:
    text = texts(shown[0]["bad_option"])
    assert "UsageError: %mc record: argument --max-mb: invalid float value" in text
    assert "usage: %mc record [PATH | stop] [--redact] [--max-mb N] [--overwrite]" in text


def test_a_full_recording_says_so_in_the_cell(shown: tuple[dict[str, Any], Path]) -> None:
    out, folder = shown
    text = texts(out["small"])
    assert (
        f"The recording to {folder}/small.jsonl stopped: it reached its size limit of 8.0 KiB"
        in text
    )
    assert text.count("The recording to") == 1 and text.strip().endswith("False")
    assert read_capture(folder / "small.jsonl").end is not None


def test_a_redacted_recording_holds_no_names(shown: tuple[dict[str, Any], Path]) -> None:
    out, folder = shown
    assert "redacted" in texts(out["redacted"]) and "yes: player names" in texts(out["redacted"])
    text = (folder / "shared.jsonl").read_text(encoding="utf-8")
    assert "Alex" not in text and "Steve" not in text and "Player2" in text
