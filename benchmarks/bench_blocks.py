"""Blocks per second: ``mc.blocks`` (the addon's get_blocks) against a testforblock scan.

    .venv/bin/python benchmarks/bench_blocks.py [--quick] [--rounds N] [--no-write]

The gateway (``mcbews_repl.serve``) and the simulated world (``SimWorld(fast=True)``, the
real addon bundle in QuickJS, the default world's seeded terrain) run in one process over
loopback. For boxes of 16x16x16, 32x32x32 and 64x32x64 (straddling the surface at the spawn:
stone, dirt, grass, air, a chest), it measures:

* ``read_blocks`` (what ``mc.blocks`` runs): wall time, blocks per second, the get_blocks
  requests, the world chunks (16x16 columns) the box covers, the answer chunks the bridge
  player sent (``tell`` lines), and the game ticks it took (the fast clock runs ticks back to
  back; a real game spends 50 ms on each). The first read of a box also generates its terrain
  and fills the script host's section cache: it is shown apart from the warm reads.
* the same warm reads on the game clock (``SimWorld()``, 20 ticks a second, what ``%mc sim``
  runs): the rate a real world gives, since the game's own ticks then set the pace.
* the per-position scan: one ``testforblock`` per position (``WorldQueries.block``, as the
  toolkit's ``region`` does), all through the gateway's 100-command window. A box of more
  than ``SCAN_SAMPLE`` positions is sampled (every n-th position) and its time extrapolated.

The target: at least 100x the scan's blocks per second at 32x32x32.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
from dataclasses import dataclass, field

import docs_page
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import WorldQueries
from mcbews_repl.toolkit.blocks import Box, read_blocks

# (name, lowest corner, size): around the spawn, from underground up into the air.
BOXES = (
    ("16x16x16", (-8, 56, -8), (16, 16, 16)),
    ("32x32x32", (-16, 48, -16), (32, 32, 32)),
    ("64x32x64", (-32, 48, -32), (64, 32, 64)),
)
SCAN_SAMPLE = 8192  # positions scanned at most per box; larger boxes are sampled
SCAN_BATCH = 2048  # testforblocks gathered at once (the gateway queues the rest of a batch)
TICK_MS = 50  # the game's 20 ticks per second
BRIDGE_SENDER = "MCBEWS_BRIDGE"
TARGET_RATIO = 100


@dataclass
class Read:
    seconds: float
    requests: int
    answer_chunks: int
    ticks: int
    uniform_rows: float  # the share of rows (along x) that hold one block only


@dataclass
class Result:
    name: str
    box: Box
    cold: Read
    warm: list[Read] = field(default_factory=list)
    scan_positions: int = 0
    scan_seconds: float = 0.0
    game_clock: list[float] = field(default_factory=list)  # warm reads at 20 ticks a second

    @property
    def warm_seconds(self) -> float:
        return statistics.median(r.seconds for r in self.warm)

    @property
    def blocks_per_second(self) -> float:
        return self.box.volume / self.warm_seconds

    @property
    def game_clock_rate(self) -> float:
        return self.box.volume / statistics.median(self.game_clock)

    @property
    def scan_rate(self) -> float:
        return self.scan_positions / self.scan_seconds


async def timed_read(mc: mcbews_repl.Bridge, sim: SimWorld, box: Box) -> Read:
    tick0, chat0 = sim.clock.tick, len(sim.chat_log)
    start = time.perf_counter()
    region = await read_blocks(mc, box.origin, box.far, timeout=30)
    seconds = time.perf_counter() - start
    sent = sum(1 for line in sim.chat_log[chat0:] if line.sender == BRIDGE_SENDER)
    assert region.volume == box.volume and region.known.all()
    uniform = float((region.ids == region.ids[:1, :, :]).all(axis=0).mean())
    return Read(seconds, region.requests, sent, sim.clock.tick - tick0, uniform)


def sample(box: Box) -> list[tuple[int, int, int]]:
    """Every position, or every n-th one (in reading order) when there are too many."""
    step = max(1, -(-box.volume // SCAN_SAMPLE))
    (x0, y0, z0), (sx, _, sz) = box.origin, box.size
    every = range(0, box.volume, step)
    return [(x0 + i % sx, y0 + i // (sx * sz), z0 + (i // sx) % sz) for i in every]


async def timed_scan(mc: mcbews_repl.Bridge, positions: list[tuple[int, int, int]]) -> float:
    queries = WorldQueries(mc, timeout=60)
    start = time.perf_counter()
    for at in range(0, len(positions), SCAN_BATCH):
        batch = positions[at : at + SCAN_BATCH]
        checks = await asyncio.gather(*(queries.block(x, y, z, "stone") for x, y, z in batch))
        assert all(c.known for c in checks)
    return time.perf_counter() - start


async def measure(rounds: int) -> list[Result]:
    results = []
    async with (
        mcbews_repl.serve(port=0, call_timeout=30) as mc,
        SimWorld(fast=True) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        for name, origin, size in BOXES:
            box = Box(origin, size)
            result = Result(name, box, await timed_read(mc, sim, box))
            for _ in range(rounds):
                result.warm.append(await timed_read(mc, sim, box))
            positions = sample(box)
            result.scan_positions = len(positions)
            result.scan_seconds = await timed_scan(mc, positions)
            results.append(result)
    await on_the_game_clock(results, rounds)
    return results


async def on_the_game_clock(results: list[Result], rounds: int) -> None:
    """The warm reads again with the game's 20 ticks a second (what %mc sim runs)."""
    async with (
        mcbews_repl.serve(port=0, call_timeout=30) as mc,
        SimWorld() as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        for result in results:
            await timed_read(mc, sim, result.box)  # its terrain made, its sections cached
            for _ in range(rounds):
                result.game_clock.append((await timed_read(mc, sim, result.box)).seconds)


# --- the table ------------------------------------------------------------------------------


def read_row(r: Result) -> str:
    warm = [x.seconds * 1000 for x in r.warm]
    w = r.warm[0]
    return (
        f"| {r.name} | {r.box.volume:,} | {r.warm_seconds * 1000:.0f} ({min(warm):.0f}-"
        f"{max(warm):.0f}) | {r.cold.seconds * 1000:.0f} | {r.blocks_per_second:,.0f} "
        f"| {r.game_clock_rate:,.0f} | {w.requests} | {r.box.chunks()} | {w.answer_chunks} "
        f"| {w.ticks} ({w.ticks * TICK_MS / 1000:.2f} s) | {w.uniform_rows:.0%} |"
    )


def scan_row(r: Result) -> str:
    whole = r.scan_positions == r.box.volume
    how = "all" if whole else f"{r.scan_positions:,} (every {r.box.volume // r.scan_positions}th)"
    full = r.box.volume / r.scan_rate
    ratio = r.blocks_per_second / r.scan_rate
    return (
        f"| {r.name} | {how} | {r.scan_seconds:.2f} | {r.scan_rate:,.0f} | "
        f"{full:.1f}{'' if whole else ' (extrapolated)'} | **{ratio:.0f}x** |"
    )


INTRO = """## Blocks as arrays: `mc.blocks` against a testforblock scan

`.venv/bin/python benchmarks/bench_blocks.py` (`--quick` for one round). The gateway and
the simulated world (fast clock, the real addon in QuickJS, the default world's seeded
terrain) run in one process over loopback. Each box straddles the surface at the spawn
(stone, dirt, grass, air, a chest). *get_blocks*: `read_blocks`, what `mc.blocks` runs
(boxes over 4,096 blocks are split and read 16 requests at a time); the first read of a box
also generates its terrain and fills the script host's section cache and is shown apart;
the warm reads are the median of the rounds. *blocks/s* is on the fast clock, which runs
the simulated game's ticks back to back: it measures the bridge and the addon. *blocks/s,
game clock* is the same warm read with the game's own 20 ticks a second (what `%mc sim`
runs), which is what a real world gives: the addon reads a share of the box each tick, so
the ticks set the pace. *Scan*: one `testforblock` per position
(`WorldQueries.block`, as the toolkit's `region` does) through the gateway's 100-command
window; boxes over 8,192 positions are sampled and the time extrapolated. Game ticks cost
50 ms each in a real game (the fast clock runs them back to back); answer chunks are the
bridge player's `tell` lines (the addon sends 4 a tick), none when the answers come by pull
(the stable pack, the default: a custom command's result). *Rows of one block*: the share of
rows (the positions along x) that hold a single block, which get_blocks reads with one
`containsBlock` instead of a `getBlock` per position; the rest are read block by block.
"""


def page(results: list[Result], rounds: int, load: str) -> str:
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}, {rounds} warm read{'s' * (rounds > 1)} "
        "per box",
        f"- **Load: {load}.** Wall times on a shared machine are not comparable with a quiet "
        "one's; requests, chunks and ticks do not depend on the load.",
        "",
        "| box | blocks | get_blocks ms (range) | first read ms | blocks/s | blocks/s, game "
        "clock | requests | world chunks | answer chunks | game ticks (game time) "
        "| rows of one block |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *(read_row(r) for r in results),
        "",
        "| box | positions scanned | scan s | positions/s | whole box s | get_blocks vs scan |",
        "|---|---|---|---|---|---|",
        *(scan_row(r) for r in results),
        "",
        growth(results),
    ]
    return "\n".join(lines) + "\n"


