"""Soak and chaos: the bridge under notebook traffic, unstable worlds and a hostile peer.

Run: ``make soak`` (10 minutes) or ``.venv/bin/python benchmarks/bench_soak.py --quick``
(60 s); ``--seconds N`` for any length.

Two processes, as in real use. This one runs the bridge (``mcbews_repl.serve`` with its
defaults) and a notebook: several cells calling commands, capabilities and long
``send_text`` on the open worlds, one now and then closing a world's connection, and two
UI chat callbacks, one slow (it answers each message after up to a second) and one that
fails on every third message. ``soak_games.py`` runs the games: several simulated worlds
that connect, disconnect and reconnect at random while their players type into the
addon's chat panel, and a hostile peer. At 30 % of the run the hostile peer connects with
the right token and sends, phase by phase: 150 chats of 1 MiB, junk frames, chunk floods,
spoofed senders and wrong-token handshakes from another address, then 5,000 UI chats.

Every call is tallied: answered, failed with a clear error (a ``McbewsError``, by type), or
lost (neither an answer nor a specific exception within a generous guard; target 0).
Memory is traced with tracemalloc (started before the bridge) and read as RSS; live
asyncio tasks are sampled every quarter second. Targets: 0 lost; memory after
the flood within 64 MiB of the start; live tasks under 300; a command answered within
50 ms of the flood ending; memory kept after the 150 chats at most 64 MiB; live tasks
after the 5,000 UI chats at most 300.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import os
import random
import resource
import sys
import time
import tracemalloc
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docs_page
from machine_load import LoadMeter
from soak_attacks import (
    GOOD_WORLD,
    STORM_WORLD,
    Probe,
    cancellation_storm,
    good_game,
    hung_prototype,
)

import mcbews_repl
from mcbews_repl import Bridge, GameConnection, McbewsError, UiChat
from mcbews_repl.gateway import LogEntry

MIB = 1024 * 1024
TARGET_MEMORY_MIB = 64
TARGET_TASKS = 300
TARGET_RTT_MS = 50
CELLS = 6
GAMES = Path(__file__).with_name("soak_games.py")
COMMANDS = ["testfor @a", "list", "querytarget @a", "say soak", "tag Steve add soaked", "nope"]
WORDS = ["the", "quick", "creeper", "jumps", "over", "a", "lazy", "pig", "near", "lava"]
CJK_SENTENCE = "你好世界。这是一个测试。"

# --- the notebook -------------------------------------------------------------------------


@dataclass
class Tally:
    """Every call: made, answered, failed with a clear error (by type) or lost."""

    made: Counter[str] = field(default_factory=Counter)
    answered: Counter[str] = field(default_factory=Counter)
    failed: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    lost: Counter[str] = field(default_factory=Counter)
    lost_detail: list[str] = field(default_factory=list)

    async def run(self, kind: str, call: Awaitable[object], guard: float) -> None:
        self.made[kind] += 1
        try:
            async with asyncio.timeout(guard):
                await call
        except McbewsError as exc:
            self.failed[kind][type(exc).__name__] += 1
            return
        except Exception as exc:  # no answer within the guard, or an unexpected error
            self.lost[kind] += 1
            self.lost_detail.append(f"{kind}: {type(exc).__name__}: {exc}"[:200])
            return
        self.answered[kind] += 1


def long_text(rng: random.Random) -> str:
    size = rng.randint(3_000, 30_000)
    if rng.random() < 0.3:
        return (CJK_SENTENCE * (size // len(CJK_SENTENCE) + 1))[:size]
    return " ".join(rng.choice(WORDS) for _ in range(size // 5))[:size] + "."


Call = tuple[str, Awaitable[object], float]  # kind, the call, its guard in seconds


def a_command(c: GameConnection, rng: random.Random) -> Call:
    return "command", c.command(rng.choice(COMMANDS)), 30.0


def a_capability(c: GameConnection, rng: random.Random) -> Call:
    capability, payload = rng.choice(
        [
            ("get_player_snapshot", {"target": "@a"}),
            ("get_inventory_snapshot", {"target": "Steve"}),
            ("list_capabilities", {}),
            ("no_such_capability", {}),  # the addon answers UNSUPPORTED_CAPABILITY
        ]
    )
    return "capability call", c.call(capability, payload), 30.0


def a_long_text(c: GameConnection, rng: random.Random) -> Call:
    return (
        "send_text (3-30k chars)",
        c.send_text(rng.choice(["Steve", "Alex"]), long_text(rng)),
        300.0,
    )


def a_close(c: GameConnection, rng: random.Random) -> Call:
    return "close (bridge side)", c.close(), 30.0


CALLS: list[tuple[Callable[[GameConnection, random.Random], Call], float]] = [
    (a_command, 50),
    (a_capability, 40),
    (a_long_text, 1),
    (a_close, 0.3),
]


def world_connections(mc: Bridge) -> list[GameConnection]:
    """The unstable worlds the cells act on (not the good world, which the probe uses)."""
    return [
        c for c in mc.connections
        if "world=" in c.path and not c.path.endswith((GOOD_WORLD, STORM_WORLD))
        and c.local_player
    ]  # fmt: skip


async def cell(mc: Bridge, rng: random.Random, stop: asyncio.Event, tally: Tally) -> None:
    """One notebook cell after another: a random call on a random open world."""
    makers, weights = zip(*CALLS, strict=True)
    while not stop.is_set():
        worlds = world_connections(mc)
        if not worlds:
            await asyncio.sleep(0.05)
            continue
        kind, call, guard = rng.choices(makers, weights)[0](rng.choice(worlds), rng)
        await tally.run(kind, call, guard)
        await asyncio.sleep(rng.uniform(0, 0.05))


@dataclass
class UiTally:
    received: int = 0
    replied: int = 0
    failing_calls: int = 0


def add_callbacks(mc: Bridge, rng: random.Random, ui: UiTally) -> None:
    @mc.on_ui_chat
    async def slow_reply(msg: UiChat) -> None:
        ui.received += 1
        await asyncio.sleep(rng.uniform(0, 1.0))
        await msg.reply(f"echo: {msg.message[:40]}")
        ui.replied += 1

    @mc.on_ui_chat
    def fails_every_third(msg: UiChat) -> None:
        ui.failing_calls += 1
        if ui.failing_calls % 3 == 0:
            raise ValueError("this callback fails on every third message")


# --- measurements -------------------------------------------------------------------------


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def traced_after_gc() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


@dataclass
class Figures:
    tasks_peak: int = 0
    rss_peak: int = 0
    baseline_traced: int = 0
    baseline_rss: int = 0
    chats_kept: int = 0
    tasks_after_ui_flood: int = 0
    rtt_before_flood_ms: float = 0.0
    rtt_after_flood_ms: float = 0.0
    backlog_ms: float = 0.0  # from the flood's end until the hostile's last frame was handled
    after_flood_traced: int = 0
    after_flood_rss: int = 0
    final_traced: int = 0
    final_rss: int = 0
    final_tasks: int = 0
    games: dict[str, Any] = field(default_factory=dict)
    attacks: list[AttackFigures] = field(default_factory=list)
    accept_errors: int = 0  # log records about failed accepts during the whole run

    async def sample(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.tasks_peak = max(self.tasks_peak, len(asyncio.all_tasks()))
            self.rss_peak = max(self.rss_peak, rss_bytes())
            await asyncio.sleep(0.25)


@dataclass
class AttackFigures:
    """One attack: the good game's round trips meanwhile, memory after, what it showed."""

    name: str
    p99_ms: float
    probes: int
    probe_failures: int
    rss_after: int
    tasks_peak: int
    shown: str


