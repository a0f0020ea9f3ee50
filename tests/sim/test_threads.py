"""The REPL runs the sim on its own loop thread; other threads reach it with call_threadsafe."""

from __future__ import annotations

import asyncio
import threading

from mcbews_repl.sim import SimWorld


def test_a_sim_on_another_threads_loop() -> None:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        sim = SimWorld(fast=True, addon=False)
        asyncio.run_coroutine_threadsafe(sim.start(), loop).result(5)
        result = sim.call_threadsafe(sim.run_command, "tag Alex add remote").result(5)
        assert result.status_message == "Added tag 'remote' to Alex"
        assert sim.call_threadsafe(lambda: threading.current_thread() is thread).result(5)
        asyncio.run_coroutine_threadsafe(sim.close(), loop).result(5)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()
