"""--probe-limits against games whose ceilings differ from the simulated world's: a game that
refuses smaller frames, and one that closes the connection instead of answering."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

import mcbews_repl
from mcbews_repl.doctor import run_doctor

from .conftest import FAST_BRIDGE, QUICK


async def strict_game(ws: ClientConnection, frame_limit: int, close: bool) -> None:
    """Answers every command; a frame over ``frame_limit`` bytes is refused with an error
    frame, or ends the connection (``close``). Chat is never reported."""
    async for raw in ws:
        size = len(raw.encode() if isinstance(raw, str) else raw)
        frame = json.loads(raw)
        rid, purpose = frame["header"]["requestId"], frame["header"]["messagePurpose"]
        body: dict[str, Any] = {"statusCode": 0, "statusMessage": ""}
        if frame["body"].get("commandLine") == "getlocalplayername":
            body["localplayername"] = "Tester"
        if size > frame_limit:
            if close:
                await ws.close(1009, "too big")
                return
            purpose, body = "error", {"statusCode": -2147418111, "statusMessage": "too big"}
        else:
            purpose = "commandResponse"
        header = {"messagePurpose": purpose, "requestId": rid, "version": 1}
        await ws.send(json.dumps({"header": header, "body": body}))


@contextlib.asynccontextmanager
async def bridge_with(frame_limit: int, close: bool) -> AsyncIterator[mcbews_repl.Bridge]:
    async with mcbews_repl.serve(port=0, **FAST_BRIDGE) as mc, connect(mc.url) as ws:
        task = asyncio.create_task(strict_game(ws, frame_limit, close))
        await mc.wait_connected(timeout=10)
        try:
            yield mc
        finally:
            task.cancel()


async def test_a_game_that_refuses_frames_the_bridge_sends_fails_the_check() -> None:
    async with bridge_with(600, close=False) as mc:
        report = await run_doctor(mc, probe_limits=True, save=False, waits=QUICK)
    limits = report.check(6)
    assert limits.verdict == "failed" and limits.data["frame_bytes"] == 600
    assert limits.data["line_frame_bytes"] == 600  # the same ceiling, seen with plain ASCII
    assert "refuses frames the bridge would send" in limits.next_step


async def test_a_game_that_closes_on_a_large_frame_is_reported() -> None:
    async with bridge_with(700, close=True) as mc:
        report = await run_doctor(mc, probe_limits=True, save=False, waits=QUICK)
    limits = report.check(6)
    assert limits.verdict == "failed"
    assert "the game closed the connection during the probe" in limits.observed
    assert [c.verdict for c in report.checks][:2] == ["ok", "ok"]  # earlier checks stand
