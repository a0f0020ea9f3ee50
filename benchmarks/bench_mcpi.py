"""mcpi lessons' calls through the facade: a cube by a ``setBlock`` loop and by ``setBlocks``,
``getBlocks`` and ``getTilePos``, against one command per block.

    make bench-mcpi  # or: .venv/bin/python benchmarks/bench_mcpi.py [--quick] [--rounds N]

The lesson runs as a plain script does: ``Minecraft.create(sim=True)`` starts a bridge on a
thread of its own and a simulated world on another (``SimHandle``, as ``%mc sim`` makes it),
its clock at the game's 20 ticks a second, the real addon bundle loaded, over a WebSocket on
127.0.0.1. Positions count from the world spawn (the facade's default). Measured, each the
median of the rounds, in wall time and in the world's game ticks:

* **setBlock loop**: a 20x20x20 cube of 8,000 ``mc.setBlock(x, y, z, id)`` calls in three
  nested ``for`` loops, as lessons write them, until the last block is in the world (the
  facade gathers them into ``set_blocks`` writes; ``mc.flush()`` waits for the last).
* **setBlocks**: the same cube in one ``mc.setBlocks(...)``.
* **getBlocks**: a 32x32 layer (x by z, 1,024 blocks) and a 32x32x32 box (32,768).
* **getTilePos**: 100 ``mc.player.getTilePos()`` calls, one after another.
* **One command per block**: what a facade sending one ``setblock`` per ``setBlock`` would
  take for the cube. Waiting for each answer, as a synchronous mcpi call does, measured over
  ``COMMAND_SAMPLE`` blocks and scaled to 8,000; and at best, the commands sent through the
  gateway's 100-command window without waiting, the same way.

After each cube the blocks are read back (``getBlocks``, not timed) and must all be the
block asked for. Targets: the setBlock loop within :data:`LOOP_VS_FILL_MAX` times
setBlocks' time; both at most :data:`VS_COMMANDS_MAX` of the time of one command per block
(waiting for each, as mcpi's calls do).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import docs_page
from machine_load import LoadMeter

from mcbews_repl.mcpi import block
from mcbews_repl.mcpi.minecraft import Minecraft

EDGE = 20  # the cube's edge: 8,000 blocks
CUBE_LOOP = (5, 1, 5)  # the loop's cube, from the spawn (its lowest corner)
CUBE_FILL = (-25, 1, 5)  # setBlocks' cube, beside it
SCAN_EDGE = 32  # getBlocks: 32x32 (a layer) and 32x32x32
SCAN_AT = (-16, -4, -16)  # from the spawn: dirt, the grass at y -1, then air (no ores)
TILE_CALLS = 100
COMMAND_SAMPLE = 400  # commands measured, then scaled to the cube's 8,000
WINDOW_BATCH = 100  # commands sent at once without waiting: the gateway's window
TICK_MS = 50  # the game's 20 ticks a second
LOOP_VS_FILL_MAX = 3.0  # the issue's target: the loop within 3x setBlocks' time
VS_COMMANDS_MAX = 0.1  # "well under" one command per block: a tenth of its time or less
# Blocks the cubes alternate between, so each round changes every block it writes.
CUBE_BLOCKS = (block.STONE, block.GOLD_BLOCK, block.BRICK_BLOCK, block.IRON_BLOCK)


@dataclass
class Sample:
    seconds: float
    ticks: int


@dataclass
class Results:
    rounds: int
    loop: list[Sample] = field(default_factory=list)
    fill: list[Sample] = field(default_factory=list)
    layer: list[Sample] = field(default_factory=list)
    box: list[Sample] = field(default_factory=list)
    tiles: list[Sample] = field(default_factory=list)
    waited: Sample | None = None  # COMMAND_SAMPLE setblocks, each waited for
    windowed: Sample | None = None  # COMMAND_SAMPLE setblocks, WINDOW_BATCH at a time
    loop_writes: int = 0  # set_blocks boxes the loop's blocks went as (one round)


def median(samples: list[Sample]) -> Sample:
    ticks = statistics.median(s.ticks for s in samples)
    return Sample(statistics.median(s.seconds for s in samples), round(ticks))


def ticks_of(mc: Minecraft) -> Callable[[], int]:
    """The simulated world's tick (one int read across threads: what it is at that moment)."""
    raw = mc._mc.sim.raw
    return lambda: int(raw.clock.tick)


def timed(tick: Callable[[], int], work: Callable[[], Any]) -> tuple[Sample, Any]:
    t0, start = tick(), time.perf_counter()
    out = work()
    return Sample(time.perf_counter() - start, tick() - t0), out


