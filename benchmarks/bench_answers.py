"""Large answers over the chat transport: inventory snapshots of many full inventories.

    make bench-answers  # or: .venv/bin/python benchmarks/bench_answers.py [--quick] [--help]

The gateway (``mcbews_repl.serve``, the chat transport set) and the simulated world
(``SimWorld(fast=True)`` with the beta pack and Beta APIs, running the real addon bundle in
QuickJS) talk over loopback, in one process; ``bench_transports.py`` sets this beside the
pull transport. The world
holds 1, 10 or 50 players whose 36 inventory slots and 5 equipment slots are all full
(tools with enchantments and damage, named items with lore, stacks). For each size:

* all players in one call: ``await mc.call("get_inventory_snapshot")``;
* the per-player fan-out: one ``get_inventory_snapshot`` call per player (``target=name``),
  gathered concurrently.

Measured: the outcome (a failure, such as the addon's CAPABILITY_FAILED for an answer over
128 chunks, is a row of the table, not a crash), the game ticks the answer took (20 per
second in the game; the fast clock runs them back to back, so ticks are the game-time cost
a player would see), the wall time on the fast clock, and the chunks the bridge player sent.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docs_page
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.addon import sim_bundle_path
from mcbews_repl.repl.handle import snapshot_everyone
from mcbews_repl.sim import (
    Enchantment,
    ItemStack,
    Player,
    SimWorld,
    Vec3,
    WorldState,
    make_player,
)

PLAYER_COUNTS = (1, 10, 50)
TICK_MS = 50  # the game's 20 ticks per second
BRIDGE_SENDER = "MCBEWS_BRIDGE"  # the addon's simulated player that sends answer chunks
CALL_TIMEOUT_S = 30.0  # generous: the measurement is the time, not a timeout


# --- a world of full inventories ----------------------------------------------------------


# What a player carries in the middle of a game: a named, enchanted sword with lore,
# damaged tools, armour, and stacks in every other slot. About 4 KB of answer per player.
_HOTBAR = [("minecraft:diamond_sword", 1561), ("minecraft:iron_pickaxe", 250),
           ("minecraft:bow", 384), ("minecraft:stone_axe", 131)]  # fmt: skip
_STACKS = ["minecraft:cobblestone", "minecraft:oak_log", "minecraft:torch",
           "minecraft:bread", "minecraft:redstone", "minecraft:glass",
           "minecraft:white_wool", "minecraft:arrow"]  # fmt: skip
_ARMOUR = {"Head": ("minecraft:iron_helmet", 165), "Chest": ("minecraft:iron_chestplate", 240),
           "Legs": ("minecraft:iron_leggings", 225), "Feet": ("minecraft:iron_boots", 195),
           "Offhand": ("minecraft:shield", 336)}  # fmt: skip


def _worn(type_id: str, durability: int, **extra: Any) -> ItemStack:
    return ItemStack(type_id, damage=durability // 3, max_durability=durability, max_amount=1,
                     **extra)  # fmt: skip


def full_player(name: str, index: int) -> Player:
    """A player with every inventory and equipment slot occupied."""
    player = make_player(name, Vec3(index * 2.5, 64.0, 0.5))
    player.inventory[0] = _worn(
        *_HOTBAR[0],
        name_tag=f"Blade of {name}",
        lore=["Forged in the nether"],
        enchantments=[Enchantment("sharpness", 5), Enchantment("unbreaking", 3)],
    )
    player.inventory[1] = _worn(*_HOTBAR[1], name_tag="Old Faithful")
    player.inventory[2] = _worn(*_HOTBAR[2], enchantments=[Enchantment("power", 4)])
    player.inventory[3] = _worn(*_HOTBAR[3])
    for slot in range(len(_HOTBAR), len(player.inventory)):
        stack = _STACKS[(slot + index) % len(_STACKS)]
        player.inventory[slot] = ItemStack(stack, amount=1 + (slot * 7 + index) % 64)
    for slot, armour in _ARMOUR.items():
        player.equipment[slot] = _worn(*armour, enchantments=[Enchantment("protection", 3)])
    return player


def world_of(players: int) -> WorldState:
    """``players`` full inventories; the first is Steve, the one who typed /connect."""
    world = WorldState()
    for index in range(players):
        world.add_player(full_player("Steve" if index == 0 else f"Player{index:02d}", index))
    return world


# --- measuring ----------------------------------------------------------------------------


@dataclass
class Outcome:
    """One measured call (or one gathered fan-out). ``chunks`` and ``answer_bytes``: the
    bridge player's chat lines and their bytes; ``commands`` (when the connection is given to
    :func:`timed`): the commandRequests sent; ``result_bytes``: the results as Python holds
    them (repr), whichever way they came."""

    ok: int = 0
    failures: list[str] = field(default_factory=list)
    ticks: int = 0
    wall_s: float = 0.0
    chunks: int = 0
    answer_bytes: int = 0
    commands: int = 0
    result_bytes: int = 0


def _failure(exc: BaseException) -> str:
    if isinstance(exc, mcbews_repl.CapabilityError):
        return f"{exc.code}: {exc.message}"
    return f"{type(exc).__name__}: {exc}"


def _frames_out(connection: Any) -> int:
    return int(connection.stats()["frames_out"]) if connection is not None else 0


async def timed(
    sim: SimWorld, call: Callable[[], Awaitable[list[Any]]], connection: Any = None
) -> Outcome:
    """Run ``call`` (a list of results or exceptions); count ticks, time, chunks, and the
    commands sent when ``connection`` (the gateway's connection object) is given."""
    tick0, chat0, sent0 = sim.clock.tick, len(sim.chat_log), _frames_out(connection)
    start = time.perf_counter()
    answers = await call()
    outcome = Outcome(wall_s=time.perf_counter() - start, ticks=sim.clock.tick - tick0)
    outcome.commands = _frames_out(connection) - sent0
    lines = [line for line in sim.chat_log[chat0:] if line.sender == BRIDGE_SENDER]
    outcome.chunks = len(lines)
    outcome.answer_bytes = sum(len(line.message.encode()) for line in lines)
    for answer in answers:
        if isinstance(answer, BaseException):
            outcome.failures.append(_failure(answer))
        else:
            outcome.ok += 1
            outcome.result_bytes += len(repr(answer).encode())
    return outcome


Asking = Callable[[], Awaitable[list[Any]]]
ASKING_LABELS = {
    "all": "one call, every player",
    "fanout": "{calls} call{s}, one per player, gathered",
    "inventory": "mc.inventory(): who is online, then per player",
}


def ways_of_asking(mc: mcbews_repl.Bridge, names: list[str]) -> dict[str, Asking]:
    """``all``: one get_inventory_snapshot for every player; ``fanout``: one call per player,
    gathered; ``inventory``: what ``mc.inventory()`` does (``repl/handle/_fanout.py``: ask who is
    online, then per player, stitched). Each returns its results or exceptions."""

    async def at_once() -> list[Any]:
        return await asyncio.gather(mc.call("get_inventory_snapshot"), return_exceptions=True)

    async def fan_out() -> list[Any]:
        calls = (mc.call("get_inventory_snapshot", target=name) for name in names)
        return await asyncio.gather(*calls, return_exceptions=True)

    async def call(capability: str, **payload: Any) -> dict[str, Any]:
        return await mc.call(capability, payload)

    async def inventory() -> list[Any]:
        stitched = snapshot_everyone(call, "get_inventory_snapshot")
        return await asyncio.gather(stitched, return_exceptions=True)

    return {"all": at_once, "fanout": fan_out, "inventory": inventory}


async def measure_world(
    players: int, rounds: int, addon: Path | None = None, only: tuple[str, ...] = ()
) -> dict[str, list[Outcome]]:
    """Every way of asking (or ``only`` those), ``rounds`` times each, alternating, on one
    connected world; ``addon``: a simulator bundle to host instead of the shipped one."""
    world = world_of(players)
    names = list(world.players)  # before the beta pack's bridge player joins them
    bundle: Path | bool = addon or True
    async with (
        mcbews_repl.serve(port=0, call_timeout=CALL_TIMEOUT_S, transport="chat") as mc,
        SimWorld(world, fast=True, pack="beta", beta_apis=True, addon=bundle) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        await mc.call("get_inventory_snapshot", target="Steve")  # warm up the path
        asking = {k: v for k, v in ways_of_asking(mc, names).items() if not only or k in only}
        got: dict[str, list[Outcome]] = {how: [] for how in asking}
        for _ in range(rounds):
            for how, ask in asking.items():
                got[how].append(await timed(sim, ask))
    return got


# --- the bridge player's pace -----------------------------------------------------------------

PACES = (1, 2, 4, 8, 16, 32)  # chunk lines the bridge player sends per tick
SHIPPED_PACE = "linesPerTick: {pace},"


def bundle_with_pace(pace: int, folder: Path) -> Path:
    """The shipped beta bundle with another ``linesPerTick`` (addon/src/runtime.ts)."""
    source = sim_bundle_path("beta").read_text("utf-8")
    shipped = re.search(r"linesPerTick: (\d+),", source)
    if shipped is None:
        raise SystemExit("the beta bundle has no 'linesPerTick: N,'; rebuild the addon")
    path = folder / f"sim_beta_pace{pace}.js"
    path.write_text(source.replace(shipped.group(0), SHIPPED_PACE.format(pace=pace), 1))
    return path


async def measure_paces(rounds: int) -> dict[int, dict[int, list[Outcome]]]:
    """For each pace: one full inventory (about 4 KB) and mc.inventory() of 50."""
    got: dict[int, dict[int, list[Outcome]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for pace in PACES:
            bundle = bundle_with_pace(pace, Path(folder))
            one = await measure_world(1, rounds, bundle, only=("all",))
            many = await measure_world(50, rounds, bundle, only=("inventory",))
            got[pace] = {1: one["all"], 50: many["inventory"]}
    return got


# --- the table ------------------------------------------------------------------------------


def row(players: int, how: str, runs: list[Outcome]) -> str:
    calls = players if how == "fanout" else 1
    failures = sorted({f for r in runs for f in r.failures})
    ok = sum(r.ok for r in runs)
    total = calls * len(runs)
    outcome = "ok" if ok == total else f"**FAILED** {total - ok} of {total}: " + "; ".join(failures)
    ticks = statistics.median(r.ticks for r in runs)
    walls = [r.wall_s * 1000 for r in runs]
    wall = f"{statistics.median(walls):.0f}"
    if len(walls) > 1:
        wall += f" ({min(walls):.0f}-{max(walls):.0f})"
    chunks = statistics.median(r.chunks for r in runs)
    size = statistics.median(r.answer_bytes for r in runs) / 1024
    label = ASKING_LABELS[how].format(calls=players, s="s" * (players > 1))
    return (
        f"| {players} | {label} | {outcome} | {ticks:.0f} ({ticks * TICK_MS:,.0f} ms) "
        f"| {wall} | {chunks:.0f} ({size:.1f} KiB) |"
    )


INTRO = """## Large answers: inventory snapshots through the simulated world

`make bench-answers` runs `benchmarks/bench_answers.py` (`--quick` for one round). The
gateway (chat transport) and the simulated world (fast clock, the real addon in QuickJS) run
in one process; every player's 36 inventory slots and 5 equipment slots are full. *One
call*: `mc.call("get_inventory_snapshot")` for every player at once (an answer over 128
chunks goes up [paged](protocol.md#paged-answers)); *per player*: one call per player
(`target=name`), gathered concurrently; *mc.inventory()*: what the notebook call does
(`mcbews_repl/repl/handle/_fanout.py`: one `get_player_snapshot` for who is online, then per
player, stitched into one answer). Game ticks are the game time the answer costs (50 ms
each; the fast clock runs them back to back; the bridge player sends `linesPerTick` chunk
lines a tick, `addon/src/runtime.ts`); chunks are its `tell` lines, with their bytes. A
failure is a row, with the addon's error. The pull transport's figures for the same world
are in the transports section.
"""

PACE_INTRO = """### The bridge player's pace

The same measurement with the shipped bundle's `linesPerTick` changed, for one full
inventory (about 4 KB, the answer users meet most) and for `mc.inventory()` of 50. The
game's call timeout is 5 s (100 ticks, `DEFAULT_TIMEOUT_SECONDS`): *within 5 s* says
whether the answer's game time fits it in a real world, where ticks take 50 ms each.
"""


def _ratio_line(results: dict[int, dict[str, list[Outcome]]]) -> str:
    parts = []
    for players, got in results.items():
        if "inventory" in got and "fanout" in got:
            mine = statistics.median(r.ticks for r in got["inventory"])
            theirs = statistics.median(r.ticks for r in got["fanout"])
            parts.append(f"{players}: {mine:.0f} / {theirs:.0f} = {mine / theirs:.2f}x")
    return "- mc.inventory()'s game ticks over the per-player fan-out's: " + "; ".join(parts)


def pace_rows(paces: dict[int, dict[int, list[Outcome]]]) -> list[str]:
    rows = [
        "| lines per tick | 1 inventory: ticks (game time) | wall ms "
        "| mc.inventory() of 50: ticks (game time) | within 5 s | wall ms |",
        "|---|---|---|---|---|---|",
    ]
    for pace, got in paces.items():
        cells = [str(pace)]
        for players in (1, 50):
            runs = got[players]
            ticks = statistics.median(r.ticks for r in runs)
            wall = statistics.median(r.wall_s for r in runs) * 1000
            bad = sum(len(r.failures) for r in runs)
            cells.append(
                f"{ticks:.0f} ({ticks * TICK_MS:,.0f} ms)" + (f", {bad} failed" if bad else "")
            )
            if players == 50:
                cells.append("yes" if ticks * TICK_MS <= 5000 else "**no**")
            cells.append(f"{wall:.0f}")
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def page(
    results: dict[int, dict[str, list[Outcome]]],
    paces: dict[int, dict[int, list[Outcome]]],
    rounds: int,
    load: str,
) -> str:
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}, {rounds} round{'s' * (rounds > 1)} "
        "per row (medians; wall time with its range)",
        f"- **Load: {load}.** Wall times on a shared machine are not comparable with a quiet "
        "one's; ticks and chunks do not depend on the load.",
        _ratio_line(results),
        "",
        "| players | how | outcome | game ticks (game time) | wall ms | chunks (answer) |",
        "|---|---|---|---|---|---|",
    ]
    for players, got in results.items():
        lines += [row(players, how, runs) for how, runs in got.items()]
    if paces:
        lines += ["", PACE_INTRO, *pace_rows(paces)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1 round; prints, writes no page")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per row (5)")
    parser.add_argument("--no-paces", action="store_true", help="skip the pace sweep")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    rounds = args.rounds or (1 if args.quick else 5)
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)  # failures are in the table
    meter = LoadMeter.start()
    results = {n: asyncio.run(measure_world(n, rounds)) for n in PLAYER_COUNTS}
    paces = asyncio.run(measure_paces(max(1, rounds // 2))) if not args.no_paces else {}
    text = page(results, paces, rounds, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("answers", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'answers')")


if __name__ == "__main__":
    main()
