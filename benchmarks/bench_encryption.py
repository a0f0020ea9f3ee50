"""Command round trips with and without ws:encrypt, in one run.

Run: ``.venv/bin/python benchmarks/bench_encryption.py`` (``--help`` for the counts).

One process, one event loop, loopback: two gateways, each with its own simulated game
(``SimWorld(fast=True)`` running the real addon). One pair is plain; in the other the world
requires encryption and the gateway encrypts (AES-256-CFB8, the game's mode). The
measurement alternates blocks between the two pairs so machine noise falls on both alike
(see docs/gateway.md on why). Both sides of the encrypted pair pay the cipher: the
simulated game encrypts and decrypts too, as the real one would.

* command RTT: ``await mc.command("testfor @a")``, one at a time. Target:
  encryption adds at most 25% to the p50.
* capability RTT: ``get_player_snapshot``, for scale (four frames each way per call).
* cipher cost: seal + open of one 250-byte frame with the session cipher alone.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import mcbews_repl
from mcbews_repl.gateway.encryption import SessionCipher
from mcbews_repl.sim import SimWorld

TARGET_OVERHEAD = 0.25  # the target: encryption adds at most 25% to a command round trip
BLOCKS = 10  # alternate this many blocks per pair (docs/gateway.md: interleaving)
FRAME = '{"header":{"requestId":"%s"},"body":{"statusCode":0}}' % ("x" * 200)

Call = Callable[[], Awaitable[object]]


@asynccontextmanager
async def pair(encrypted: bool) -> AsyncIterator[mcbews_repl.Bridge]:
    async with (
        mcbews_repl.serve(port=0, encrypt=encrypted) as mc,
        SimWorld(fast=True, require_encryption=encrypted) as sim,
    ):
        await sim.connect(mc.url)
        connection = await mc.wait_connected(timeout=5)
        assert connection.encrypted is encrypted
        yield mc


async def timed(fn: Call, count: int, into: list[float]) -> None:
    for _ in range(count):
        start = time.perf_counter()
        await fn()
        into.append((time.perf_counter() - start) * 1e6)


async def interleaved(plain: Call, secure: Call, count: int) -> tuple[list[float], list[float]]:
    for fn in (plain, secure):  # warm up both
        await timed(fn, min(50, count), [])
    a: list[float] = []
    b: list[float] = []
    per_block = max(1, count // BLOCKS)
    for _ in range(BLOCKS):
        await timed(plain, per_block, a)
        await timed(secure, per_block, b)
    return a, b


def cipher_cost(count: int) -> float:
    """µs to seal one frame and open it again (two ends sharing a key, as a session does)."""
    key = os.urandom(32)
    sender, receiver = SessionCipher(key), SessionCipher(key)
    start = time.perf_counter()
    for _ in range(count):
        assert receiver.open(sender.seal(FRAME)) is not None
    return (time.perf_counter() - start) / count * 1e6


def p50(samples: list[float]) -> float:
    return statistics.median(samples)


def p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def row(name: str, plain: list[float], secure: list[float]) -> str:
    return (
        f"| {name} | {len(plain)} | {p50(plain):.0f} / {p99(plain):.0f} | "
        f"{p50(secure):.0f} / {p99(secure):.0f} | {p50(secure) / p50(plain):.2f}x |"
    )


async def run(count: int) -> int:
    async with pair(False) as plain, pair(True) as secure:
        command = await interleaved(
            lambda: plain.command("testfor @a"), lambda: secure.command("testfor @a"), count
        )
        call = await interleaved(
            lambda: plain.call("get_player_snapshot", target="Steve"),
            lambda: secure.call("get_player_snapshot", target="Steve"),
            count // 2,
        )
    print("| round trip | n | plain p50 / p99 µs | encrypted p50 / p99 µs | ratio (p50) |")
    print("|---|---|---|---|---|")
    print(row("command `testfor @a`", *command))
    print(row("capability `get_player_snapshot`", *call))
    print(f"\ncipher alone: seal + open of a {len(FRAME)}-byte frame {cipher_cost(20000):.1f} µs")
    overhead = p50(command[1]) / p50(command[0]) - 1
    verdict = "meets" if overhead <= TARGET_OVERHEAD else "MISSES"
    print(f"encryption adds {overhead:+.0%} to the command p50: {verdict} the +25% target")
    return 0 if overhead <= TARGET_OVERHEAD else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--count", type=int, default=2000, help="command round trips")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(run(args.count))


if __name__ == "__main__":
    raise SystemExit(main())
