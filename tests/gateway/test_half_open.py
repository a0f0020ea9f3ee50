"""Sockets that have not finished the opening handshake: capped in all and per address,
closed if their request does not come in time, never a traceback per failed accept."""

from __future__ import annotations

import asyncio
import errno
import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from mcbews_repl import Bridge, serve
from mcbews_repl.limits import MAX_HALF_OPEN_PER_ADDRESS

from .conftest import FAST, until
from .fakegame import FakeGame

LINUX = sys.platform == "linux"
# What asyncio logs for each failed accept() (selector_events.py, 3.11 to 3.13).
ACCEPT_FAILED = "socket.accept() out of system resource"
HALF_A_REQUEST = b"GET /0badc0de HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: webs"


@contextmanager
def raw_sockets(port: int, sources: list[str], send: bytes = b"") -> Iterator[list[socket.socket]]:
    """TCP connections to the bridge that send ``send`` (maybe nothing) and then wait."""
    opened = []
    try:
        for source in sources:
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=30, source_address=(source, 0)
            )
            sock.setblocking(False)
            if send:
                sock.sendall(send)
            opened.append(sock)
        yield opened
    finally:
        for sock in opened:
            sock.close()


def closed_by_server(sock: socket.socket) -> bool:
    """True once the bridge has closed its end (EOF or reset), without blocking."""
    try:
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def count_closed(socks: list[socket.socket]) -> int:
    return sum(1 for s in socks if closed_by_server(s))


@pytest.mark.skipif(not LINUX, reason="binding 127.x.y.z source addresses is a Linux facility")
async def test_half_open_sockets_are_capped_per_address(mc: Bridge) -> None:
    extra = 12
    sources = ["127.0.0.20"] * (MAX_HALF_OPEN_PER_ADDRESS + extra)
    with raw_sockets(mc.port, sources) as socks:
        # The ones beyond the cap are closed at once, before any timeout could fire.
        await until(lambda: mc.counters["refused:max_half_open_per_address"] == extra)
        await until(lambda: count_closed(socks) >= extra)
        refused = [e for e in mc.events() if e.data.get("reason") == "max_half_open_per_address"]
        assert refused and "127.0.0.20" in refused[0].summary
        # Another address still gets in, and a game from it connects.
        async with FakeGame(mc.url, local_address="127.0.0.21"):
            await mc.wait_connected(timeout=10)


async def test_half_open_sockets_are_capped_in_all() -> None:
    async with serve(port=0, **FAST, max_half_open=10, request_timeout=60) as mc:
        with raw_sockets(mc.port, ["127.0.0.1"] * 25) as socks:
            await until(lambda: mc.counters["refused:max_half_open"] == 15)
            await until(lambda: count_closed(socks) >= 15)
            assert mc.counters["refused:request_timeout"] == 0  # none has timed out yet
            (entry, *_) = [e for e in mc.events() if e.data.get("reason") == "max_half_open"]
            assert "10 connections have not finished" in entry.summary


@pytest.mark.skipif(not LINUX, reason="binding 127.x.y.z source addresses is a Linux facility")
async def test_strangers_holding_sockets_open_cannot_keep_a_known_game_out() -> None:
    async with serve(port=0, **FAST, max_half_open=10, request_timeout=60) as mc:
        known = "127.0.0.22"
        async with FakeGame(mc.url, local_address=known):  # it proves the token
            await mc.wait_connected(timeout=10)
        await until(lambda: not mc.connections)
        strangers = [f"127.0.1.{k}" for k in range(2, 22)]
        with raw_sockets(mc.port, strangers) as socks:
            await until(lambda: mc.counters["refused:max_half_open"] == 10)
            await until(lambda: count_closed(socks) >= 10)
            async with FakeGame(mc.url, local_address=known):  # the room strangers cannot use
                await mc.wait_connected(timeout=10)
            assert mc.counters["refused:max_half_open"] == 10


@pytest.mark.parametrize("send", [b"", HALF_A_REQUEST], ids=["nothing", "half a request"])
async def test_a_socket_that_does_not_send_its_request_in_time_is_closed(send: bytes) -> None:
    async with serve(port=0, **FAST, request_timeout=0.3) as mc:
        with raw_sockets(mc.port, ["127.0.0.1"] * 3, send) as socks:
            await until(lambda: count_closed(socks) == 3)
            assert mc.counters["refused:request_timeout"] == 3
            await until(lambda: any(e.data.get("reason") == "request_timeout" for e in mc.events()))
        # The slots are free again: a game connects.
        async with FakeGame(mc.url):
            await mc.wait_connected(timeout=10)


async def test_a_game_connects_while_half_open_sockets_wait(mc: Bridge) -> None:
    with raw_sockets(mc.port, ["127.0.0.1"] * 20, HALF_A_REQUEST):
        async with FakeGame(mc.url):
            await mc.wait_connected(timeout=10)
        assert mc.counters["refused:request_timeout"] == 0


async def test_failed_accepts_are_counted_and_said_once(caplog: pytest.LogCaptureFixture) -> None:
    """asyncio reports each failed accept() through the loop's exception handler (up to 100
    times a turn); the bridge counts its own and passes every other report on."""
    loop = asyncio.get_running_loop()
    passed_on: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: passed_on.append(context))
    try:
        async with serve(port=0, **FAST) as mc:
            assert mc._server is not None
            (listening, *_) = mc._server.sockets
            emfile = OSError(errno.EMFILE, os.strerror(errno.EMFILE))
            for _ in range(500):
                loop.call_exception_handler(
                    {"message": ACCEPT_FAILED, "exception": emfile, "socket": listening}
                )
            loop.call_exception_handler({"message": "something else"})
            assert mc.counters["refused:accept_error"] == 500
            lines = [r.getMessage() for r in caplog.records if "accept" in r.getMessage()]
            assert lines == [
                "refused (accept_error): could not accept a connection: Too many open files "
                "(EMFILE), 1 time so far; asyncio tries again each second"
            ]
            assert [c["message"] for c in passed_on] == ["something else"]
            async with FakeGame(mc.url):
                await mc.wait_connected(timeout=10)
        # Stopping writes the count still owed, and gives the loop its handler back.
        (summary,) = [e for e in mc.events() if e.summary.startswith("499 more refused")]
        assert summary.data["reason"] == "accept_error"
        assert loop.get_exception_handler() is not None
        loop.call_exception_handler({"message": ACCEPT_FAILED, "socket": listening})
        assert len(passed_on) == 2
    finally:
        loop.set_exception_handler(None)