def cube_ids(mc: Minecraft, low: tuple[int, int, int]) -> set[int]:
    x, y, z = low
    return set(mc.getBlocks(x, y, z, x + EDGE - 1, y + EDGE - 1, z + EDGE - 1))


def loop_cube(mc: Minecraft, low: tuple[int, int, int], what: block.Block) -> None:
    x0, y0, z0 = low
    for x in range(x0, x0 + EDGE):
        for y in range(y0, y0 + EDGE):
            for z in range(z0, z0 + EDGE):
                mc.setBlock(x, y, z, what)
    mc.flush()


def fill_cube(mc: Minecraft, low: tuple[int, int, int], what: block.Block) -> None:
    x, y, z = low
    mc.setBlocks(x, y, z, x + EDGE - 1, y + EDGE - 1, z + EDGE - 1, what)


def one_command_per_block(mc: Minecraft, tick: Callable[[], int], results: Results) -> None:
    """COMMAND_SAMPLE setblocks, absolute positions above the loop's cube, two ways."""
    ox, oy, oz = mc._origin
    x0, y0, z0 = ox + CUBE_LOOP[0], oy + CUBE_LOOP[1] + EDGE + 2, oz + CUBE_LOOP[2]

    def lines(flip: int) -> list[str]:  # the second pass changes every block again
        return [
            f"setblock {x0 + i % EDGE} {y0 + (i // (EDGE * EDGE)) % 2} {z0 + (i // EDGE) % EDGE} "
            f"{'glass' if (i + flip) % 2 else 'sandstone'}"
            for i in range(COMMAND_SAMPLE)
        ]

    def waited() -> None:  # as a synchronous setBlock sending a command would
        for line in lines(0):
            mc._command(line)

    results.waited, _ = timed(tick, waited)
    bridge, conn = mc._mc.bridge, mc._conn

    async def windowed() -> None:
        second = lines(1)
        for at in range(0, len(second), WINDOW_BATCH):
            batch = second[at : at + WINDOW_BATCH]
            answers = await asyncio.gather(*(bridge.command(c, connection=conn) for c in batch))
            for answer in answers:
                answer.raise_for_status()

    results.windowed, _ = timed(tick, lambda: mc._run(windowed()))


def measure(rounds: int) -> Results:
    mc = Minecraft.create(sim=True)
    tick = ticks_of(mc)
    results = Results(rounds)
    try:
        sx, sy, sz = SCAN_AT
        far = SCAN_EDGE - 1
        for r in range(rounds):
            what = CUBE_BLOCKS[r % len(CUBE_BLOCKS)]
            writes = mc._batch.writes
            sample, _ = timed(tick, lambda w=what: loop_cube(mc, CUBE_LOOP, w))  # type: ignore[misc]
            results.loop.append(sample)
            results.loop_writes = mc._batch.writes - writes
            assert cube_ids(mc, CUBE_LOOP) == {what.id}, "the loop's cube did not read back"
            sample, _ = timed(tick, lambda w=what: fill_cube(mc, CUBE_FILL, w))  # type: ignore[misc]
            results.fill.append(sample)
            assert cube_ids(mc, CUBE_FILL) == {what.id}, "setBlocks' cube did not read back"
            sample, ids = timed(tick, lambda: mc.getBlocks(sx, 0, sz, sx + far, 0, sz + far))
            assert len(ids) == SCAN_EDGE * SCAN_EDGE
            results.layer.append(sample)
            sample, ids = timed(
                tick, lambda: mc.getBlocks(sx, sy, sz, sx + far, sy + far, sz + far)
            )
            assert len(ids) == SCAN_EDGE**3
            results.box.append(sample)
            sample, tiles = timed(tick, lambda: [mc.player.getTilePos() for _ in range(TILE_CALLS)])
            assert all(t == tiles[0] for t in tiles)  # the player stood still
            results.tiles.append(sample)
        one_command_per_block(mc, tick, results)
    finally:
        mc.close()
    return results


# --- the table ------------------------------------------------------------------------------


def per_cube(sample: Sample) -> Sample:
    """A COMMAND_SAMPLE measurement scaled to the cube's blocks."""
    scale = EDGE**3 / COMMAND_SAMPLE
    return Sample(sample.seconds * scale, round(sample.ticks * scale))


def row(what: str, calls: str, s: Sample, note: str = "") -> str:
    return (
        f"| {what} | {calls} | {s.seconds:.2f} | {s.ticks} ({s.ticks * TICK_MS / 1000:.1f} s) "
        f"| {note} |"
    )


