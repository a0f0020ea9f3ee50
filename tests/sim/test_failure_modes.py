"""The ways a real world can fail that the simulated world plays, seen from the bridge:
a game that keeps the bridge player's chat from WebSocket subscribers, and an addon whose
script fails on every request."""

from __future__ import annotations

import pytest

import mcbews_repl
from mcbews_repl import RequestTimeout
from mcbews_repl.sim import SimWorld

from .test_e2e import bridge_and_sim


async def test_a_game_that_does_not_report_the_bridge_players_chat(addon_bundle: str) -> None:
    async with bridge_and_sim(addon_bundle, False, report_simulated_chat=False) as (mc, sim):
        with pytest.raises(RequestTimeout, match="No chat from MCBEWS_BRIDGE has reached"):
            await mc.call("list_capabilities", timeout=0.5)
        assert "MCBEWS_BRIDGE" in sim.world.players  # the addon runs: its player is there
        sim.chat("Alex", "people still chat")
        await mc.command("list")  # the chat was reported before this answer
        chats = [e.data["sender"] for e in mc.events() if e.kind == "chat"]
        assert chats == ["Alex"]
        assert sim.script_errors == []


async def test_an_addon_whose_script_fails(addon_bundle: str) -> None:
    async with bridge_and_sim(addon_bundle, False, script_error=True) as (mc, sim):
        with pytest.raises(RequestTimeout):
            await mc.call("list_capabilities", timeout=0.5)
        assert any("simulated script error" in e for e in sim.script_errors)
        # The game still reports the bridge player's whispers: only the addon is broken.
        await mc.command("execute as MCBEWS_BRIDGE run tell @s still here")
        await mc.command("list")
        senders = [e.data["sender"] for e in mc.events() if e.kind == "chat"]
        assert senders == ["MCBEWS_BRIDGE"]


async def test_options_default_to_a_game_that_works(addon_bundle: str) -> None:
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True, addon=addon_bundle) as sim:
        assert sim.report_simulated_chat and not sim.script_error
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        assert "capabilities" in await mc.call("list_capabilities")
