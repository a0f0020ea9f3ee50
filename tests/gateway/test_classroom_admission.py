"""Admission on a classroom network, over real sockets from many loopback source addresses
(on Linux any 127.x.y.z can be a client's source address): one wrong-token budget across all
addresses, addresses that proved the token served through any flood, a per-address cap on
open games, and every refusal in the event log with its reason."""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AsyncExitStack

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidStatus

from mcbews_repl import Bridge, serve
from mcbews_repl.limits import (
    HANDSHAKE_FAILURE_BURST_ALL,
    HANDSHAKE_FAILURES_PER_SECOND_ALL,
    MAX_CONNECTIONS_PER_ADDRESS,
)

from .conftest import FAST, until
from .fakegame import FakeGame

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="binding 127.x.y.z source addresses is a Linux facility"
)


def wrong_url(mc: Bridge) -> str:
    return mc.url.rsplit("/", 1)[0] + "/0badc0de"


def stranger(k: int) -> str:
    """The k-th of many loopback source addresses (127.0.1.2 onwards)."""
    return f"127.0.{k // 250 + 1}.{k % 250 + 2}"


async def knock(url: str, source: str) -> tuple[int, str]:
    """One opening handshake from ``source``: its HTTP status and body (101: it opened;
    0: the server closed the socket without an HTTP answer)."""
    try:
        async with connect(url, local_addr=(source, 0), open_timeout=30):
            return 101, ""
    except InvalidStatus as exc:
        return exc.response.status_code, exc.response.body.decode(errors="replace")
    except (InvalidHandshake, OSError):
        return 0, ""


async def flood(url: str, sources: list[str], stop: asyncio.Event, parallel: int) -> Counter[int]:
    """Wrong-token handshakes from ``sources`` in turn, ``parallel`` at once, until ``stop``."""
    answers: Counter[int] = Counter()

    async def one(lane: int) -> None:
        turn = lane
        while not stop.is_set():
            status, _ = await knock(url, sources[turn % len(sources)])
            answers[status] += 1
            turn += parallel

    await asyncio.gather(*(one(lane) for lane in range(parallel)))
    return answers


async def test_wrong_tokens_from_many_addresses_share_one_budget(mc: Bridge) -> None:
    url = wrong_url(mc)
    gate = asyncio.Semaphore(40)  # a steady crowd, not one burst the half-open cap would cut

    async def guess(source: str) -> int:
        async with gate:
            return (await knock(url, source))[0]

    start = time.monotonic()
    # 300 addresses, 3 guesses each: every address stays inside its own burst of 10.
    answers = await asyncio.gather(*(guess(stranger(k)) for k in range(300) for _ in range(3)))
    elapsed = time.monotonic() - start
    checked = answers.count(403)
    assert checked <= HANDSHAKE_FAILURE_BURST_ALL + HANDSHAKE_FAILURES_PER_SECOND_ALL * elapsed + 1
    assert answers.count(429) == len(answers) - checked  # the rest refused, unchecked
    assert mc.counters["refused:throttled_all"] == answers.count(429)
    assert mc.counters["refused:wrong_token"] == checked


async def prove(mc: Bridge, home: str) -> None:
    """A game connects from ``home`` with the right token, then leaves."""
    async with FakeGame(mc.url, local_address=home):
        await mc.wait_connected(timeout=10)
    await until(lambda: not mc.connections)


async def connects_during(
    mc: Bridge, home: str, sources: list[str], parallel: int, flooding: Callable[[], bool]
) -> Counter[int]:
    """Flood wrong tokens from ``sources``; once ``flooding()`` says the budgets are spent,
    a game from ``home`` connects three times. The flood's answers."""
    stop = asyncio.Event()
    guesses = asyncio.ensure_future(flood(wrong_url(mc), sources, stop, parallel))
    try:
        await until(flooding, timeout=60)
        for _ in range(3):
            async with FakeGame(mc.url, local_address=home):
                await until(lambda: len(mc.connections) == 1)
            await until(lambda: not mc.connections)
    finally:
        stop.set()
        answers = await guesses
    return answers


async def test_a_game_connects_through_a_flood_from_its_own_address(mc: Bridge) -> None:
    home = "127.0.0.7"  # a student machine: its game and a guesser share the address
    await prove(mc, home)
    # Well past the address's own burst: strangers would be refused unchecked by now.
    answers = await connects_during(
        mc, home, [home], 32, lambda: mc.counters["refused:wrong_token"] >= 40
    )
    assert answers[101] == 0 and answers[403] >= 40


async def test_a_proven_address_is_served_while_strangers_flood(mc: Bridge) -> None:
    home = "127.0.0.8"
    await prove(mc, home)
    crowd = [stranger(k) for k in range(200)]
    await connects_during(mc, home, crowd, 24, lambda: mc.counters["refused:throttled_all"] >= 50)


