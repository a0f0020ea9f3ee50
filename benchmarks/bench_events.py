"""Game events through the simulated world: how many a second reach a Python callback, how
many game ticks after the game's event, what the event log holds per 10,000, and what the
map and a track cost polled versus pushed.

    make bench-events  # or: .venv/bin/python benchmarks/bench_events.py [--quick]

The bridge runs as a notebook's does (``mcbews_repl.start()``: its own runtime thread,
``mc.on(kind, callback)``) and the simulated world on a thread of its own
(``SimHandle``, as ``%mc sim`` makes it), its clock at the game's 20 ticks a second, the
real addon bundle loaded; they meet over a WebSocket on 127.0.0.1. Measured:

* **A flood** of one event kind: on each tick the world's players break ``FLOOD_PER_TICK``
  blocks between them (``sim.break_block``, the doing a cell calls), ``FLOOD_PER_SECOND``
  a second for ``FLOOD_SECONDS``. Every kind of :data:`FLOODS` is measured on every
  transport (``bench_transports.TRANSPORTS``: pull, chat, tags). A WebSocket event is the
  connected client's own, so its flood is the host's alone; a kind the addon forwards for
  every player is flooded by ``ADDON_PLAYERS`` players. Such a kind is measured when the
  vocabulary (``mcbews_repl.game_events.GAME_EVENTS``) has it: :data:`ADDON_KIND`, or
  ``--addon-kind NAME``. Delivered: the callbacks that ran; dropped: fired less
  delivered once the stream has drained. Latency: the world's tick when the callback ran
  less the tick the block was broken in (events of one kind arrive in order, so the
  callbacks are matched with the breaks oldest first).
* **Memory**: 10,000 BlockBroken frames (the simulated game's own, all different) decoded
  by the protocol core and kept in an event log as the gateway keeps them: the memory the
  log holds (tracemalloc), the log's own estimate of it (what its byte bounds count), and
  how many of the 10,000 one connection's share of a default log keeps.
* **The map and a track**: ``mc.map()`` looking every second (``StaticMap.refresh()``, the
  live map's look) and ``mc.track(every=0.5)``, for ``WATCH_SECONDS`` each, in a world where
  Steve, the connected client, is alone and walks a circle (a step a tick): once polled,
  once with PlayerTravelled subscribed (docs/repl.md, "Pushed positions"). Commands are what
  the map's looks (the track's snapshots) sent; the connection's commands add the UI chat
  poller's reads (pull).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import math
import statistics
import time
import tracemalloc
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import docs_page
from bench_transports import TRANSPORTS
from machine_load import LoadMeter

import mcbews_repl
from mcbews_repl.game_events import GAME_EVENTS, Source
from mcbews_repl.gateway import EventLog
from mcbews_repl.gateway.inbound import event_summary, event_values
from mcbews_repl.limits import LOG_CONNECTION_MAX_BYTES
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.handle._simulate import SimHandle, make_world
from mcbews_repl.sansio import BridgeProtocol, GameEventReceived
from mcbews_repl.sim import SimWorld, Vec3
from mcbews_repl.sim.game_events import body_of, event_frame, item_object
from mcbews_repl.vocabulary import EventKind

FLOOD_PER_SECOND = 1_000  # the target: a thousand events a second
FLOOD_PER_TICK = FLOOD_PER_SECOND // 20
FLOOD_SECONDS = 5.0
# Before the flood, the latency of events at a calm pace: one every 4 ticks (5 a second).
TRICKLE_EVERY = 4
TRICKLE_EVENTS = 30
ADDON_PLAYERS = 30  # the target: from thirty players
# The addon-forwarded kind the flood measures beside the WebSocket's, when the vocabulary
# has it (a kind of Source.ADDON fired by the players' doings for every player).
ADDON_KIND = "player_break_block"
WATCH_SECONDS = 60.0
MEMORY_EVENTS = 10_000
_FLOOR_Y = 40  # where the flood's blocks are broken: under the ground, inside the height
_PROBE_SECONDS = 15.0  # how long a flood waits for its first event (the subscription)
_DRAIN_SECONDS = 10.0  # how long it waits for the last ones once the breaking stops
_STONE = "minecraft:stone"


@dataclass(frozen=True)
class Flood:
    """One event kind to flood: who breaks the blocks, and the label of its rows."""

    kind: str
    label: str
    players: int  # 1: the connected client alone (a WebSocket event covers no one else)


def floods(addon_kind: str = ADDON_KIND) -> list[Flood]:
    """The WebSocket's BlockBroken, and the addon's kind when the vocabulary has one."""
    chosen = [Flood("BlockBroken", "WebSocket BlockBroken (the host's)", 1)]
    kind = GAME_EVENTS.get(addon_kind)
    if kind is not None and kind.source == Source.ADDON:
        chosen.append(Flood(addon_kind, f"addon {addon_kind} ({ADDON_PLAYERS} players)",
                            ADDON_PLAYERS))  # fmt: skip
    return chosen


def wait_until(check: Callable[[], Any], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@dataclass
class Breaker:
    """The world's tick listener that breaks the flood's blocks, and the callback that hears
    them; ``ticks`` holds the tick of every break not heard yet, oldest first."""

    sim: SimWorld
    players: list[str]
    per_tick: int = 0  # 0: idle; 1 while probing; FLOOD_PER_TICK while flooding
    every: int = 1  # break on every this many ticks (TRICKLE_EVERY while trickling)
    fired: int = 0
    heard: int = 0
    latencies: list[int] = field(default_factory=list)
    ticks: deque[int] = field(default_factory=deque)
    first_at: float = 0.0
    last_at: float = 0.0
    _next: int = 0

    def on_tick(self, tick: int) -> None:
        world = self.sim.world
        if tick % self.every:
            return
        for _ in range(self.per_tick):
            k, self._next = self._next, self._next + 1
            player = self.players[k % len(self.players)]
            x, z = k % 256 - 128, k // 256 % 256 - 128
            world.set_block("overworld", x, _FLOOR_Y, z, _STONE)
            self.ticks.append(tick)
            self.sim.break_block(player, x, _FLOOR_Y, z)
            self.fired += 1

    def on_event(self, _event: Any) -> None:
        fired = self.ticks.popleft() if self.ticks else self.sim.clock.tick
        self.latencies.append(self.sim.clock.tick - fired)
        self.heard += 1
        self.last_at = time.perf_counter()

    def reset(self) -> None:
        self.fired = self.heard = 0
        self.latencies.clear()
        self.ticks.clear()


@dataclass
class FloodOutcome:
    fired: int
    heard: int
    seconds: float  # from the first break to the last callback
    breaking: float  # the seconds the world was breaking blocks
    latencies: list[int]
    ticks: int
    callback_drops: int
    refused: int  # the gateway's counts of events refused or dropped meanwhile
    trickle: list[int]  # latencies in ticks of TRICKLE_EVENTS events, one each TRICKLE_EVERY


@contextmanager
def linked(transport: str, names: list[str]) -> Iterator[tuple[Minecraft, SimHandle]]:
    """A notebook's bridge and a simulated world of ``names`` on threads of their own."""
    with mcbews_repl.start(port=0, transport=transport, call_timeout=30) as mc:
        world = make_world(names)

        def make() -> SimWorld:
            return SimWorld(world, clock="realtime", **TRANSPORTS[transport])

        sim = asyncio.run(SimHandle.launch(make, mc.url, "bench-events-sim"))
        try:
            if not wait_until(lambda: mc.connections and mc.connections[0].transport, 30):
                raise RuntimeError("the simulated world did not connect")
            yield mc, sim
        finally:
            asyncio.run(sim.close())


