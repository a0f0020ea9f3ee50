"""Load, unload and reload leave nothing behind; the terminal IPython prompt keeps answering."""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
from pathlib import Path
from typing import Any

import pexpect
import pytest

from mcbews_repl.sim import SimWorld

from .conftest import shell_instance


def bridge_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("mcbews")]


def port_open(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_load_unload_reload_cycles_leave_no_threads_or_ports() -> None:
    ip = shell_instance()
    ip.run_line_magic("config", "McbewsRepl.port = 0")
    ports = []
    for _ in range(3):
        ip.run_line_magic("load_ext", "mcbews_repl")
        mc = ip.user_ns["mc"]
        ports.append(mc.bridge.port)
        assert port_open(ports[-1]) and bridge_threads() == ["mcbews-bridge"]
        ip.run_line_magic("reload_ext", "mcbews_repl")
        ports.append(ip.user_ns["mc"].bridge.port)
        ip.run_line_magic("unload_ext", "mcbews_repl")
        assert "mc" not in ip.user_ns
        assert "mc" not in ip.magics_manager.magics["line"]
        assert bridge_threads() == []
    assert not any(port_open(p) for p in ports)


@pytest.mark.slow
def test_terminal_ipython_answers_while_waiting_at_the_prompt(tmp_path: Path) -> None:
    ipython = str(Path(sys.executable).with_name("ipython"))
    child = pexpect.spawn(
        ipython,
        [
            "--simple-prompt",
            "--no-banner",
            "--colors=NoColor",
            f"--ipython-dir={tmp_path}",
            "--HistoryManager.enabled=False",
        ],
        encoding="utf-8",
        timeout=60,
        env={"MCBEWS_PORT": "0", "TERM": "dumb", "PATH": str(Path(sys.executable).parent)},
    )
    try:
        child.expect(r"In \[1\]: ")
        child.sendline("%load_ext mcbews_repl")
        child.expect(r"/connect (127\.0\.0\.1:\d+/\w+)")
        url = "ws://" + child.match.group(1)
        child.expect(r"In \[2\]: ")
        # IPython now sits at its prompt; a game connects and the handshake must complete.
        connected = asyncio.run(connect_and_wait(url))
        assert connected
        child.sendline("print('chat:', [e.summary for e in mc.bridge.events() if e.kind=='chat'])")
        child.expect(r"chat: (.*)\r?\n")
        assert "hello from the game" in child.match.group(1)
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


async def connect_and_wait(url: str) -> bool:
    async with SimWorld(fast=True) as sim:
        await sim.connect(url)
        client = sim.client
        assert client is not None
        for _ in range(200):  # subscribe, then getlocalplayername: the bridge's handshake
            if "PlayerMessage" in client.subscriptions and client.frames_received >= 2:
                sim.run_command("say hello from the game")  # chat while IPython waits
                await asyncio.sleep(0.5)
                return True
            await asyncio.sleep(0.05)
    return False


def test_unload_puts_back_the_exception_handler_that_was_there() -> None:
    ip = shell_instance()
    seen: list[str] = []

    def theirs(shell: Any, etype: Any, value: Any, tb: Any, tb_offset: Any = None) -> None:
        seen.append(type(value).__name__)

    ip.set_custom_exc((KeyError,), theirs)
    before = (ip.custom_exceptions, ip.CustomTB)
    ip.run_line_magic("config", "McbewsRepl.port = 0")
    ip.run_line_magic("load_ext", "mcbews_repl")
    try:
        ip.run_cell("raise KeyError('still theirs while we are loaded')")
        assert seen == ["KeyError"]
    finally:
        ip.run_line_magic("unload_ext", "mcbews_repl")
    assert (ip.custom_exceptions, ip.CustomTB) == before
    ip.set_custom_exc((), None)