class AcceptErrors(logging.Handler):
    """Counts log records about failed accepts (a traceback per attempt was the defect)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "accept" in record.getMessage():
            self.count += 1


class Connections:
    """Counters of every connection, summed per world (or the hostile peer) at its close."""

    def __init__(self, mc: Bridge) -> None:
        self._mc = mc
        self.groups: defaultdict[str, Counter[str]] = defaultdict(Counter)
        mc.log.add_listener(self._on_entry)

    def _on_entry(self, entry: LogEntry) -> None:
        if entry.kind != "disconnected":
            return
        for c in self._mc.connections:
            if c.id == entry.connection:
                group = self.groups[c.path.partition("?")[2] or "other"]
                group["connections"] += 1
                group.update(c.counters)
                group.update({k: v for k, v in c.stats().items() if k.startswith("frames")})


# --- the run ------------------------------------------------------------------------------


class Games:
    """The games' process, driven line by line: ``<phase>`` in, ``done <phase> <json>`` out."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self._process = process

    @classmethod
    async def start(cls, url: str, seed: int, *extra: str) -> Games:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(GAMES),
            url,
            "--seed",
            str(seed),
            *extra,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        return cls(process)

    async def do(self, phase: str) -> dict[str, Any]:
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(f"{phase}\n".encode())
        await self._process.stdin.drain()
        while line := (await self._process.stdout.readline()).decode():
            if line.startswith(f"done {phase} "):
                result: dict[str, Any] = json.loads(line.split(" ", 2)[2])
                return result
        raise RuntimeError(f"the games' process ended during {phase}")

    async def finish(self) -> dict[str, Any]:
        tallies = await self.do("stop")
        await self._process.wait()
        return tallies


