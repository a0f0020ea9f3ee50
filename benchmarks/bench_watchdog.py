"""The script watchdog: another game's commands while a prototype hangs one simulated world,
and what the engine's interrupt costs a loop and a capability call. Tables.

Run: ``.venv/bin/python benchmarks/bench_watchdog.py`` (``--quick``: one pass, no page).

``mc`` is ``mcbews_repl.start()``'s (the bridge on its own thread, as in a notebook). Another
game, a simulated world without scripts on a thread of its own, is sent ``testfor @a`` every
20 ms from this thread while a prototype hangs the simulated world (``hang_scenario.py``),
until the watchdog stops it, and once a new game opens a WebSocket. Two layouts: the world
on the bridge's own loop (where ``%mc sim`` put it before) and on a thread of its own (where
it runs now). Before, only a loop the module wrote could be stopped at all: ``eval`` code
never was, so that row is not run there.

The costs: a tight loop in a script context with no watchdog, the engine's interrupt, the
loops' checks and both (best of 5), alone and beside a busy Python thread (the interrupt
handler is Python, so it needs the GIL each time the engine asks, every 10,000 checks); and
``get_player_snapshot`` round trips to two worlds on one bridge, one with each watchdog, in
alternating blocks.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import docs_page
from hang_scenario import HungWorld, other_game, probe_commands, time_ws_open
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.repl.simulate import make_world
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.defaults import default_world
from mcbews_repl.sim.host import ScriptHost, Watchdog
from mcbews_repl.sim.hostapi import HostApi, HostOptions
from mcbews_repl.sim.modules import guard_loops

CASES = (("bridge loop", "loop"), ("own thread", "loop"), ("own thread", "eval"),
         ("own thread", "regex"))  # fmt: skip
QUIET_SAMPLES = 100
LOOP = "(() => {{ let n = 0; for (let i = 0; i < {count}; i++) {{ n += i % 7; }} return n; }})()"
CALL_BLOCKS = 10


@dataclass
class Run:
    layout: str
    kind: str
    quiet: list[float] = field(default_factory=list)
    during: list[float] = field(default_factory=list)
    opened_ms: list[float] = field(default_factory=list)
    hang_s: list[float] = field(default_factory=list)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def once(run: Run) -> None:
    with mcbews_repl.start(port=0) as mc, other_game(mc) as other:
        if run.layout == "bridge loop":
            hung = HungWorld.bridge_loop(mc)
        else:
            hung = HungWorld.own_thread(mc)
        try:
            run.quiet += asyncio.run(probe_commands(other, until=lambda: True, least=QUIET_SAMPLES))
            start = time.perf_counter()
            hung.start(run.kind, mc)

            async def during() -> None:
                opening = asyncio.create_task(time_ws_open(mc.url))
                run.during.extend(await probe_commands(other, until=hung.ended))
                run.opened_ms.append(await opening)

            asyncio.run(during())
            run.hang_s.append(time.perf_counter() - start)
        finally:
            hung.close()


def row(run: Run) -> str:
    quiet, during = run.quiet, run.during
    return (
        f"| {run.layout} | `{run.kind}` | {statistics.median(run.hang_s):.1f} "
        f"| {statistics.median(quiet):.1f} / {percentile(quiet, 0.99):.1f} "
        f"| {len(during)} | {statistics.median(during):.1f} / {percentile(during, 0.99):.1f} "
        f"/ {max(during):.0f} | {max(run.opened_ms):.0f} |"
    )


# --- what the watchdog costs ------------------------------------------------------------


def script_host(watchdog: Watchdog) -> ScriptHost:
    api = HostApi(default_world(), lambda line, origin: None, HostOptions())  # type: ignore[arg-type,return-value]
    return ScriptHost(api, None, hang_threshold_ms=600_000, watchdog=watchdog)


def loop_ms(cases: list[tuple[str, ScriptHost, str]], repeats: int) -> dict[str, float]:
    """Each case's best time, the cases taking turns so that a change of load hits them all."""
    best = {name: float("inf") for name, _, _ in cases}
    for _ in range(repeats):
        for name, host, code in cases:
            with host._job():  # one job, as the host runs it: its deadline starts now
                start = time.perf_counter()
                host._ctx.eval(code)
                best[name] = min(best[name], (time.perf_counter() - start) * 1000)
    return best


