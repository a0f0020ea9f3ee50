"""Capability round trips through the simulated world, beside plain command round trips.

Run: ``.venv/bin/python benchmarks/bench_sim.py`` (``--help`` for the sample count).

One process, one event loop: the gateway (``mcbews_repl.serve``) and the simulated game
(``SimWorld(fast=True)`` running the real addon bundle in QuickJS) talk over loopback.
``--transport pull`` (the default: the stable pack) or ``chat`` (the beta pack with Beta
APIs, the chat transport set).

* command RTT: ``await mc.command("testfor @a")``, one at a time.
* capability RTT: ``await mc.call("get_player_snapshot", target="Steve")``. Pull: one
  ``mcbews:ask`` answered in its own result. Chat: a scriptevent down, the addon's router
  and capability in QuickJS, ``tell @s`` chunks back (2 chunks for this answer),
  reassembly. Target: at most 10x the command RTT.
* inventory RTT: ``get_inventory_snapshot`` for every player, a bigger answer (2 pages, or
  about 8 chunks).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
from collections.abc import Awaitable, Callable

import mcbews_repl
from mcbews_repl.sim import SimWorld

TARGET_RATIO = 10.0  # the target: a capability round trip costs at most 10x a command


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(fn: Callable[[], Awaitable[object]], count: int) -> list[float]:
    for _ in range(min(50, count)):  # warm up: JIT-free, but caches and the loop settle
        await fn()
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1000.0)
    return samples


def row(name: str, samples: list[float], base: float | None) -> str:
    p50, p99 = statistics.median(samples), percentile(samples, 0.99)
    ratio = f"{p50 / base:.1f}x" if base else "1.0x"
    return f"| {name} | {len(samples)} | {p50:.3f} | {p99:.3f} | {ratio} |"


WORLDS = {
    "pull": {"pack": "stable", "beta_apis": False},
    "chat": {"pack": "beta", "beta_apis": True},
}


async def run(count: int, transport: str) -> int:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0, transport=transport) as mc,
        SimWorld(fast=True, **WORLDS[transport]) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        command = await measure(lambda: mc.command("testfor @a"), count)
        player = await measure(lambda: mc.call("get_player_snapshot", target="Steve"), count)
        inventory = await measure(lambda: mc.call("get_inventory_snapshot"), count)
    base = statistics.median(command)
    print("| round trip | n | p50 ms | p99 ms | p50 vs command |")
    print("|---|---|---|---|---|")
    print(row("command `testfor @a`", command, None))
    print(row("capability `get_player_snapshot`", player, base))
    print(row("capability `get_inventory_snapshot` (all)", inventory, base))
    ratio = statistics.median(player) / base
    verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
    print(f"\ncapability/command p50 ratio {ratio:.1f}x: {verdict} the {TARGET_RATIO:g}x target")
    return 0 if ratio <= TARGET_RATIO else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--count", type=int, default=500, help="samples per round trip")
    parser.add_argument("--transport", choices=list(WORLDS), default="pull")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    return asyncio.run(run(args.count, args.transport))


if __name__ == "__main__":
    raise SystemExit(main())
