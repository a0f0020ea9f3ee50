"""A prototype that hangs where it loads, as a notebook user sees it in a real kernel: the cell
says the watchdog stopped it, on which line, and the next command works."""

from __future__ import annotations

from typing import Any

import pytest

from mcbews_repl.sim import interrupt

from .kernel import run_in_kernel
from .test_kernel_display import errors, texts

pytestmark = [
    pytest.mark.slow,  # a real kernel
    pytest.mark.skipif(not interrupt.available(), reason="needs QuickJS's interrupt"),
]

HANG = """%%mc capability hang
eval("while (true) {}");
export default { name: "hang", description: "never loads", params: {}, run() {} };"""


@pytest.fixture(scope="module")
def shown() -> dict[str, Any]:
    cells = {
        "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
        "sim": "%mc sim",
        "hang": HANG,
        "after": "%mc /testfor @a",
        "call": "%mc call get_player_snapshot target=Steve",
        "watchdog": "print(mc.sim.watchdog)",
    }
    return run_in_kernel(cells, timeout=120, allow_errors=True)


def test_the_cell_says_the_watchdog_stopped_it_and_where(shown: dict[str, Any]) -> None:
    [error] = errors(shown["hang"])
    text = texts(shown["hang"])
    assert error.ename == "PrototypeError"
    assert "cell hang failed to load: WatchdogError: script hang: ran longer than 3000 ms" in text
    assert "(cell hang, line 2)" in text  # the cell's own line, the magic being line 1
    assert "Traceback" not in text


def test_the_next_command_and_call_work(shown: dict[str, Any]) -> None:
    assert not errors(shown["after"]), texts(shown["after"])
    assert "Found Steve" in texts(shown["after"])
    assert not errors(shown["call"]), texts(shown["call"])
    assert texts(shown["call"]).startswith("Steve ")  # the player card
    assert texts(shown["watchdog"]).strip() == "engine"
