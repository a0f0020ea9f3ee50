"""A bridge with a simulated world in one of the states a real world can be in."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import mcbews_repl
from mcbews_repl.doctor import Waits
from mcbews_repl.sim import SimWorld

FAST_BRIDGE: dict[str, Any] = {"text_prelude": 0.0, "text_interval": 0.0}
# Short waits: the simulated world answers in milliseconds, so what does not come in half
# a second does not come at all.
QUICK = Waits(command=2.0, event=0.5, call=0.5, probe=1.0)

# Each state of a world the simulated world can play: (bridge options, world options).
BETA = {"pack": "beta", "beta_apis": True}
MODES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "healthy": ({}, {}),
    "healthy_by_chat": ({"transport": "chat"}, BETA),
    "education": ({}, {"edition": "education"}),
    "no_addon": ({}, {"addon": False}),
    "beta_pack_without_beta_apis": ({}, {"pack": "beta", "beta_apis": False}),
    "encryption_required": ({"encrypt": False}, {"require_encryption": True}),
    "script_error": ({}, {"script_error": True}),
    "script_error_by_chat": ({"transport": "chat"}, {**BETA, "script_error": True}),
    "custom_command_message_lost": (
        {"transport": "pull"},
        {"report_custom_command_messages": False},
    ),
    # Neither a custom command's message nor the bridge player's chat comes back: only tags.
    "neither_premise": (
        {},
        {**BETA, "report_custom_command_messages": False, "report_simulated_chat": False},
    ),
    "chat_lost": ({"transport": "chat"}, {**BETA, "report_simulated_chat": False}),
    "zh_CN": ({}, {"language": "zh_CN"}),
    "ja_JP": ({}, {"language": "ja_JP"}),
}


@asynccontextmanager
async def world_in(mode: str) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    bridge_options, world_options = MODES[mode]
    async with (
        mcbews_repl.serve(port=0, **FAST_BRIDGE, **bridge_options) as mc,
        SimWorld(fast=True, **world_options) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        yield mc, sim
