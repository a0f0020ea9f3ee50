"""Command throughput, latency, CPU and memory: mcbews_repl beside its peers, one game.

    make bench-peers    # or: .venv/bin/python benchmarks/bench_peers.py [--quick] [--help]

Every server faces the same emulated game client (``peers/emulated_game.mjs``, Node: it
answers ``commandRequest`` frames with the game's ``commandResponse``, at once or after a
delay, and refuses the 101st command in flight with the game's error frame). The servers:
this checkout's gateway (``mcbews_repl.serve``), bedrockpy and fcwslib (PyPI, each in its
own venv) and mcpews (npm), installed into ``.bench-cache/`` on first use
(``peers/install.py``). Each measurement starts a fresh server and a fresh game; rounds
interleave the servers, in a rotating order, so machine noise falls on all of them.

Measured: sequential round trips (p50/p99); a burst of commands issued at once
with the game answering at once and after 5 ms (ok/s, lost, refused, failed); server CPU
per command in those bursts; resident-memory growth with 1, 10 and 50 connections of 100
commands each. The tables go to stdout and to docs/benchmarks.md (its own section).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import docs_page
from machine_load import LoadMeter
from peers import install
from peers.runner import Job, Server, run

ROOT = Path(__file__).resolve().parent.parent
PEERS = Path(__file__).resolve().parent / "peers"
WINDOW = 100  # the game's in-flight limit (docs/gateway.md); also the caller-side window
SLOW_GAME_MS = 5.0
RSS_CONNECTIONS = (1, 10, 50)
RSS_COMMANDS = 100
SERVER_NAMES = ("mcbews_repl", "mcbews_repl-uvloop", "bedrockpy", "fcwslib", "mcpews")

Results = dict[tuple[str, str], list[dict[str, Any]]]  # (server, scenario) -> one per round


def servers(wanted: Sequence[str], bare: bool, before: Path | None = None) -> list[Server]:
    """The servers under test, their environments installed on first use; ``before``: a
    tree of an earlier revision, run by this checkout's ``serve_mcbews.py`` beside it."""
    node = ["node", "--expose-gc"]
    made: dict[str, Callable[[], Server]] = {
        "mcbews_repl": lambda: Server(
            "mcbews_repl",
            f"mcbews_repl {docs_page.git_revision()}",
            (sys.executable, str(PEERS / "serve_mcbews.py")),
        ),
        "mcbews_repl-uvloop": lambda: Server(
            "mcbews_repl-uvloop",
            f"mcbews_repl {docs_page.git_revision()} on uvloop {install.UVLOOP[1]} (optional)",
            (
                sys.executable,
                str(PEERS / "serve_mcbews.py"),
                "--uvloop",
                str(install.uvloop_path()),
            ),
        ),
        "bedrockpy": lambda: Server(
            "bedrockpy",
            "bedrockpy 1.0.1",
            (str(install.python_peer("bedrockpy")), str(PEERS / "serve_bedrockpy.py")),
        ),
        "fcwslib": lambda: Server(
            "fcwslib",
            "fcwslib 3.0.0 (caller-side window)",
            (str(install.python_peer("fcwslib")), str(PEERS / "serve_fcwslib.py")),
            WINDOW,
        ),
        "mcpews": lambda: Server(
            "mcpews",
            "mcpews 4.0.1 (Node, caller-side window)",
            (*node, str(PEERS / "serve_mcpews.mjs")),
            WINDOW,
        ),
    }
    if "mcbews_repl-uvloop" in wanted and install.uvloop_path() is None:
        wanted = [name for name in wanted if name != "mcbews_repl-uvloop"]
    chosen = [made[name]() for name in wanted]
    if before is not None:
        chosen.insert(1, Server(
            "mcbews_repl-before",
            f"mcbews_repl {before.name} (before)",
            ("/usr/bin/env", f"PYTHONPATH={before}", sys.executable,
             str(PEERS / "serve_mcbews.py")),
        ))  # fmt: skip
    if bare:
        chosen += [without_window(s) for s in chosen if s.caller_window]
    return chosen


def without_window(server: Server) -> Server:
    """The same library with no caller-side window: what a burst does to it unguarded."""
    label = server.label.replace("caller-side window", "no window")
    return replace(server, key=f"{server.key}-bare", label=label, caller_window=0,
                   bursts_only=True)  # fmt: skip


