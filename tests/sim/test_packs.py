"""The packs as the simulated game loads them, and the custom commands as it runs them.

A pack that declares a beta module does not load without Beta APIs, and Minecraft Education
has no Beta APIs at all (facts.json ``beta_pack_without_beta_apis``); a custom command's
arguments are parsed by its declared types, its callback runs in restricted execution
(``custom_command_restricted_execution``) and its message comes back as the command's
``statusMessage`` (``custom_command_result_in_status_message``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcbews_repl.sim import SimWorld

from ..corpus import FACTS

SERVER = "globalThis.__mc_server"


def write_bundle(tmp_path: Path, source: str, dependencies: list[dict[str, str]]) -> str:
    path = tmp_path / "bundle.js"
    header = f"// a test pack\n// dependencies: {json.dumps(dependencies)}\n"
    path.write_text(header + source, encoding="utf-8")
    return str(path)


async def test_a_beta_pack_does_not_load_without_beta_apis() -> None:
    async with SimWorld(clock="manual", pack="beta") as sim:
        assert sim.host is None
        assert sim.addon_refused is not None
        assert "@minecraft/server-gametest 1.0.0-beta" in sim.addon_refused
        assert "Beta APIs experiment is off" in sim.addon_refused
        assert sim.api.custom_commands == {}
        unknown = sim.run_command("mcbews:ask 7b7d")
        assert unknown.status_code == FACTS["status_codes"]["command_not_found"]["value"]


async def test_an_education_world_has_no_beta_apis() -> None:
    with pytest.raises(ValueError, match="no experiments toggle"):
        SimWorld(edition="education", beta_apis=True)
    async with SimWorld(clock="manual", edition="education", pack="beta") as sim:
        assert sim.addon_refused is not None and "Minecraft Education has no experiments" in (
            sim.addon_refused
        )
    async with SimWorld(clock="manual", edition="education") as sim:
        assert sim.host is not None and sim.addon_refused is None  # the stable pack loads


async def test_a_bundle_declaring_no_beta_module_loads_either_way(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, "", [{"module_name": "@minecraft/server", "version": "2.4.0"}])
    async with SimWorld(clock="manual", addon=bundle) as sim:
        assert sim.host is not None


RESTRICTED = f"""
const {{ system, world, CustomCommandStatus, CustomCommandParamType }} = {SERVER};
system.beforeEvents.startup.subscribe((e) => {{
  e.customCommandRegistry.registerCommand(
    {{ name: "t:write", description: "", permissionLevel: 0,
       mandatoryParameters: [{{ type: CustomCommandParamType.String, name: "what" }}] }},
    (origin, what) => {{
      try {{ world.getDimension("overworld").runCommand("say " + what); }}
      catch (err) {{ return {{ status: CustomCommandStatus.Failure, message: String(err) }}; }}
      return {{ status: CustomCommandStatus.Success, message: "wrote" }};
    }});
  e.customCommandRegistry.registerCommand(
    {{ name: "t:defer", description: "", permissionLevel: 0,
       optionalParameters: [{{ type: CustomCommandParamType.Integer, name: "n" }}] }},
    (origin, n) => {{
      system.run(() => world.getDimension("overworld").runCommand("say later " + n));
      const who = origin.sourceEntity.name;
      return {{ status: CustomCommandStatus.Success, message: "n=" + n + " from " + who }};
    }});
}});
"""


async def test_a_callback_runs_in_restricted_execution(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, RESTRICTED, [])
    fact = FACTS["behaviours"]["custom_command_restricted_execution"]["value"]
    async with SimWorld(fast=True, addon=bundle) as sim:
        refused = sim.run_command("t:write hello")
        assert refused.status_code == FACTS["behaviours"]["custom_command_failure_code"]["value"]
        assert refused.status_message == "ReferenceError: " + fact["error"].replace(
            "%s", "Dimension::runCommand"
        )
        deferred = sim.run_command("t:defer 7")
        assert deferred.body() == {"statusCode": 0, "statusMessage": "n=7 from Steve"}
        await sim.advance(2)  # system.run leaves restricted execution
        assert [line.message for line in sim.chat_log] == ["[Script Engine] later 7"]


async def test_arguments_parse_by_their_declared_types(tmp_path: Path) -> None:
    bundle = write_bundle(tmp_path, RESTRICTED, [])
    async with SimWorld(fast=True, addon=bundle) as sim:
        assert sim.run_command("t:defer").status_message == "n=undefined from Steve"
        bad = sim.run_command("t:defer seven")
        assert bad.status_code == FACTS["status_codes"]["syntax_error"]["value"]
        assert bad.status_message == 'Syntax error: Unexpected "seven": at "t:defer >>seven<<"'
        too_many = sim.run_command("t:defer 1 2")
        assert too_many.status_message.startswith('Syntax error: Unexpected "2"')
        missing = sim.run_command("t:write")
        assert missing.status_message.startswith('Syntax error: Unexpected ""')
        quoted = sim.run_command('t:write "two words"')
        assert quoted.status_message.startswith("ReferenceError")  # one argument, then refused


async def test_two_packs_cannot_register_one_command(tmp_path: Path) -> None:
    body = RESTRICTED.split("\n", 2)[2]  # the registrations, without the const line
    bundle = write_bundle(tmp_path, RESTRICTED + body, [])
    async with SimWorld(clock="manual", addon=bundle) as sim:
        assert any("AlreadyRegistered: t:write" in e for e in sim.script_errors)
