"""The measuring half shared by the Python server programs of ``bench_peers.py``.

Each server program (``serve_<library>.py``) starts its library's server, calls
:func:`announce` with the URL the emulated game should connect to, waits for the game's
connections and hands :func:`run` one ``issue(connection)`` coroutine function: send one
command through the library and return whether the game reported success. Everything
else (timing, the caller-side window, counting lost commands, CPU and memory) is done
here, the same way for every library, and printed as one JSON line.

It runs in each library's own virtual environment, so it uses the standard library only.
The Node server program (``serve_mcpews.mjs``) does the same in JavaScript.

Modes (``config["mode"]``):

* ``seq``: ``commands`` commands one at a time on the first connection; latencies.
* ``burst``: ``commands`` commands issued at once on the first connection, through the
  library's own window or, with ``window`` > 0, a caller-side one; ok/failed/lost, wall
  time from the first issue to the last answer, process CPU time; then the same batch
  with a stand-in for the library (a command that only yields once to the loop): the
  harness's own CPU (its task and tally per command, and the caller-side window), which
  the whole-process figure includes and the library's own excludes.
* ``rss``: ``commands`` commands on every connection, all connections at once; resident
  memory before any connection and after the commands (garbage collected first).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

Issue = Callable[[Any], Awaitable[bool]]

# A command with neither an answer nor an error this long after the last progress is lost.
DEFAULT_SETTLE_SECONDS = 3.0


def read_config() -> dict[str, Any]:
    config: dict[str, Any] = json.loads(sys.argv[1])
    config.setdefault("settle_s", DEFAULT_SETTLE_SECONDS)
    config.setdefault("window", 0)
    config.setdefault("line", "testfor @s")
    return config


def rss_bytes() -> int:
    """Resident set size now (Linux ``/proc``), after a full garbage collection."""
    gc.collect()
    with open("/proc/self/status", encoding="ascii") as status:
        for row in status:
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def announce(url: str) -> None:
    """Tell the harness where to point the emulated game."""
    print(json.dumps({"event": "listening", "url": url}), flush=True)


def report(result: dict[str, Any]) -> None:
    print(json.dumps({"event": "result", **result}), flush=True)


def windowed(issue: Issue, size: int) -> Issue:
    """A caller-side window: at most ``size`` commands of this wrapper in flight."""
    if size <= 0:
        return issue
    slots = asyncio.Semaphore(size)

    async def one(connection: Any) -> bool:
        async with slots:
            return await issue(connection)

    return one


class Tally:
    """Outcomes of a batch of commands, and when the last one settled."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.ok = 0
        self.failed = 0
        self.errors: Counter[str] = Counter()
        self.settled = 0
        self.last_settled = time.perf_counter()
        self.all_settled = asyncio.Event()

    async def track(self, issue: Issue, connection: Any) -> None:
        try:
            succeeded = await issue(connection)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a library's error for one command is an outcome
            self.failed += 1
            self.errors[type(exc).__name__] += 1
        else:
            if succeeded:
                self.ok += 1
            else:
                self.failed += 1
                self.errors["status"] += 1
        self.settled += 1
        self.last_settled = time.perf_counter()
        if self.settled == self.total:
            self.all_settled.set()

    async def wait(self, settle_s: float) -> int:
        """Wait until every command settled or none did for ``settle_s``; return the lost."""
        while not self.all_settled.is_set():
            before = self.settled
            try:
                await asyncio.wait_for(self.all_settled.wait(), settle_s)
            except TimeoutError:
                if self.settled == before:
                    break
        return self.total - self.settled


async def _batch(issue: Issue, targets: Sequence[Any], settle_s: float) -> dict[str, Any]:
    tally = Tally(len(targets))
    cpu0, start = time.process_time(), time.perf_counter()
    tasks = [asyncio.ensure_future(tally.track(issue, target)) for target in targets]
    lost = await tally.wait(settle_s)
    cpu = time.process_time() - cpu0
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "ok": tally.ok,
        "failed": tally.failed,
        "errors": dict(tally.errors),
        "lost": lost,
        "elapsed_s": tally.last_settled - start,
        "cpu_s": cpu,
    }


async def _stand_in(connection: Any) -> bool:
    """A command that costs no library: one turn of the event loop, then success."""
    await asyncio.sleep(0)
    return True


async def _harness_cpu(targets: Sequence[Any], window: int, settle_s: float) -> float:
    """CPU seconds of the harness alone for the same batch (the median of three)."""
    runs = [(await _batch(windowed(_stand_in, window), targets, settle_s))["cpu_s"]
            for _ in range(3)]  # fmt: skip
    return float(sorted(runs)[1])


async def _sequential(issue: Issue, connection: Any, count: int) -> dict[str, Any]:
    latencies = []
    ok = failed = 0
    for _ in range(count):
        start = time.perf_counter()
        try:
            succeeded = await issue(connection)
        except Exception:
            succeeded = False
        latencies.append(time.perf_counter() - start)
        ok, failed = ok + succeeded, failed + (not succeeded)
    return {"ok": ok, "failed": failed, "latencies_us": [round(s * 1e6, 1) for s in latencies]}


async def run(
    config: dict[str, Any], connections: Sequence[Any], issue: Issue, rss_before: int
) -> dict[str, Any]:
    """Run the configured mode and return its result (also printed by :func:`report`)."""
    count, mode = int(config["commands"]), config["mode"]
    for _ in range(10):  # warm up: first-call costs (imports, caches) stay out of the figures
        await issue(connections[0])
    if mode == "seq":
        result = await _sequential(issue, connections[0], count)
    elif mode == "burst":
        targets = [connections[0]] * count
        result = await _batch(windowed(issue, config["window"]), targets, config["settle_s"])
        result["harness_cpu_s"] = await _harness_cpu(targets, config["window"], config["settle_s"])
    elif mode == "rss":
        targets = [c for c in connections for _ in range(count)]
        per_connection = {id(c): windowed(issue, config["window"]) for c in connections}

        async def through_own_window(connection: Any) -> bool:
            return await per_connection[id(connection)](connection)

        result = await _batch(through_own_window, targets, config["settle_s"])
        # The loop's handle that resumed this task holds the gather of the batch, and so
        # every task of it, until this step ends: end it before the memory is read.
        await asyncio.sleep(0)
        result["rss_before"], result["rss_after"] = rss_before, rss_bytes()
    else:
        raise ValueError(f"unknown mode {mode!r}")
    result.update(mode=mode, commands=count, connections=len(connections))
    report(result)
    return result