async def command_rtt_ms(mc: Bridge, since: float | None = None) -> float:
    """Milliseconds from ``since`` (default: now) to a world's answer to one command."""
    start = time.perf_counter() if since is None else since
    async with asyncio.timeout(60):
        while not (worlds := world_connections(mc)):
            await asyncio.sleep(0.01)
    await worlds[0].command("testfor @a", timeout=10)
    return (time.perf_counter() - start) * 1000


async def sync_with(mc: Bridge, player: str) -> None:
    """Return once every frame ``player``'s game sent before now has been handled."""
    async with asyncio.timeout(60):
        while not (found := [c for c in mc.connections if c.local_player == player]):
            await asyncio.sleep(0.05)
    await found[0].command("testfor @s", timeout=60)  # its answer comes after those frames


async def flood(mc: Bridge, games: Games, figures: Figures) -> None:
    """The hostile peer's phases, with the issue's figures taken between them."""
    await games.do("hostile")
    await sync_with(mc, "Mallory")
    figures.rtt_before_flood_ms = await command_rtt_ms(mc)
    before = traced_after_gc()
    await games.do("chats")
    await sync_with(mc, "Mallory")
    figures.chats_kept = traced_after_gc() - before
    await games.do("junk")
    await games.do("ui")
    ended = time.perf_counter()
    figures.rtt_after_flood_ms = await command_rtt_ms(mc, since=ended)
    await sync_with(mc, "Mallory")
    figures.backlog_ms = (time.perf_counter() - ended) * 1000
    figures.tasks_after_ui_flood = len(asyncio.all_tasks())
    figures.after_flood_traced, figures.after_flood_rss = traced_after_gc(), rss_bytes()


def entries_of(mc: Bridge, connection: GameConnection | None) -> int:
    return (
        0
        if connection is None
        else sum(1 for e in mc.log.since(0) if e.connection == connection.id)
    )


async def under_probe(mc: Bridge, figures: Figures, name: str, attack: Awaitable[str]) -> None:
    """Run one attack while the probe asks the good game; record what it showed."""
    probe, stop, peak = Probe(), asyncio.Event(), [0]

    async def count_tasks() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], len(asyncio.all_tasks()))
            await asyncio.sleep(0.05)

    probing = [asyncio.create_task(probe.run(mc, stop)), asyncio.create_task(count_tasks())]
    shown = await attack
    stop.set()
    await asyncio.gather(*probing)
    gc.collect()
    figures.attacks.append(AttackFigures(
        name, probe.p99_ms(), len(probe.rtts_ms), probe.failed, rss_bytes(), peak[0], shown,
    ))  # fmt: skip


async def played(games: Games, phase: str, say: Callable[[dict[str, Any]], str]) -> str:
    return say(await games.do(phase))


def _tokens(result: dict[str, Any]) -> str:
    statuses = result["statuses"]
    return (
        f"{statuses.get('403', 0):,} tokens checked, {statuses.get('429', 0):,} refused "
        f"unchecked, {statuses.get('0', 0):,} closed; the flooded machine's game refused "
        f"{result['game_refused']} of 5 times"
    )


async def fair_log(mc: Bridge, games: Games) -> str:
    good = good_game(mc)
    before = entries_of(mc, good)
    await games.do("chatflood")
    return f"the good game's log entries {before} -> {entries_of(mc, good)}"


async def storm(mc: Bridge, seconds: float, rng: random.Random) -> str:
    result = await cancellation_storm(mc, seconds, rng)
    worst = max(result.settle_ms, default=float("nan"))
    return (
        f"{result.cancels} reads cancelled ({result.commands_before:,} commands sent before); "
        f"nothing pending {worst:.0f} ms after a cancel at worst (target 1,000); "
        f"{result.sent_after} commands sent after a cancel (target 0)"
    )