def verdict(met: bool) -> str:
    return "met" if met else "**missed**"


INTRO = """## mcpi lessons: a cube by a setBlock loop and by setBlocks, getBlocks, getTilePos

`make bench-mcpi` (`benchmarks/bench_mcpi.py`, `--quick` for one round). A lesson as a plain
script runs it: `Minecraft.create(sim=True)` starts a bridge and a simulated world on
threads of their own, the world's clock at the game's 20 ticks a second with the real addon
bundle, over a WebSocket on 127.0.0.1; positions count from the world spawn. The cube is
20x20x20 (8,000 blocks): once by three nested `for` loops of `mc.setBlock(x, y, z, id)`
until the last block is in the world (the facade gathers them into `set_blocks` writes;
`mc.flush()` waits for the last), once by one `mc.setBlocks(...)`; each read back whole
afterwards (not timed). `getBlocks`: a 32x32 layer and a 32x32x32 box; `getTilePos`: 100
calls one after another. *One command per block*: a `setblock` for each block, measured over
400 blocks and scaled to 8,000: waiting for each answer (as a synchronous mcpi call waits),
and at best sent 100 at a time through the gateway's window. Game ticks are the world's
own, 50 ms each; each figure is the median of the rounds.
"""


def page(res: Results, load: str) -> str:
    loop, fill = median(res.loop), median(res.fill)
    waited, windowed = per_cube(res.waited or Sample(0, 0)), per_cube(res.windowed or Sample(0, 0))
    ratio = loop.seconds / fill.seconds
    loop_vs, fill_vs = loop.seconds / waited.seconds, fill.seconds / waited.seconds
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}, {res.rounds} round{'s' * (res.rounds > 1)}",
        f"- **Load: {load}.** Wall times on a shared machine are not comparable with a quiet "
        "one's; game ticks depend less on it.",
        "",
        "| what | calls | wall s | game ticks (game time) | note |",
        "|---|---|---|---|---|",
        row(
            "20x20x20 cube, setBlock loop",
            "8,000 setBlock",
            loop,
            f"{res.loop_writes} set_blocks write{'s' * (res.loop_writes != 1)}",
        ),
        row("20x20x20 cube, setBlocks", "1 setBlocks", fill),
        row("32x32 layer, getBlocks", "1 getBlocks", median(res.layer), "1,024 blocks"),
        row("32x32x32 box, getBlocks", "1 getBlocks", median(res.box), "32,768 blocks"),
        row("getTilePos", "100 getTilePos", median(res.tiles), ""),
        row(
            "20x20x20 cube, one command per block, each waited for",
            "8,000 setblock",
            waited,
            f"scaled from {COMMAND_SAMPLE}",
        ),
        row(
            "20x20x20 cube, one command per block, 100 at a time",
            "8,000 setblock",
            windowed,
            f"scaled from {COMMAND_SAMPLE}",
        ),
        "",
        "| target | measured | verdict |",
        "|---|---|---|",
        f"| the setBlock loop within {LOOP_VS_FILL_MAX:.0f}x setBlocks' time | {ratio:.2f}x "
        f"| {verdict(ratio <= LOOP_VS_FILL_MAX)} |",
        f"| the setBlock loop at most {VS_COMMANDS_MAX:.0%} of one command per block "
        f"(each waited for) | {loop_vs:.1%} ({waited.seconds / loop.seconds:.0f}x faster; "
        f"{windowed.seconds / loop.seconds:.1f}x faster than the best, 100 at a time) "
        f"| {verdict(loop_vs <= VS_COMMANDS_MAX)} |",
        f"| setBlocks at most {VS_COMMANDS_MAX:.0%} of one command per block (each waited "
        f"for) | {fill_vs:.1%} ({waited.seconds / fill.seconds:.0f}x faster) "
        f"| {verdict(fill_vs <= VS_COMMANDS_MAX)} |",
        "",
        f"Each `getTilePos` took {median(res.tiles).ticks / TILE_CALLS:.1f} game ticks: a call "
        "waits for its answer, as mcpi's do, and the world answers at its next tick, so a "
        "lesson's loop of reads runs at about 20 a second. The boxes read "
        "stay above the ores: a block newer than mcpi's numbering (copper ore, deepslate ...) "
        "makes `getBlocks` raise `UnknownBlockId` (`mcbews_repl/mcpi/block.py`).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 round; prints, writes no page")
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 5)")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    rounds = args.rounds or (1 if args.quick else 5)
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    meter = LoadMeter.start()
    results = measure(rounds)
    text = page(results, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("mcpi", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'mcpi')")


if __name__ == "__main__":
    main()
