"""bedrockpy 1.0.1's side of ``bench_peers.py`` (runs in its own virtual environment).

    .bench-cache/venv-bedrockpy/bin/python benchmarks/peers/serve_bedrockpy.py '{...}'

API used (bedrock/server.py of 1.0.1): ``Server()``, the ``connect`` server event, then
``await app.run(line)``, which returns a ``CommandResponse`` (``.ok``). ``Server.start(host,
port)`` runs its own event loop forever and needs a fixed port, so a free one is picked
first. The library windows commands itself (a BoundedSemaphore of 100, released on each
commandResponse; an ``error`` frame releases nothing and resolves nothing), and keeps one
connection: every command goes to the most recent one.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from typing import Any

import driver
from bedrock.server import Server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def main() -> None:
    config = driver.read_config()
    wanted = int(config.get("connections", 1))
    rss_before = driver.rss_bytes()
    app = Server()
    connected: list[int] = []
    measuring: list[asyncio.Future[None]] = []  # a reference keeps the task alive

    async def issue(_connection: Any) -> bool:
        response = await app.run(config["line"])
        return bool(response.ok)

    async def measure() -> None:
        try:
            await driver.run(config, connected, issue, rss_before)
        finally:
            # start() owns the loop and closes it under its own pending tasks, which only
            # prints errors; the result is out, so leave at once.
            sys.stdout.flush()
            os._exit(0)

    @app.server_event
    async def connect(ctx: Any) -> None:
        connected.append(len(connected))
        if len(connected) == wanted:
            measuring.append(asyncio.ensure_future(measure()))

    port = free_port()

    @app.server_event
    async def ready(ctx: Any) -> None:
        driver.announce(f"ws://127.0.0.1:{port}")

    app.start("127.0.0.1", port)


if __name__ == "__main__":
    main()