async def attacks(mc: Bridge, games: Games, figures: Figures, seconds: float) -> None:
    """The attacks after the hostile peer's, one at a time, each under the probe."""
    rng = random.Random(26)
    quiet = asyncio.sleep(10.0, result="the six cells and the worlds, as all along")
    await under_probe(mc, figures, "none, for comparison: the notebook's traffic alone", quiet)
    await under_probe(
        mc,
        figures,
        "UI chat: 3 games x 64 messages of 2 MiB over pull",
        played(games, "uibytes", lambda r: f"{r['pages_served']} pages served"),
    )
    await under_probe(
        mc,
        figures,
        "wrong tokens from 500 addresses, a game from one of them",
        played(games, "tokens", _tokens),
    )
    await under_probe(mc, figures, "five token holders flooding chat", fair_log(mc, games))
    await under_probe(
        mc,
        figures,
        f"{1100:,} half-open sockets, 1,024 descriptors",
        played(
            games,
            "halfopen",
            lambda r: ", ".join(f"{v:,} {k}" for k, v in r.items() if k != "sockets"),
        ),
    )
    await under_probe(
        mc,
        figures,
        "a prototype hangs a simulated world (eval'd endless loop)",
        hung_prototype(mc, "eval"),
    )
    await under_probe(mc, figures, "cancellation storm: big reads cancelled after 1-4 s",
                      storm(mc, max(10.0, seconds * 0.05), rng))  # fmt: skip


async def until(start: float, at: float) -> None:
    await asyncio.sleep(max(0.0, start + at - time.monotonic()))


async def soak(seconds: float, seed: int) -> tuple[Bridge, Tally, UiTally, Figures, Connections]:
    rng, tally, ui, figures = random.Random(seed), Tally(), UiTally(), Figures()
    stop, stop_sampling = asyncio.Event(), asyncio.Event()
    start = time.monotonic()
    async with mcbews_repl.serve(port=0) as mc:
        connections = Connections(mc)
        add_callbacks(mc, rng, ui)
        steady = [await Games.start(mc.url, seed, "--stable", w) for w in ("good", "storm")]
        games = await Games.start(mc.url, seed)
        sampler = asyncio.create_task(figures.sample(stop_sampling))
        rngs = [random.Random(seed * 100 + k) for k in range(CELLS)]
        cells = [asyncio.create_task(cell(mc, r, stop, tally)) for r in rngs]
        await until(start, 0.1 * seconds)
        figures.baseline_traced, figures.baseline_rss = traced_after_gc(), rss_bytes()
        await until(start, 0.3 * seconds)
        await flood(mc, games, figures)
        await games.do("leave")
        await attacks(mc, games, figures, seconds)
        await until(start, seconds)
        stop.set()
        await asyncio.gather(*cells)
        figures.games = await games.finish()
        for world in steady:
            await world.finish()
        figures.final_traced, figures.final_rss = traced_after_gc(), rss_bytes()
        figures.final_tasks = len(asyncio.all_tasks())
        stop_sampling.set()
        await sampler
    return mc, tally, ui, figures, connections


# --- the report ---------------------------------------------------------------------------


def mib(n: float) -> str:
    return f"{n / MIB:.1f} MiB"


def verdict(ok: bool) -> str:
    return "pass" if ok else "**miss**"


def call_lines(tally: Tally) -> list[str]:
    lines = [
        "| calls | made | answered | failed with a clear error | lost |",
        "|---|---|---|---|---|",
    ]
    kinds = sorted(tally.made)
    for kind in [*kinds, "all"]:
        chosen = kinds if kind == "all" else [kind]
        failed: Counter[str] = sum((tally.failed[k] for k in chosen), Counter())
        why = ", ".join(f"{n:,} {name}" for name, n in failed.most_common())
        made, answered = (sum(t[k] for k in chosen) for t in (tally.made, tally.answered))
        lost = sum(tally.lost[k] for k in chosen)
        label = "**all**" if kind == "all" else kind
        failures = f"{sum(failed.values()):,}" + (f" ({why})" if why else "")
        lines.append(f"| {label} | {made:,} | {answered:,} | {failures} | {lost} |")
    return lines + [f"\nlost: {detail}" for detail in tally.lost_detail[:10]]


