"""A bridge at a 1,024-descriptor limit (a child process) against 1,100 half-open sockets:
the log holds at most a few accept-error lines, and a right-token game gets in."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_NOFILE is POSIX only"),
]

SOCKETS = 1100
DEADLINE_SECONDS = 60.0  # generous: a busy 2-core machine
# The bridge's side: its descriptors capped, its log on stderr, its URL on stdout, until
# its stdin closes.
CHILD = """
import asyncio, json, logging, resource, sys
resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(message)s")
import mcbews_repl

async def main():
    async with mcbews_repl.serve(port=0, transport="chat", **json.loads(sys.argv[1])) as mc:
        print(mc.url, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

asyncio.run(main())
"""


@contextmanager
def bridge_process(log: Path, **options: Any) -> Iterator[str]:
    """A bridge in a child process, its log written to ``log``; yields its URL."""
    with log.open("w", encoding="utf-8") as err:  # a file: a full pipe would stall the child
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, json.dumps(options)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            encoding="utf-8",
        )
        assert child.stdout is not None
        try:
            yield child.stdout.readline().strip()
        finally:
            child.communicate(timeout=60)


def half_open(port: int, count: int) -> list[socket.socket]:
    """Up to ``count`` TCP connections that send nothing, each one through the kernel's
    handshake before the next is opened. Once the bridge has run out of descriptors and its
    accept queue (``accept_backlog``) is full, the kernel stops answering new ones: the
    first that does not connect within a few seconds ends the opening (the descriptors are
    spent by then)."""
    socks: list[socket.socket] = []
    for _ in range(count):
        try:
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        except TimeoutError:
            break
    return socks


async def connect_within(url: str, deadline: float) -> float:
    """Seconds until a right-token handshake succeeds, trying again as a player would."""
    start = time.monotonic()
    while True:
        try:
            async with connect(url, open_timeout=10):
                return time.monotonic() - start
        except (InvalidHandshake, OSError, TimeoutError):
            if time.monotonic() - start > deadline:
                raise
            await asyncio.sleep(0.2)


def accept_error_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if re.match(r"(ERROR|WARNING|INFO) ", line) and "accept" in line]


def wait_for_line(log: Path, pattern: str, deadline: float = DEADLINE_SECONDS) -> None:
    start = time.monotonic()
    while not re.search(pattern, log.read_text(encoding="utf-8")):
        assert time.monotonic() - start < deadline, f"no {pattern!r} in the log"
        time.sleep(0.05)


def check_log(log: Path) -> list[str]:
    """The accept-error lines, after checking they are few and no traceback was printed."""
    lines = log.read_text(encoding="utf-8").splitlines()
    errors = accept_error_lines(lines)
    assert len(errors) <= 3, errors[:5]
    traced = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    assert not traced, "\n".join(lines[max(traced[0] - 2, 0) : traced[0] + 30])
    return errors


def test_half_open_sockets_at_a_descriptor_limit(tmp_path: Path) -> None:
    log = tmp_path / "bridge.log"
    with bridge_process(log) as url:
        socks = half_open(port_of(url), SOCKETS)
        try:
            waited = asyncio.run(connect_within(url, DEADLINE_SECONDS))
        finally:
            for sock in socks:
                sock.close()
    check_log(log)
    assert waited < DEADLINE_SECONDS


def test_running_out_of_descriptors_is_said_once_with_a_count(tmp_path: Path) -> None:
    log = tmp_path / "bridge.log"
    # No cap below the descriptor limit, and sockets that wait long: accept() fails.
    with bridge_process(log, max_half_open=4000, request_timeout=60.0) as url:
        socks = half_open(port_of(url), SOCKETS)
        try:
            wait_for_line(log, "could not accept")
        finally:
            for sock in socks:  # the peer gives up: descriptors free, accepting resumes
                sock.close()
        waited = asyncio.run(connect_within(url, DEADLINE_SECONDS))
    errors = check_log(log)
    assert re.search(r"Too many open files \(EMFILE\), 1 time so far", errors[0]), errors
    assert waited < DEADLINE_SECONDS


def test_closing_while_accepts_fail_prints_no_traceback(tmp_path: Path) -> None:
    """The bridge stops while it is out of descriptors: asyncio still runs its retries of
    the failed accepts (one per failure, a second later) after the listening socket has
    closed; each used to print a traceback ("Invalid file descriptor: -1")."""
    log = tmp_path / "bridge.log"
    with bridge_process(log, max_half_open=4000, request_timeout=60.0) as url:
        socks = half_open(port_of(url), SOCKETS)
        wait_for_line(log, "could not accept")
        # The bridge closes now (leaving the block), waiting for the half-open sockets,
        # which the peer lets go of a moment later.
        threading.Timer(0.2, lambda: [sock.close() for sock in socks]).start()
    check_log(log)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])
