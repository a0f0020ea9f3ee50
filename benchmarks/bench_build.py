"""Blocks written per second: ``set_blocks`` against a setblock per position and a fill planner.

    make bench-build  # or: .venv/bin/python benchmarks/bench_build.py [--quick] [--rounds N]

The gateway (``mcbews_repl.serve``) and the simulated world (the real addon bundle in
QuickJS, the default world's seeded terrain) run in one process over loopback, first on the
fast clock (``SimWorld(fast=True)``: the simulated game's ticks back to back, so what the
bridge and the addon cost) and then on the game's own clock (``SimWorld()``, 20 ticks a
second, what ``%mc sim`` runs and a real world gives). In the boxes ``bench_blocks.py``
reads (16x16x16, 32x32x32 and 64x32x64 around the spawn, from underground up into the air)
it writes three things:

* **terrain**: the box as read (``read_blocks``) with three in ten positions changed to a
  block drawn from a mix of stone kinds, dirt, gravel and air (seeded): a read, edited and
  written back, every position of the box set;
* **pixel wall**: a picture of wool and concrete (sky bands, a sun, a checkerboard, a
  scatter of odd pixels), as wide and as high as the box, in its middle x-y plane; the rest
  of the box is left as it is;
* **hollow sphere**: the shell of the largest sphere that fits the box (``shapes.sphere``,
  ``hollow=True``) in glass, the rest left as it is.

Each is written three ways, every one through the same gateway, on both clocks:

* **set_blocks**: ``write_blocks`` (what ``mc.set_blocks`` runs with ``undo=False``): one
  check of the palette, then a request per section of runs, large ones in bulk parts.
* **setblock**: one ``setblock x y z block`` command per position set (``mc.command``), all
  through the gateway's 100-command window. More than ``SETBLOCK_SAMPLE`` positions are
  sampled (every n-th) and their time and ticks extrapolated; the commands and bytes of the
  whole are counted from the sample's mean command.
* **fill planner**: the positions set merged greedily into boxes of one block (runs along
  x, grown along z, then along y, each at most the game's 32,768), one ``fill`` command a
  box (``setblock`` for a box of one), planned here in :func:`plan_fills`; more than
  ``FILL_SAMPLE`` commands are sampled the same way.

Before every write the box is put back to the terrain as first read (unmeasured), so each
method does the same work; after every whole write the box is read back and compared with
what was meant (the written positions, and the rest as it was). Counted for each: the
commands the game received (``commandRequest`` frames, bulk parts and pulls included) and
their bytes as sent (the whole frame), the wall time on both clocks, the game ticks on the
game clock, and the script work of the simulated game's ticks: the most blocks the scripts
set in one tick, against the simulated world's job budget (``JOB_STEPS_PER_TICK``
resumptions of the job a tick, each ``POSITIONS_PER_YIELD`` positions), and the longest
tick of script work (every entry into the scripts in that tick), as CPU time of their
thread and as wall time, against the game's 100 ms spike warning. Then an undo: the
32x32x32 terrain written with undo kept (a ``Builder``: the box read with states first) and
``undo`` of it, in game ticks beside the write's.

The targets (figures that do not depend on the machine's load): at 32x32x32 at least 100x
fewer commands than one setblock per position and fewer than the fill planner on every
shape; a 32x32x32 write within 20 game ticks on the game clock; no tick of the simulated game
over its budget; the undo within the write's game time.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import docs_page
import numpy as np
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import Builder, plan_write
from mcbews_repl.toolkit.blocks import read_blocks
from mcbews_repl.toolkit.boxes import Box
from mcbews_repl.toolkit.shapes import sphere
from mcbews_repl.toolkit.writes import KEEP, write_blocks

# (name, lowest corner, size): the boxes bench_blocks.py reads, around the spawn.
BOXES = (
    ("16x16x16", (-8, 56, -8), (16, 16, 16)),
    ("32x32x32", (-16, 48, -16), (32, 32, 32)),
    ("64x32x64", (-32, 48, -32), (64, 32, 64)),
)
SHAPES = ("terrain", "pixel wall", "hollow sphere")
METHODS = ("set_blocks", "setblock", "fill planner")
SETBLOCK_SAMPLE = 8192  # setblock commands sent at most per write; more are sampled
FILL_SAMPLE = 8192  # fill commands sent at most per write; more are sampled
COMMAND_BATCH = 2048  # commands gathered at once (the gateway queues the rest of a batch)
FILL_MAX_BLOCKS = 32768  # the game's /fill limit (sim facts: FILL_MAX_BLOCKS)
TERRAIN_CHANGED = 0.3  # the share of the terrain's positions edited
TERRAIN_MIX = ("stone", "andesite", "diorite", "granite", "cobblestone", "dirt", "gravel", "air")
WOOL = ("white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
        "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black")  # fmt: skip
SEED = 31
TICK_MS = 50  # the game's 20 ticks per second: a tick's time
# The game's script watchdog warns of a tick whose scripts ran longer than this
# (script-watchdog-spike-threshold, docs/capabilities.md "What a tick allows").
SPIKE_MS = 100
# The simulated world's job budget (sim/shim.js JOB_STEPS_PER_TICK, addon setBlocks.ts
# POSITIONS_PER_YIELD): all jobs together get 16 resumptions a tick, and the write yields
# every 256 positions, so a tick handles at most 4,096 positions.
JOB_STEPS_PER_TICK = 16
POSITIONS_PER_YIELD = 256
TICK_POSITIONS_BUDGET = JOB_STEPS_PER_TICK * POSITIONS_PER_YIELD
TARGET_FEWER = 100
TARGET_TICKS = 20
UNDO_BOX = "32x32x32"


# --- what to write --------------------------------------------------------------------------


@dataclass
class Target:
    """A write: ``ids[x, y, z]`` into ``palette`` (block names, ``<keep>`` left as is)."""

    shape: str
    box: Box
    ids: np.ndarray[Any, Any]
    palette: list[str]

    @property
    def names(self) -> np.ndarray[Any, Any]:
        return np.array(self.palette, dtype=object)[self.ids]

    @property
    def setting(self) -> np.ndarray[Any, Any]:
        return self.names != KEEP

    @property
    def count(self) -> int:
        return int(self.setting.sum())


def full(name: str) -> str:
    return name if ":" in name or name == KEEP else f"minecraft:{name}"


def terrain(box: Box, before: np.ndarray[Any, Any], rng: np.random.Generator) -> Target:
    names = before.copy()
    edit = rng.random(box.size) < TERRAIN_CHANGED
    names[edit] = np.array([full(b) for b in TERRAIN_MIX], dtype=object)[
        rng.integers(0, len(TERRAIN_MIX), int(edit.sum()))
    ]
    palette, ids = np.unique(names.astype(str), return_inverse=True)
    return Target("terrain", box, ids.reshape(box.size), [str(p) for p in palette])


def picture(sx: int, sy: int, rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A picture ``[x, y]`` of block names: sky bands, a sun, a checkerboard, odd pixels."""
    x, y = np.meshgrid(np.arange(sx), np.arange(sy), indexing="ij")
    bands = ("blue_wool", "light_blue_wool", "cyan_wool", "white_wool")
    pic = np.array(bands, dtype=object)[np.minimum(y * len(bands) // sy, len(bands) - 1)]
    pic[y < sy // 5] = "green_concrete"
    cx, cy, r = sx * 2 // 3, sy * 3 // 4, max(2, sy // 6)
    pic[(x - cx) ** 2 + (y - cy) ** 2 <= r * r] = "yellow_concrete"
    board = (x < sx // 3) & (y < sy // 2) & (y >= sy // 5)
    pic[board & ((x // 2 + y // 2) % 2 == 0)] = "black_concrete"
    pic[board & ((x // 2 + y // 2) % 2 == 1)] = "white_concrete"
    odd = rng.random((sx, sy)) < 0.05
    pic[odd] = np.array([f"{c}_wool" for c in WOOL], dtype=object)[
        rng.integers(0, len(WOOL), int(odd.sum()))
    ]
    return pic


def pixel_wall(box: Box, rng: np.random.Generator) -> Target:
    sx, sy, sz = box.size
    names = np.full(box.size, KEEP, dtype=object)
    names[:, :, sz // 2] = np.vectorize(full, otypes=[object])(picture(sx, sy, rng))
    palette, ids = np.unique(names.astype(str), return_inverse=True)
    return Target("pixel wall", box, ids.reshape(box.size), [str(p) for p in palette])


def hollow_sphere(box: Box) -> Target:
    radius = (min(box.size) - 1) // 2
    centre = tuple(o + s // 2 for o, s in zip(box.origin, box.size, strict=True))
    shell = sphere(centre, radius, "glass", hollow=True)
    ids = np.zeros(box.size, dtype=np.int64)
    at = tuple(
        slice(so - bo, so - bo + n) for so, bo, n in zip(shell.origin, box.origin, shell.size,
                                                         strict=True)
    )  # fmt: skip
    ids[at] = shell.ids
    return Target("hollow sphere", box, ids, [KEEP, "minecraft:glass"])


# --- the fill planner -----------------------------------------------------------------------


def plan_fills(target: Target) -> list[tuple[tuple[int, int, int], tuple[int, int, int], str]]:
    """Greedy 3-D box merging: the first position not yet covered (y, then z, then x order)
    starts a box; it grows along x while the block stays the same, then along z while the
    whole row does, then along y while the whole rectangle does, within the game's fill
    limit. Positions left as they are (``<keep>``) are never covered. Returns (low corner,
    size, block) boxes, relative to the box's origin."""
    ids = target.ids
    todo = target.setting.copy()
    sx, sy, sz = ids.shape
    boxes = []
    for y in range(sy):
        for z in range(sz):
            for x in range(sx):
                if not todo[x, y, z]:
                    continue
                v = ids[x, y, z]
                row = todo[x:, y, z] & (ids[x:, y, z] == v)
                nx = int(np.argmin(row)) if not row.all() else sx - x
                nz = 1
                while z + nz < sz and nx * (nz + 1) <= FILL_MAX_BLOCKS:
                    cells = todo[x : x + nx, y, z + nz] & (ids[x : x + nx, y, z + nz] == v)
                    if not cells.all():
                        break
                    nz += 1
                ny = 1
                while y + ny < sy and nx * nz * (ny + 1) <= FILL_MAX_BLOCKS:
                    part = (x, y + ny, z)
                    cells = todo[x : x + nx, part[1], z : z + nz] & (
                        ids[x : x + nx, part[1], z : z + nz] == v
                    )
                    if not cells.all():
                        break
                    ny += 1
                todo[x : x + nx, y : y + ny, z : z + nz] = False
                boxes.append(((x, y, z), (nx, ny, nz), target.palette[int(v)]))
    return boxes


def fill_lines(target: Target) -> list[str]:
    ox, oy, oz = target.box.origin
    lines = []
    for (x, y, z), (nx, ny, nz), block in plan_fills(target):
        a = (ox + x, oy + y, oz + z)
        if nx * ny * nz == 1:
            lines.append(f"setblock {a[0]} {a[1]} {a[2]} {block}")
        else:
            b = (a[0] + nx - 1, a[1] + ny - 1, a[2] + nz - 1)
            lines.append(f"fill {a[0]} {a[1]} {a[2]} {b[0]} {b[1]} {b[2]} {block}")
    return lines


def setblock_lines(target: Target) -> list[str]:
    ox, oy, oz = target.box.origin
    xs, ys, zs = np.nonzero(target.setting)
    order = np.lexsort((xs, zs, ys))
    names = target.names
    return [
        f"setblock {ox + xs[i]} {oy + ys[i]} {oz + zs[i]} {names[xs[i], ys[i], zs[i]]}"
        for i in order.tolist()
    ]


def sampled(lines: list[str], most: int) -> list[str]:
    step = max(1, -(-len(lines) // most))
    return lines[::step]


# --- what the game sees -----------------------------------------------------------------------


@dataclass
class Meter:
    """Counts on one simulated world: frames received, their bytes, script work a tick."""

    sim: SimWorld
    commands: int = 0
    bytes: int = 0
    tick_positions: dict[int, int] = field(default_factory=dict)
    tick_ms: dict[int, float] = field(default_factory=dict)  # script work a tick, wall ms
    tick_cpu_ms: dict[int, float] = field(default_factory=dict)  # ... and its thread's CPU ms

    def install(self) -> None:
        client = self.sim.client
        assert client is not None
        receive = client._receive

        def counted(raw: str) -> None:
            if '"commandRequest"' in raw:
                self.commands += 1
                self.bytes += len(raw.encode("utf-8"))
            receive(raw)

        client._receive = counted  # type: ignore[method-assign]
        api = self.sim.api
        set_blocks = api.op_set_blocks

        def writes(args: dict[str, Any]) -> int:
            done = set_blocks(args)
            tick = self.sim.clock.tick
            self.tick_positions[tick] = self.tick_positions.get(tick, 0) + len(args["writes"])
            return done

        api.op_set_blocks = writes  # type: ignore[method-assign]
        host = self.sim.host
        assert host is not None
        job = host._job  # every entry from Python into the scripts (sim/host.py)

        @contextmanager
        def timed() -> Iterator[None]:
            outer = host._depth == 0
            start, cpu = time.perf_counter(), time.thread_time()
            with job():
                yield
            if outer:  # a nested entry (JS -> Python -> JS) is part of the outer one
                tick = self.sim.clock.tick
                ms = (time.perf_counter() - start) * 1000
                self.tick_ms[tick] = self.tick_ms.get(tick, 0.0) + ms
                ms = (time.thread_time() - cpu) * 1000
                self.tick_cpu_ms[tick] = self.tick_cpu_ms.get(tick, 0.0) + ms

        host._job = timed  # type: ignore[method-assign]

    @contextmanager
    def counting(self) -> Iterator[Counted]:
        c0, b0, t0 = self.commands, self.bytes, self.sim.clock.tick
        self.tick_positions.clear()
        self.tick_ms.clear()
        self.tick_cpu_ms.clear()
        got = Counted()
        start = time.perf_counter()
        yield got
        got.seconds = time.perf_counter() - start
        got.commands, got.bytes = self.commands - c0, self.bytes - b0
        got.ticks = self.sim.clock.tick - t0
        got.max_tick_positions = max(self.tick_positions.values(), default=0)
        got.max_tick_ms = max(self.tick_ms.values(), default=0.0)
        got.max_tick_cpu_ms = max(self.tick_cpu_ms.values(), default=0.0)


@dataclass
class Counted:
    seconds: float = 0.0
    commands: int = 0
    bytes: int = 0
    ticks: int = 0
    max_tick_positions: int = 0
    max_tick_ms: float = 0.0
    max_tick_cpu_ms: float = 0.0
    scale: float = 1.0  # the whole write over the part sent (sampled commands)
    checked: str = ""  # the read back: "ok", "N wrong", "" (not read back: a sample)

    def whole(self) -> Counted:
        """The figures of the whole write, a sample's scaled up."""
        s = self.scale
        return Counted(self.seconds * s, round(self.commands * s), round(self.bytes * s),
                       round(self.ticks * s), self.max_tick_positions, self.max_tick_ms,
                       self.max_tick_cpu_ms, s, self.checked)  # fmt: skip


@dataclass
class Row:
    box: str
    shape: str
    volume: int
    blocks: int  # positions set
    fast: dict[str, Counted] = field(default_factory=dict)
    game: dict[str, Counted] = field(default_factory=dict)


@dataclass
class Undo:
    write: Counted  # the write with undo kept: the read first, then set_blocks
    bare: Counted  # the same write without undo (the set_blocks row)
    undo: Counted
    restored: str


# --- measuring --------------------------------------------------------------------------------


async def send_commands(mc: mcbews_repl.Bridge, lines: list[str]) -> None:
    for at in range(0, len(lines), COMMAND_BATCH):
        batch = lines[at : at + COMMAND_BATCH]
        await asyncio.gather(*(mc.command(line, timeout=60) for line in batch))


async def read_names(mc: mcbews_repl.Bridge, box: Box) -> np.ndarray[Any, Any]:
    region = await read_blocks(mc, box.origin, box.far, timeout=60)
    assert region.known.all()
    return np.array([full(p) for p in region.palette], dtype=object)[region.ids]


def wrong(expected: np.ndarray[Any, Any], actual: np.ndarray[Any, Any]) -> str:
    bad = int((expected != actual).sum())
    return "ok" if bad == 0 else f"{bad} wrong"


class Run:
    """One world: its baseline terrain, each target, and the writes measured on it."""

    def __init__(self, mc: mcbews_repl.Bridge, sim: SimWorld) -> None:
        self.mc, self.sim, self.meter = mc, sim, Meter(sim)
        self.meter.install()
        self.baseline: dict[str, np.ndarray[Any, Any]] = {}

    async def restore(self, box: Box) -> None:
        names = self.baseline[box_name(box)]
        palette, ids = np.unique(names.astype(str), return_inverse=True)
        await write_blocks(self.mc, box.origin, ids.reshape(box.size),
                           palette=[str(p) for p in palette], timeout=60)  # fmt: skip

    async def write(self, target: Target, method: str, check: bool = True) -> Counted:
        await self.restore(target.box)
        scale = 1.0
        if method == "setblock":
            lines = setblock_lines(target)
            part = sampled(lines, SETBLOCK_SAMPLE)
        elif method == "fill planner":
            lines = fill_lines(target)
            part = sampled(lines, FILL_SAMPLE)
        else:
            lines = part = []
        scale = len(lines) / len(part) if part else 1.0
        with self.meter.counting() as got:
            if method == "set_blocks":
                result = await write_blocks(self.mc, target.box.origin, target.ids,
                                            palette=target.palette, timeout=60)  # fmt: skip
                assert result.complete, result.describe()
            else:
                await send_commands(self.mc, part)
        got.scale = scale
        if check and scale == 1.0:
            got.checked = await self.check(target)
        return got

    async def check(self, target: Target) -> str:
        actual = await read_names(self.mc, target.box)
        expected = np.where(target.setting, target.names, self.baseline[box_name(target.box)])
        return wrong(expected, actual)

    async def undo(self, target: Target, bare: Counted) -> Undo:
        await self.restore(target.box)
        builder = Builder()
        planned = plan_write(target.box.origin, target.ids, palette=target.palette)
        with self.meter.counting() as write:
            await builder.write(self.mc, planned, force=True, timeout=60)
        write.checked = await self.check(target)
        with self.meter.counting() as undo:
            await builder.undo(self.mc, timeout=60)
        actual = await read_names(self.mc, target.box)
        return Undo(write, bare, undo, wrong(self.baseline[box_name(target.box)], actual))


def box_name(box: Box) -> str:
    return next(name for name, origin, _ in BOXES if origin == box.origin)


Rows = dict[tuple[str, str], Row]
Targets = dict[tuple[str, str], Target]


def make_target(shape: str, box: Box, before: np.ndarray[Any, Any],
                rng: np.random.Generator) -> Target:  # fmt: skip
    if shape == "terrain":
        return terrain(box, before, rng)
    return pixel_wall(box, rng) if shape == "pixel wall" else hollow_sphere(box)


async def world(fast: bool, boxes: list[tuple[str, Box]], rounds: int, rows: Rows,
                targets: Targets) -> Undo | None:  # fmt: skip
    """Measure every write on one world (``fast``: the fast clock). The targets are made on
    the first world and reused on the second, so both write the same blocks; the undo is
    measured on the game clock."""
    async with (
        mcbews_repl.serve(port=0, call_timeout=60) as mc,
        SimWorld(fast=fast) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        run = Run(mc, sim)
        rng = np.random.default_rng(SEED)
        for name, box in boxes:
            run.baseline[name] = await read_names(mc, box)
            for shape in SHAPES:
                if (name, shape) not in targets:
                    targets[(name, shape)] = make_target(shape, box, run.baseline[name], rng)
                target = targets[(name, shape)]
                row = rows.setdefault((name, shape), Row(name, shape, box.volume, target.count))
                into = row.fast if fast else row.game
                tries = [await run.write(target, "set_blocks") for _ in range(rounds)]
                into["set_blocks"] = sorted(tries, key=lambda c: c.seconds)[len(tries) // 2]
                for method in METHODS[1:]:
                    into[method] = await run.write(target, method)
            await run.restore(box)  # the next box's terrain as first read, no shape left in it
        if fast or (UNDO_BOX, "terrain") not in rows:
            return None
        terrain_32 = rows[(UNDO_BOX, "terrain")]
        return await run.undo(targets[(UNDO_BOX, "terrain")], terrain_32.game["set_blocks"])


async def measure(rounds: int, boxes: list[tuple[str, Box]]) -> tuple[Rows, Undo | None]:
    rows: Rows = {}
    targets: Targets = {}
    await world(True, boxes, rounds, rows, targets)
    undo = await world(False, boxes, 1, rows, targets)
    return rows, undo


# --- the table --------------------------------------------------------------------------------


def rate(blocks: int, seconds: float) -> str:
    return f"{blocks / seconds:,.0f}" if seconds > 0 else "-"


def method_row(row: Row, method: str) -> str:
    fast, game = row.fast[method].whole(), row.game[method].whole()
    ours = row.fast["set_blocks"].whole()
    sampled_note = "" if fast.scale == 1.0 else f" (sampled 1/{fast.scale:.0f}, extrapolated)"
    fewer = "" if method == "set_blocks" else f" ({fast.commands / max(ours.commands, 1):,.0f}x)"
    checked = fast.checked or "not read back"
    return (
        f"| {row.box} | {row.shape} | {method}{sampled_note} | {fast.commands:,}{fewer} "
        f"| {fast.bytes / 1024:,.0f} | {fast.seconds:.2f} | {rate(row.blocks, fast.seconds)} "
        f"| {game.seconds:.2f} | {rate(row.blocks, game.seconds)} | {game.ticks} "
        f"| {max(fast.max_tick_positions, game.max_tick_positions):,} "
        f"| {max(fast.max_tick_cpu_ms, game.max_tick_cpu_ms):.0f} "
        f"({max(fast.max_tick_ms, game.max_tick_ms):.0f}) | {checked} |"
    )


INTRO = """## Building: `set_blocks` against a setblock per position and a fill planner

`make bench-build` runs `benchmarks/bench_build.py` (`--quick` for the two smaller boxes and
no page). The gateway and the simulated world (the real addon in QuickJS, the default world's
seeded terrain) run in one process over loopback, first on the fast clock (the simulated
game's ticks back to back: what the bridge and the addon cost), then on the game's 20 ticks
a second (what `%mc sim` runs and a real world gives). In the boxes the blocks benchmark
reads (around the spawn, from underground up into the air) three writes: *terrain*, the box
as read with three in ten positions changed to a mix of stone kinds, dirt, gravel and air
(every position set); *pixel wall*, a picture of wool and concrete as wide and high as the
box in its middle x-y plane; *hollow sphere*, the glass shell of the largest sphere that
fits the box (the rest of the box left as it is). Each is written three ways through the
same gateway: *set_blocks* (`write_blocks`, what `mc.set_blocks(..., undo=False)` runs: a
check of the palette, a request per section of runs, large ones in bulk parts); *setblock*,
one command per position set; *fill planner*, the positions merged greedily into boxes of
one block (runs along x, grown along z, then y, each at most 32,768 blocks), a `fill` a box.
Over 8,192 commands are sampled (every n-th sent) and the time and ticks extrapolated. Before
each write the box is put back as first read; after each whole write it is read back and
compared with what was meant. *Commands* are the `commandRequest` frames the game received
(bulk parts and pulls included) and *KiB* their bytes as sent; *game ticks* are on the game
clock (50 ms each). *Most set a tick* is the most blocks the scripts set in one tick (the
simulated world gives all jobs together 16 resumptions a tick and the write yields every 256
positions: at most 4,096 positions a tick, docs/sim.md "Script API block reads"); *longest
script tick* is the most time the scripts ran in one tick (every entry into them: the
tick's callbacks and job steps, the script events that carried the requests), as CPU time of
the thread they run on (the wall time in brackets, which the other processes' load
stretches), against the game's warning of a spike at 100 ms; it is the simulated world's own
speed (the addon in QuickJS, its Script API in Python), not the game's.
"""


def page(rows: dict[tuple[str, str], Row], undo: Undo | None, rounds: int, load: str) -> str:
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}, set_blocks the median of {rounds} "
        f"write{'s' * (rounds > 1)} on the fast clock, one of each other",
        f"- **Load: {load}.** Wall times on a shared machine are not comparable with a quiet "
        "one's; commands, bytes, ticks and positions a tick do not depend on the load.",
        "",
        "| box | write | method | commands (vs set_blocks) | KiB sent | fast clock s "
        "| blocks/s, fast | game clock s | blocks/s, game clock | game ticks "
        "| most set a tick | longest script tick, CPU ms (wall) | read back |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows.values():
        lines.extend(method_row(row, m) for m in METHODS)
    lines += ["", blocks_line(rows), ""]
    if undo is not None:
        lines += [undo_table(undo), ""]
    lines += [targets(rows, undo), "", notes(rows)]
    return "\n".join(lines) + "\n"


def notes(rows: dict[tuple[str, str], Row]) -> str:
    """What the targets missed, and why, from the figures."""
    out = []
    for r in rows.values():
        ours = r.fast["set_blocks"]
        per = r.fast["setblock"].whole().commands
        if r.box == "32x32x32" and per < TARGET_FEWER * ours.commands:
            why = " (a shell crosses most rows of the box twice)" * (r.shape == "hollow sphere")
            out.append(
                f"The {r.shape} at 32x32x32 misses the {TARGET_FEWER}x: it sets {r.blocks:,} "
                f"blocks scattered over the box{why}, so its runs, "
                f"{ours.bytes / 1024:,.0f} KiB as sent, take {ours.commands} commands, where "
                f"{TARGET_FEWER}x would take at most {per // TARGET_FEWER}; it sends fewer "
                f"than the fill planner ({r.fast['fill planner'].commands:,})."
            )
    counted = [c for r in rows.values() for c in (*r.fast.values(), *r.game.values())]
    longest = max(c.max_tick_cpu_ms for c in counted)
    if longest > SPIKE_MS:
        out.append(
            f"A tick's script work: the simulated world resumes jobs {JOB_STEPS_PER_TICK} times "
            f"a tick whatever they cost, so a tick in which the write's jobs handle their "
            f"{TICK_POSITIONS_BUDGET:,} positions took up to {longest:.0f} ms of CPU here "
            f"(about {longest * 1000 / TICK_POSITIONS_BUDGET:.0f} µs a position, the addon in "
            f"QuickJS and the Script API's blocks in Python), over the game's {SPIKE_MS} ms "
            "spike warning. The game gives jobs a time slice a tick instead, so there the "
            f"{POSITIONS_PER_YIELD} positions between two yields bound how far a tick can run "
            "over; a real game's ticks were not measured."
        )
    return "\n\n".join(out)


def blocks_line(rows: dict[tuple[str, str], Row]) -> str:
    parts = [f"{r.box} {r.shape} {r.blocks:,} of {r.volume:,}" for r in rows.values()]
    return "Blocks set a write: " + "; ".join(parts) + "."


def undo_table(u: Undo) -> str:
    def line(what: str, c: Counted, checked: str) -> str:
        return (
            f"| {what} | {c.commands:,} | {c.bytes / 1024:,.0f} | {c.seconds:.2f} | {c.ticks} "
            f"({c.ticks * TICK_MS / 1000:.2f} s) | {c.max_tick_positions:,} "
            f"| {c.max_tick_cpu_ms:.0f} ({c.max_tick_ms:.0f}) | {checked} |"
        )

    return "\n".join([
        f"Undo, on the game clock: the {UNDO_BOX} terrain written with undo kept (a `Builder`, "
        "what `mc.set_blocks` does by default: the box read with states first), then "
        "`undo` of it; the bare write (no undo kept) beside them.",
        "",
        "| game clock | commands | KiB sent | s | game ticks (game time) | most set a "
        "tick | longest script tick, CPU ms (wall) | read back |",
        "|---|---|---|---|---|---|---|---|",
        line(f"set_blocks {UNDO_BOX} terrain, no undo", u.bare, u.bare.checked),
        line("the same with undo kept (read, then write)", u.write, u.write.checked),
        line("undo of it", u.undo, f"{u.restored} (the terrain as before)"),
    ])  # fmt: skip


def targets(rows: dict[tuple[str, str], Row], undo: Undo | None) -> str:
    verdict = {True: "met", False: "**missed**"}
    out = ["| target | measured | |", "|---|---|---|"]
    at32 = [r for r in rows.values() if r.box == "32x32x32"]
    for r in at32:
        ours = r.fast["set_blocks"].commands
        per = r.fast["setblock"].whole().commands
        fills = r.fast["fill planner"].whole().commands
        out.append(
            f"| 32x32x32 {r.shape}: ≥ {TARGET_FEWER}x fewer commands than a setblock per "
            f"position, fewer than the fill planner | {ours:,} vs {per:,} ({per / ours:,.0f}x) "
            f"and {fills:,} | {verdict[per >= TARGET_FEWER * ours and ours < fills]} |"
        )
    for r in at32:
        ticks = r.game["set_blocks"].ticks
        out.append(
            f"| 32x32x32 {r.shape} within {TARGET_TICKS} game ticks on the game clock "
            f"| {ticks} | {verdict[ticks <= TARGET_TICKS]} |"
        )
    counted = [c for r in rows.values() for c in (*r.fast.values(), *r.game.values())]
    if undo is not None:
        counted += [undo.write, undo.undo]
    most = max(c.max_tick_positions for c in counted)
    longest = max(c.max_tick_cpu_ms for c in counted)
    wall = max(c.max_tick_ms for c in counted)
    out.append(
        f"| no tick over the simulated game's budget: at most {TICK_POSITIONS_BUDGET:,} "
        f"blocks set a tick ({JOB_STEPS_PER_TICK} job resumptions of {POSITIONS_PER_YIELD}) "
        f"| {most:,} | {verdict[most <= TICK_POSITIONS_BUDGET]} |"
    )
    out.append(
        f"| (time, depends on the machine) a tick's script work under the game's "
        f"{SPIKE_MS} ms spike warning | longest {longest:.0f} ms of CPU ({wall:.0f} ms wall) "
        f"| {'met' if longest <= SPIKE_MS else '**over** in the simulated world'} |"
    )
    if undo is not None:
        ok = undo.undo.ticks <= undo.write.ticks
        out.append(
            f"| undo of the {UNDO_BOX} write within the write's game time | undo "
            f"{undo.undo.ticks} ticks, the write it undoes {undo.write.ticks} (the read for "
            f"undo, then the write; the write alone {undo.bare.ticks}) | {verdict[ok]} |"
        )
    wrong_back = [c.checked for c in counted if c.checked not in ("ok", "")]
    out.append(
        f"| every whole write reads back as written | {len(wrong_back)} wrong "
        f"| {verdict[not wrong_back]} |"
    )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="the two smaller boxes, 1 round; prints, writes no page")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=None, help="set_blocks writes a box (3)")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    rounds = args.rounds or (1 if args.quick else 3)
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    boxes = [(name, Box(origin, size)) for name, origin, size in BOXES]
    meter = LoadMeter.start()
    rows, undo = asyncio.run(measure(rounds, boxes[:2] if args.quick else boxes))
    text = page(rows, undo, rounds, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("build", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'build')")


if __name__ == "__main__":
    main()
