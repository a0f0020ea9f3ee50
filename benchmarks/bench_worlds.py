"""A classroom at scale: 1, 10, 30 and 50 simulated worlds connected to one bridge at once.

    make bench-worlds  # or: .venv/bin/python benchmarks/bench_worlds.py [--quick] [--help]

The bridge and ``mc`` (``mcbews_repl.start()``: the notebook's handle on its own thread)
run in this process; the simulated worlds (``mc.simulate(worlds=N)``'s worlds: one student
each, a starter kit, the real addon in QuickJS, the game's real-time clock of 20 ticks a
second) run in two child processes, so that what is measured here is the bridge's share.
For each class size:

* ``mc.each.players()`` and ``mc.each.inventory()``: the time for the whole table, p50 and
  p95 over the rounds;
* commands per second across all worlds: rounds of ``mc.each.command("testfor @a")``;
* the bridge's memory per connected world: this process's resident set and its Python heap
  (tracemalloc) after the worlds connected and answered once, less before, divided by N.

Targets: ``mc.each.inventory()`` over 30 worlds within 3x the time of one world;
under 2 MiB of bridge memory per connected world.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import docs_page
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.repl.handle import class_names, classroom_world
from mcbews_repl.sim import SimWorld

if TYPE_CHECKING:
    import pandas as pd

    from mcbews_repl.repl.handle import Minecraft
    from mcbews_repl.repl.runtime import Pending

CLASS_SIZES = (1, 10, 30, 50)
SIM_PROCESSES = 2  # the worlds' QuickJS ticks share the machine's two cores
READY_TIMEOUT_S = 180.0
MIB = 1 << 20
# The bridge takes 32 games unless told (limits.py); the largest class here is 50.
MAX_WORLDS = 64
# --notebook-worlds: the worlds are mc.simulate(worlds=N)'s, in this process, each on a thread
# of its own; the memory and CPU figures then include the worlds' own.
NOTEBOOK_WORLDS = False


# --- the worlds' side (a child process) -----------------------------------------------------


async def host_worlds(url: str, first: int, count: int, total: int) -> None:
    """Connect worlds ``first`` .. ``first + count - 1`` of a class of ``total``; say so on
    stdout, then keep them running until stdin closes (the parent ends the run)."""
    names = class_names(total)[first : first + count]
    sims = [SimWorld(classroom_world([name], seed), seed=seed)
            for seed, name in enumerate(names, start=first + 1)]  # fmt: skip
    for sim in sims:
        await sim.connect(url)
    print("connected", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await asyncio.gather(*(sim.close() for sim in sims), return_exceptions=True)


def start_worlds(url: str, total: int) -> list[subprocess.Popen[str]]:
    share = -(-total // SIM_PROCESSES)
    children = []
    for first in range(0, total, share):
        count = min(share, total - first)
        argv = [sys.executable, __file__, "--host-worlds", url, str(first), str(count),
                str(total)]  # fmt: skip
        children.append(subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True))  # fmt: skip
    for child in children:
        assert child.stdout is not None
        if child.stdout.readline().strip() != "connected":
            raise RuntimeError("a world process did not connect its worlds")
    return children


def stop_worlds(children: list[subprocess.Popen[str]]) -> None:
    for child in children:
        assert child.stdin is not None
        child.stdin.close()
    for child in children:
        try:
            child.wait(30)
        except subprocess.TimeoutExpired:
            child.kill()


# --- measuring ------------------------------------------------------------------------------


def resident_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * 4096


@dataclass
class Size:
    worlds: int
    players_ms: list[float] = field(default_factory=list)
    inventory_ms: list[float] = field(default_factory=list)
    commands_per_s: float = 0.0
    inventory_cpu_ms: float = 0.0  # this process's CPU time (all threads) per each.inventory
    rss_per_world: float = 0.0
    heap_per_world: float = 0.0
    failed: list[str] = field(default_factory=list)


def wait_ready(mc: Minecraft, worlds: int) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        ready = [c for c in mc.bridge.connections if c.transport == "pull"]
        if len(ready) >= worlds:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"only {len(ready)} of {worlds} worlds ready")
        time.sleep(0.05)


def timed_ms(pending_of: Callable[[], Pending[pd.DataFrame]], size: Size) -> float:
    start = time.perf_counter()
    frame = pending_of().result(120)
    elapsed = (time.perf_counter() - start) * 1000
    errors = frame["error"].dropna()
    size.failed += [f"{w}: {e}" for w, e in zip(frame.loc[errors.index, "world"], errors,
                                                strict=True)]  # fmt: skip
    return elapsed


def measure(worlds: int, rounds: int, command_rounds: int) -> Size:
    size = Size(worlds)
    gc.collect()
    tracemalloc.start()
    rss0, heap0 = resident_bytes(), tracemalloc.get_traced_memory()[0]
    with mcbews_repl.start(port=0, max_connections=MAX_WORLDS) as mc:
        if NOTEBOOK_WORLDS:  # mc.simulate's own: in this process, a thread each
            mc.simulate(worlds=worlds).result(READY_TIMEOUT_S)
            children = []
        else:
            children = start_worlds(mc.url, worlds)
        try:
            wait_ready(mc, worlds)
            mc.each.inventory().result(120)  # each world answered once: its state is built
            gc.collect()
            size.rss_per_world = (resident_bytes() - rss0) / worlds
            size.heap_per_world = (tracemalloc.get_traced_memory()[0] - heap0) / worlds
            tracemalloc.stop()
            for _ in range(rounds):
                size.players_ms.append(timed_ms(mc.each.players, size))
                cpu = time.process_time()
                size.inventory_ms.append(timed_ms(mc.each.inventory, size))
                size.inventory_cpu_ms += (time.process_time() - cpu) * 1000 / rounds
            size.commands_per_s = command_rate(mc, worlds, command_rounds, size)
        finally:
            stop_worlds(children)
    return size


def command_rate(mc: Minecraft, worlds: int, rounds: int, size: Size) -> float:
    """Commands per second over all worlds: ``rounds`` each.command calls in flight at once
    (so each world has that many commands queued), timed until the last table is back."""
    start = time.perf_counter()
    pendings = [mc.each.command("testfor @a") for _ in range(rounds)]
    for pending in pendings:
        timed_ms(lambda pending=pending: pending, size)  # type: ignore[misc]
    return worlds * rounds / (time.perf_counter() - start)


# --- the table ------------------------------------------------------------------------------

NOTEBOOK_INTRO = """## A classroom of the notebook's own worlds, each on a thread of its own