@contextmanager
def busy_python() -> Iterator[None]:
    """Another thread that runs Python all the time, as a busy kernel or bridge would."""
    stop = threading.Event()

    def spin() -> None:
        n = 0
        while not stop.is_set():
            n += 1

    thread = threading.Thread(target=spin, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def loop_costs(iterations: int, repeats: int) -> list[str]:
    source = LOOP.format(count=iterations)
    plain, engine = script_host("loops"), script_host("engine")
    assert engine.watchdog == "engine", "the engine's interrupt is not available here"
    cases = [("no watchdog", plain, source), ("the engine's interrupt", engine, source),
             ("the loops' checks", plain, guard_loops(source)),
             ("both (a prototype's loop)", engine, guard_loops(source))]  # fmt: skip
    alone = loop_ms(cases, repeats)
    with busy_python():
        busy = loop_ms(cases[:2], repeats)
    base, busy_base = alone["no watchdog"], busy["no watchdog"]
    rows = []
    for name, ms in alone.items():
        beside = f"{busy[name]:.0f} ({busy[name] / busy_base:.2f}x)" if name in busy else "not run"
        rows.append(f"| {name} | {ms:.0f} ({ms / base:.2f}x) | {beside} |")
    return [
        f"A loop of {iterations:,} iterations in one script context, best of {repeats}, ms:",
        "",
        "| watchdog | alone | beside a busy Python thread |",
        "|---|---|---|",
        *rows,
    ]


async def call_costs(count: int) -> list[str]:
    samples: dict[str, list[float]] = {"engine": [], "loops": []}
    async with (
        mcbews_repl.serve(port=0) as mc,
        SimWorld(make_world(["Ann"]), fast=True, watchdog="engine") as engine,
        SimWorld(make_world(["Bob"]), fast=True, watchdog="loops") as loops,
    ):
        for world in (engine, loops):
            await world.connect(mc.url)
            await mc.wait_connected(timeout=30)
        by_kind = {"engine": mc.connections[0], "loops": mc.connections[1]}
        players = {"engine": "Ann", "loops": "Bob"}  # alike: new players, the same kit
        for block in range(CALL_BLOCKS + 1):
            for kind, connection in by_kind.items():
                for _ in range(count // CALL_BLOCKS if block else 20):  # block 0: warm-up
                    start = time.perf_counter()
                    await mc.call("get_player_snapshot", target=players[kind],
                                  connection=connection)  # fmt: skip
                    if block:
                        samples[kind].append((time.perf_counter() - start) * 1e6)
    ratio = statistics.median(samples["engine"]) / statistics.median(samples["loops"])
    return [
        f"`get_player_snapshot` round trips over pull, {CALL_BLOCKS} alternating blocks, µs:",
        "",
        "| watchdog | n | p50 / p99 |",
        "|---|---|---|",
        *(f"| {kind} | {len(s)} | {statistics.median(s):.0f} / {percentile(s, 0.99):.0f} |"
          for kind, s in (("the loops' checks", samples["loops"]),
                          ("the engine's interrupt and the loops' checks", samples["engine"]))),
        "",
        f"The engine's interrupt: {ratio:.2f}x the call's p50.",
    ]  # fmt: skip


INTRO = """## The script watchdog: a hung prototype, and what the interrupt costs

`.venv/bin/python benchmarks/bench_watchdog.py` (`--quick` for one pass that writes no page).
`mc` as in a notebook (the bridge on its own thread); another game (a simulated world
without scripts, on a thread of its own) is sent `testfor @a` every 20 ms from the notebook's
thread while a prototype's call hangs the simulated world, until the watchdog stops it
(`benchmarks/hang_scenario.py`, which a soak can reuse); meanwhile a new game opens a
WebSocket. *Bridge loop*: the world where `%mc sim` put it before, on the bridge's own
loop; *own thread*: where it runs now. `loop` is `while (true)` in the cell, which the loops'
own checks stop at 3 s; `eval` (`eval("while (true) {}")`) and `regex` (a catastrophic
regular expression) only the engine's interrupt stops, 0.5 s later. Before this change
`eval` and `regex` were never stopped, so they are not run on the bridge loop: there every
game's commands would wait until the kernel restarted.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one pass; writes no page")
    args = parser.parse_args()
    passes = 1 if args.quick else 3
    logging.getLogger("mcbews_repl").setLevel(logging.CRITICAL)  # the hangs are expected
    meter = LoadMeter.start()
    runs = [Run(layout, kind) for layout, kind in CASES]
    for _ in range(passes):  # every case in every pass: a change of load hits them all
        for run in runs:
            once(run)
            print(row(run), flush=True)
    loops = loop_costs(200_000 if args.quick else 2_000_000, 5)
    calls = asyncio.run(call_costs(200 if args.quick else 2000))
    text = "\n".join(
        [
            INTRO,
            "### Results",
            "",
            f"- mcbews_repl at {docs_page.git_revision()}, {passes} passes",
            f"- **Load: {meter.describe()}.**",
            "",
            "| the hung world | prototype | hang, s | other game quiet, p50 / p99 ms "
            "| commands during the hang | during, p50 / p99 / max ms | new game's open, ms |",
            "|---|---|---|---|---|---|---|",
            *(row(run) for run in runs),
            "",
            *loops,
            "",
            *calls,
        ]
    )
    print(text)
    if not args.quick:
        docs_page.write_section("watchdog", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'watchdog')")


if __name__ == "__main__":
    main()