def figure_rows(f: Figures, lost: int) -> list[tuple[str, str, str, str]]:
    growth = f.after_flood_traced - f.baseline_traced
    peak_rss = max(f.rss_peak, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)
    memory, tasks = TARGET_MEMORY_MIB * MIB, TARGET_TASKS
    traced = f"{mib(f.baseline_traced)} / {mib(f.after_flood_traced)} / {mib(f.final_traced)}"
    rss = f"{mib(f.baseline_rss)} / {mib(f.after_flood_rss)} / {mib(f.final_rss)}"
    after = f.rtt_after_flood_ms
    return [
        ("calls lost", f"{lost}", "0", verdict(lost == 0)),
        ("traced memory: start / after the flood / final", traced, "", ""),
        ("traced memory: peak", mib(tracemalloc.get_traced_memory()[1]), "", ""),
        ("memory after the flood - start (traced)", mib(growth), "<= 64 MiB",
         verdict(growth <= memory)),
        ("RSS: start / after the flood / final", rss, "", ""),
        ("RSS: peak", mib(peak_rss), "", ""),
        ("live tasks: peak (sampled) / final", f"{f.tasks_peak} / {f.final_tasks}", "< 300",
         verdict(f.tasks_peak < tasks)),
        ("command round trip just before the flood", f"{f.rtt_before_flood_ms:.1f} ms", "", ""),
        ("command answered after the flood ended", f"{after:.1f} ms", "<= 50 ms",
         verdict(after <= TARGET_RTT_MS)),
        ("the hostile's frames handled after the flood ended", f"{f.backlog_ms:.0f} ms", "", ""),
        ("memory kept after 150 x 1 MiB chats (traced)", mib(f.chats_kept), "<= 64 MiB",
         verdict(f.chats_kept <= memory)),
        ("live tasks after 5,000 UI chats, slow callback", f"{f.tasks_after_ui_flood}",
         "<= 300", verdict(f.tasks_after_ui_flood <= tasks)),
    ]  # fmt: skip


def figure_lines(figures: Figures, tally: Tally) -> list[str]:
    rows = figure_rows(figures, sum(tally.lost.values()))
    return ["| measure | value | target | verdict |", "|---|---|---|---|"] + [
        "| " + " | ".join(row) + " |" for row in rows
    ]