`.venv/bin/python benchmarks/bench_worlds.py --notebook-worlds`: the measures of "A classroom:
many worlds on one bridge" (`mc.each.players()`, `mc.each.inventory()`, commands per second,
memory per world), but the worlds are `mc.simulate(worlds=N)`'s: in the bridge's own process,
each on an event-loop thread of its own (docs/sim.md), so the CPU and memory figures include
the worlds' own work (their QuickJS heaps are outside the Python heap's figure).
"""


def p(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(share * len(ordered)), len(ordered) - 1)]


def row(s: Size, one: Size) -> str:
    inventory, base = statistics.median(s.inventory_ms), statistics.median(one.inventory_ms)
    failed = f"**{len(s.failed)} world errors**: {s.failed[0]}" if s.failed else "none"
    return (
        f"| {s.worlds} | {statistics.median(s.players_ms):.0f} / {p(s.players_ms, 0.95):.0f} "
        f"| {inventory:.0f} / {p(s.inventory_ms, 0.95):.0f} | {inventory / base:.2f}x "
        f"| {s.inventory_cpu_ms:.1f} "
        f"| {s.commands_per_s:,.0f} | {s.rss_per_world / MIB:.2f} | {s.heap_per_world / MIB:.3f} "
        f"| {failed} |"
    )


INTRO = """## A classroom: many worlds on one bridge

