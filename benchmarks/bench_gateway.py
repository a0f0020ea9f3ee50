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
from collections.abc import Awaitable, Callable

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


async def fake_game(url: str, ready: asyncio.Event) -> None:
    """Answer every command at once; answer ``ping`` capability requests with one chunk."""
    async with connect(url, compression=None) as ws:
        ready.set()
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


async def timed(n: int, one: Callable[[], Awaitable[object]]) -> list[float]:
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


async def run(rounds: int, bulk: int) -> list[tuple[str, str, str, str]]:
    rows = []
    async with serve(_echo, "127.0.0.1", 0, compression=None) as echo_server:
        port = echo_server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}", compression=None) as ws:

            async def echo_once() -> None:
                await ws.send(FRAME)
                await ws.recv()

            async def echo_twice() -> None:
                await echo_once()
                await echo_once()

            await timed(rounds // 10, echo_once)  # warm up
            echo1 = percentiles(await timed(rounds, echo_once))
            echo2 = percentiles(await timed(rounds, echo_twice))
            echo_bulk = await echo_windowed(ws, bulk)

    async with mcbews_repl.serve(port=0) as mc:
        ready = asyncio.Event()
        game = asyncio.create_task(fake_game(mc.url, ready))
        await mc.wait_connected(timeout=10)
        await timed(rounds // 10, lambda: mc.command("say hi"))  # warm up
        command = percentiles(await timed(rounds, lambda: mc.command("say hi")))
        call = percentiles(await timed(rounds, lambda: mc.call("ping")))
        start = time.perf_counter()
        await asyncio.gather(*(mc.command("say hi") for _ in range(bulk)))
        bulk_seconds = time.perf_counter() - start
        game.cancel()

    def us(p: tuple[float, float]) -> str:
        return f"{p[0]:.0f} / {p[1]:.0f} µs"

    rows.append(("command round trip (p50 / p99)", us(command), us(echo1), _ratio(command, echo1)))
    rows.append(("capability round trip (p50 / p99)", us(call), us(echo2), _ratio(call, echo2)))
    rows.append(
        (
            f"{bulk:,} commands, window {WINDOW}",
            f"{bulk_seconds * 1000:.0f} ms ({bulk / bulk_seconds:,.0f}/s)",
            f"{echo_bulk * 1000:.0f} ms ({bulk / echo_bulk:,.0f}/s)",
            f"{bulk_seconds / echo_bulk:.1f}x",
        )
    )
    return rows


def _ratio(ours: tuple[float, float], base: tuple[float, float]) -> str:
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
