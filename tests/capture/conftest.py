"""Fixtures: a bridge with a simulated world (the real addon in QuickJS) and a recording."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import mcbews_repl
from mcbews_repl.capture import Recorder, start_recording
from mcbews_repl.sim import SimWorld

FAST_BRIDGE: dict[str, Any] = {"text_prelude": 0.0, "text_interval": 0.0}


@asynccontextmanager
async def recorded_session(
    path: Path,
    *,
    encrypted: bool = False,
    redact: bool = False,
    bridge: dict[str, Any] | None = None,
    world: dict[str, Any] | None = None,
    **recording: Any,
) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld, Recorder]]:
    """A bridge recording to ``path`` from the start, and a simulated world connected to it
    (requiring encryption when ``encrypted``; ``bridge`` and ``world`` add options to
    either); the recording stops on the way out."""
    async with (
        mcbews_repl.serve(port=0, encrypt=encrypted, **FAST_BRIDGE, **(bridge or {})) as mc,
        SimWorld(fast=True, require_encryption=encrypted, **(world or {})) as sim,
    ):
        recorder = start_recording(mc, path, redact=redact, **recording)
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        try:
            yield mc, sim, recorder
        finally:
            recorder.stop()


async def notebook_flow(mc: mcbews_repl.Bridge, sim: SimWorld) -> None:
    """What the getting-started and chat-bot notebooks do, in short."""
    await mc.command("list")
    await mc.command("tag Steve list")
    await mc.command("fly away")  # an unknown command: a failure is a result too
    await mc.call("get_player_snapshot", target="Steve")
    await mc.call("get_inventory_snapshot", target="@a")
    with contextlib.suppress(mcbews_repl.CapabilityError):
        await mc.call("no_such_capability")
    sim.ui_chat("Alex", "hello notebook, this is Alex")
    sim.chat("Steve", "Steve says hi in chat")
    await mc.send_text("Alex", "Hi Alex! " + "Here is a longer answer. " * 30)
    async with asyncio.timeout(10):  # UI chat comes with the transport's next poll
        while not any(e.kind == "ui_chat" for e in mc.events()):
            await asyncio.sleep(0.01)
