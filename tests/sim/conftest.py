"""Fixtures for the simulator tests: a bare WebSocket server playing the bridge's side, so
the game client is tested over a real socket without the gateway in the way."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

import mcbews_repl
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.host import bundled_addon


class BareServer:
    """Accepts one game connection and lets a test exchange raw frames with it."""

    def __init__(self) -> None:
        self.connected: asyncio.Queue[ServerConnection] = asyncio.Queue()
        self.url = ""
        self.paths: list[str] = []

    async def handler(self, ws: ServerConnection) -> None:
        self.paths.append(ws.request.path if ws.request else "")
        await self.connected.put(ws)
        await ws.wait_closed()


def command_frame(line: str, request_id: str | None = None) -> tuple[str, str]:
    rid = request_id or str(uuid.uuid4())
    frame = {
        "header": {
            "version": 1,
            "requestId": rid,
            "messagePurpose": "commandRequest",
            "messageType": "commandRequest",
        },
        "body": {"version": 17039360, "commandLine": line, "origin": {"type": "player"}},
    }
    # Compact UTF-8 JSON, as the bridge sends it: the game's 661-byte ceiling counts this.
    return rid, json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def subscribe_frame(event: str = "PlayerMessage") -> tuple[str, str]:
    rid = str(uuid.uuid4())
    header = {"version": 1, "requestId": rid, "messagePurpose": "subscribe"}
    return rid, json.dumps({"header": header, "body": {"eventName": event}})


async def recv_json(ws: ServerConnection, timeout: float = 5.0) -> dict[str, Any]:
    raw = await asyncio.wait_for(ws.recv(), timeout)
    frame: dict[str, Any] = json.loads(raw)
    return frame


@pytest.fixture
async def bare_server() -> AsyncIterator[BareServer]:
    server = BareServer()
    async with serve(server.handler, "127.0.0.1", 0) as ws_server:
        port = ws_server.sockets[0].getsockname()[1]
        server.url = f"ws://127.0.0.1:{port}/tok123"
        yield server


@pytest.fixture(scope="session")
def addon_bundle() -> str:
    path = bundled_addon()
    # The bundle ships in the package; its absence is a broken checkout, not a reason to skip.
    assert path.exists(), f"{path} is missing (cd addon && npm run build)"
    return str(path)


@pytest.fixture
async def linked(addon_bundle: str) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    """A gateway on a free port with the simulated world (the shipped addon) connected;
    the addon must raise no script error along the way."""
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True, addon=addon_bundle) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        yield mc, sim
        assert sim.script_errors == []
