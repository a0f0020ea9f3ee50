"""Measure what each agent tool costs the world in game ticks, for docs/agents.md.

Every tool of the catalogue is called, under an open policy, against the simulated world
running the shipped addon (its fast clock runs the ticks work waits for back to back, so the
count is the game time an answer costs, not the machine's speed). Each tool runs ``--runs``
times; the table is the fewest and most ticks seen, printed as the ``TOOL_TICKS`` literal of
``mcbews_repl/mcpserver.py``::

    python tools/measure_tool_ticks.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mcbews_repl  # noqa: E402
from mcbews_repl.sim import SimWorld  # noqa: E402
from mcbews_repl.toolkit import CATALOGUE, ChatContexts, Guard, Policy, Tools  # noqa: E402

# One call per tool that succeeds against the default simulated world (Steve hosts, Alex
# is there, the objective kills exists); the acting ones undo nothing, so each run's world
# is a fresh one.
CALLS: dict[str, dict[str, Any]] = {
    "status": {},
    "capabilities": {},
    "players": {},
    "inventory": {"player": "Steve"},
    "item_count": {"player": "Steve", "item": "minecraft:bread"},
    "tags": {"player": "Alex"},
    "scores": {"holder": "Steve"},
    "score": {"holder": "Steve", "objective": "kills"},
    "objectives": {},
    "objective_scores": {"objective": "kills"},
    "testfor": {"selector": "@e[type=cow]"},
    "entities": {"entity_type": "minecraft:cow", "x": 0, "y": 64, "z": 0, "radius": 50},
    "block": {"x": 2, "y": 64, "z": 2, "block": "minecraft:chest"},
    "region": {"x": -2, "y": 63, "z": -2, "dx": 4, "dy": 2, "dz": 4, "block": "stone"},
    "blocks": {"x1": -2, "y1": 63, "z1": -2, "x2": 1, "y2": 64, "z2": 1},
    "events": {},
    "game_events": {"subscribe": "player_break_block"},
    "chat_context": {"context_id": "ctx_unknown"},
    "command": {"command": "time query daytime"},
    "send_text": {"player": "Steve", "text": "Welcome to today's lesson!"},
    "score_set": {"holder": "#t", "objective": "kills", "value": 4},
    "score_add": {"holder": "#t", "objective": "kills", "delta": -1},
    "score_operation": {"holder": "Steve", "objective": "kills", "operator": "+=",
                        "source_holder": "Alex", "source_objective": "kills"},
    "score_reset": {"holder": "#t", "objective": "kills"},
    "objective_add": {"objective": "gems", "display_name": "Gems"},
    "objective_remove": {"objective": "coins"},
    "objective_setdisplay": {"slot": "sidebar", "objective": "kills"},
    "fill": {"x1": 0, "y1": 100, "z1": 0, "x2": 7, "y2": 107, "z2": 7, "block": "glass"},
    "shape": {"shape": "sphere", "x": 20, "y": 110, "z": 0, "radius": 5, "block": "red_wool"},
    "set_blocks": {"x": 0, "y": 120, "z": 0, "dx": 4, "dy": 1, "dz": 4, "palette": "stone,air",
                   "runs": "0*8,1*8"},
    "undo": {},
}  # fmt: skip


async def one_run() -> dict[str, int]:
    ticks: dict[str, int] = {}
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=30)
        contexts = ChatContexts(mc)
        contexts.start()
        tools = Tools(mc, contexts=contexts, guard=Guard(Policy.open()))
        await tools.call("players")  # the transport is chosen: what follows is steady
        for spec in CATALOGUE:
            before = sim.clock.tick
            result = await tools.call(spec.name, **CALLS[spec.name])
            ticks[spec.name] = sim.clock.tick - before
            if not result["ok"] and spec.name != "chat_context":
                raise SystemExit(f"{spec.name} failed: {result['why']}")
        contexts.stop()
    return ticks


async def main(runs: int) -> None:
    seen: dict[str, list[int]] = {}
    for _ in range(runs):
        for name, count in (await one_run()).items():
            seen.setdefault(name, []).append(count)
    print("TOOL_TICKS: Final = {")
    for spec in CATALOGUE:
        low, high = min(seen[spec.name]), max(seen[spec.name])
        shown = str(low) if low == high else f"{low}-{high}"
        print(f'    "{spec.name}": "{shown}",')
    print("}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    asyncio.run(main(parser.parse_args().runs))
