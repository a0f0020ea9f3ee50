"""Prototype capabilities registered live into the addon running in the simulated world.

A notebook's module (``mcbews_repl.sim.host.ScriptHost.define_prototype``) joins the shipped
capabilities without a restart: called at once over a real socket, its params checked like
theirs, marked by list_capabilities, replaced and removed; its errors carry the cell's own line
numbers, and the watchdog and the memory limit stop a runaway one while the world goes on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError
from mcbews_repl.exceptions import PrototypeError
from mcbews_repl.sim import SimWorld

GREET = """import { world } from "@minecraft/server";

export default {
  name: "greet",
  description: "Says hello to a player and counts who is online",
  params: { who: "string: whom to greet" },
  run(payload, ctx) {
    const online = world.getAllPlayers().filter((p) => p.name !== "MCBEWS_BRIDGE").length;
    return { ok: true, result: { text: `hello ${payload.who}`, online } };
  },
};
"""

FAILING = """export default {
  name: "greet",
  description: "Fails on its fifth line",
  params: {},
  run(payload, ctx) { return lengthOfNothing(); },
};
function lengthOfNothing() {
  const missing = undefined;
  return missing.length;
}
"""


@pytest.fixture
async def quick_watchdog() -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True, hang_threshold_ms=300) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        yield mc, sim


async def test_a_prototype_answers_at_once_in_the_running_addon(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    host = sim.host
    assert host is not None
    sim.run_command("tag Steve add prototyper")
    host.define_prototype("greet", GREET)
    assert await mc.call("greet", who="Steve") == {"text": "hello Steve", "online": 2}
    assert sim.host is host  # no restart: the same script context
    assert "prototyper" in sim.world.players["Steve"].tags  # the world is as it was


async def test_params_are_checked_and_list_capabilities_marks_it(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    assert sim.host is not None
    sim.host.define_prototype("greet", GREET)
    with pytest.raises(CapabilityError) as refused:
        await mc.call("greet", who=3)
    assert refused.value.code == "INVALID_REQUEST"
    assert 'parameter "who" of greet must be a string, not an integer' in refused.value.message
    listed = {c["name"]: c for c in (await mc.call("list_capabilities"))["capabilities"]}
    assert listed["greet"]["prototype"] is True
    assert listed["greet"]["params"] == {"who": "string: whom to greet"}
    assert "prototype" not in listed["get_player_snapshot"]


async def test_defining_again_replaces_and_remove_takes_it_away(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    host = sim.host
    assert host is not None
    host.define_prototype("greet", GREET)
    host.define_prototype("greet", GREET.replace("hello ${", "good morning ${"))
    assert (await mc.call("greet", who="Alex"))["text"] == "good morning Alex"
    assert host.prototype_names() == ["greet"]
    assert host.remove_prototype("greet") is True
    assert host.prototype_names() == []
    with pytest.raises(CapabilityError) as gone:
        await mc.call("greet", who="Alex")
    assert gone.value.code == "UNSUPPORTED_CAPABILITY"


async def test_an_exception_in_run_names_the_cells_lines(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    assert sim.host is not None
    sim.host.define_prototype("greet", FAILING)
    with pytest.raises(CapabilityError) as failed:
        await mc.call("greet")
    lines = failed.value.message.splitlines()
    assert failed.value.code == "CAPABILITY_FAILED"
    assert lines[0].startswith("greet failed: TypeError: ")
    assert lines[1:] == [
        "  at lengthOfNothing (cell greet, line 9)",
        "  at run (cell greet, line 5)",
    ]


@pytest.mark.parametrize(
    ("source", "line", "shown"),
    [
        ("export default {\n  name: 'greet',\n  params: {,\n};", 3, "cell greet, line 3: Syntax"),
        ("const a = 1;\nthrow new RangeError('at load');", 2, "RangeError: at load"),
        ("import { Nothing } from '@minecraft/server';", 1, "does not provide Nothing"),
    ],
)
async def test_a_module_that_does_not_load_says_where(
    linked: tuple[mcbews_repl.Bridge, SimWorld], source: str, line: int, shown: str
) -> None:
    _, sim = linked
    assert sim.host is not None
    with pytest.raises(PrototypeError) as failed:
        sim.host.define_prototype("greet", source)
    assert failed.value.line == line
    assert shown in str(failed.value)
    assert sim.host.prototype_names() == []


async def test_a_module_must_export_a_capability_of_its_name(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    _, sim = linked
    assert sim.host is not None
    with pytest.raises(PrototypeError, match="must export one capability"):
        sim.host.define_prototype("greet", "export const a = 1;")
    with pytest.raises(PrototypeError, match='defines "hello", not greet'):
        sim.host.define_prototype("greet", GREET.replace('name: "greet"', 'name: "hello"'))
    with pytest.raises(PrototypeError, match="ships; give the prototype another name"):
        sim.host.define_prototype("list_capabilities", GREET.replace("greet", "list_capabilities"))


async def test_the_watchdog_interrupts_an_endless_loop_and_the_world_goes_on(
    quick_watchdog: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = quick_watchdog
    assert sim.host is not None
    endless = GREET.replace(
        "const online", "let n = 0;\n    while (true) { try { n++; } catch {} }\n    const online"
    )
    sim.host.define_prototype("greet", endless)
    with pytest.raises(CapabilityError) as hung:
        await mc.call("greet", who="Steve")
    assert hung.value.message.startswith(
        "greet failed: WatchdogError: script hang: ran longer than 300 ms"
    )
    assert "cell greet, line 9" in hung.value.message
    assert (await mc.call("get_player_snapshot", target="Steve"))["players"][0]["name"] == "Steve"


async def test_the_memory_limit_stops_a_leak_and_the_world_goes_on(
    linked: tuple[mcbews_repl.Bridge, SimWorld],
) -> None:
    mc, sim = linked
    assert sim.host is not None
    leak = GREET.replace(
        "const online",
        "const kept = [];\n    for (;;) kept.push('x'.repeat(1 << 20) + kept.length);\n"
        "    const online",
    )
    sim.host.define_prototype("greet", leak)
    with pytest.raises(CapabilityError) as full:
        await mc.call("greet", who="Steve")
    assert "out of memory" in full.value.message
    assert (await mc.call("get_player_snapshot", target="Steve"))["players"][0]["name"] == "Steve"
