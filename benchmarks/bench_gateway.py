"""Gateway round trips against a minimal fake game on loopback, beside a raw echo.

Run: ``.venv/bin/python benchmarks/bench_gateway.py`` (``--help`` for sizes).

Everything runs in one process and one event loop, server and client alike, so each
gateway number sits beside a raw ``websockets`` echo measured the same way in the same
run: the ratio is the gateway's cost (plus the fake game's JSON work) over bare transport.

* command RTT: ``await mc.command("say hi")``, one at a time, vs one echo at a time.
* capability RTT: ``await mc.call("ping")`` (a scriptevent down, one chat chunk back),
  vs two sequential echoes (the call needs two game frames: a commandResponse and a chunk).
* 10,000 commands: ``gather`` of 10,000 ``mc.command`` through the 100-slot window, vs
  10,000 echoes with at most 100 in flight.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve

import mcbews_repl

BRIDGE_REQ = "scriptevent mcbews:bridge_req "
WINDOW = 100  # the game's in-flight limit, used for the echo baseline too
FRAME = (
    '{"header":{"version":1,"requestId":"00000000-0000-4000-8000-000000000000",'
    '"messagePurpose":"commandRequest","messageType":"commandRequest"},"body":'
    '{"version":17039360,"commandLine":"say hi","origin":{"type":"player"}}}'
)


def _frame(purpose: str, request_id: str, body: dict[str, object]) -> str:
    header = {"messagePurpose": purpose, "requestId": request_id, "version": 1}
    return json.dumps({"header": header, "body": body}, separators=(",", ":"))


def _chunk(request_id: str) -> str:
    message = f'MCBEWS|BRIDGE|{request_id}|1/1|{{"ok":true,"result":{{"pong":1}}}}'
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360}
    body = {"message": message, "receiver": "", "sender": "MCBEWS_BRIDGE", "type": "tell"}
    return json.dumps({"header": header, "body": body}, separators=(",", ":"))


async def fake_game(url: str) -> None:
    """Answer every command at once; answer ``ping`` capability requests with one chunk."""
    async with connect(url, compression=None) as ws:
        async for message in ws:
            frame = json.loads(message)
            header, body = frame["header"], frame["body"]
            if header["messagePurpose"] != "commandRequest":
                continue
            line, rid = body["commandLine"], header["requestId"]
            reply = {"statusCode": 0, "statusMessage": "ok", "localplayername": "Steve"}
            await ws.send(_frame("commandResponse", rid, reply))
            if line.startswith(BRIDGE_REQ):
                await ws.send(_chunk(json.loads(line[len(BRIDGE_REQ) :])["request_id"]))


async def _echo(ws: ServerConnection) -> None:
    async for message in ws:
        await ws.send(message)


async def timed(n: int, one: Step) -> list[float]:
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        await one()
        samples.append(time.perf_counter() - start)
    return samples


def percentiles(samples: list[float]) -> tuple[float, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1e6, cuts[98] * 1e6


async def echo_windowed(ws: ClientConnection, n: int) -> float:
    """n echoes with at most WINDOW in flight (replies come back in order)."""
    start = time.perf_counter()
    sent = received = 0
    while received < n:
        while sent < n and sent - received < WINDOW:
            await ws.send(FRAME)
            sent += 1
        await ws.recv()
        received += 1
    return time.perf_counter() - start


Percentiles = tuple[float, float]
Step = Callable[[], Awaitable[object]]


@dataclass
class Samples:
    """Everything measured; both sides get samples from the same interleaved blocks."""

    echo: list[float] = field(default_factory=list)
    echo2: list[float] = field(default_factory=list)
    command: list[float] = field(default_factory=list)
    call: list[float] = field(default_factory=list)
    echo_bulk: list[float] = field(default_factory=list)
    command_bulk: list[float] = field(default_factory=list)


@asynccontextmanager
async def echo_client() -> AsyncIterator[ClientConnection]:
    async with serve(_echo, "127.0.0.1", 0, compression=None) as echo_server:
        port = echo_server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:
            yield ws


@asynccontextmanager
async def bridge_with_game() -> AsyncIterator[mcbews_repl.Bridge]:
    # The fake game answers capabilities as chat chunks: the chat transport, set, not probed.
    async with mcbews_repl.serve(port=0, transport="chat") as mc:
        game = asyncio.create_task(fake_game(mc.url))
        await mc.wait_connected(timeout=10)
        yield mc
        game.cancel()


async def measure(rounds: int, bulk: int, blocks: int) -> Samples:
    """Alternate echo and gateway blocks so machine noise falls on both alike."""
    samples = Samples()
    async with echo_client() as ws, bridge_with_game() as mc:

        async def echo_once() -> None:
            await ws.send(FRAME)
            await ws.recv()

        async def echo_twice() -> None:
            await echo_once()
            await echo_once()

        def command() -> Awaitable[object]:
            return mc.command("say hi")

        await timed(rounds // 5, echo_once)  # warm up both
        await timed(rounds // 5, command)
        per_block = max(rounds // blocks, 1)
        for _ in range(blocks):
            samples.echo += await timed(per_block, echo_once)
            samples.command += await timed(per_block, command)
            samples.echo2 += await timed(per_block, echo_twice)
            samples.call += await timed(per_block, lambda: mc.call("ping"))
        for _ in range(3):
            samples.echo_bulk.append(await echo_windowed(ws, bulk))
            start = time.perf_counter()
            await asyncio.gather(*(mc.command("say hi") for _ in range(bulk)))
            samples.command_bulk.append(time.perf_counter() - start)
    return samples


def _us(p: Percentiles) -> str:
    return f"{p[0]:.0f} / {p[1]:.0f} µs"


async def run(rounds: int, bulk: int, blocks: int = 10) -> list[tuple[str, str, str, str]]:
    got = await measure(rounds, bulk, blocks)
    echo1, echo2 = percentiles(got.echo), percentiles(got.echo2)
    command, call = percentiles(got.command), percentiles(got.call)
    ours_bulk, echo_bulk = min(got.command_bulk), min(got.echo_bulk)  # best of 3
    return [
        ("command round trip (p50 / p99)", _us(command), _us(echo1), _ratio(command, echo1)),
        ("capability round trip (p50 / p99)", _us(call), _us(echo2), _ratio(call, echo2)),
        (
            f"{bulk:,} commands, window {WINDOW} (best of 3)",
            f"{ours_bulk * 1000:.0f} ms ({bulk / ours_bulk:,.0f}/s)",
            f"{echo_bulk * 1000:.0f} ms ({bulk / echo_bulk:,.0f}/s)",
            f"{ours_bulk / echo_bulk:.1f}x",
        ),
    ]


def _ratio(ours: Percentiles, base: Percentiles) -> str:
    return f"{ours[0] / base[0]:.1f}x / {ours[1] / base[1]:.1f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="sequential round trips")
    parser.add_argument("--bulk", type=int, default=10_000, help="commands through the window")
    args = parser.parse_args()
    logging.getLogger("mcbews_repl").setLevel(logging.WARNING)
    rows = asyncio.run(run(args.rounds, args.bulk))
    print("| measurement | gateway + fake game | raw websockets echo | ratio |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
