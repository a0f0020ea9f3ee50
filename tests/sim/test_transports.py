"""Every shipped capability gives the same answer whichever way it travels.

One world, copied five times: the stable pack answering by pull, the beta pack answering by
pull, the beta pack answering by chat, and both packs answering by tags in a world where
neither a custom command's message nor the bridge player's chat comes back. Each capability
the addon lists is called in all five with the same arguments; results and refusals must be
equal. set_blocks writes the same in each (a large write in bulk parts).
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.sim import SimWorld, WorldState, default_world

# A world where neither premise of pull and chat holds: only the tags transport answers.
NEITHER: dict[str, Any] = {"report_custom_command_messages": False, "report_simulated_chat": False}
SETUPS: dict[str, tuple[dict[str, Any], str]] = {
    "stable-pull": ({"pack": "stable"}, "auto"),
    "beta-pull": ({"pack": "beta", "beta_apis": True}, "pull"),
    "beta-chat": ({"pack": "beta", "beta_apis": True}, "chat"),
    "stable-tags": ({"pack": "stable", **NEITHER}, "auto"),
    "beta-tags": ({"pack": "beta", "beta_apis": True, **NEITHER}, "auto"),
}


def calls(world: WorldState) -> dict[str, list[dict[str, Any]]]:
    """Each capability's cases: arguments that answer, and arguments it refuses."""
    mob_ids = [e.id for e in world.entities][:3]
    return {
        "get_player_snapshot": [{"target": "@a"}, {"target": "Alex"}, {"target": "Nobody"}],
        "get_inventory_snapshot": [{}, {"target": "Steve"}, {"player": "Steve"}],
        "run_world_command": [{"command": "testfor @a"}, {"command": "give @a diamond 64"}],
        "describe_entities": [{"ids": [*mob_ids, "-1"]}, {"ids": "not a list"}],
        "list_capabilities": [{}],
        "get_world_spawn": [{}],
        "subscribe_events": [{"kinds": {"item_use": 3}}, {"kinds": {"nope": 1}}, {}],
        "get_blocks": [
            {"from": [7, 50, 6], "to": [-8, 69, -5], "states": True},
            {"from": [0, 0, 0], "to": [15, 15, 15]},
            {"from": [0, 0, 0], "to": [16, 16, 16]},
        ],
        "set_blocks": [
            {"origin": [0, 70, 0], "size": [2, 1, 1], "palette": ["stone"], "runs": "0*2"},
            # far over one command line: it goes down in bulk parts on every transport
            {
                "origin": [0, 72, 0],
                "size": [16, 2, 16],
                "palette": ["stone", "dirt", "glass"],
                "runs": ",".join(str((i * 7) % 3) for i in range(512)),
            },
            {"origin": [0, 70, 0], "size": [1, 1, 1], "palette": ["no_such_block"], "runs": "0"},
        ],
    }


@pytest.fixture(scope="module")
def world() -> WorldState:
    return default_world()


@pytest.fixture
async def bridges(world: WorldState) -> AsyncIterator[dict[str, mcbews_repl.Bridge]]:
    async with AsyncExitStack() as stack:
        out = {}
        for name, (sim_options, transport) in SETUPS.items():
            mc = await stack.enter_async_context(
                mcbews_repl.serve(port=0, transport=transport, probe_timeout=1.0)
            )
            sim = await stack.enter_async_context(
                SimWorld(copy.deepcopy(world), fast=True, **sim_options)
            )
            await sim.connect(mc.url)
            connection = await mc.wait_connected(timeout=10)
            assert connection.transport == name.split("-")[1]
            out[name] = mc
        yield out


async def outcome(mc: mcbews_repl.Bridge, capability: str, payload: dict[str, Any]) -> Any:
    try:
        result = await mc.call(capability, payload, timeout=10)
    except CapabilityError as exc:
        return {"error": (exc.code, exc.message)}
    if capability == "list_capabilities":  # the one answer that names its pack
        assert result.pop("addon")["pack"] in ("stable", "beta")
    return {"result": result}


async def test_every_capability_answers_alike_both_ways(
    bridges: dict[str, mcbews_repl.Bridge], world: WorldState
) -> None:
    cases = calls(world)
    listed = await bridges["stable-pull"].call("list_capabilities")
    assert sorted(c["name"] for c in listed["capabilities"]) == sorted(cases)
    refused = 0
    for capability, payloads in cases.items():
        for payload in payloads:
            got = {name: await outcome(mc, capability, payload) for name, mc in bridges.items()}
            first = got["stable-pull"]
            assert all(answer == first for answer in got.values()), (capability, payload, got)
            refused += "error" in first
    assert refused == 7  # the refusals were compared too, not only the answers