def _refused(mc: Minecraft) -> int:
    """The gateway's counts of game events it dropped (unasked, malformed, over a bound) and
    of those the addon said it dropped (``forwarded_dropped_by_addon``)."""
    total = 0
    for connection in mc.bridge.connections:
        for key, count in connection.proto.counters.items():
            dropped = key.startswith("forwarded_") and key != "forwarded_batches"
            refused = key == "unsubscribed_event" or key.startswith("rejected:")
            if dropped or refused or "event" in key:
                total += count
    return total


def flood_once(transport: str, flood: Flood, seconds: float) -> FloodOutcome:
    names = ["Steve"] + [f"P{n:02d}" for n in range(1, flood.players)]
    with linked(transport, names) as (mc, sim):
        breaker = Breaker(sim.raw, names)
        sim.on_loop(sim.raw.clock.add_listener, breaker.on_tick)
        mc.on(flood.kind, breaker.on_event)
        sim.on_loop(setattr, breaker, "per_tick", 1)  # a break a tick until one is heard
        if not wait_until(lambda: breaker.heard, _PROBE_SECONDS):
            raise RuntimeError(f"no {flood.kind} event arrived within {_PROBE_SECONDS:g} s")
        sim.on_loop(setattr, breaker, "per_tick", 0)
        wait_until(lambda: breaker.heard >= breaker.fired, _DRAIN_SECONDS)
        sim.on_loop(breaker.reset)
        sim.on_loop(setattr, breaker, "every", TRICKLE_EVERY)
        sim.on_loop(setattr, breaker, "per_tick", 1)
        wait_until(lambda: breaker.fired >= TRICKLE_EVENTS, _DRAIN_SECONDS)
        sim.on_loop(setattr, breaker, "per_tick", 0)
        wait_until(lambda: breaker.heard >= breaker.fired, _DRAIN_SECONDS)
        trickle = list(breaker.latencies)
        sim.on_loop(setattr, breaker, "every", 1)
        sim.on_loop(breaker.reset)
        refused0, drops0 = _refused(mc), mc._core.events.dropped
        tick0, start = sim.raw.clock.tick, time.perf_counter()
        sim.on_loop(setattr, breaker, "per_tick", FLOOD_PER_TICK)
        time.sleep(seconds)
        sim.on_loop(setattr, breaker, "per_tick", 0)
        breaking = time.perf_counter() - start
        ticks = sim.raw.clock.tick - tick0
        wait_until(lambda: breaker.heard >= breaker.fired, _DRAIN_SECONDS)
        took = (breaker.last_at or time.perf_counter()) - start
        mc.off()
        return FloodOutcome(breaker.fired, breaker.heard, took, breaking, list(breaker.latencies),
                            ticks, mc._core.events.dropped - drops0,
                            _refused(mc) - refused0, trickle)  # fmt: skip