def attack_lines(figures: Figures) -> list[str]:
    """One row per attack: the good game's p99 meanwhile, memory and tasks after."""
    lines = [
        "| attack | good game's command p99 (probes) | RSS after - start | live tasks (peak) "
        "| what it showed | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for a in figures.attacks:
        growth = a.rss_after - figures.baseline_rss
        ok = (a.p99_ms <= TARGET_RTT_MS and growth <= TARGET_MEMORY_MIB * MIB
              and a.tasks_peak < TARGET_TASKS and a.probe_failures == 0)  # fmt: skip
        failures = f", {a.probe_failures} failed" if a.probe_failures else ""
        lines.append(
            f"| {a.name} | {a.p99_ms:.1f} ms ({a.probes}{failures}) | {mib(growth)} | "
            f"{a.tasks_peak} | {a.shown} | {verdict(ok)} |"
        )
    lines.append(
        f"\nLog records about failed accepts during the whole run: {figures.accept_errors} "
        "(one summary line per burst, never a traceback per attempt). Targets: p99 <= 50 ms, "
        "RSS within 64 MiB of the start, fewer than 300 live tasks."
    )
    return lines


COUNTER_COLUMNS = [
    "connections",
    "frames_in",
    "frames_out",
    "rejected:too_many_buffers",
    "unknown_request_id",
    "bridge_prefix_not_matched",
    "ui_chat_dropped",
    "log_truncated",
]


def connection_lines(connections: Connections) -> list[str]:
    names = [k.removeprefix("rejected:") for k in COUNTER_COLUMNS]
    lines = [
        "| connections of | " + " | ".join(names) + " | other rejections |",
        "|---|" + "---|" * (len(names) + 1),
    ]
    for name, group in sorted(connections.groups.items()):
        other = sum(v for k, v in group.items() if k.startswith("rejected:"))
        other -= group["rejected:too_many_buffers"]
        cells = " | ".join(f"{group[k]:,}" for k in COUNTER_COLUMNS)
        lines.append(f"| {name} | {cells} | {other:,} |")
    return lines


def bridge_lines(mc: Bridge, ui: UiTally, figures: Figures) -> list[str]:
    log, games = mc.log, figures.games
    dropped = {k: v for k, v in log.counters.items() if k.startswith("dropped")}
    return [
        f"- UI chat: {ui.received:,} messages reached the slow callback ({ui.replied:,} "
        f"answered), the failing one ran {ui.failing_calls:,} times.",
        f"- Refused handshakes: {dict(mc.counters) or 'none'}.",
        f"- Event log at the end: {len(log):,} entries, {mib(log.size_bytes)} estimated; "
        f"{log.counters['truncated']:,} texts cut; dropped early: {dropped or 'none'}.",
        f"- The worlds connected {games.get('connects', 0):,} times "
        f"({games.get('connect_failed', 0):,} attempts failed); players typed "
        f"{games.get('ui_chats_typed', 0):,} UI chat messages.",
    ]


INTRO = """## Soak: unstable worlds, notebook traffic and a hostile peer

`make soak` runs `benchmarks/bench_soak.py` for 10 minutes (`ARGS=--quick`: 60 s). The
bridge (`mcbews_repl.serve()` with its defaults) and a notebook run in one process: six
cells calling commands, capabilities (a quarter of them one the addon does not have) and
long `send_text` (3,000-30,000 characters) on the open worlds, now and then closing a
world's connection, and two UI chat callbacks, one answering each message after up to a
second, one failing on every third. `benchmarks/soak_games.py`, a second process, runs
four simulated worlds (the real addon in QuickJS) that connect, stay 3-40 s, leave for
0.3-3 s and come back, while their players type into the chat panel; and, at 30 % of the
run, a hostile peer with the right token: 150 chats of 1 MiB, 200 junk frames (not JSON,
binary, deep nesting, unknown purposes, stray answers, over 1 MiB), 2,000 partial UI chat
streams, 1,000 chunks of answers nobody asked for, 500 bad positions, 900 spoofed or
unknown-channel chats, 30 wrong-token handshakes at once from another address, then 5,000
UI chats. A call is *lost* if it neither answers nor raises a `McbewsError` within a
guard well past its own timeout. Memory is traced with tracemalloc (started before the
bridge; "start" is taken at 10 % of the run) and read as RSS; live tasks are sampled
every quarter second. The figures are taken with tracemalloc running, which slows Python
down. Traced memory counts the Python objects alive; RSS also holds tracemalloc's own
record of each live allocation and memory the allocator keeps for reuse, so RSS may grow
where traced memory does not. The event log fills towards its bounds as the run goes on
(10,000 entries, 16 MiB): that is most of the traced growth.
"""


def page(lines: list[str], seconds: float, seed: int, load: str) -> str:
    head = [
        INTRO,
        "### Results",
        "",
        f"- mcbews_repl at {docs_page.git_revision()}; {seconds:g} s, seed {seed}",
        f"- **Load: {load}.**",
        "",
    ]
    return "\n".join(head + lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="60 s; prints, writes no page")
    parser.add_argument("--seconds", type=float, help="the run's length in seconds")
    parser.add_argument("--seed", type=int, default=14)
    write_help = "write docs/benchmarks.md (default: only for a full 10-minute run)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    seconds = args.seconds or (60.0 if args.quick else 600.0)
    logging.basicConfig(level=logging.CRITICAL)  # the bridge's own lines would bury the table
    print(f"soak: {seconds:g} s, {CELLS} notebook cells, worlds and a hostile peer", flush=True)
    meter = LoadMeter.start()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))  # a usual default
    accept_errors = AcceptErrors()
    for name in ("asyncio", "mcbews_repl.gateway"):  # counted here, not printed
        logger = logging.getLogger(name)
        logger.setLevel(logging.WARNING)
        logger.propagate = False
        logger.addHandler(accept_errors)
    tracemalloc.start()
    mc, tally, ui, figures, connections = asyncio.run(soak(seconds, args.seed))
    figures.accept_errors = accept_errors.count
    lines = [*call_lines(tally), "", *figure_lines(figures, tally), ""]
    lines += ["### Attacks, one after another", "", *attack_lines(figures), ""]
    lines += [*connection_lines(connections), "", *bridge_lines(mc, ui, figures)]
    text = page(lines, seconds, args.seed, meter.describe())
    print(text)
    if args.write if args.write is not None else (args.seconds is None and not args.quick):
        docs_page.write_section("soak", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'soak')")
    return 0 if sum(tally.lost.values()) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
