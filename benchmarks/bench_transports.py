"""The three transports side by side through the simulated world: pull (custom-command
results, the stable pack), chat (the bridge player's whispers, the beta pack) and tags (page
tags on the connected player read with ``tag @s list``, the stable pack, in a world where
neither a custom command's message nor the bridge player's chat comes back).

    make bench-transports  # or: .venv/bin/python benchmarks/bench_transports.py [--quick]

The gateway and the simulated world (the real addon bundle in QuickJS, its clock at the game's
own 20 ticks a second) talk over loopback in one process. Measured for each transport:

* a small capability's round trip (``get_player_snapshot`` of one player), and the two ways
  the pull transport can carry a request: in ``mcbews:ask`` itself when it fits, or as a
  script event then ``mcbews:pull`` when it does not (``describe_entities`` of 3 and of 16
  ids);
* inventory snapshots of 1, 10 and 50 full-inventory players (the world of
  ``bench_answers.py``): one call for every player, and one call per player gathered;
* what a connection costs at idle: the commands it sends per second with nothing to do.

Game ticks are the ticks the world ran from the call to its answer (50 ms each, as in the
game); wall time is what the caller waited, the ticks' time included. (The fast clock of
the tests would count ticks it runs back to back while nothing waits.) Commands are the
commandRequests the bridge sent for the call; chunks are the chat lines the bridge player
sent. The UI chat poller is off while calls are measured, so its commands are not counted
there, and measured on its own at idle.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
from contextlib import asynccontextmanager
from typing import Any

import docs_page
from bench_answers import (
    ASKING_LABELS,
    CALL_TIMEOUT_S,
    PLAYER_COUNTS,
    TICK_MS,
    Outcome,
    timed,
    ways_of_asking,
    world_of,
)
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.sim import SimWorld, WorldState

# Each transport with the pack and world it needs, and the bridge set to use it.
TRANSPORTS: dict[str, dict[str, Any]] = {
    "pull": {"pack": "stable", "beta_apis": False},
    "chat": {"pack": "beta", "beta_apis": True},
    "tags": {
        "pack": "stable",
        "beta_apis": False,
        "report_custom_command_messages": False,
        "report_simulated_chat": False,
    },
}
NO_POLLING_S = 3600.0  # the poller's interval while calls are measured: off, in effect
IDLE_SECONDS = 5.0  # how long a connection is watched doing nothing
SMALL_CALLS = 100  # round trips per small-call row (each waits for its ticks: ~0.1 s)


@asynccontextmanager
async def linked(transport: str, world: WorldState, poll_interval: float = NO_POLLING_S) -> Any:
    async with (
        mcbews_repl.serve(
            port=0,
            call_timeout=CALL_TIMEOUT_S,
            transport=transport,
            poll_interval=poll_interval,
        ) as mc,
        SimWorld(world, clock="realtime", **TRANSPORTS[transport]) as sim,
    ):
        await sim.connect(mc.url)
        connection = await mc.wait_connected(timeout=10)
        assert connection.transport == transport, connection.transport_verdicts
        await mc.call("list_capabilities")  # warm up the path (and the chat bridge player)
        yield mc, sim, connection


# --- what is measured ------------------------------------------------------------------------


def _ids(count: int) -> list[str]:
    return [str(-4294967295 - n) for n in range(count)]


SMALL: dict[str, tuple[str, dict[str, Any]]] = {
    "get_player_snapshot of one player": ("get_player_snapshot", {"target": "Steve"}),
    "describe_entities, 3 ids (pull: in mcbews:ask)": ("describe_entities", {"ids": _ids(3)}),
    "describe_entities, 16 ids (pull: script event + mcbews:pull)": (
        "describe_entities",
        {"ids": _ids(16)},
    ),
}


async def small_calls(transport: str, calls: int) -> dict[str, list[Outcome]]:
    got: dict[str, list[Outcome]] = {}
    async with linked(transport, world_of(2)) as (mc, sim, connection):
        for label, (capability, payload) in SMALL.items():

            async def one(cap: str = capability, args: dict[str, Any] = payload) -> list[Any]:
                return await asyncio.gather(mc.call(cap, args), return_exceptions=True)

            got[label] = [await timed(sim, one, connection) for _ in range(calls)]
    return got


async def snapshots(transport: str, players: int, rounds: int) -> dict[str, list[Outcome]]:
    got: dict[str, list[Outcome]] = {"all": [], "fanout": [], "inventory": []}
    world = world_of(players)
    names = list(world.players)  # before the beta pack's bridge player joins them
    async with linked(transport, world) as (mc, sim, connection):
        asking = ways_of_asking(mc, names)
        for _ in range(rounds):
            for how, ask in asking.items():
                got[how].append(await timed(sim, ask, connection))
    return got


async def idle(transport: str) -> tuple[float, float]:
    """Commands per second and game ticks per second a connection costs doing nothing."""
    async with linked(transport, world_of(2), poll_interval=0.25) as (_, sim, connection):
        await asyncio.sleep(1.0)  # past the connect's own traffic
        sent0, tick0 = connection.stats()["frames_out"], sim.clock.tick
        start = time.perf_counter()
        await asyncio.sleep(IDLE_SECONDS)
        took = time.perf_counter() - start
        sent = connection.stats()["frames_out"] - sent0
        return sent / took, (sim.clock.tick - tick0) / took


# --- the tables ------------------------------------------------------------------------------


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _wall(runs: list[Outcome]) -> str:
    walls = sorted(r.wall_s * 1000 for r in runs)
    p99 = walls[min(len(walls) - 1, round(0.99 * (len(walls) - 1)))]
    return f"{_median(walls):.2f} / {p99:.2f}"


def _outcome(runs: list[Outcome], calls_each: int) -> str:
    ok, total = sum(r.ok for r in runs), calls_each * len(runs)
    if ok == total:
        return "ok"
    reasons = "; ".join(sorted({f for r in runs for f in r.failures}))
    return f"**FAILED** {total - ok} of {total}: {reasons}"


def _traffic(transport: str, runs: list[Outcome]) -> str:
    commands = _median([r.commands for r in runs])
    if transport == "chat":
        return f"{commands:.0f} + {_median([r.chunks for r in runs]):.0f} chunks"
    return f"{commands:.0f}"


def small_rows(results: dict[str, dict[str, list[Outcome]]]) -> list[str]:
    rows = []
    for label in SMALL:
        for transport, got in results.items():
            runs = got[label]
            ticks = _median([r.ticks for r in runs])
            rows.append(
                f"| {label} | {transport} | {_outcome(runs, 1)} | {ticks:.0f} "
                f"({ticks * TICK_MS:.0f} ms) | {_wall(runs)} | {_traffic(transport, runs)} |"
            )
    return rows


def snapshot_rows(results: dict[str, dict[int, dict[str, list[Outcome]]]]) -> list[str]:
    rows = []
    for players in PLAYER_COUNTS:
        for how in ("all", "fanout", "inventory"):
            for transport, by_size in results.items():
                runs = by_size[players][how]
                calls = players if how == "fanout" else 1
                label = ASKING_LABELS[how].format(calls=calls, s="s" * (calls > 1))
                ticks = _median([r.ticks for r in runs])
                size = _median([r.result_bytes for r in runs]) / 1024
                rows.append(
                    f"| {players} | {label} | {transport} | {_outcome(runs, calls)} | "
                    f"{ticks:.0f} ({ticks * TICK_MS:,.0f} ms) | {_wall(runs)} | "
                    f"{_traffic(transport, runs)} | {size:.1f} |"
                )
    return rows


INTRO = """## Transports side by side: pull, chat and tags