# --- memory ----------------------------------------------------------------------------------


@dataclass
class MemoryOutcome:
    held_bytes: int  # what tracemalloc saw the log keep
    estimated_bytes: int  # the log's own estimate of those entries
    kept_by_one_connection: int  # of MEMORY_EVENTS, in a default log's connection share


def _frames(count: int) -> list[str]:
    world = make_world(["Steve"])
    steve = world.players["Steve"]
    texts = []
    for k in range(count):
        steve.location = Vec3(k % 100 + 0.5, 64.0, k // 100 + 0.5)
        body = body_of("BlockBroken", steve, block=item_object("minecraft:stone"), count=1,
                       destructionMethod=0)  # fmt: skip
        texts.append(json.dumps(event_frame("BlockBroken", body, 17104896)))
    return texts


def _keep_all(texts: list[str], log: EventLog) -> None:
    proto = BridgeProtocol()
    for text in texts:
        for event in proto.receive_text(text, now=0.0):
            if isinstance(event, GameEventReceived):
                game = event.event
                log.append(EventKind.GAME_EVENT, event_summary(game), 1, event=game.name,
                           **event_values(game))  # fmt: skip


def memory() -> MemoryOutcome:
    texts = _frames(MEMORY_EVENTS)
    big = EventLog(capacity=MEMORY_EVENTS, max_bytes=1 << 30, connection_max_bytes=1 << 30)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    _keep_all(texts, big)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    default = EventLog()
    _keep_all(texts, default)
    return MemoryOutcome(held, big.connection_bytes(1), len(default))


# --- the map and a track, polled and pushed ------------------------------------------------


@dataclass
class WatchOutcome:
    what: str
    how: str
    seconds: float
    commands: int  # what the map's looks or the track's snapshots sent
    connection_commands: int  # everything the bridge sent that world meanwhile
    looks: int


def _walker(sim: SimWorld) -> Callable[[int], None]:
    def step(tick: int) -> None:
        angle = tick / 20.0  # a radian a second: a circle of 8 blocks in about 6 s
        sim.walk("Steve", 0.5 + 8 * math.cos(angle), 64.0, 0.5 + 8 * math.sin(angle))

    return step


def _frames_out(mc: Minecraft) -> int:
    return sum(int(c.stats()["frames_out"]) for c in mc.bridge.connections)


def watch(pushed: bool, seconds: float) -> list[WatchOutcome]:
    how = "pushed (PlayerTravelled)" if pushed else "polled"
    rows = []
    with linked("pull", ["Steve"]) as (mc, sim):
        sim.on_loop(sim.raw.clock.add_listener, _walker(sim.raw))
        if pushed:
            mc.subscribe("PlayerTravelled").result(10)
            wait_until(lambda: "PlayerTravelled" in sim.raw.client.subscriptions, 10)
        sent0, start = _frames_out(mc), time.perf_counter()
        picture = mc.map(live=False)
        looks = 1
        while time.perf_counter() - start < seconds:
            time.sleep(max(0.0, start + looks - time.perf_counter()))  # a look a second
            picture.refresh()
            looks += 1
        took = time.perf_counter() - start
        rows.append(WatchOutcome("mc.map(), a look a second", how, took, picture.commands,
                                 _frames_out(mc) - sent0, looks))  # fmt: skip
        sent0, start = _frames_out(mc), time.perf_counter()
        tracking = mc.track(seconds=seconds, every=0.5)
        frame = tracking.result(seconds + 60)
        took = time.perf_counter() - start
        scope = tracking.scope
        commands = scope.total("commands_sent") if scope is not None else 0
        rows.append(WatchOutcome("mc.track(every=0.5)", how, took, commands,
                                 _frames_out(mc) - sent0, len(frame)))  # fmt: skip
    return rows


# --- the page ------------------------------------------------------------------------------


def _percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))])