`make bench-worlds` runs `benchmarks/bench_worlds.py` (`--quick` for a short look). The
bridge and `mc` (`mcbews_repl.start()`, `max_connections=64`: the default takes 32 games)
run in one process; the simulated worlds (one student each with a starter kit, the real
addon in QuickJS, the game's real-time clock of 20 ticks a second) run in two child
processes, so the memory measured is the bridge's. Times are for the whole table of
`mc.each.players()` and `mc.each.inventory()` (every world asked concurrently, 10 s
per-world timeout), median / p95. A world answers a call on its next game tick, so one
world's time is about a tick (50 ms): the growth beyond it is what many worlds cost. Bridge
CPU: this process's CPU time (every thread) per `mc.each.inventory()`, the bridge's share
of the time. Commands per second: rounds of `mc.each.command("testfor @a")` issued at once
(every world has that many commands in flight), counted over all worlds. Memory per world:
the bridge process's resident set (and, apart, its Python heap by tracemalloc) after the
worlds connected and answered once, less before, divided by the worlds (a warm-up run
first, so imports are not counted; the resident set then barely moves, as the warm-up's
freed memory is reused: the heap is the figure to read). Targets:
`mc.each.inventory()` over 30 worlds within 3x one world; under 2 MiB per connected world.
"""


def merged(found: list[Size]) -> Size:
    """One size over its passes: every round's time; the median rate and memory."""
    size = Size(found[0].worlds)
    for one in found:
        size.players_ms += one.players_ms
        size.inventory_ms += one.inventory_ms
        size.failed += one.failed
    size.commands_per_s = statistics.median(s.commands_per_s for s in found)
    size.inventory_cpu_ms = statistics.median(s.inventory_cpu_ms for s in found)
    size.rss_per_world = statistics.median(s.rss_per_world for s in found)
    size.heap_per_world = statistics.median(s.heap_per_world for s in found)
    return size


def page(sizes: list[Size], passes: int, rounds: int, command_rounds: int, load: str) -> str:
    one = sizes[0]
    thirty = next((s for s in sizes if s.worlds == 30), None)
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}; {passes} passes over every class size "
        f"(1, 10, 30, 50, 1, 10 ...), each with {rounds} rounds of each.players and "
        f"each.inventory and {command_rounds} of each.command; times over all the rounds, the "
        "other figures the median of the passes",
        f"- **Load: {load}.** Times on a shared machine are not comparable with a quiet one's.",
        "",
        "| worlds | each.players ms p50 / p95 | each.inventory ms p50 / p95 | inventory vs "
        "1 world | bridge CPU ms per each.inventory | commands/s, all worlds | bridge RSS "
        "MiB / world | Python heap MiB / world | world errors |",
        "|---|---|---|---|---|---|---|---|---|",
        *(row(s, one) for s in sizes),
        "",
    ]
    if thirty is not None:
        ratio = statistics.median(thirty.inventory_ms) / statistics.median(one.inventory_ms)
        worst = max(max(s.rss_per_world, s.heap_per_world) for s in sizes) / MIB
        lines += [
            f"Targets: each.inventory over 30 worlds took {ratio:.2f}x one world's "
            f"({'met' if ratio <= 3 else '**not met**'}: within 3x); the most bridge memory "
            f"per world, resident set or Python heap, was {worst:.2f} MiB "
            f"({'met' if worst < 2 else '**not met**'}: under 2 MiB).",
        ]
    last = sizes[-1]
    if last.worlds > 1:
        grew = statistics.median(last.inventory_ms) / statistics.median(one.inventory_ms)
        per_world = (last.inventory_cpu_ms - one.inventory_cpu_ms) / (last.worlds - 1)
        lines += [
            "",
            f"Growth: from 1 to {last.worlds} worlds the each.inventory median grew {grew:.2f}x; "
            f"the bridge's CPU per call went from {one.inventory_cpu_ms:.1f} to "
            f"{last.inventory_cpu_ms:.1f} ms, about {per_world:.1f} ms more per world (the "
            "table's rows, a DataFrame per world, the answers' frames), so on two shared cores "
            "the wall time grows once that CPU outgrows a game tick.",
        ]
        best = max(sizes, key=lambda s: s.commands_per_s)
        lines += [
            "",
            f"Commands per second across all worlds: {one.commands_per_s:,.0f} with one world, "
            f"at most {best.commands_per_s:,.0f} with {best.worlds}, "
            f"{last.commands_per_s:,.0f} with {last.worlds}; where it falls, the bridge's one "
            "loop thread is the busier side (its CPU per call, above, grows with the worlds).",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--host-worlds":
        url, first, count, total = sys.argv[2], *map(int, sys.argv[3:6])
        logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
        asyncio.run(host_worlds(url, first, count, total))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few rounds; prints, writes no page")
    parser.add_argument("--rounds", type=int, default=None, help="each.* rounds per pass (10)")
    parser.add_argument("--passes", type=int, default=None, help="sweeps of every size (3)")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    notebook_help = "the worlds of mc.simulate(worlds=N), in this process, a thread each"
    parser.add_argument("--notebook-worlds", action="store_true", help=notebook_help)
    args = parser.parse_args()
    global NOTEBOOK_WORLDS
    NOTEBOOK_WORLDS = args.notebook_worlds
    passes = args.passes or (1 if args.quick else 3)
    rounds = args.rounds or (5 if args.quick else 10)
    command_rounds = 10 if args.quick else 50
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)  # failures are in the table
    measure(1, 1, 1)  # warm up: imports and first-use caches are not a world's cost
    meter = LoadMeter.start()
    runs: dict[int, list[Size]] = {worlds: [] for worlds in CLASS_SIZES}
    for _ in range(passes):  # every size in every pass: a change of load hits them all
        for worlds in CLASS_SIZES:
            runs[worlds].append(measure(worlds, rounds, command_rounds))
            print(row(runs[worlds][-1], runs[1][-1]), flush=True)
    sizes = [merged(found) for found in runs.values()]
    text = page(sizes, passes, rounds, command_rounds, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        key = "notebook-worlds" if NOTEBOOK_WORLDS else "worlds"
        if NOTEBOOK_WORLDS:
            text = NOTEBOOK_INTRO + text.removeprefix(INTRO)
        docs_page.write_section(key, text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section '{key}')")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
