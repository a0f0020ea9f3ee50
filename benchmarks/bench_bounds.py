"""Bounded in bytes: what a game with the right token can make the bridge hold, and what a
stranger's capture can make replay hold.

Run: ``.venv/bin/python benchmarks/bench_bounds.py`` (``--quick`` for a short look that
writes no page; ``--before REV`` measures the code at git revision REV too, extracted
with ``git archive`` into a temporary folder, for a before/after table).

Each scenario runs in a process of its own, so that its resident memory is its own:

- **UI chat over pull**: a bridge (``serve()`` defaults) with a slow UI chat callback (each
  message sleeps an hour), and 1 or 3 games (``attacks.py ui-pull``, another process)
  that keep 256 UI chat messages of 2 MiB each for ``mcbews:poll``. Resident memory of
  the bridge's process before, at its peak while the games' messages are read, and once
  the games have left (after a garbage collection).
- **UI chat over chat**: 3 games send 300 UI chat messages of 32 KB each (about the most
  128 chunks carry) to the same slow callback, in the bridge's process.
- **A quiet game's log under five floods**: a game sends 95 chats, then five games flood
  1,200 chats of 8 KB each; the quiet game's entries before and after.
- **Replay of hostile captures**: ``mcbews-repl replay`` of a capture whose second line
  nests 100,000 deep, and of one whose second line is 200 MB; its exit code, what it
  printed and its peak resident memory.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ctypes.util
import gc
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attacks
import docs_page
from machine_load import LoadMeter

HERE = Path(__file__).resolve().parent
MIB = 1024 * 1024
SLOW_SECONDS = 3600.0  # the callback outlives every measurement
SAMPLE_SECONDS = 0.05


def rss_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    return round(rss_bytes() / 1e6, 1)


async def _serve(**options: Any) -> Any:
    import mcbews_repl  # the code measured: this checkout's, or --before's on the path

    bridge = mcbews_repl.serve(port=0, **options)
    await bridge.start()

    async def slow(msg: object) -> None:
        await asyncio.sleep(SLOW_SECONDS)

    bridge.on_ui_chat(slow)
    return bridge


async def _sampling(bridge: Any, peak: dict[str, float], until: asyncio.Event) -> None:
    """The peak resident memory and UI chat messages waiting, sampled until ``until``."""
    while not until.is_set():
        peak["rss"] = max(peak["rss"], rss_mb())
        waiting = sum(c.ui_chats.queued for c in bridge.connections)
        peak["waiting"] = max(peak["waiting"], waiting)
        await asyncio.sleep(SAMPLE_SECONDS)


def _backlog(bridge: Any) -> dict[str, int]:
    queues = [c.ui_chats for c in bridge.connections]
    return {
        "queued": sum(q.queued for q in queues),
        "queued_bytes": sum(getattr(q, "queued_bytes", -1) for q in queues),
        "dropped": sum(c.counters["ui_chat_dropped"] for c in bridge.connections),
        "refused": sum(c.counters["rejected:ui_chat_too_large"] for c in bridge.connections),
    }


async def _after_leaving(bridge: Any) -> dict[str, float]:
    """Resident memory once the games left and a collection ran; then once the C heap gave
    back what is free (``malloc_trim``): what is still held, not what the allocator kept."""
    async with asyncio.timeout(60):
        while bridge.connections:
            await asyncio.sleep(0.05)
    gc.collect()
    await asyncio.sleep(0.5)
    after = rss_mb()
    ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim(0)
    return {"after": after, "trimmed": rss_mb()}


async def ui_pull(games: int, messages: int, message_bytes: int) -> dict[str, Any]:
    bridge = await _serve()
    start, peak, done = rss_mb(), {"rss": 0.0, "waiting": 0.0}, asyncio.Event()
    sampler = asyncio.ensure_future(_sampling(bridge, peak, done))
    child = await asyncio.create_subprocess_exec(
        sys.executable, str(HERE / "attacks.py"), bridge.url, "ui-pull",
        "--games", str(games), "--messages", str(messages), "--bytes", str(message_bytes),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    began = time.monotonic()
    assert (await child.stdout.readline()).strip() == b"drained"
    took = time.monotonic() - began
    await asyncio.sleep(0.2)  # the last message reaches the queue
    backlog = _backlog(bridge)
    done.set()
    await sampler
    child.stdin.write(b"leave\n")
    await child.stdin.drain()
    await child.wait()
    after = await _after_leaving(bridge)
    await bridge.close()
    return {"start": start, **peak, **after, "seconds": round(took, 1), **backlog}


async def ui_chat(games: int, messages: int) -> dict[str, Any]:
    bridge = await _serve(transport="chat")
    start, peak, done = rss_mb(), {"rss": 0.0, "waiting": 0.0}, asyncio.Event()
    sampler = asyncio.ensure_future(_sampling(bridge, peak, done))
    floods = [
        attacks.ui_chat_chunk_flood(bridge.url, messages=messages, player=f"Mallory{n}")
        for n in range(games)
    ]
    await asyncio.gather(*floods)  # each game leaves once it has sent its messages
    await asyncio.sleep(0.5)
    done.set()
    await sampler
    after = await _after_leaving(bridge)
    await bridge.close()
    return {"start": start, **peak, **after}


async def fair_log(quiet_chats: int = 95, flood_chats: int = 1200) -> dict[str, Any]:
    bridge = await _serve(transport="chat")
    quiet = await attacks.Game(bridge.url, "Quiet").connect()
    async with asyncio.timeout(30):
        while not bridge.connections:
            await asyncio.sleep(0.01)
    quiet_id = bridge.connections[0].id
    await attacks.chat_flood(bridge.url, chats=quiet_chats, chat_bytes=20, game=quiet)
    await bridge.command("say sync", connection=bridge.connections[0])
    held_before = sum(e.connection == quiet_id for e in bridge.events())
    floods = [
        attacks.chat_flood(bridge.url, chats=flood_chats, player=f"Flood{n}") for n in range(5)
    ]
    await asyncio.gather(*floods)
    await bridge.command("say sync", connection=bridge.connections[0])
    entries = bridge.events()
    held_after = sum(e.connection == quiet_id for e in entries)
    chats_kept = sum(e.connection == quiet_id and e.kind == "chat" for e in entries)
    result = {
        "quiet_before": held_before,
        "quiet_after": held_after,
        "quiet_chats_kept": chats_kept,
        "log_mb": round(bridge.log.size_bytes / 1e6, 1),
        "entries": len(entries),
        "dropped_for_bytes": bridge.log.counters["dropped_for_bytes"],
    }
    await quiet.close()
    await bridge.close()
    return result


def replay(kind: str) -> dict[str, Any]:
    """``mcbews-repl replay`` of a hostile capture, as a child: exit code, last line, peak
    resident memory (this scenario's process has no other child)."""
    import resource

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{kind}.jsonl"
        if kind == "deep":
            attacks.hostile_capture(path, depth=100_000)
        else:
            attacks.hostile_capture(path, line_bytes=200 * MIB)
        url = "ws://127.0.0.1:9/x"
        command = [sys.executable, "-m", "mcbews_repl", "replay", str(path), "--url", url]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    said = (done.stdout + done.stderr).replace(str(path), "CAPTURE").strip().splitlines()
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e3
    return {"exit": done.returncode, "said": said[-1][:140] if said else "", "rss": peak}


SCENARIOS: dict[str, Callable[[argparse.Namespace], Any]] = {
    "ui-pull": lambda a: asyncio.run(ui_pull(a.games, a.messages, a.message_bytes)),
    "ui-chat": lambda a: asyncio.run(ui_chat(a.games, a.messages)),
    "fair-log": lambda a: asyncio.run(fair_log()),
    "replay-deep": lambda a: replay("deep"),
    "replay-huge": lambda a: replay("huge"),
}


def run_scenario(name: str, code: Path | None, **options: int) -> dict[str, Any]:
    """One scenario in a fresh process (with ``code`` first on the path, if given)."""
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code), env.get("PYTHONPATH", "")])
    args = [f"--{k}={v}" for k, v in options.items()]
    command = [sys.executable, str(Path(__file__)), "--scenario", name, *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1][:160]}
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def extract(revision: str, into: Path) -> Path:
    """The package at ``revision``, extracted beside nothing else (``git archive``)."""
    archive = subprocess.run(
        ["git", "-C", str(docs_page.ROOT), "archive", revision, "mcbews_repl"],
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _memory(r: dict[str, Any]) -> str:
    if "error" in r:
        return f"failed: {r['error']}"
    return f"{r['start']:.0f} → {r['rss']:.0f} → {r['after']:.0f} ({r['trimmed']:.0f})"


def _waiting(r: dict[str, Any]) -> str:
    return "" if "error" in r else f"{r['waiting']:.0f}"


def _quiet(r: dict[str, Any]) -> str:
    if "error" in r:
        return f"failed: {r['error']}"
    return f"{r['quiet_before']} → {r['quiet_after']} ({r['quiet_chats_kept']} of 95 chats)"


def _replayed(r: dict[str, Any]) -> str:
    if "error" in r:
        return f"failed: {r['error']}"
    return f"exit {r['exit']}, {r['rss']:.0f} MB: {r['said'][:110]}"


ROWS: list[tuple[str, str, dict[str, int], Callable[[dict[str, Any]], str]]] = [
    ("UI chat over pull, 1 game: RSS MB at start → peak → after it left (trimmed)", "ui-pull",
     {"games": 1}, _memory),
    ("  UI chat messages waiting at the peak", "ui-pull", {"games": 1}, _waiting),
    ("UI chat over pull, 3 games: RSS MB at start → peak → after they left (trimmed)", "ui-pull",
     {"games": 3}, _memory),
    ("  UI chat messages waiting at the peak", "ui-pull", {"games": 3}, _waiting),
    ("UI chat over pull, 3 games of 256 x 60 KB: RSS MB start → peak → after (trimmed)",
     "ui-pull", {"games": 3, "bytes": 60_000}, _memory),
    ("  UI chat messages waiting at the peak", "ui-pull", {"games": 3, "bytes": 60_000},
     _waiting),
    ("UI chat over chat, 3 games of 300 x 32 KB: RSS MB start → peak → after (trimmed)", "ui-chat",
     {"games": 3, "messages": 300}, _memory),
    ("  UI chat messages waiting at the peak", "ui-chat", {"games": 3, "messages": 300},
     _waiting),
    ("a quiet game's entries, five games flooding chat", "fair-log", {}, _quiet),
    ("replay of a 100,000-deep line", "replay-deep", {}, _replayed),
    ("replay of a 200 MB line", "replay-huge", {}, _replayed),
]  # fmt: skip


def measure(code: Path | None, quick: bool) -> dict[tuple[str, str], dict[str, Any]]:
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for _, name, options, _ in ROWS:
        if quick:
            options = {**options, "messages": 32}
        key = (name, json.dumps(options, sort_keys=True))
        if key not in results:
            print(f"  {name} {options} ...", file=sys.stderr, flush=True)
            results[key] = run_scenario(name, code, **options)
    return results


def table(now: dict[Any, Any], before: dict[Any, Any] | None, revision: str, quick: bool) -> str:
    head = f"| measurement | before (`{revision}`) | now |" if before else "| measurement | now |"
    lines = [head, "|---|---|---|" if before else "|---|---|"]
    for label, name, options, cell in ROWS:
        if quick:
            options = {**options, "messages": 32}
        key = (name, json.dumps(options, sort_keys=True))
        cells = ([cell(before[key])] if before else []) + [cell(now[key])]
        lines.append(f"| {label} | " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)


INTRO = """## Bounded in bytes: floods from a game, hostile captures

`.venv/bin/python benchmarks/bench_bounds.py --before REV` — what a game with the right
token can make the bridge hold, and a stranger's capture make replay hold, each scenario in
a fresh process (`serve()` defaults; the attacks are the coroutines of
`benchmarks/attacks.py`). UI chat: a callback that sleeps an hour on every message, and
games whose addon keeps 256 UI chat messages of 2 MiB for `mcbews:poll` (pull; another
process), or sends 300 of 32 KB as chunks (chat); resident memory of the bridge's process
at the start, at its peak, after the games left and a garbage collection, and in brackets
once the C heap gave back what is free (`malloc_trim`: what is still held, not what the
allocator kept for later). The log: a
game sends 95 chats, five others 1,200 of 8 KB each; the quiet game's entries before and
after (its 95 chats, its handshake's entries and a command). Replay: `mcbews-repl replay`
of a capture whose second line nests 100,000 deep or is 200 MB long (peak resident
memory of the command)."""


NOTES = """What stays in \"now\" after the games left is mostly their part of the event log (each
UI chat message is an entry, its text cut to 4,096 characters) and the four messages a game
still running in the sleeping callback; before, every waiting message stayed until the
callback reached it. Over pull a 2 MiB message is refused by its first page (nothing
waits); 60 KB messages fill a game's 1 MiB backlog (17 wait, 4 run) and the rest are
dropped and counted. The 200 MB line was read whole before, then parsed; now reading stops
at the line limit (16 MiB, read twice over while buffered: the 32 MB above the command's
42 MB at rest)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="32 messages a game; no page")
    parser.add_argument("--before", metavar="REV", help="measure the code at REV too")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--messages", type=int, default=256, help=argparse.SUPPRESS)
    parser.add_argument("--bytes", type=int, default=2 * MIB, dest="message_bytes",
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()
    logging.getLogger("mcbews_repl").setLevel(logging.ERROR)
    if args.scenario:
        print(json.dumps(SCENARIOS[args.scenario](args)))
        return
    meter = LoadMeter.start()
    with tempfile.TemporaryDirectory() as folder:
        before = None
        if args.before:
            print(f"the code at {args.before}:", file=sys.stderr)
            before = measure(extract(args.before, Path(folder)), args.quick)
        print("this checkout:", file=sys.stderr)
        now = measure(None, args.quick)
    text = "\n".join(
        [
            INTRO,
            "",
            "### Results",
            "",
            f"- mcbews_repl at {docs_page.git_revision()}",
            f"- Load: {meter.describe()}.",
            "",
            table(now, before, args.before or "", args.quick),
            "",
            NOTES,
        ]
    )
    print(text)
    if not args.quick:
        docs_page.write_section("bounds", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'bounds')")


if __name__ == "__main__":
    main()