def flood_rows(
    results: dict[tuple[str, str], FloodOutcome | str], chosen: list[Flood], addon_kind: str
) -> list[str]:
    rows = []
    for flood in chosen:
        for transport in TRANSPORTS:
            got = results.get((flood.kind, transport))
            if not isinstance(got, FloodOutcome):
                rows.append(f"| {flood.label} | {transport} | **FAILED**: {got} | | | | | | | |")
                continue
            dropped = got.fired - got.heard
            rate = got.heard / got.seconds if got.seconds else 0.0
            lat = got.latencies or [0]
            calm = got.trickle or [0]
            lost = f"{dropped:,}" + (f" ({got.callback_drops:,} at the callbacks)"
                                     if got.callback_drops else "")  # fmt: skip
            rows.append(
                f"| {flood.label} | {transport} | {got.fired:,} in {got.ticks} ticks | "
                f"{got.fired / got.breaking:,.0f} | {rate:,.0f} | "
                f"{got.heard / max(got.ticks, 1) * 20:,.0f} | {lost} | "
                f"{statistics.median(calm):.0f} / {_percentile(calm, 0.99):.0f} | "
                f"{statistics.median(lat):.0f} / {_percentile(lat, 0.99):.0f} | {got.refused:,} |"
            )
    if not any(f.kind == addon_kind for f in chosen):
        rows.append(f"| addon {addon_kind} | all | not measured: the vocabulary has no addon "
                    "kind of that name yet | | | | | | | |")  # fmt: skip
    return rows


def watch_rows(outcomes: list[WatchOutcome]) -> list[str]:
    rows = []
    by = {(o.what, o.how.split()[0]): o for o in outcomes}
    for o in outcomes:
        polled = by.get((o.what, "polled"))
        ratio = ""
        if o.how != "polled" and polled is not None:
            rate = o.commands / o.seconds
            base = polled.commands / polled.seconds
            ratio = f"{base / rate:.1f} times fewer" if rate else "none sent"
        rows.append(
            f"| {o.what} | {o.how} | {o.commands / o.seconds:.2f} | "
            f"{o.connection_commands / o.seconds:.2f} | {o.commands} in {o.seconds:.0f} s "
            f"({o.looks} {'looks' if 'map' in o.what else 'rows'}) | {ratio} |"
        )
    return rows