def growth(results: list[Result]) -> str:
    per_k = [f"{r.name} {r.warm_seconds * 1e6 / r.box.volume:.2f} µs" for r in results]
    at32 = next(r for r in results if r.name == "32x32x32")
    ratio = at32.blocks_per_second / at32.scan_rate
    verdict = "meets" if ratio >= TARGET_RATIO else "**misses**"
    return (
        f"Cost per block: {', '.join(per_k)}. The cost grows in proportion to the volume "
        f"(requests, answer chunks and ticks scale with it) plus a fixed cost per read, and "
        f"depends on how varied the rows are. At 32x32x32 "
        f"get_blocks is {ratio:.0f}x the scan's rate: it {verdict} the target of "
        f"{TARGET_RATIO}x. A real world runs the game's 20 ticks a second, and there the "
        f"ticks set the pace: 32x32x32 reads at {at32.game_clock_rate:,.0f} blocks/s (the "
        "game-clock column), which is what `%mc sim` and a real world give."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 round; prints, writes no page")
    parser.add_argument("--rounds", type=int, default=None, help="warm reads per box (7)")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    rounds = args.rounds or (1 if args.quick else 7)
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    meter = LoadMeter.start()
    results = asyncio.run(measure(rounds))
    text = page(results, rounds, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("blocks", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'blocks')")


if __name__ == "__main__":
    main()
