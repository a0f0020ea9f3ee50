"""%mc doctor and mc.doctor() as a notebook user sees them, read from a real kernel: the card
for a working simulated world, the card for a game that keeps the bridge player's chat from
the WebSocket (a simulated world in its own process that does not return a custom command's
message), and the capture each leaves."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from mcbews_repl.capture import read_capture

from .kernel import run_in_kernel
from .test_kernel_display import errors, texts

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

SIM = str(Path(sys.executable).with_name("mcbews-repl"))


def cells(folder: Path) -> dict[str, str]:
    return {
        # Held to pull: on auto, a world that loses custom-command messages answers by tags,
        # and the diagnosis of the lost messages is what this test reads.
        "load": "%config McbewsRepl.port = 0\n%config McbewsRepl.transport = 'pull'\n"
        "%load_ext mcbews_repl",
        "sim": "%mc sim",
        "doctor": f"%mc doctor --capture {folder}/healthy.jsonl",
        "bad_option": "%mc doctor --bogus",
        "broken": "import asyncio, subprocess\n"
        f"game = subprocess.Popen([{SIM!r}, 'sim', '--url', mc.url, '--fast', "
        "'--no-custom-command-messages'])\n"
        "while len(mc.connections) < 2:\n    await asyncio.sleep(0.05)\n"
        "broken = await mc.wait_connected(timeout=60)\n"
        f"report = await mc.doctor(capture='{folder}/lost.jsonl', connection=broken)\n"
        "report",
        "plain": "print(repr(report))",
        "cleanup": "game.terminate(); game.wait(10)",
    }


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("doctor")
    return run_in_kernel(cells(folder), timeout=120, allow_errors=True), folder


def html_of(cell: Any) -> str:
    [result] = [o for o in cell.outputs if o.output_type in ("execute_result", "display_data")]
    html: str = result["data"]["text/html"]
    return html


def test_a_healthy_world_gets_a_card_of_checks(shown: tuple[dict[str, Any], Path]) -> None:
    out, folder = shown
    cell = out["doctor"]
    assert not errors(cell)
    assert "Checking Steve's game; this takes a few seconds" in texts(cell)
    html = html_of(cell)
    assert "mcbews doctor" in html and "4 of 6 checks ok, nothing failed" in html
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert len(rows) == 7  # the header and six checks
    assert [re.search(r"<b style='color:[^']*'>([^<]*)</b>", r)[1] for r in rows[1:]] == [  # type: ignore[index]
        "✓ ok", "✓ ok", "✓ ok", "✓ ok", "? unsure", "? unsure",
    ]  # fmt: skip
    assert "list_capabilities answered in" in html
    assert f"saved to {folder}/healthy.jsonl (redacted)" in html
    assert read_capture(folder / "healthy.jsonl").header.redacted


def test_a_game_that_loses_the_answers_is_diagnosed(shown: tuple[dict[str, Any], Path]) -> None:
    out, folder = shown
    assert not errors(out["broken"])
    html = html_of(out["broken"])
    assert "1 check(s) failed; start with 4. The addon answers" in html
    assert "✗ failed" in html and "does not return a custom command&#x27;s message" in html
    assert f"please share {folder}/lost.jsonl in a bug report" in html
    plain = texts(out["plain"])
    assert "<DoctorReport Steve's game from 127.0.0.1:" in plain and "4✗" in plain
    calls = read_capture(folder / "lost.jsonl").calls
    assert any(c.request.get("line", "").startswith("mcbews:pull doctor") for c in calls)


def test_a_bad_option_is_a_usage_error(shown: tuple[dict[str, Any], Path]) -> None:
    text = texts(shown[0]["bad_option"])
    assert "UsageError: %mc doctor:" in text
    assert "usage: %mc doctor [--probe-limits] [--capture PATH] [--no-redact]" in text
