"""The loop's exception handler while the bridge listens (AcceptErrors): failed accepts are
counted, and asyncio's late retries of them, after the socket closed, are silenced even
once the bridge has stopped and the loop runs on (a notebook's kernel)."""

from __future__ import annotations

import asyncio
import errno
import socket
from collections import Counter
from typing import Any

from mcbews_repl.gateway import EventLog
from mcbews_repl.gateway.refusals import Refusals
from mcbews_repl.gateway.sockets import AcceptErrors


def failed_accept(sock: socket.socket) -> dict[str, Any]:
    return {
        "message": "socket.accept() out of system resource",
        "exception": OSError(errno.EMFILE, "Too many open files"),
        "socket": sock,
    }


def stale_retry(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> dict[str, Any]:
    """What asyncio reports when its retry runs after ``sock`` closed."""
    retry = getattr(loop, "_start_serving")  # noqa: B009 - the loop's own retry, by name
    handle = asyncio.TimerHandle(0.0, retry, (object(), sock), loop)
    return {
        "message": f"Exception in callback {handle}",
        "exception": ValueError("Invalid file descriptor: -1"),
        "handle": handle,
    }


def test_a_retry_after_the_bridge_stopped_is_silenced_then_the_handler_goes_back() -> None:
    seen: list[dict[str, Any]] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: seen.append(context))
        errors = AcceptErrors(Refusals(EventLog(), Counter()))
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            errors.install(loop, [sock])
            loop.call_exception_handler(failed_accept(sock))
            assert errors.count == 1 and not seen
            sock.close()
            errors.uninstall()  # the bridge stopped; its retries are still due
            loop.call_exception_handler(stale_retry(loop, sock))
            assert not seen  # silenced
            other = {"message": "something else", "exception": ValueError("x")}
            loop.call_exception_handler(other)
            assert seen == [other]  # everything else still reaches the previous handler
            deadline = loop.time() + 30  # given back once the retries are past (2 s)
            while getattr(loop.get_exception_handler(), "__self__", None) is errors:
                assert loop.time() < deadline, "the handler was never given back"
                await asyncio.sleep(0.05)
            assert loop.get_exception_handler() is not None  # the previous one, back

    asyncio.run(scenario())


def test_without_a_recent_failure_the_handler_goes_back_at_once() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        errors = AcceptErrors(Refusals(EventLog(), Counter()))
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            errors.install(loop, [sock])
            assert getattr(loop.get_exception_handler(), "__self__", None) is errors
            errors.uninstall()
            assert loop.get_exception_handler() is None

    asyncio.run(scenario())
