"""``%mc sim --lively`` in a real shell: the simulated players act by themselves, the
connected client's doings arrive as game events, and ``mc.sim.lively(False)`` stops them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from mcbews_repl.repl.ipython._usage import BY_NAME
from mcbews_repl.sim.lively import LIVELY_RATE


def wait_until(check: Callable[[], Any], seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.05)
    return found


def test_lively_alone_is_the_worlds_own_rate() -> None:
    assert BY_NAME["sim"].parse("--lively").lively == LIVELY_RATE


def test_a_lively_world_sends_its_hosts_doings(shell: Any) -> None:
    shell.run_line_magic("mc", "sim --lively 20")
    mc = shell.user_ns["mc"]
    lively = mc.sim.raw.liveliness
    assert lively.on and lively.rate == 20.0
    mc.subscribe("PlayerTravelled").result(10)
    wait_until(lambda: len(mc.events(kind="PlayerTravelled").result(10)) >= 3)
    rows = mc.events(kind="PlayerTravelled").result(10)
    assert set(rows["player"]) == {"Steve"}  # the connected client's own events only
    assert wait_until(lambda: lively.done["walk"] > 0 and "Alex" in {d.player for d in lively.log})
    stopped = mc.sim.lively(False)
    assert "<lively world: off, 20 doings a second for every player;" in repr(stopped)
    before = stopped.doings
    time.sleep(0.3)  # a few ticks: none of them acts
    assert mc.sim.raw.liveliness.doings == before
    mc.unsubscribe("PlayerTravelled").result(10)


def test_a_bad_rate_is_a_usage_error(shell: Any) -> None:
    with pytest.raises(UsageError, match="doings a second per player"):
        shell.run_line_magic("mc", "sim --lively 1000")
