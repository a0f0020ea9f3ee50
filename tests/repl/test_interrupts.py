"""Interrupt Kernel and Ctrl-C stop the call a cell waits for, at once and at the source.

Read from what a person sees: the kernel's error output (one short line saying what was
cancelled and what had been sent), the progress bar's last state, the terminal's screen (no
asyncio traceback), and ``%mc`` (nothing pending). The simulated world's record of the
command lines it received shows nothing more arrived for the call once it was cancelled.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from .kernel import ANSI, Kernel, shown

pytestmark = pytest.mark.slow

# A read of about ten million blocks: minutes at the game's 20 ticks a second, so a cell
# that ends within the deadline below was stopped, not finished.
BIG_READ = "mc.blocks((-100, -64, -100), (100, 200, 100))"
DEADLINE_SECONDS = 45.0
INTERRUPTED = re.compile(
    r"CallInterrupted: blocks 201x265x201: cancelled after [\d.]+ s; "
    r"(\d+ requests? \(\d+ commands?\)|\d+ commands?) had been sent"
    r"(, \d+ queued ones withdrawn)?, nothing more will be"
)
# Work lines a cell counts in the simulated world's record (UI chat polls and cancel notices
# are the bridge's own housekeeping).
COUNT_WORK = (
    "sum(1 for _, line in list(mc.sim.raw.client.received)[start:] "
    "if not line.startswith(('mcbews:poll', 'scriptevent mcbews:cancel')))"
)


def progress_shown(msg: Any) -> bool:
    data = msg["content"].get("data", {}) if msg["msg_type"] == "update_display_data" else {}
    return "<progress value='" in data.get("text/html", "") and "value='0'" not in data["text/html"]


def poll_until(kernel: Kernel, code: str, expected: str, what: str) -> str:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while True:
        text = kernel.text(code)
        if expected in text:
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: {text[-600:]}")
        time.sleep(0.25)


@pytest.fixture(scope="module")
def kernel() -> Iterator[Kernel]:
    k = Kernel()
    try:
        k.text("import os; os.environ['MCBEWS_PORT'] = '0'")
        k.text("%load_ext mcbews_repl")
        assert "1 game connected" in k.text("%mc sim")
        yield k
    finally:
        k.close()


def test_interrupt_kernel_stops_an_awaited_read(kernel: Kernel) -> None:
    kernel.text("start = len(mc.sim.raw.client.received)")
    messages = kernel.run(f"p = {BIG_READ}\nr = await p", interrupt_when=progress_shown)
    errors = [m["content"] for m in messages if m["msg_type"] == "error"]
    assert len(errors) == 1
    assert errors[0]["ename"] == "CallInterrupted"
    assert len(errors[0]["traceback"]) == 1  # one short line, no traceback
    assert INTERRUPTED.search(ANSI.sub("", errors[0]["traceback"][0]))
    bars = [m for m in messages if m["msg_type"] == "update_display_data"]
    assert "cancelled, nothing more will be read or sent" in shown(bars[-1:])
    poll_until(kernel, "%mc", "nothing pending", "%mc still shows work pending")
    sent = int(kernel.text("print(p.scope.commands_sent)").strip())
    # Everything the call sent reached the game, and nothing after: the count stays put.
    work = poll_until(kernel, f"print({COUNT_WORK})", str(sent), "the game's record")
    assert int(work.strip()) == sent
    time.sleep(2)  # forty game ticks: a request still on its way would show by now
    assert int(kernel.text(f"print({COUNT_WORK})").strip()) == sent


def test_interrupt_kernel_stops_a_read_waited_for_with_result(kernel: Kernel) -> None:
    messages = kernel.run(
        f"r = {BIG_READ}.result()", interrupt_when=progress_shown
    )  # once parts have come back, the cell is waiting in .result(), not still starting it
    errors = [m["content"] for m in messages if m["msg_type"] == "error"]
    assert [e["ename"] for e in errors] == ["CallInterrupted"]
    assert INTERRUPTED.search(ANSI.sub("", errors[0]["traceback"][0]))
    poll_until(kernel, "%mc", "nothing pending", "%mc still shows work pending")


def test_the_next_cell_works_after_an_interrupt(kernel: Kernel) -> None:
    assert "Steve" in kernel.text("print((await mc.player('Steve')).name)")


# --- terminal IPython ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def terminal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[pexpect.spawn]:
    ipython = str(Path(sys.executable).with_name("ipython"))
    home = tmp_path_factory.mktemp("ipython")
    child = pexpect.spawn(
        ipython,
        ["--simple-prompt", "--no-banner", f"--ipython-dir={home}",
         "--HistoryManager.enabled=False"],
        encoding="utf-8", timeout=DEADLINE_SECONDS, dimensions=(50, 200),
        env={"MCBEWS_PORT": "0", "TERM": "xterm-256color",
             "PATH": str(Path(sys.executable).parent)},
    )  # fmt: skip
    child.expect(r"In \[\d+\]: ")
    for line in ("%load_ext mcbews_repl", "%mc sim"):
        child.sendline(line)
        child.expect(r"In \[\d+\]: ")
    try:
        yield child
    finally:
        child.sendline("exit")
        child.expect(pexpect.EOF)
        child.close(force=True)


def screen_after_ctrl_c(child: pexpect.spawn, line: str) -> str:
    child.sendline(line)
    time.sleep(3)  # let the read get under way (no assertion rests on this)
    child.sendintr()
    child.expect(r"In \[\d+\]: ")  # the prompt comes back: within the spawn's timeout
    return ANSI.sub("", child.before.replace("\r", ""))


@pytest.mark.parametrize("form", ["r = await {read}", "r = {read}.result()"])
def test_ctrl_c_in_terminal_ipython_stops_the_read(terminal: pexpect.spawn, form: str) -> None:
    screen = screen_after_ctrl_c(terminal, form.format(read=BIG_READ))
    assert INTERRUPTED.search(screen), screen
    assert "Traceback" not in screen
    assert "asyncio" not in screen
    deadline = time.monotonic() + DEADLINE_SECONDS
    while True:
        terminal.sendline("%mc")
        terminal.expect(r"In \[\d+\]: ")
        if "nothing pending" in terminal.before:
            break
        assert time.monotonic() < deadline, terminal.before
        time.sleep(0.25)