INTRO = """## Game events: floods, latency, memory, and the map polled or pushed

`make bench-events` runs `benchmarks/bench_events.py` (`--quick` for a short look). The
bridge runs as a notebook's does (its own thread, `mc.on(kind, callback)`), the simulated
world on a thread of its own with its clock at the game's 20 ticks a second and the real
addon loaded, over a WebSocket on 127.0.0.1. A flood: on every tick the world's players
break 50 blocks between them (`sim.break_block`), a thousand a second; a WebSocket event
is the connected client's own, so its flood is the host's alone; a kind the addon forwards
for every player is flooded by 30 players, and is measured once the vocabulary has one
(`ADDON_KIND`). Broken a second is the world's pace: a world whose ticks fall behind the
game's 20 a second (a busy machine) breaks fewer. Delivered a second are the callbacks that
ran per second of wall time, the tail included, and per game second (20 of the world's
ticks), which does not depend on how far the world fell behind; dropped is what was broken
but never heard once the stream drained;
latency is the world's tick when the callback ran less the tick of the break (0: the same
tick). Refused counts what the gateway refused or dropped of the game's events meanwhile,
and what the addon said it dropped.
"""


def page(
    results: dict[tuple[str, str], FloodOutcome | str],
    chosen: list[Flood],
    addon_kind: str,
    mem: MemoryOutcome,
    watched: list[WatchOutcome],
    seconds: float,
    load: str,
) -> str:
    per = MEMORY_EVENTS
    lines = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}; floods of {seconds:g} s",
        f"- **Load: {load}.** Wall-clock rates on a shared machine are not comparable with a "
        "quiet one's; ticks, counts and commands do not depend on the load.",
        "",
        "#### A thousand events a second",
        "",
        "| events | transport | broken | broken a second | delivered a second | delivered a "
        "game second (20 ticks) | dropped | latency ticks p50 / p99, 5 a second | "
        "latency ticks p50 / p99, in the flood | refused |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *flood_rows(results, chosen, addon_kind),
        "",
        f"#### The event log, per {per:,} events",
        "",
        "| BlockBroken events | held (tracemalloc) | the log's estimate | kept of "
        f"{per:,} by one connection's share of a default log |",
        "|---|---|---|---|",
        f"| {per:,} | {mem.held_bytes / 2**20:.1f} MiB ({mem.held_bytes / per:,.0f} B each) | "
        f"{mem.estimated_bytes / 2**20:.1f} MiB ({mem.estimated_bytes / per:,.0f} B each) | "
        f"{mem.kept_by_one_connection:,} |",
        "",
        f"One connection's share of the log ({LOG_CONNECTION_MAX_BYTES / 2**20:g} MiB, as the "
        f"log estimates) holds {mem.kept_by_one_connection:,} such events; the estimate is "
        f"{abs(mem.estimated_bytes / mem.held_bytes - 1):.0%} "
        f"{'above' if mem.estimated_bytes >= mem.held_bytes else 'below'} what tracemalloc "
        "sees held (its byte bounds count the estimate).",
        "",
        "#### The map and a track, polled or pushed",
        "",
        "Steve alone in the world (the connected client is everyone there), walking a step a "
        "tick; pull transport, the UI chat poller at its default interval.",
        "",
        "| what | positions | its commands a second | the connection's commands a second | "
        "its commands | pushed against polled |",
        "|---|---|---|---|---|---|",
        *watch_rows(watched),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="short runs; prints, writes no page")
    kind_help = f"the addon kind flooded beside BlockBroken (default {ADDON_KIND})"
    parser.add_argument("--addon-kind", default=ADDON_KIND, help=kind_help)
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    seconds = 2.0 if args.quick else FLOOD_SECONDS
    watch_seconds = 16.0 if args.quick else WATCH_SECONDS
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    meter = LoadMeter.start()
    chosen = floods(args.addon_kind)
    results: dict[tuple[str, str], FloodOutcome | str] = {}
    for flood in chosen:
        for transport in TRANSPORTS:
            print(f"flooding {flood.kind} over {transport} ...", flush=True)
            try:
                results[(flood.kind, transport)] = flood_once(transport, flood, seconds)
            except (RuntimeError, mcbews_repl.McbewsError) as exc:  # a row, not a crash
                results[(flood.kind, transport)] = str(exc)
    print("the event log's memory ...", flush=True)
    mem = memory()
    print("the map and a track, polled then pushed ...", flush=True)
    watched = watch(False, watch_seconds) + watch(True, watch_seconds)
    text = page(results, chosen, args.addon_kind, mem, watched, seconds, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("events", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'events')")


if __name__ == "__main__":
    main()
