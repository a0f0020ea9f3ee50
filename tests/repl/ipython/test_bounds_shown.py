"""What the bounds did, as %mc shows it in a real shell against the simulated world."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from mcbews_repl.limits import (
    CALLBACK_FAILURES_KEPT,
    CALLBACK_FAILURES_PRINTED,
    MAX_CONNECTIONS,
    MAX_CONNECTIONS_PER_ADDRESS,
)
from mcbews_repl.repl.ipython._config import McbewsRepl

from .test_magics import mc_of, render, wait_until


def panel(shell: Any) -> str:
    """The status panel as the terminal shows it, colours off and lines joined again."""
    _, text = render(shell, shell.run_line_magic("mc", ""))
    return " ".join(re.sub(r"\x1b\[[0-9;]*m", "", str(text)).split())


@pytest.fixture
def chat_shell(shell: Any) -> Iterator[Any]:
    """The shell with the chat transport and the beta pack: a burst of UI chat reaches the
    gateway at once, so its callback bounds are what limits it. (Over the pull transport the
    addon keeps at most 64 waiting; tests/sim/test_e2e.py checks that bound.)"""
    try:
        shell.run_line_magic("config", "McbewsRepl.transport = 'chat'")
        shell.run_line_magic("mc", "serve --port 0")
        shell.run_line_magic("mc", "sim --pack beta")
        yield shell
    finally:
        shell.run_line_magic("config", "McbewsRepl.transport = 'auto'")
        shell.run_line_magic("mc", "serve --port 0")
        shell.run_line_magic("mc", "sim")


def test_failing_callbacks_keep_the_newest_print_a_few_and_are_counted(
    chat_shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shell = chat_shell
    mc = mc_of(shell)

    def broken(msg: Any) -> None:
        raise RuntimeError(f"boom on {msg.message}")

    mc.on_ui_chat(broken)
    try:
        for i in range(150):
            mc.sim.ui_chat("Steve", f"message {i}")
        wait_until(lambda: mc.callback_failure_count == 150)
    finally:
        mc.off_ui_chat(broken)
    assert len(mc.callback_failures) == CALLBACK_FAILURES_KEPT
    assert mc.callback_failures[-1].message == "message 149"
    assert mc.callback_failures[0].message == "message 50"
    err = capsys.readouterr().err
    assert err.count("Traceback") == CALLBACK_FAILURES_PRINTED
    assert "later failures are not printed" in err
    assert "UI chat callbacks" in panel(shell)
    assert "failed 150 times; mc.callback_failures keeps the newest 100" in panel(shell)


def test_busy_callbacks_drop_ui_chat_and_the_panel_says_how_many(chat_shell: Any) -> None:
    shell = chat_shell
    mc = mc_of(shell)
    released = False
    started: list[str] = []

    async def slow(msg: Any) -> None:
        started.append(msg.message)
        while not released:
            await _sleep()

    mc.on_ui_chat(slow)
    try:
        for i in range(300):
            mc.sim.ui_chat("Alex", f"busy {i}")
        connection = mc.connections[0].raw  # the gateway object, read on purpose
        wait_until(lambda: connection.counters["ui_chat_dropped"] == 40)
        # Four run at once (each its own task on the loop, referenced), 256 wait.
        assert mc._core.callbacks.running == 4 and connection.ui_chats.queued == 256
        assert "40 UI chat messages dropped while the callbacks were busy" in panel(shell)
        released = True
        wait_until(lambda: len(started) == 260 and not mc._core.callbacks.running)
    finally:
        released = True
        mc.off_ui_chat(slow)
    assert started[0] == "busy 0" and connection.ui_chats.running == 0


async def _sleep() -> None:
    import asyncio

    await asyncio.sleep(0.01)


def test_refused_handshakes_and_cut_text_show_in_the_panel(shell: Any) -> None:
    mc = mc_of(shell)
    with pytest.raises(InvalidStatus):
        connect(mc.url.rsplit("/", 1)[0] + "/0badc0de", open_timeout=10).close()
    text = panel(shell)
    assert "connections refused" in text and "1 handshake with a wrong /connect token" in text
    mc.sim.run_command("say " + "z" * 5000)
    wait_until(lambda: mc.bridge.log.counters["truncated"] >= 1)
    time.sleep(0.1)
    text = panel(shell)
    assert "1 long text cut in the event log" in text  # on the game's own row
    assert "event log" in text and "1 long text cut" in text
    chat = [e for e in mc.bridge.events() if e.kind == "chat" and "truncated" in e.data][-1]
    assert "chars, cut to 4,096]" in chat.data["message"]


@contextmanager
def restarted_with(shell: Any, setting: str, value: int, default: int) -> Iterator[Any]:
    """The bridge restarted (with the simulated world) under ``%config McbewsRepl.setting =
    value``; afterwards restarted again under the default. Yields the new ``mc``."""
    try:
        shell.run_line_magic("config", f"McbewsRepl.{setting} = {value}")
        shell.run_line_magic("mc", "serve --port 0")
        shell.run_line_magic("mc", "sim")
        mc = mc_of(shell)
        assert getattr(mc.bridge.settings, setting) == value
        yield mc
    finally:
        shell.run_line_magic("config", f"McbewsRepl.{setting} = {default}")
        shell.run_line_magic("mc", "serve --port 0")
        shell.run_line_magic("mc", "sim")


@pytest.mark.skipif(sys.platform != "linux", reason="binding 127.0.0.30 is a Linux facility")
def test_a_machine_beyond_its_share_of_games_is_refused_and_shown(shell: Any) -> None:
    env = McbewsRepl()
    env.apply_environment({"MCBEWS_MAX_CONNECTIONS_PER_ADDRESS": "3"})
    assert env.max_connections_per_address == 3
    share = "max_connections_per_address"
    with restarted_with(shell, share, 1, MAX_CONNECTIONS_PER_ADDRESS) as mc:
        machine = {"source_address": ("127.0.0.30", 0), "open_timeout": 10}
        with connect(mc.url, **machine), pytest.raises(InvalidStatus) as refused:
            connect(mc.url, **machine).close()
        assert refused.value.response.status_code == 429
        assert b"max_connections_per_address" in refused.value.response.body
        assert "1 handshake beyond max_connections_per_address" in panel(shell)
        wait_until(lambda: len(mc.bridge.connections) == 1)  # the machine's one has left
        assert shell.run_line_magic("mc", "/say still served").ok


def test_max_connections_is_a_setting_and_refusals_show(shell: Any) -> None:
    # Runs last in this module: it restarts the bridge, then restores the default one.
    env = McbewsRepl()
    env.apply_environment({"MCBEWS_MAX_CONNECTIONS": "5"})
    assert env.max_connections == 5
    with restarted_with(shell, "max_connections", 1, MAX_CONNECTIONS) as mc:
        with pytest.raises(InvalidStatus) as refused:
            connect(mc.url, open_timeout=10).close()
        assert refused.value.response.status_code == 503
        assert "1 handshake beyond max_connections" in panel(shell)
        assert shell.run_line_magic("mc", "/say still served").ok
