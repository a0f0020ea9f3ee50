"""fcwslib 3.0.0's side of ``bench_peers.py`` (runs in its own virtual environment).

    .bench-cache/venv-fcwslib/bin/python benchmarks/peers/serve_fcwslib.py '{...}'

API used (fcwslib/server.py of 3.0.0): ``Server(server, port)``, a ``Plugin`` subclass
added with ``add_plugin`` (one instance per connection, ``on_connect`` called for each),
and ``await plugin.send_command(line, callback)``, which returns once the frame is sent;
``callback(response)`` runs as a task when the commandResponse arrives. The library has
no window, no timeout and no handling of ``error`` frames (its reader takes any
non-commandResponse frame for an event and fails on the missing ``eventName``), so the
harness gives it a caller-side window of 100 (``window`` in the config). ``run_forever``
needs a fixed port.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any, ClassVar

import driver
from fcwslib import Plugin, Server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def listening(port: int) -> None:
    """``run_forever`` gives no signal; the port is taken once the server listens."""
    while True:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                return
        await asyncio.sleep(0.01)


class Connected(Plugin):  # type: ignore[misc]
    """Collects one plugin instance per game connection."""

    instances: ClassVar[list[Connected]] = []
    arrived: ClassVar[asyncio.Event | None] = None

    async def on_connect(self) -> None:
        Connected.instances.append(self)
        if Connected.arrived is not None:
            Connected.arrived.set()


async def main() -> None:
    config = driver.read_config()
    wanted = int(config.get("connections", 1))
    rss_before = driver.rss_bytes()
    Connected.arrived = asyncio.Event()
    port = free_port()
    server = Server(server="127.0.0.1", port=port)
    server.add_plugin(Connected)
    serving = asyncio.ensure_future(server.run_forever())
    await listening(port)
    driver.announce(f"ws://127.0.0.1:{port}")
    while len(Connected.instances) < wanted:
        Connected.arrived.clear()
        await Connected.arrived.wait()

    async def issue(plugin: Connected) -> bool:
        answered: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

        async def on_response(response: dict[str, Any]) -> None:
            answered.set_result(response)

        await plugin.send_command(config["line"], on_response)
        response = await answered
        return int(response["body"]["statusCode"]) >= 0

    await driver.run(config, Connected.instances, issue, rss_before)
    serving.cancel()


if __name__ == "__main__":
    asyncio.run(main())
