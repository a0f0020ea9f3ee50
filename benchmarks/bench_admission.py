"""Admission under attack: wrong-token floods, a game through a flood, half-open sockets.

Run: ``.venv/bin/python benchmarks/bench_admission.py [--quick] [--before REV]``.

The bridge runs in a child process (``serve(port=0)`` with its defaults, its log in a file)
and the attacks in this one, as a peer on the network would. ``--before REV`` measures the
same attacks against the bridge of commit ``REV`` too (its ``mcbews_repl`` extracted with
``git archive`` into a temporary directory), side by side. Scenarios:

* wrong-token handshakes from 1 source address (32 at once), from 500 (127.0.x.y, 64 at
  once), and from 1 address whose game had connected (32 at once), for a while: tokens
  checked (HTTP 403), refused unchecked (429) and closed unanswered per second;
* a right-token game under a flood from 500 addresses and from its own address (which had
  connected before): how long each of 20 connects takes, and how many were refused;
* 1,100 sockets that send nothing, against a bridge whose process may hold 1,024
  descriptors: log lines about failed accepts, tracebacks, and how long a right-token game
  then takes to connect (trying again every 0.2 s, as a player retyping ``/connect``).

The attacks (:func:`wrong_token_flood`, :func:`half_open_sockets` and its coroutine twin
:func:`hold_half_open`, :func:`right_token_connects`) take a URL or port and source
addresses, so a soak can reuse them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docs_page
from machine_load import LoadMeter
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent
STRANGERS = [f"127.0.{k // 250 + 1}.{k % 250 + 2}" for k in range(500)]
HOME = "127.0.0.7"  # the game's machine, which a guesser shares
HALF_OPEN = 1100
DESCRIPTORS = 1024
CONNECTS = 20
# The bridge's side: descriptors capped if asked, log to stderr, URL on stdout, until stdin
# closes.
BRIDGE = """
import asyncio, json, logging, resource, sys
options = json.loads(sys.argv[1])
if options.pop("descriptors", None):
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(levelname)s %(message)s")
logging.getLogger("websockets").setLevel(logging.WARNING)
import mcbews_repl

async def main():
    async with mcbews_repl.serve(port=0, transport="chat", **options) as mc:
        print(mc.url, flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)