def scenarios(seq: int, burst: int) -> dict[str, Job]:
    jobs = {
        "seq": Job("seq", seq),
        "burst0": Job("burst", burst),
        "burst5": Job("burst", burst, delay_ms=SLOW_GAME_MS),
    }
    for n in RSS_CONNECTIONS:
        jobs[f"rss{n}"] = Job("rss", RSS_COMMANDS, connections=n)
    return jobs


def measure(chosen: list[Server], jobs: dict[str, Job], rounds: int) -> Results:
    """Interleaved rounds: every scenario for every server, the order rotated each round."""
    env = {**os.environ, "BENCH_NODE_PREFIX": str(install.node_prefix())}
    results: Results = {}
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as logs:
        for round_no in range(rounds):
            shift = round_no % len(chosen)
            order = chosen[shift:] + chosen[:shift]
            for name, job in jobs.items():
                for server in order:
                    if server.bursts_only and job.mode != "burst":
                        continue
                    got = run(server, job, env, Path(logs) / f"{server.key}-{name}-{round_no}")
                    results.setdefault((server.key, name), []).append(got)
                    install.log(f"round {round_no + 1}/{rounds} {name:<7} {server.key:<12} "
                                f"{summary(got)}")  # fmt: skip
    return results


def summary(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"ERROR {result['error'][:300]}"
    if result["mode"] == "seq":
        return f"p50 {statistics.median(result['latencies_us']):.0f} µs"
    rate = result["ok"] / max(result["elapsed_s"], 1e-9)
    return (
        f"{rate:,.0f} ok/s lost {result['lost']} failed {result['failed']} "
        f"refused {result['game']['refused']}"
    )


# --- the tables -------------------------------------------------------------------------


def _good(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in runs if "error" not in r]


def _errors(runs: list[dict[str, Any]]) -> str:
    bad = len(runs) - len(_good(runs))
    return f" ({bad} of {len(runs)} runs failed)" if bad else ""


def cell_seq(runs: list[dict[str, Any]]) -> str:
    samples = [s for r in _good(runs) for s in r["latencies_us"]]
    if len(samples) < 2:
        return "error" + _errors(runs)
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return f"{cuts[49]:.0f} / {cuts[98]:.0f}" + _errors(runs)


def rate(run_: dict[str, Any]) -> float:
    return float(run_["ok"] / max(run_["elapsed_s"], 1e-9))


def cell_rate(runs: list[dict[str, Any]], base: float | None, limit: float | None) -> str:
    rates = [rate(r) for r in _good(runs)]
    if not rates:
        return "error" + _errors(runs)
    mid = statistics.median(rates)
    text = f"{mid:,.0f}"
    if len(rates) > 1:
        text += f" ({min(rates):,.0f}-{max(rates):,.0f})"
    if limit:
        text += f", {mid / limit:.0%} of the limit"
    if base:
        text += f", {mid / base:.2f}x"
    return text + _errors(runs)


def cell_counts(runs: list[dict[str, Any]]) -> str:
    good = _good(runs)
    if not good:
        return "error" + _errors(runs)
    lost = sum(r["lost"] for r in good)
    refused = sum(r["game"]["refused"] for r in good)
    failed = sum(r["failed"] for r in good)
    issued = sum(r["commands"] for r in good)
    return f"{lost:,} / {refused:,} / {failed:,} of {issued:,}" + _errors(runs)


def cell_cpu(runs: list[dict[str, Any]], own: bool = False) -> str:
    """Median (range) µs per command: the whole process's, or (``own``) the library's own,
    the whole minus the harness's (the same batch with a stand-in command, driver.py)."""
    good = [r for r in _good(runs) if not own or "harness_cpu_s" in r]
    per = [1e6 * (r["cpu_s"] - (r["harness_cpu_s"] if own else 0.0)) / r["commands"]
           for r in good]  # fmt: skip
    if not per:
        return "error" + _errors(runs)
    text = f"{statistics.median(per):.1f}"
    if len(per) > 1:
        text += f" ({min(per):.1f}-{max(per):.1f})"
    return text + _errors(runs)


def cell_rss(runs: list[dict[str, Any]]) -> str:
    growth = [(r["rss_after"] - r["rss_before"]) / 1e6 for r in _good(runs)]
    if not growth:
        return "error" + _errors(runs)
    lost = sum(r["lost"] + r["failed"] for r in _good(runs))
    text = f"{statistics.median(growth):.1f}".replace("-0.0", "0.0")
    return text + (f" ({lost} not ok)" if lost else "") + _errors(runs)


def cell_peak(runs: list[dict[str, Any]]) -> str:
    peaks = [r["game"]["peakInFlight"] for r in _good(runs)]
    return str(max(peaks)) if peaks else "error"


def table(chosen: list[Server], results: Results, burst: int) -> list[str]:
    def row(label: str, cell: Callable[[list[dict[str, Any]]], str], name: str) -> str:
        cells = [cell(results[(s.key, name)]) if (s.key, name) in results else "-"
                 for s in chosen]  # fmt: skip
        return "| " + " | ".join([label, *cells]) + " |"

    def base(name: str) -> float | None:
        runs = _good(results.get(("mcbews_repl", name), []))
        return statistics.median(rate(r) for r in runs) if runs else None

    limit = WINDOW / (SLOW_GAME_MS / 1000)
    rows = [
        "| | " + " | ".join(s.label for s in chosen) + " |",
        "|---" * (len(chosen) + 1) + "|",
        row("sequential round trip, p50 / p99 (µs)", cell_seq, "seq"),
        row(f"{burst:,} at once, game answers at once: ok/s (range; vs ours)",
            lambda r: cell_rate(r, base("burst0"), None), "burst0"),
        row("… lost / refused / failed", cell_counts, "burst0"),
        row("… the game's peak in flight", cell_peak, "burst0"),
        row(f"{burst:,} at once, game takes {SLOW_GAME_MS:g} ms: ok/s "
            f"(limit {WINDOW}/{SLOW_GAME_MS / 1000:g} s = {limit:,.0f}/s)",
            lambda r: cell_rate(r, base("burst5"), limit), "burst5"),
        row("… lost / refused / failed", cell_counts, "burst5"),
        row("… the game's peak in flight", cell_peak, "burst5"),
        row("**server CPU per command, whole process, game at once (µs)**", cell_cpu, "burst0"),
        row("… the library's own: the whole minus the harness's (µs)",
            lambda r: cell_cpu(r, own=True), "burst0"),
        row(f"server CPU per command, whole process, game takes {SLOW_GAME_MS:g} ms (µs)",
            cell_cpu, "burst5"),
        row("… the library's own: the whole minus the harness's (µs)",
            lambda r: cell_cpu(r, own=True), "burst5"),
    ]  # fmt: skip
    for n in RSS_CONNECTIONS:
        label = f"RSS growth, {n} connection{'s' * (n > 1)} x {RSS_COMMANDS} commands (MB)"
        rows.append(row(label, cell_rss, f"rss{n}"))
    return rows


# --- the page ---------------------------------------------------------------------------


def environment(load: str, rounds: int, quick: bool) -> list[str]:
    v = install.versions()
    return [
        f"- Machine: {platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"{platform.system()} {platform.release()}; Python {platform.python_version()}, "
        f"Node {v['node']}",
        f"- Peers: bedrockpy {v['bedrockpy']} and fcwslib {v['fcwslib']} (each on websockets "
        f"11.0.3, in its own venv), mcpews {v['mcpews']} (on ws {v['ws']}); the emulated game "
        f"on ws {v['ws']}",
        f"- Run: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}, {rounds} interleaved "
        f"round{'s' * (rounds > 1)}{' (--quick)' if quick else ''}",
        f"- **Load: {load}.** Figures taken on a shared machine are not comparable with a "
        "quiet one's; compare the columns of one run, not runs with each other.",
    ]


INTRO = """## Command throughput beside the peers

`make bench-peers` runs `benchmarks/bench_peers.py` (`--quick` for a short look; `--help`).
One emulated game client (`benchmarks/peers/emulated_game.mjs`, Node and `ws`) plays the
game for every server: it answers each `commandRequest` with the game's `commandResponse`
(at once, or after 5 ms), allows at most 100 commands in flight per connection and answers
the 101st with the game's `error` frame (TooManyPendingRequests, -2147418109, not
executed), and counts what it answered and refused. It does not offer the wsencrypt
subprotocol and no server encrypts. The servers, each with the smallest program its
public API allows (`benchmarks/peers/serve_*`): this checkout's gateway
(`mcbews_repl.serve`, defaults but `encrypt=False`, and `max_connections` raised to 50
for the 50-connection row, past its default of 32; the transport is left at `auto`: the
emulated game has no addon, so each connection's probes end at its first unknown-command
answers and no pull poller starts; the gateway is imported before the first memory
reading, as every peer's program imports its library first), the same program on
uvloop 0.23.0 (optional: installed by pip into `.bench-cache/uvloop`, a column only where
the platform has it; the package keeps asyncio's own loop), bedrockpy 1.0.1 and fcwslib
3.0.0 (PyPI, each in its own venv under `.bench-cache/`), mcpews 4.0.1 (npm, under
`.bench-cache/node`), installed by the script on first use. fcwslib and mcpews have no
command window of their own, so the caller keeps at most 100 in flight for them (without
it, mcpews rejects every pending command on the first refusal and fcwslib's reader stops
at the error frame). Every measurement starts a fresh server and a fresh game; rounds
interleave the servers in a rotating order.

- Sequential: commands one at a time (`testfor @s`), p50 / p99 of all rounds' samples.
- Burst: all commands issued at once on one connection; ok/s is answered-ok commands over
  the time from the first issue to the last answer (median of the rounds, with their
  range). *Lost*: neither an answer nor an error 3 s after the last progress; *refused*:
  error frames the game sent; *failed*: commands that ended in an error.
- CPU per command, whole process (the headline): the server process's CPU time (user +
  system) during the burst ÷ the commands, with each library's default settings (for this
  gateway: the event log, the transport probes). It includes the harness that drives the
  library: a task and a tally per command (`benchmarks/peers/driver.py`; its JavaScript
  twin for mcpews) and, for fcwslib and mcpews, the caller-side window. *The library's own*
  is that minus the harness's CPU for the same batch with a stand-in for the library (a
  command that only yields once to the event loop; the median of three such batches in
  the same process, right after the burst).
- RSS growth: resident memory after every connection ran 100 commands (connections still
  open) minus before the first connection, both after a full garbage collection
  (`gc.collect()`, Node's `gc()`). bedrockpy keeps only its most recent connection, so
  there all commands go through that one. Node's RSS includes heap pages V8 keeps after a
  collection: in one check at 50 connections, mcpews' RSS grew by 29 MB while
  `process.memoryUsage().heapUsed` grew by under 1 MB.
- When the game answers at once no command waits in it (its peak in flight is 1), so that
  burst measures each server's own cost per command; at 5 ms the window is full (peak 100)
  and 100 commands per 5 ms, 20,000/s, is the most any server can get.
- The *no window* columns drive fcwslib and mcpews as their APIs come, bursts only: they
  show what the game's refusal does to them. fcwslib's reader stops at the first `error`
  frame, so every command after it is lost; mcpews rejects every command pending on the
  session at each `error` frame, so most fail although the game ran many of them.
"""


def page(chosen: list[Server], results: Results, args: argparse.Namespace, load: str) -> str:
    lines = [INTRO, "### Results", "", *environment(load, args.rounds, args.quick), ""]
    lines += table(chosen, results, args.burst)
    return "\n".join(lines) + "\n"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    quick_help = "1 round, 300 sequential, 2,000 at once; prints, writes no page"
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds (5)")
    parser.add_argument("--seq", type=int, default=None, help="sequential commands (2,000)")
    parser.add_argument("--burst", type=int, default=None, help="commands at once (10,000)")
    parser.add_argument("--servers", default=",".join(SERVER_NAMES),
                        help="comma-separated subset of: " + ", ".join(SERVER_NAMES))  # fmt: skip
    bare_help = "also run fcwslib and mcpews bursts without the caller-side window (default)"
    parser.add_argument("--bare", action=argparse.BooleanOptionalAction, default=True,
                        help=bare_help)  # fmt: skip
    before_help = "a tree of an earlier revision (git worktree or archive): one more column"
    parser.add_argument("--before", type=Path, default=None, help=before_help)
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args(argv)
    args.servers = [n.strip() for n in args.servers.split(",") if n.strip()]
    if unknown := sorted(set(args.servers) - set(SERVER_NAMES)):
        parser.error(f"unknown server(s) {', '.join(unknown)}; choose from {SERVER_NAMES}")
    quick = args.quick
    args.rounds = args.rounds or (1 if quick else 5)
    args.seq = args.seq or (300 if quick else 2000)
    args.burst = args.burst or (2000 if quick else 10_000)
    args.write = (not quick) if args.write is None else args.write
    return args


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    chosen = servers(args.servers, args.bare, args.before)
    meter = LoadMeter.start()
    results = measure(chosen, scenarios(args.seq, args.burst), args.rounds)
    text = page(chosen, results, args, meter.describe())
    print(text)
    if args.write:
        docs_page.write_section("peers", text)
        install.log(f"wrote {docs_page.PAGE.relative_to(ROOT)} (section 'peers')")


if __name__ == "__main__":
    main()