async def test_one_address_holds_at_most_its_share_of_the_games() -> None:
    async with serve(port=0, **FAST) as mc, AsyncExitStack() as stack:
        source = "127.0.0.9"
        for k in range(MAX_CONNECTIONS_PER_ADDRESS):
            await stack.enter_async_context(FakeGame(mc.url, player=f"P{k}", local_address=source))
        await until(lambda: len(mc.connections) == MAX_CONNECTIONS_PER_ADDRESS)
        status, text = await knock(mc.url, source)
        assert status == 429
        assert f"{MAX_CONNECTIONS_PER_ADDRESS} games from 127.0.0.9" in text
        assert "max_connections_per_address" in text
        (entry,) = [e for e in mc.events() if e.data.get("reason") == "max_connections_per_address"]
        assert entry.kind == "refused" and "127.0.0.9" in entry.summary
        # Another machine still gets in, and this machine's own address (loopback, where
        # the simulated class and tests connect from) is not held to the share.
        await stack.enter_async_context(FakeGame(mc.url, player="Q", local_address="127.0.0.10"))
        for k in range(MAX_CONNECTIONS_PER_ADDRESS + 1):
            await stack.enter_async_context(FakeGame(mc.url, player=f"L{k}"))
        await until(lambda: len(mc.connections) == 2 * MAX_CONNECTIONS_PER_ADDRESS + 2)
        assert (await mc.command("say still served", connection=mc.connections[0])).ok


async def test_every_refusal_is_in_the_event_log_with_its_reason() -> None:
    options = {"max_connections": 2, "handshake_failure_burst": 1, "handshake_max_delay": 0.1}
    async with serve(port=0, **FAST, **options) as mc, AsyncExitStack() as stack:
        url, wrong = mc.url, wrong_url(mc)
        for k in range(2):
            await stack.enter_async_context(FakeGame(url, player=f"P{k}"))
        await until(lambda: len(mc.connections) == 2)
        await knock(wrong, "127.0.0.11")  # wrong_token
        await asyncio.gather(*(knock(wrong, "127.0.0.12") for _ in range(6)))  # throttled
        await asyncio.gather(*(knock(wrong, stranger(k)) for k in range(60)))  # throttled_all
        # This machine's games proved the token: its third is checked and finds no room.
        assert (await knock(url, "127.0.0.1"))[0] == 503  # max_connections
        reasons = {"wrong_token", "throttled", "throttled_all", "max_connections"}
        assert reasons <= {k.removeprefix("refused:") for k, n in mc.counters.items() if n}
        await until(lambda: reasons <= {e.data.get("reason") for e in mc.events()})
        for entry in mc.events():
            if entry.kind == "refused":
                assert entry.data.get("reason") and entry.data.get("peer"), entry
        # A flood's refusals are counted in summaries, not written one by one.
        assert len([e for e in mc.events() if e.kind == "refused"]) < 12


# Budgets that one wrong token spends for a quarter of an hour: whatever comes next is
# decided by the rules, not by how fast this machine is.
SPENT_AT_ONCE = {
    "handshake_failure_burst": 1,
    "handshake_failures_per_second": 0.001,
    "handshake_max_delay": 0.1,
    "handshake_failure_burst_all": 1,
    "handshake_failures_per_second_all": 0.001,
}


@pytest.mark.parametrize("ttl", [3600.0, 0.0], ids=["proven", "standing turned off"])
async def test_a_right_token_from_a_guessing_address_is_checked_once_it_proved(ttl: float) -> None:
    async with serve(port=0, **FAST, **SPENT_AT_ONCE, proven_address_ttl=ttl) as mc:
        home = "127.0.0.24"
        await prove(mc, home)
        assert (await knock(wrong_url(mc), home))[0] == 403  # its budget, spent
        assert (await knock(wrong_url(mc), stranger(1)))[0] in (403, 429)  # everyone's too
        status, text = await knock(mc.url, home)
        if ttl:
            assert status == 101
        else:  # every address held to the budgets: the game waits out its own flood
            assert status == 429 and "from this address" in text


async def test_an_address_whose_game_is_connected_stays_proven_past_the_ttl() -> None:
    async with serve(port=0, **FAST, **SPENT_AT_ONCE, proven_address_ttl=0.2) as mc:
        home = "127.0.0.25"
        async with FakeGame(mc.url, local_address=home, player="A"):
            await mc.wait_connected(timeout=10)
            await until(lambda: not mc._admission.proven.holds(home, time.monotonic()))
            await knock(wrong_url(mc), stranger(2))  # the strangers' budget, spent
            assert (await knock(wrong_url(mc), stranger(3)))[0] == 429
            async with FakeGame(mc.url, local_address=home, player="B"):
                await until(lambda: len(mc.connections) == 2)


async def test_past_the_shared_budget_a_stranger_is_answered_429_before_it_asks() -> None:
    """Once the strangers' budget is spent, a socket is answered HTTP 429 as soon as it is
    accepted: the bridge parses nothing of a flood it would refuse anyway."""
    # The budget refills at a thousandth of a check a second: on a slow machine the knocks
    # below must not earn the stranger a check (it then waited, unanswered, and was closed).
    async with serve(port=0, **FAST, handshake_failures_per_second_all=0.001) as mc:
        wrong = wrong_url(mc)
        for k in range(HANDSHAKE_FAILURE_BURST_ALL + 5):
            await knock(wrong, stranger(k))
        port = int(mc.url.rsplit(":", 1)[1].split("/", 1)[0])
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=(stranger(400), 0)
        )
        try:
            async with asyncio.timeout(30):
                head = await reader.readuntil(b"\r\n\r\n")  # nothing was sent: no request
            body = await reader.read()
        finally:
            writer.close()
        assert head.startswith(b"HTTP/1.1 429 Too Many Requests\r\n")
        assert b"Retry-After: " in head
        assert b"from all addresses together" in body
        assert mc.counters["refused:throttled_all"] >= 1