asyncio.run(main())
"""


# --- the attacks (reusable) -------------------------------------------------------------------


async def knock(url: str, source: str, open_timeout: float = 30) -> int:
    """One opening handshake from ``source``: 101 opened, an HTTP status, or 0 (closed
    without an answer)."""
    try:
        async with connect(url, local_addr=(source, 0), open_timeout=open_timeout):
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code
    except (InvalidHandshake, OSError, TimeoutError):
        return 0


async def wrong_token_flood(
    url: str, sources: Sequence[str], seconds: float, parallel: int
) -> Counter[int]:
    """Wrong-token handshakes from ``sources`` in turn, ``parallel`` at a time (each lane
    sends its next one as soon as the last is answered), for ``seconds``; the statuses."""
    wrong = url.rsplit("/", 1)[0] + "/0badc0de"
    answers: Counter[int] = Counter()
    stop = time.monotonic() + seconds

    async def lane(first: int) -> None:
        turn = first
        while time.monotonic() < stop:
            answers[await knock(wrong, sources[turn % len(sources)])] += 1
            turn += parallel

    await asyncio.gather(*(lane(k) for k in range(parallel)))
    return answers


def half_open_sockets(
    port: int, count: int, sources: Sequence[str] = ("127.0.0.1",), send: bytes = b""
) -> list[socket.socket]:
    """``count`` TCP connections that send ``send`` (nothing: a socket that never asks)
    and hold on; close them when done."""
    socks = []
    for k in range(count):
        sock = socket.create_connection(
            ("127.0.0.1", port), timeout=30, source_address=(sources[k % len(sources)], 0)
        )
        if send:
            sock.sendall(send)
        socks.append(sock)
    return socks


async def hold_half_open(
    port: int,
    count: int,
    seconds: float,
    sources: Sequence[str] = ("127.0.0.1",),
    send: bytes = b"",
) -> Counter[str]:
    """The same from inside an event loop (a soak's): ``count`` connections that send
    ``send`` and wait ``seconds``; how many the bridge ``closed`` early, ``held`` or
    ``failed`` to connect at all."""

    async def one(source: str) -> str:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
        except OSError:
            return "failed"
        try:
            writer.write(send)
            try:
                async with asyncio.timeout(seconds):
                    await reader.read()  # returns (b"") when the bridge closes its end
                return "closed"
            except TimeoutError:
                return "held"
        except OSError:
            return "closed"
        finally:
            writer.close()

    return Counter(await asyncio.gather(*(one(sources[k % len(sources)]) for k in range(count))))


async def right_token_connects(
    url: str, source: str, tries: int, deadline: float = 30.0
) -> list[float | None]:
    """``tries`` right-token connects from ``source``, one after another: seconds each
    took to open, or None when refused."""
    took: list[float | None] = []
    for _ in range(tries):
        start = time.monotonic()
        opened = await knock(url, source, open_timeout=deadline) == 101
        took.append(time.monotonic() - start if opened else None)
    return took


async def connect_retrying(url: str, deadline: float) -> float | None:
    """Seconds until a right-token handshake opens, trying again every 0.2 s."""
    start = time.monotonic()
    while time.monotonic() - start < deadline:
        if await knock(url, "127.0.0.1", open_timeout=10) == 101:
            return time.monotonic() - start
        await asyncio.sleep(0.2)
    return None


# --- the bridge under test --------------------------------------------------------------------


@contextmanager
def bridge(code: Path | None, log: Path, **options: Any) -> Iterator[str]:
    """A bridge in a child process, ``code`` on its path (None: this tree); its URL."""
    env = {"PYTHONPATH": str(code)} if code else {}
    with log.open("w", encoding="utf-8") as err:
        child = subprocess.Popen(
            [sys.executable, "-c", BRIDGE, json.dumps(options)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            encoding="utf-8",
            env={**_environment(), **env},
            cwd=tempfile.gettempdir(),  # not this tree: PYTHONPATH decides which code runs
        )
        assert child.stdout is not None
        try:
            yield child.stdout.readline().strip()
        finally:
            child.communicate(timeout=120)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1].split("/")[0])


@dataclass
class Figures:
    """One version's results, scenario by scenario."""

    checks: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    connects: list[float | None] = field(default_factory=list)
    accept_lines: int = 0
    tracebacks: int = 0
    waited: float | None = None


FLOODS = (  # name, sources, lanes, whether a game connected from the sources first
    ("1 address", [HOME], 32, False),
    ("500 addresses", STRANGERS, 64, False),
    ("1 proven address (the cost)", [HOME], 32, True),
)


async def measure_floods(code: Path | None, seconds: float, work: Path, figures: Figures) -> None:
    for name, sources, parallel, proven in FLOODS:
        with bridge(code, work / "flood.log") as url:
            if proven:
                await right_token_connects(url, HOME, 1)
            start = time.monotonic()
            answers = await wrong_token_flood(url, sources, seconds, parallel)
            elapsed = time.monotonic() - start
            figures.checks[name] = (
                answers[403] / elapsed,
                answers[429] / elapsed,
                answers[0] / elapsed,
            )


async def measure_game_in_flood(code: Path | None, seconds: float, work: Path, f: Figures) -> None:
    with bridge(code, work / "game.log") as url:
        await right_token_connects(url, HOME, 1)  # the game connected once: its address proved
        floods = asyncio.gather(
            wrong_token_flood(url, STRANGERS, seconds, 48),
            wrong_token_flood(url, [HOME], seconds, 16),
        )
        await asyncio.sleep(min(2.0, seconds / 4))  # the budgets are spent by now
        f.connects = await right_token_connects(url, HOME, CONNECTS)
        await floods


def measure_descriptors(code: Path | None, work: Path, figures: Figures) -> None:
    log = work / "descriptors.log"
    with bridge(code, log, descriptors=True) as url:
        socks = half_open_sockets(port_of(url), HALF_OPEN)
        try:
            figures.waited = asyncio.run(connect_retrying(url, 60.0))
        finally:
            for sock in socks:
                sock.close()
    lines = log.read_text(encoding="utf-8").splitlines()
    records = [line for line in lines if re.match(r"(ERROR|WARNING|INFO) ", line)]
    figures.accept_lines = sum(1 for line in records if "accept" in line)
    figures.tracebacks = sum(1 for line in lines if line.startswith("Traceback"))


def measure(code: Path | None, seconds: float) -> Figures:
    figures = Figures()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        asyncio.run(measure_floods(code, seconds, work, figures))
        asyncio.run(measure_game_in_flood(code, seconds, work, figures))
        measure_descriptors(code, work, figures)
    return figures


@contextmanager
def code_of(revision: str) -> Iterator[Path]:
    """``mcbews_repl`` as it was at ``revision``, in a temporary directory."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "mcbews_repl"],
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        yield Path(tmp)


# --- the table --------------------------------------------------------------------------------


def _connects(took: list[float | None]) -> str:
    opened = [t * 1000 for t in took if t is not None]
    if not opened:
        return f"refused {len(took)} of {len(took)}"
    refused = len(took) - len(opened)
    return (
        f"{statistics.median(opened):,.0f} / {max(opened):,.0f} ms, refused {refused} of "
        f"{len(took)}"
    )


def rows(figures: Figures) -> list[tuple[str, str]]:
    out = []
    for name, (checked, unchecked, closed) in figures.checks.items():
        out.append((f"wrong tokens from {name}: checked (403) per s", f"{checked:,.1f}"))
        unchecked_label = f"wrong tokens from {name}: refused unchecked (429) per s"
        out.append((unchecked_label, f"{unchecked:,.1f}"))
        out.append((f"wrong tokens from {name}: closed unanswered per s", f"{closed:,.1f}"))
    out.append(
        (
            f"right-token connect from {HOME} while it and 500 addresses flood: median / max",
            _connects(figures.connects),
        )
    )
    out.append(
        (
            f"{HALF_OPEN:,} half-open sockets at {DESCRIPTORS:,} descriptors: accept-error log "
            "lines (tracebacks)",
            f"{figures.accept_lines:,} ({figures.tracebacks:,})",
        )
    )
    waited = "never (60 s)" if figures.waited is None else f"{figures.waited:.1f} s"
    out.append(("... then a right-token game connects after", waited))
    return out


def table(versions: dict[str, Figures]) -> str:
    names = list(versions)
    lines = [
        "| scenario | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    by_version = [dict(rows(f)) for f in versions.values()]
    for label in by_version[0]:
        cells = [found.get(label, "n/a") for found in by_version]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def page(text: str, seconds: float, load: str) -> str:
    return f"""## Admission under attack: floods and half-open sockets

`.venv/bin/python benchmarks/bench_admission.py --before REV` (`--quick` for a short look)
runs the bridge in a child process with its defaults and attacks it from this one: wrong-token
handshakes for {seconds:g} s per scenario (each lane sends its next one when the last is
answered; "proven": a game had connected from that address first, so its tokens are always
checked, which is what that standing costs), a right-token game whose address had connected
before, and {HALF_OPEN:,} sockets
that send nothing against a bridge held to {DESCRIPTORS:,} descriptors. Source addresses
are loopback ones (127.0.x.y), so the attacker and the bridge share the machine's two
cores: the rates are the bridge's answers, not the network's.

- **Load: {load}.**

{text}

The bounds and their reasons are in [gateway.md](gateway.md#who-may-connect).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 s floods; prints, writes no page")
    parser.add_argument("--before", metavar="REV", help="also measure the bridge of commit REV")
    write_help = "write docs/benchmarks.md (default: yes; no with --quick)"
    parser.add_argument("--write", action=argparse.BooleanOptionalAction, help=write_help)
    args = parser.parse_args()
    seconds = 3.0 if args.quick else 10.0
    meter = LoadMeter.start()
    versions: dict[str, Figures] = {}
    if args.before:
        with code_of(args.before) as code:
            versions[f"before (`{args.before}`)"] = measure(code, seconds)
    versions[f"after ({docs_page.git_revision()})"] = measure(None, seconds)
    text = page(table(versions), seconds, meter.describe())
    print(text)
    if (not args.quick) if args.write is None else args.write:
        docs_page.write_section("admission", text)
        print(f"wrote {docs_page.PAGE.relative_to(docs_page.ROOT)} (section 'admission')")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
