"""The script watchdog: another game's commands while a prototype hangs one simulated world,
and what the engine's interrupt costs a loop and a capability call. Tables.

Run: ``.venv/bin/python benchmarks/bench_watchdog.py`` (``--quick``: one pass, no page).

``mc`` is ``mcbews_repl.start()``'s (the bridge on its own thread, as in a notebook). Another
game, a simulated world without scripts on a thread of its own, is sent ``testfor @a`` every
20 ms from this thread while a prototype hangs the simulated world (``hang_scenario.py``),
until the watchdog stops it, and once a new game opens a WebSocket. Two layouts: the world
on the bridge's own loop (where ``%mc sim`` put it before) and on a thread of its own (where
it runs now). Before, only a loop the module wrote could be stopped at all: ``eval`` code
never was, so that row is not run there. The last row runs beside a busy Python thread (as a
busy kernel would be), where a script thread that takes the GIL shows most.

The costs: a tight loop in a script context with no watchdog, the engine's interrupt, the
loops' checks and both (best of 5), alone and beside a busy Python thread (the interrupt
handler is Python, so each time the engine asks it the script's thread takes the GIL), with
how many times the engine asked; and ``get_player_snapshot`` round trips to two worlds on one
bridge, one with each watchdog, taking turns call by call, alone and beside a busy Python
thread.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from mcbews_repl.repl.handle import make_world
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.defaults import default_world
from mcbews_repl.sim.host import ScriptHost, Watchdog
from mcbews_repl.sim.hostapi import HostApi, HostOptions
from mcbews_repl.sim.modules import guard_loops

CASES = (("bridge loop", "loop", False), ("own thread", "loop", False),
         ("own thread", "eval", False), ("own thread", "regex", False),
         ("own thread", "eval", True))  # fmt: skip
QUIET_SAMPLES = 100
LOOP = "(() => {{ let n = 0; for (let i = 0; i < {count}; i++) {{ n += i % 7; }} return n; }})()"
WARM_UP_CALLS = 20


@dataclass
class Run:
    layout: str
    kind: str
    busy: bool  # beside a busy Python thread
    quiet: list[float] = field(default_factory=list)
    during: list[float] = field(default_factory=list)
    opened_ms: list[float] = field(default_factory=list)
    hang_s: list[float] = field(default_factory=list)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def once(run: Run) -> None:
    beside = busy_python() if run.busy else contextlib.nullcontext()
    with beside, mcbews_repl.start(port=0) as mc, other_game(mc) as other:
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
    layout = f"{run.layout}, beside a busy Python thread" if run.busy else run.layout
    return (
        f"| {layout} | `{run.kind}` | {statistics.median(run.hang_s):.1f} "
        f"| {statistics.median(quiet):.1f} / {percentile(quiet, 0.99):.1f} "
        f"| {len(during)} | {statistics.median(during):.1f} / {percentile(during, 0.99):.1f} "
        f"/ {max(during):.0f} | {max(run.opened_ms):.0f} |"
    )


# --- what the watchdog costs ------------------------------------------------------------


def script_host(watchdog: Watchdog) -> ScriptHost:
    api = HostApi(default_world(), lambda line, origin: None, HostOptions())  # type: ignore[arg-type,return-value]
    return ScriptHost(api, None, hang_threshold_ms=600_000, watchdog=watchdog)


@contextmanager
def counting_questions(host: ScriptHost) -> Iterator[list[int]]:
    """How many times the engine asks ``host``'s interrupt handler meanwhile (each time, the
    script's thread takes the GIL); [0] with no handler."""
    asked = [0]
    watch = host._watch
    if watch is None:
        yield asked
        return
    answer = watch.check

    def check() -> int:
        asked[0] += 1
        return answer()

    watch.check = check  # type: ignore[method-assign]  # the handler looks it up each time
    try:
        yield asked
    finally:
        del watch.check


def loop_ms(
    cases: list[tuple[str, ScriptHost, str]], repeats: int
) -> tuple[dict[str, float], dict[str, int]]:
    """Each case's best time and the questions the engine asked in one loop, the cases
    taking turns so that a change of load hits them all."""
    best = {name: float("inf") for name, _, _ in cases}
    asked = dict.fromkeys(best, 0)
    for _ in range(repeats):
        for name, host, code in cases:
            with host._job(), counting_questions(host) as questions:  # one job, as the host runs
                start = time.perf_counter()
                host._ctx.eval(code)
                best[name] = min(best[name], (time.perf_counter() - start) * 1000)
            asked[name] = max(asked[name], questions[0])
    return best, asked


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
    alone, asked = loop_ms(cases, repeats)
    with busy_python():
        busy, _ = loop_ms(cases[:2], repeats)
    base, busy_base = alone["no watchdog"], busy["no watchdog"]
    rows = []
    for name, ms in alone.items():
        beside = f"{busy[name]:.0f} ({busy[name] / busy_base:.2f}x)" if name in busy else "not run"
        rows.append(f"| {name} | {ms:.0f} ({ms / base:.2f}x) | {beside} | {asked[name]:,} |")
    return [
        f"A loop of {iterations:,} iterations in one script context, best of {repeats}, ms:",
        "",
        "| watchdog | alone | beside a busy Python thread | handler calls in one loop |",
        "|---|---|---|---|",
        *rows,
    ]


