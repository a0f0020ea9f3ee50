"""The simulator bundles run under QuickJS with the globalThis shims of addon/README.md.

A minimal host written in JavaScript stands in for the real simulator: it installs
``__mc_server``, ``__mc_server_ui`` and ``__mc_server_gametest``, loads a bundle as a
module, loads the world, ticks, and sends one capability request: as a script event answered
in chat (the beta pack), and as ``mcbews:ask`` answered in the command's result (both packs).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import quickjs  # type: ignore[import-untyped]  # a runtime dependency; the binding has no stubs

from mcbews_repl.addon import PackName, sim_bundle_path

_HOST = r"""
const listeners = { startup: [], script: [], load: [] };
const timers = [];
let tick = 0;
const players = [];
class Player {
  constructor(name) {
    this.name = name; this.id = "-1"; this.dimension = { id: "minecraft:overworld" };
    this.location = { x: 0, y: 64, z: 0 }; this.level = 0; this.xpEarnedAtCurrentLevel = 0;
    this.totalXpNeededForNextLevel = 7; this.selectedSlotIndex = 0; this.isSneaking = false;
    this.isSleeping = false; this.commands = []; this.messages = [];
  }
  getRotation() { return { x: 0, y: 0 }; }
  getVelocity() { return { x: 0, y: 0, z: 0 }; }
  getGameMode() { return "Survival"; }
  getTags() { return []; }
  getTotalXp() { return 0; }
  getComponent(id) {
    return id === "minecraft:health" ? { currentValue: 20, effectiveMax: 20 } : undefined;
  }
  sendMessage(m) { this.messages.push(m); }
  runCommand(c) { this.commands.push(c); return { successCount: 1 }; }
}
const overworld = { id: "minecraft:overworld", heightRange: { min: -64, max: 320 },
  runCommand() { return { successCount: 1 }; } };
const props = {};
const commands = {};
globalThis.__mc_server = {
  Player,
  GameMode: { Creative: "Creative" },
  EquipmentSlot: { Head: "Head", Chest: "Chest", Legs: "Legs", Feet: "Feet", Offhand: "Offhand" },
  CommandPermissionLevel: { Any: 0, GameDirectors: 1 },
  CustomCommandParamType: { String: "String", Integer: "Integer" },
  CustomCommandStatus: { Success: 0, Failure: 1 },
  world: {
    afterEvents: { worldLoad: { subscribe: (f) => listeners.load.push(f) } },
    getAllPlayers: () => players.slice(),
    getDimension: () => overworld,
    getDefaultSpawnLocation: () => ({ x: 0, y: 70, z: 0 }),
    getDynamicProperty: (k) => props[k],
    setDynamicProperty: (k, v) => { props[k] = v; },
  },
  system: {
    get currentTick() { return tick; },
    beforeEvents: { startup: { subscribe: (f) => listeners.startup.push(f) } },
    afterEvents: { scriptEventReceive: { subscribe: (f) => listeners.script.push(f) } },
    run: (f) => timers.push({ at: tick, every: 0, f }),
    runTimeout: (f, t) => timers.push({ at: tick + t, every: 0, f }),
    runInterval: (f, t) => timers.push({ at: tick + t, every: t, f }),
  },
};
globalThis.__mc_server_ui = {
  ModalFormData: class {},
  FormCancelationReason: { UserBusy: "UserBusy" },
};
globalThis.__mc_server_gametest = {
  spawnSimulatedPlayer: (loc, name) => { const p = new Player(name); players.push(p); return p; },
};
globalThis.host = {
  addPlayer: (name) => players.push(new Player(name)),
  start() {
    const registry = { registerCommand(def, fn) { commands[def.name] = fn; } };
    for (const f of listeners.startup) f({ customCommandRegistry: registry });
    for (const f of listeners.load) f({});
  },
  advance(n) {
    for (let i = 0; i < n; i++) {
      for (const t of timers.slice()) {
        if (t.at > tick) continue;
        t.f();
        t.at = t.every ? tick + t.every : Infinity;
      }
      tick++;
    }
  },
  scriptEvent(id, message) {
    for (const f of listeners.script) f({ id, message, sourceType: "Server" });
  },
  custom(name, ...args) {
    return JSON.stringify(commands[name]({ sourceEntity: players[0] }, ...args));
  },
  bridgeCommands() {
    const bridge = players.find((p) => p.name === "MCBEWS_BRIDGE");
    return JSON.stringify(bridge ? bridge.commands : null);
  },
};
"""


def _loaded(pack: PackName) -> Any:
    ctx = quickjs.Context()
    ctx.eval(_HOST)
    ctx.eval("host.addPlayer('Steve')")
    ctx.module(sim_bundle_path(pack).read_text(encoding="utf-8"))
    while ctx.execute_pending_job():
        pass
    ctx.eval("host.start(); host.advance(2)")
    return ctx


def test_the_beta_bundle_answers_a_request_in_chat_under_quickjs() -> None:
    ctx = _loaded("beta")
    request = {"v": 2, "request_id": "q1", "capability": "get_player_snapshot", "payload": {}}
    ctx.eval(f"host.scriptEvent('mcbews:bridge_req', {json.dumps(json.dumps(request))})")
    ctx.eval("host.advance(3)")
    commands = json.loads(ctx.eval("host.bridgeCommands()"))
    assert commands, "the bridge player sent nothing"
    assert all(c.startswith("tell @s MCBEWS|BRIDGE|q1|") for c in commands)
    text = "".join(c.split("|", 4)[4] for c in commands)
    answer = json.loads(text)
    assert answer["ok"] is True
    assert [p["name"] for p in answer["result"]["players"]] == ["Steve"]


@pytest.mark.parametrize("pack", ["stable", "beta"])
def test_both_bundles_answer_mcbews_ask_in_its_result_under_quickjs(pack: PackName) -> None:
    ctx = _loaded(pack)
    request = {"v": 2, "request_id": "q2", "capability": "get_player_snapshot", "payload": {}}
    hex_request = json.dumps(request, separators=(",", ":")).encode().hex()
    result = json.loads(ctx.eval(f"host.custom('mcbews:ask', '{hex_request}')"))
    assert result["status"] == 0
    head, text = result["message"].split("|1/1|", 1)
    assert head == "MCBEWS|ANSWER|q2"
    assert [p["name"] for p in json.loads(text)["result"]["players"]] == ["Steve"]
    assert json.loads(ctx.eval("host.bridgeCommands()")) in (None, [])
