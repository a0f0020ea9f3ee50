"""What recording costs, and how fast a capture replays: a table, not a test.

Run: ``.venv/bin/python benchmarks/bench_record.py`` (``--help`` for the sample count).

One process, one event loop: the gateway and the simulated world (``SimWorld(fast=True)``,
the real addon in QuickJS) over loopback. Command and capability round trips are measured
in alternating blocks with a recorder attached and without, so both see the same machine.
Then: how long stopping takes (completing the header; redacting the whole capture), and
how long ``replay_capture`` takes to replay what was recorded, against the time the
session took live.
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
from mcbews_repl.capture import start_recording
from mcbews_repl.sim import SimWorld
from mcbews_repl.testing import replay_capture

BLOCKS = 10


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def timed(fn: Callable[[], Awaitable[object]], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - start) * 1e6)
    return samples


async def alternate(
    mc: mcbews_repl.Bridge, fn: Callable[[], Awaitable[object]], count: int, folder: Path
) -> tuple[list[float], list[float]]:
    """``count`` round trips each way, in BLOCKS alternating blocks."""
    plain: list[float] = []
    recorded: list[float] = []
    await timed(fn, 50)  # warm up
    for block in range(BLOCKS):
        plain += await timed(fn, count // BLOCKS)
        recorder = start_recording(mc, folder / f"block{block}.jsonl", overwrite=True)
        recorded += await timed(fn, count // BLOCKS)
        recorder.stop()
    return plain, recorded


def row(name: str, plain: list[float], recorded: list[float]) -> str:
    p50, r50 = statistics.median(plain), statistics.median(recorded)
    p99, r99 = percentile(plain, 0.99), percentile(recorded, 0.99)
    return (
        f"| {name} | {len(plain)} | {p50:.0f} / {p99:.0f} | {r50:.0f} / {r99:.0f} | "
        f"{r50 / p50:.2f}x |"
    )


async def session(mc: mcbews_repl.Bridge, sim: SimWorld, rounds: int) -> None:
    """A notebook-like session: commands, capability calls, chat, UI chat, a text."""
    for k in range(rounds):
        await mc.command("list")
        await mc.call("get_player_snapshot", target="@a")
        await mc.call("get_inventory_snapshot", target="Steve")
        sim.chat("Alex", f"message {k}")
        sim.ui_chat("Alex", f"panel message {k}")
        await mc.send_text("Alex", f"answer {k} " * 20)


async def stop_and_replay(folder: Path, rounds: int) -> list[str]:
    rows = []
    for redact in (False, True):
        path = folder / f"session-{redact}.jsonl"
        async with (
            mcbews_repl.serve(port=0, text_prelude=0.0, text_interval=0.0) as mc,
            SimWorld(fast=True) as sim,
        ):
            recorder = start_recording(mc, path, redact=redact)
            await sim.connect(mc.url)
            await mc.wait_connected(timeout=10)
            start = time.perf_counter()
            await session(mc, sim, rounds)
            live = time.perf_counter() - start
            start = time.perf_counter()
            recorder.stop()
            stopping = time.perf_counter() - start
        start = time.perf_counter()
        report = await replay_capture(path)
        replayed = time.perf_counter() - start
        assert report.ok, report.describe()
        size = path.stat().st_size / 1024
        rows.append(
            f"| {'redacted' if redact else 'plain'} | {recorder.frames} frames, {recorder.calls} "
            f"calls, {size:.0f} KiB | {live * 1000:.0f} | {stopping * 1000:.0f} | "
            f"{replayed * 1000:.0f} |"
        )
    return rows


INTRO = """## Recording and replay: what a capture costs

`.venv/bin/python benchmarks/bench_record.py` (`--quick` for a short run that writes no
page). The gateway and the simulated world (fast clock, the real addon in QuickJS) in one
process over loopback. Round trips are measured in ten alternating blocks with a recorder
attached (`start_recording`, every frame and outcome written and flushed as it happens) and
without. Then a notebook-like session (per round: `list`, two capability calls, a chat, a
UI chat message and a `send_text`) is recorded, stopped (the header completed; with
`redact=True` the whole capture redacted and rewritten), and replayed with
`replay_capture` through a fresh bridge, every result compared.
"""


async def run(count: int, rounds: int) -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        async with (
            mcbews_repl.serve(port=0) as mc,
            SimWorld(fast=True) as sim,
        ):
            await sim.connect(mc.url)
            await mc.wait_connected(timeout=10)
            command = await alternate(mc, lambda: mc.command("testfor @a"), count, folder)
            call = await alternate(
                mc, lambda: mc.call("get_player_snapshot", target="Steve"), count, folder
            )
        lines += [
            "| round trip | n | not recording p50 / p99 µs | recording p50 / p99 µs | ratio |",
            "|---|---|---|---|---|",
            row("command `testfor @a`", *command),
            row("capability `get_player_snapshot`", *call),
            "",
            f"A session of {rounds} rounds, recorded, stopped, replayed:",
            "",
            "| capture | holds | live ms | stopping ms | replay ms (fast, fresh bridge) |",
            "|---|---|---|---|---|",
            *await stop_and_replay(folder, rounds),
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run; writes no page")
    parser.add_argument("--count", type=int, default=None, help="round trips of each kind")
    parser.add_argument("--rounds", type=int, default=100, help="rounds of the session")
    args = parser.parse_args()
    count = args.count or (200 if args.quick else 2000)
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    meter = LoadMeter.start()
    lines = asyncio.run(run(count, 10 if args.quick else args.rounds))
    text = "\n".join(
        [
            INTRO,
            "### Results",
            "",
            f"- mcbews_repl at {docs_page.git_revision()}",
            f"- **Load: {meter.describe()}.** Microseconds on a shared machine are not "
            "comparable with a quiet one's; the ratio, measured in alternating blocks, is.",
            "",
            *lines,
        ]
    )
    print(text)
    if not args.quick:
        docs_page.write_section("record", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'record')")


if __name__ == "__main__":
    main()