`make bench-transports` runs `benchmarks/bench_transports.py` (`--quick` for a short look).
The gateway and the simulated world (the real addon in QuickJS, its clock at the game's 20
ticks a second) run in one process. *pull*: the stable pack in a world without Beta APIs,
answers as custom-command results ([protocol.md](protocol.md#the-pull-transport)); *chat*:
the beta pack with Beta APIs, answers as the bridge player's `tell` lines; *tags*: the stable
pack in a world where neither of those comes back, answers as page tags on the connected
player read with `tag @s list` ([protocol.md](protocol.md#the-tags-transport)). Game ticks are the
ticks the world ran from the call to its answer (50 ms each); wall time is what the caller
waited (median / p99), the ticks included, so it is mostly game time. Commands are the
commandRequests the bridge sent for the call (the UI chat poller is off while calls are
measured); for chat, also the chunk lines the bridge player sent. Answer KiB is the size of
the results as Python holds them. The snapshots' world is `bench_answers.py`'s: every
player's 36 inventory and 5 equipment slots full, about 4 KB of answer each. Tags carries a
page of 156 bytes as a 208-character tag and shows 32 at a time, so a large answer takes a
round (an ack and a read, one tick) per 5 KB: about as slow as chat for 50 inventories,
8 times slower than pull, and its idle reads cost about what pull's polls do.
"""


def page(
    small: dict[str, dict[str, list[Outcome]]],
    snaps: dict[str, dict[int, dict[str, list[Outcome]]]],
    idle_costs: dict[str, tuple[float, float]],
    rounds: int,
    calls: int,
    load: str,
) -> str:
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}; {calls} round trips per small-call "
        f"row, {rounds} round{'s' * (rounds > 1)} per snapshot row",
        f"- **Load: {load}.** Wall times on a shared machine are not comparable with a quiet "
        "one's; ticks, commands and chunks do not depend on the load.",
        "",
        "#### A small capability",
        "",
        "| call | transport | outcome | game ticks (game time) | wall ms p50 / p99 | commands |",
        "|---|---|---|---|---|---|",
        *small_rows(small),
        "",
        "#### Inventory snapshots of full inventories",
        "",
        "| players | how | transport | outcome | game ticks (game time) | wall ms p50 / p99 "
        "| commands | answer KiB |",
        "|---|---|---|---|---|---|---|---|",
        *snapshot_rows(snaps),
        "",
        "#### At idle",
        "",
        "| transport | commands per second | game ticks per second |",
        "|---|---|---|",
        *(f"| {t} | {c:.1f} | {k:.1f} |" for t, (c, k) in idle_costs.items()),
    ]
    return "\n".join(lines) + "\n"


async def measure(rounds: int, calls: int) -> tuple[Any, Any, Any]:
    small = {t: await small_calls(t, calls) for t in TRANSPORTS}
    snaps: dict[str, dict[int, dict[str, list[Outcome]]]] = {t: {} for t in TRANSPORTS}
    for players in PLAYER_COUNTS:
        for transport in TRANSPORTS:
            snaps[transport][players] = await snapshots(transport, players, rounds)
    idle_costs = {t: await idle(t) for t in TRANSPORTS}
    return small, snaps, idle_costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few rounds; prints, writes no page")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per snapshot row (5)")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    rounds = args.rounds or (1 if args.quick else 5)
    calls = 10 if args.quick else SMALL_CALLS
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)  # failures are in the table
    meter = LoadMeter.start()
    small, snaps, idle_costs = asyncio.run(measure(rounds, calls))
    text = page(small, snaps, idle_costs, rounds, calls, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("transports", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'transports')")


if __name__ == "__main__":
    main()
