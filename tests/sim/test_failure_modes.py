"""The ways a real world can fail that the simulated world plays, seen from the bridge: a
game that keeps the bridge player's chat from WebSocket subscribers, one that does not
return a custom command's message, and an addon whose script fails on every request."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError, CommandFailed, RequestTimeout
from mcbews_repl.sim import SimWorld

from .test_e2e import bridge_and_sim


async def test_a_game_that_does_not_report_the_bridge_players_chat() -> None:
    async with bridge_and_sim("beta-chat", False, report_simulated_chat=False) as (mc, sim):
        with pytest.raises(RequestTimeout, match="No chat from MCBEWS_BRIDGE has reached"):
            await mc.call("list_capabilities", timeout=0.5)
        assert "MCBEWS_BRIDGE" in sim.world.players  # the addon runs: its player is there
        sim.chat("Alex", "people still chat")
        await mc.command("list")  # the chat was reported before this answer
        assert [e.data["sender"] for e in mc.events() if e.kind == "chat"] == ["Alex"]
        assert sim.script_errors == []


@asynccontextmanager
async def world_by(
    transport: str, **world: Any
) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    """A bridge set to one transport (no probing) and a simulated world connected to it."""
    async with (
        mcbews_repl.serve(port=0, transport=transport) as mc,
        SimWorld(fast=True, **world) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        yield mc, sim


async def test_a_game_that_does_not_return_a_custom_commands_message() -> None:
    async with world_by("pull", report_custom_command_messages=False) as (mc, _):
        ran = await mc.command("mcbews:pull nothing1 1")
        assert ran.ok and ran.status_message == ""  # it ran; its message did not come back
        with pytest.raises(CapabilityError, match="not a pull reply"):
            await mc.call("list_capabilities", timeout=0.5)


async def test_an_addon_whose_script_fails_over_pull() -> None:
    async with world_by("pull", script_error=True) as (mc, sim):
        failed = await mc.command("mcbews:pull nothing1 1")
        assert failed.status_code == -2147352576 and failed.status_message == ""
        with pytest.raises(CommandFailed):
            await mc.call("list_capabilities", timeout=0.5)
        assert any("simulated script error in mcbews:pull" in e for e in sim.script_errors)


async def test_an_addon_whose_script_fails_over_chat() -> None:
    async with world_by("chat", pack="beta", beta_apis=True, script_error=True) as (mc, sim):
        with pytest.raises(RequestTimeout):
            await mc.call("list_capabilities", timeout=0.5)
        assert any("simulated script error on mcbews:bridge_req" in e for e in sim.script_errors)
        # The game still reports the bridge player's whispers: only the addon is broken.
        await mc.command("execute as MCBEWS_BRIDGE run tell @s still here")
        await mc.command("list")
        assert [e.data["sender"] for e in mc.events() if e.kind == "chat"] == ["MCBEWS_BRIDGE"]


async def test_options_default_to_a_game_that_works() -> None:
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True) as sim:
        assert sim.report_simulated_chat and sim.report_custom_command_messages
        assert not sim.script_error
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        assert "capabilities" in await mc.call("list_capabilities")
