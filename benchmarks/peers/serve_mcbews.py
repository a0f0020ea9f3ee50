"""mcbews_repl's side of ``bench_peers.py``: this checkout's gateway, as a user runs it.

    .venv/bin/python benchmarks/peers/serve_mcbews.py '{"mode": "burst", "commands": 10000}'

``mcbews_repl.serve`` with its defaults (a random path token, the 100-command window, the
event log, ``transport="auto"`` and its probes), except ``encrypt=False``: the emulated game
does not run ``ws:encrypt``; and ``max_connections`` raised to the connections measured
when they are more than its default of 32 (the 50-connection memory row). The emulated game
has no addon, so each connection's probes end at the game's first unknown-command answers
and no pull poller starts. The gateway is imported before the memory is first measured, as
each peer's program imports its library first (``import mcbews_repl`` alone is lazy: its
``serve`` would otherwise import the gateway, websockets and cryptography, some 17 MB,
inside the growth measured for one connection).
Commands are ``await mc.command(line, connection=...)``; the gateway windows them itself.
``--uvloop <folder>`` (before the JSON) runs the same program on uvloop from that folder,
the optional event loop measured beside asyncio's own.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import driver

import mcbews_repl
import mcbews_repl.gateway  # what serve() imports: before the memory is first measured
from mcbews_repl.limits import MAX_CONNECTIONS as DEFAULT_MAX_CONNECTIONS


async def main() -> None:
    config = driver.read_config()
    logging.getLogger("mcbews_repl").setLevel(logging.WARNING)
    rss_before = driver.rss_bytes()
    wanted = int(config.get("connections", 1))
    most = max(wanted, DEFAULT_MAX_CONNECTIONS)
    async with mcbews_repl.serve(port=0, encrypt=False, max_connections=most) as mc:
        driver.announce(mc.url)
        while len(mc.connections) < wanted:
            await asyncio.sleep(0.005)
        for connection in mc.connections:
            await connection.wait_ready()

        async def issue(connection: Any) -> bool:
            result = await mc.command(config["line"], connection=connection)
            return result.ok

        await driver.run(config, mc.connections, issue, rss_before)


if __name__ == "__main__":
    if sys.argv[1] == "--uvloop":
        sys.path.insert(0, sys.argv[2])
        del sys.argv[1:3]  # driver.read_config() reads the JSON in argv[1]
        import uvloop

        uvloop.run(main())
    else:
        asyncio.run(main())
