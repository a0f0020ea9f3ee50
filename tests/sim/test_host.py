"""The script host on its own: the shipped packs load (the beta one spawns its bridge player);
script errors surface with their JS stack instead of hanging or vanishing."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbews_repl.sim import SimWorld

from ..corpus import lang

SERVER = "globalThis.__mc_server"


def write_bundle(tmp_path: Path, source: str) -> str:
    path = tmp_path / "bundle.js"
    path.write_text(source, encoding="utf-8")
    return str(path)


PACK_COMMANDS = {"mcbews:chat", "mcbews:ask", "mcbews:pull", "mcbews:poll"}


async def test_the_beta_pack_spawns_its_bridge_player() -> None:
    async with SimWorld(clock="manual", pack="beta", beta_apis=True) as sim:
        assert "MCBEWS_BRIDGE" not in sim.world.players
        await sim.advance(1)
        bridge = sim.world.players["MCBEWS_BRIDGE"]
        assert bridge.simulated and bridge.game_mode == "creative"
        assert set(sim.api.custom_commands) == PACK_COMMANDS


async def test_the_stable_pack_registers_its_commands_and_spawns_nobody() -> None:
    async with SimWorld(clock="manual") as sim:
        await sim.advance(100)
        assert sim.pack == "stable" and not sim.beta_apis
        assert "MCBEWS_BRIDGE" not in sim.world.players
        assert set(sim.api.custom_commands) == PACK_COMMANDS
        ask = sim.api.custom_commands["mcbews:ask"]
        assert ask.mandatory == [("request", "String")] and ask.permission_level == 1


async def test_a_throwing_handler_is_reported_with_its_stack(tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path,
        f"const {{ system }} = {SERVER};\n"
        "function explode(e) { throw new TypeError('bad ' + e.message); }\n"
        "system.afterEvents.scriptEventReceive.subscribe((e) => explode(e));\n",
    )
    async with SimWorld(clock="manual", addon=bundle) as sim:
        result = sim.run_command("scriptevent test:boom kaboom")
        assert result.status_code == 0  # the command ran; the script failed afterwards
        [error] = sim.script_errors
        assert "TypeError: bad kaboom" in error
        assert "explode" in error  # the JS stack names the function


async def test_a_failing_timer_does_not_stop_the_clock(tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path,
        f"const {{ system, world }} = {SERVER};\n"
        "let n = 0;\n"
        "system.runInterval(() => { n++; if (n === 2) throw new Error('tick two'); "
        "world.setDynamicProperty('n', n); }, 1);\n",
    )
    async with SimWorld(clock="manual", addon=bundle) as sim:
        await sim.advance(4)
        assert sim.api.dynamic_properties["n"] == 4
        assert len(sim.script_errors) == 1 and "tick two" in sim.script_errors[0]


async def test_a_module_that_fails_to_load_raises(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, "throw new Error('no world for you');")
    with pytest.raises(RuntimeError, match="no world for you"):
        async with SimWorld(clock="manual", addon=bundle):
            pass


async def test_run_command_of_an_unknown_command_throws_in_js(tmp_path: Path) -> None:
    bundle = write_bundle(
        tmp_path,
        f"const {{ world }} = {SERVER};\n"
        "try { world.getDimension('overworld').runCommand('nonsense here'); }\n"
        "catch (e) { world.setDynamicProperty('err', String(e)); }\n",
    )
    async with SimWorld(clock="manual", addon=bundle) as sim:
        # A script's runCommand: the syntax error at the name, as the corpus records
        # (facts.json script_unknown_command), not the WebSocket's "Unknown command".
        wanted = lang("commands.generic.syntax", "", "nonsense", " here")
        assert wanted in sim.api.dynamic_properties["err"]
