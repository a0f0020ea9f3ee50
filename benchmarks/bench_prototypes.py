"""What prototyping costs: defining, calling, the watchdog's checks, exporting: a table.

Run: ``.venv/bin/python benchmarks/bench_prototypes.py`` (``--quick``: a short run that
writes no page).

One process, one event loop: the gateway and the simulated world (``SimWorld(fast=True)``,
the real addon in QuickJS) over loopback. Defining a prototype (rewrite, evaluate, register)
is timed on the script host; a prototype's call is timed against a shipped capability that
does the same work (``get_player_snapshot`` of one player against a prototype that reads the
same fields), in alternating blocks. The watchdog's cost is a tight loop run with its checks
and without, in the same QuickJS context. Export and deploy write the pack to a temporary
folder.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import docs_page
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.addon.extend import export_with_prototypes, write_pack_folder
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.modules import guard_loops

BLOCKS = 10
SNAPSHOT = """import { world } from "@minecraft/server";
export default {
  name: "snapshot_proto",
  description: "get_player_snapshot's fields of one player, from a prototype",
  readOnly: true,
  params: { target: "string: a player name" },
  run(payload) {
    const p = world.getAllPlayers().find((q) => q.name === payload.target);
    if (p === undefined) return { ok: false, message: `no player named ${payload.target}` };
    const r = p.getRotation(), v = p.getVelocity(), h = p.getComponent("minecraft:health");
    return { ok: true, result: { players: [{ name: p.name, id: p.id,
      dimension: p.dimension.id, location: p.location, rotation: { pitch: r.x, yaw: r.y },
      velocity: v, health: h ? { current: h.currentValue, max: h.effectiveMax } : null,
      gameMode: String(p.getGameMode()), tags: p.getTags(), level: p.level,
      selectedSlot: p.selectedSlotIndex, sneaking: p.isSneaking, sleeping: p.isSleeping }] } };
  },
};
"""
LOOP = "(() => {{ let n = 0; for (let i = 0; i < {count}; i++) {{ n += i % 7; }} return n; }})()"


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def stats(samples: list[float]) -> str:
    return f"{statistics.median(samples):.0f} / {percentile(samples, 0.99):.0f}"


async def timed(fn: Callable[[], Awaitable[object]], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


async def calls(mc: mcbews_repl.Bridge, count: int) -> tuple[list[float], list[float]]:
    shipped: list[float] = []
    proto: list[float] = []
    for _ in range(BLOCKS):
        shipped += await timed(lambda: mc.call("get_player_snapshot", target="Steve"), count)
        proto += await timed(lambda: mc.call("snapshot_proto", target="Steve"), count)
    return shipped, proto


def defines(sim: SimWorld, count: int) -> list[float]:
    assert sim.host is not None
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        sim.host.define_prototype("snapshot_proto", SNAPSHOT)
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


def loops(sim: SimWorld, iterations: int, repeats: int) -> tuple[float, float]:
    """Milliseconds for the loop without the loops' checks and with them (best of); the
    engine's interrupt watches both (bench_watchdog.py measures it alone)."""
    assert sim.host is not None
    ctx = sim.host._ctx  # the same context the prototypes run in
    source = LOOP.format(count=iterations)
    best = []
    for code in (source, guard_loops(source)):
        runs = []
        for _ in range(repeats):
            with sim.host._job():  # one job, as the host runs it: its deadline starts now
                start = time.perf_counter()
                ctx.eval(code)
                runs.append((time.perf_counter() - start) * 1000)
        best.append(min(runs))
    return best[0], best[1]


def packs(count: int) -> tuple[list[float], list[float]]:
    exported, deployed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(count):
            start = time.perf_counter()
            export_with_prototypes(Path(tmp) / "p.mcaddon", {"snapshot_proto": SNAPSHOT})
            exported.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            write_pack_folder(Path(tmp), {"snapshot_proto": SNAPSHOT})
            deployed.append((time.perf_counter() - start) * 1000)
    return exported, deployed


async def run(count: int, iterations: int) -> list[str]:
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        define = defines(sim, count // 10)
        await timed(lambda: mc.call("get_player_snapshot", target="Steve"), 50)  # warm up
        shipped, proto = await calls(mc, count // BLOCKS)
        plain, guarded = loops(sim, iterations, 5)
    exported, deployed = packs(max(count // 100, 5))
    ratio = statistics.median(proto) / statistics.median(shipped)
    return [
        "| what | n | p50 / p99 |",
        "|---|---|---|",
        f"| define a prototype (rewrite, evaluate, register), µs | {len(define)} | "
        f"{stats(define)} |",
        f"| call `get_player_snapshot` (shipped), µs | {len(shipped)} | {stats(shipped)} |",
        f"| call the same work as a prototype, µs | {len(proto)} | {stats(proto)} ({ratio:.2f}x) |",
        f"| export a .mcaddon with it, ms | {len(exported)} | {stats(exported)} |",
        f"| deploy it to a folder, ms | {len(deployed)} | {stats(deployed)} |",
        "",
        f"A loop of {iterations:,} iterations in QuickJS, best of 5: {plain:.1f} ms without the "
        f"loops' checks, {guarded:.1f} ms with them ({guarded / plain:.2f}x).",
    ]


INTRO = """## Prototyping a capability: what it costs

`.venv/bin/python benchmarks/bench_prototypes.py` (`--quick` for a short run that writes no
page). The gateway and the simulated world (fast clock, the real addon in QuickJS) in one
process over loopback. Defining a prototype is timed on the script host (the module rewritten
and its loops guarded, evaluated, registered in the running addon). Calls of the shipped
`get_player_snapshot` and of a prototype doing the same work alternate in ten blocks. The
watchdog's cost is a tight loop with its checks (`__mcbews_watchdog()` in the condition) and
without. Export and deploy write the pack with one prototype, checks included.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run; writes no page")
    args = parser.parse_args()
    count = 200 if args.quick else 2000
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    meter = LoadMeter.start()
    lines = asyncio.run(run(count, 200_000 if args.quick else 2_000_000))
    text = "\n".join(
        [
            INTRO,
            "### Results",
            "",
            f"- mcbews_repl at {docs_page.git_revision()}",
            f"- **Load: {meter.describe()}.** Microseconds on a shared machine are not "
            "comparable with a quiet one's; the ratios, measured side by side, are.",
            "",
            *lines,
        ]
    )
    print(text)
    if not args.quick:
        docs_page.write_section("prototypes", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'prototypes')")


if __name__ == "__main__":
    main()