async def call_samples(count: int) -> tuple[dict[str, list[float]], int]:
    """Round trips (µs) to a world of each watchdog, and the questions the engine asked the
    engine's world meanwhile."""
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
        assert engine.host is not None
        with counting_questions(engine.host) as asked:
            for i in range(count + WARM_UP_CALLS):  # the kinds take turns call by call
                for kind in ("engine", "loops") if i % 2 else ("loops", "engine"):
                    start = time.perf_counter()
                    await mc.call("get_player_snapshot", target=players[kind],
                                  connection=by_kind[kind])  # fmt: skip
                    if i >= WARM_UP_CALLS:
                        samples[kind].append((time.perf_counter() - start) * 1e6)
    return samples, asked[0]


def call_costs(count: int) -> list[str]:
    measured = {"alone": asyncio.run(call_samples(count))}
    with busy_python():
        measured["beside a busy Python thread"] = asyncio.run(call_samples(count))
    rows, ratios = [], []
    for where, (samples, asked) in measured.items():
        for kind, name in (
            ("loops", "the loops' checks"),
            ("engine", "the engine's interrupt and the loops' checks"),
        ):
            s = samples[kind]
            calls = f"{asked / len(s):.2f}" if kind == "engine" else "0"
            rows.append(
                f"| {where} | {name} | {len(s)} | {statistics.median(s):.0f} "
                f"/ {percentile(s, 0.99):.0f} | {calls} |"
            )
        ratio = statistics.median(samples["engine"]) / statistics.median(samples["loops"])
        ratios.append(f"{ratio:.2f}x {where}")
    return [
        "`get_player_snapshot` round trips over pull, the two worlds taking turns, µs "
        "(handler calls: the engine asked the handler, per call, ticks included):",
        "",
        "| | watchdog | n | p50 / p99 | handler calls per call |",
        "|---|---|---|---|---|",
        *rows,
        "",
        f"The engine's interrupt: the call's p50 {', '.join(ratios)}.",
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
game's commands would wait until the kernel restarted. The last row runs beside a busy Python
thread, as a busy kernel would be.

The engine's interrupt handler is a Python callback: each time QuickJS asks it (every 10,000
checks), the script's thread takes the GIL. It is installed only once a job has run past its
deadline, by the script host's watchdog thread (docs/sim.md), so a job within its deadline is
never asked. Before, it was installed for every job. Measured then, at `2770297` on this
machine (other processes using 0.51 of 2 cores), with this script: the 2,000,000-iteration
loop asked it 400 times (a prototype's loop, whose checks count too, 1,007) and took 2.04x
beside a busy Python thread (2.91x and 3.00x in two earlier runs); beside a busy Python
thread the other game's commands during the `eval` hang took 47.9 / 124.1 ms (p50 / p99,
quiet 45.4 / 120.6): the hung world's thread, asking about every 25 µs, was one more taker
of the GIL for the whole hang. A `get_player_snapshot` call asked it 0.89 times (ticks
included), short enough that its p50 was 1.02x alone and 0.85x-1.01x beside a busy Python
thread (where a p50 swings by the switch interval's 5 ms from run to run). The soak
(`bench_soak.py`, its "a prototype hangs a simulated world" row, on a loaded machine) saw the
good game's p99 at 48-174 ms then.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one pass; writes no page")
    args = parser.parse_args()
    passes = 1 if args.quick else 3
    logging.getLogger("mcbews_repl").setLevel(logging.CRITICAL)  # the hangs are expected
    meter = LoadMeter.start()
    runs = [Run(layout, kind, busy) for layout, kind, busy in CASES]
    for _ in range(passes):  # every case in every pass: a change of load hits them all
        for run in runs:
            once(run)
            print(row(run), flush=True)
    loops = loop_costs(200_000 if args.quick else 2_000_000, 5)
    calls = call_costs(200 if args.quick else 2000)
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
