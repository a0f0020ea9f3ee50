import { beforeEach, describe, expect, it } from "vitest";
import { inventorySnapshot } from "../src/capabilities/inventorySnapshot.js";
import { describeEntities, MAX_ENTITY_IDS } from "../src/capabilities/describeEntities.js";
import { listCapabilities } from "../src/capabilities/listCapabilities.js";
import { playerSnapshot } from "../src/capabilities/playerSnapshot.js";
import { runWorldCommand } from "../src/capabilities/runWorldCommand.js";
import { worldSpawn } from "../src/capabilities/worldSpawn.js";
import type { CapabilityResult } from "../src/capability.js";
import { DEFAULT_POLICY } from "../src/policy.js";
import { BRIDGE_PLAYER } from "../src/wire.js";
import { makeContext } from "./context.js";
import { EquipmentSlot, GameMode, ItemStack, mc, state } from "./mocks/server.js";

function result(r: CapabilityResult): Record<string, unknown> {
  if (!r.ok) throw new Error(r.message);
  return r.result;
}

beforeEach(() => mc.reset());

describe("get_player_snapshot", () => {
  beforeEach(() => {
    mc.addPlayer({
      name: "Steve",
      id: "-4294967295",
      location: { x: 1.23456, y: 64, z: -7.5 },
      rotation: { x: 10, y: -90.12345 },
      velocity: { x: 0, y: -0.0784, z: 0 },
      health: { current: 17, max: 20 },
      gameMode: GameMode.Survival,
      tags: ["builder"],
      level: 5,
      xp: { atLevel: 3, toNext: 17, total: 58 },
      selectedSlot: 2,
      sneaking: true,
    });
    mc.addPlayer({ name: BRIDGE_PLAYER, gameMode: GameMode.Creative });
    mc.addPlayer({ name: "Alex", dimension: "minecraft:nether", health: null });
  });

  it("reports every real player and never the bridge player", () => {
    const players = result(playerSnapshot.run({}, makeContext()))["players"] as { name: string }[];
    expect(players.map((p) => p.name)).toEqual(["Steve", "Alex"]);
    const all = result(playerSnapshot.run({ target: "@a" }, makeContext()))["players"] as unknown[];
    expect(all).toHaveLength(2);
  });

  it("gives the documented fields, rounded", () => {
    const [steve] = result(playerSnapshot.run({ target: "Steve" }, makeContext()))["players"] as unknown[];
    expect(steve).toEqual({
      name: "Steve",
      id: "-4294967295",
      dimension: "minecraft:overworld",
      location: { x: 1.235, y: 64, z: -7.5 },
      rotation: { pitch: 10, yaw: -90.123 },
      velocity: { x: 0, y: -0.078, z: 0 },
      health: { current: 17, max: 20 },
      gameMode: "Survival",
      tags: ["builder"],
      level: 5,
      xp: { atLevel: 3, toNextLevel: 17, total: 58 },
      selectedSlot: 2,
      sneaking: true,
      sleeping: false,
    });
  });

  it("reports a missing health component as null", () => {
    const [alex] = result(playerSnapshot.run({ target: "Alex" }, makeContext()))["players"] as Record<string, unknown>[];
    expect(alex?.["health"]).toBeNull();
    expect(alex?.["dimension"]).toBe("minecraft:nether");
  });

  it("resolves @s to the requesting player, or the only player online", () => {
    const mine = result(playerSnapshot.run({ target: "@s" }, makeContext({ source: "Alex" })))["players"] as { name: string }[];
    expect(mine.map((p) => p.name)).toEqual(["Alex"]);
    expect(playerSnapshot.run({ target: "@s" }, makeContext()).ok).toBe(false);
    mc.removePlayer("Alex");
    const only = result(playerSnapshot.run({ target: "@s" }, makeContext({ source: BRIDGE_PLAYER })))["players"] as { name: string }[];
    expect(only.map((p) => p.name)).toEqual(["Steve"]);
  });

  it("refuses the bridge player, unknown names and non-string targets", () => {
    expect(playerSnapshot.run({ target: BRIDGE_PLAYER }, makeContext())).toMatchObject({ ok: false });
    expect(playerSnapshot.run({ target: "Herobrine" }, makeContext())).toEqual({ ok: false, message: "no player named Herobrine is online" });
    expect(playerSnapshot.run({ target: 5 }, makeContext())).toMatchObject({ ok: false });
  });

  it("an empty world has no players", () => {
    mc.reset();
    expect(result(playerSnapshot.run({}, makeContext()))).toEqual({ players: [] });
  });
});

describe("get_inventory_snapshot", () => {
  it("reports an empty inventory as no slots and empty equipment", () => {
    mc.addPlayer({ name: "Steve" });
    const [steve] = result(inventorySnapshot.run({}, makeContext()))["players"] as unknown[];
    expect(steve).toEqual({
      name: "Steve",
      size: 36,
      slots: [],
      equipment: { head: null, chest: null, legs: null, feet: null, offhand: null },
    });
  });

  it("reports items with and without durability, enchantments, names and lore", () => {
    const inventory = new Array<ItemStack | undefined>(36).fill(undefined);
    inventory[0] = new ItemStack({ typeId: "minecraft:dirt", amount: 12 });
    inventory[5] = new ItemStack({
      typeId: "minecraft:diamond_sword",
      maxAmount: 1,
      nameTag: "Edge",
      lore: ["sharp", "@a"],
      enchantments: [{ id: "sharpness", level: 5 }],
      durability: { damage: 12, max: 1561 },
    });
    inventory[6] = new ItemStack({ typeId: "minecraft:iron_pickaxe", maxAmount: 1, durability: { damage: 0, max: 250 }, enchantments: [] });
    mc.addPlayer({
      name: "Steve",
      inventory,
      equipment: { [EquipmentSlot.Head]: new ItemStack({ typeId: "minecraft:iron_helmet", maxAmount: 1, durability: { damage: 3, max: 165 } }) },
    });
    mc.addPlayer({ name: BRIDGE_PLAYER });
    const players = result(inventorySnapshot.run({ target: "" }, makeContext()))["players"] as Record<string, unknown>[];
    expect(players).toHaveLength(1);
    expect(players[0]?.["slots"]).toEqual([
      { slot: 0, typeId: "minecraft:dirt", amount: 12, maxAmount: 64 },
      {
        slot: 5,
        typeId: "minecraft:diamond_sword",
        amount: 1,
        maxAmount: 1,
        nameTag: "Edge",
        lore: ["sharp", "@a"],
        enchantments: [{ id: "sharpness", level: 5 }],
        durability: { damage: 12, max: 1561 },
      },
      { slot: 6, typeId: "minecraft:iron_pickaxe", amount: 1, maxAmount: 1, durability: { damage: 0, max: 250 } },
    ]);
    expect(players[0]?.["equipment"]).toMatchObject({
      head: { typeId: "minecraft:iron_helmet", durability: { damage: 3, max: 165 } },
      chest: null,
    });
  });

  it("copes with a player that has no inventory component", () => {
    mc.addPlayer({ name: "Ghost", inventory: null });
    const [ghost] = result(inventorySnapshot.run({ target: "Ghost" }, makeContext()))["players"] as Record<string, unknown>[];
    expect(ghost).toMatchObject({ size: 0, slots: [] });
  });
});

describe("run_world_command", () => {
  it("runs an allowed command and returns successCount", () => {
    const ran: string[] = [];
    const ctx = makeContext({ run: (c) => (ran.push(c), { ok: true, successCount: 2 }) });
    expect(runWorldCommand.run({ command: "/say hi" }, ctx)).toEqual({ ok: true, result: { command: "say", successCount: 2 } });
    expect(ran).toEqual(["say hi"]);
  });

  it("returns the error text of an allowed command that failed", () => {
    const ctx = makeContext({ run: () => ({ ok: false, error: "Error: No targets matched selector" }) });
    expect(runWorldCommand.run({ command: "testfor @e[type=pig]" }, ctx)).toEqual({
      ok: true,
      result: { command: "testfor", successCount: 0, error: "Error: No targets matched selector" },
    });
  });

  it("denies commands outside the policy with the reason", () => {
    const ran: string[] = [];
    const ctx = makeContext({ run: (c) => (ran.push(c), { ok: true, successCount: 1 }) });
    const out = runWorldCommand.run({ command: "give @s diamond 64" }, ctx);
    expect(out.ok).toBe(false);
    expect(!out.ok && out.message).toMatch(/'give' is not allowed.*mcbews:policy allow give/);
    expect(ran).toEqual([]);
  });

  it("runs widened commands", () => {
    const ctx = makeContext({ policy: { ...DEFAULT_POLICY, extra: ["give"] } });
    expect(runWorldCommand.run({ command: "give @s diamond" }, ctx).ok).toBe(true);
    expect(runWorldCommand.run({ command: "kill @e" }, makeContext({ policy: { ...DEFAULT_POLICY, allowAll: true } })).ok).toBe(true);
  });

  it("wants a non-empty string command", () => {
    expect(runWorldCommand.run({}, makeContext()).ok).toBe(false);
    expect(runWorldCommand.run({ command: "  " }, makeContext()).ok).toBe(false);
  });
});

describe("list_capabilities", () => {
  it("lists every registered capability with its description and parameters", () => {
    const out = result(listCapabilities.run({}, makeContext()));
    const caps = out["capabilities"] as { name: string; description: string; params: Record<string, string> }[];
    expect(caps.map((c) => c.name)).toEqual([
      "get_player_snapshot",
      "get_inventory_snapshot",
      "run_world_command",
      "describe_entities",
      "get_blocks",
      "set_blocks",
      "subscribe_events",
      "get_world_spawn",
      "list_capabilities",
    ]);
    for (const cap of caps) expect(cap.description.length).toBeGreaterThan(10);
    expect(caps[2]?.params).toHaveProperty("command");
    expect(Object.keys(caps[4]?.params ?? {})).toEqual(["from", "to", "dimension", "states", "start"]);
    expect(out["commandPolicy"]).toMatch(/^bridge commands allowed: .*say/);
    expect(out["addon"]).toEqual({ version: "dev", pack: "dev" }); // the build sets both
  });
});

describe("describe_entities", () => {
  beforeEach(() => {
    mc.addPlayer({ name: "Steve", id: "-4294967295" });
    mc.addEntity({ id: "-12884901887", typeId: "minecraft:cow", nameTag: "" });
    mc.addEntity({ id: "-12884901888", typeId: "minecraft:villager_v2", nameTag: "§6Bob" });
  });

  it("gives each id's type and name tag, in the order asked, null for the gone and the invalid", () => {
    const out = result(describeEntities.run({ ids: ["-12884901888", "-4294967295", "-1", "cow", "-12884901887"] }, makeContext()));
    expect(out["entities"]).toEqual([
      { id: "-12884901888", typeId: "minecraft:villager_v2", nameTag: "§6Bob" },
      { id: "-4294967295", typeId: "minecraft:player", nameTag: "Steve" },
      { id: "-1", typeId: null, nameTag: null },
      { id: "cow", typeId: null, nameTag: null },
      { id: "-12884901887", typeId: "minecraft:cow", nameTag: "" },
    ]);
  });

  it("refuses ids that are not strings, and too many at once", () => {
    expect(describeEntities.run({ ids: [1] }, makeContext()).ok).toBe(false);
    const many = Array.from({ length: MAX_ENTITY_IDS + 1 }, (_, k) => `-${k}`);
    expect(describeEntities.run({ ids: many }, makeContext()).ok).toBe(false);
    expect(result(describeEntities.run({}, makeContext()))["entities"]).toEqual([]);
  });
});

describe("get_world_spawn", () => {
  it("says a new world's spawn has no fixed height (y 32767)", () => {
    expect(result(worldSpawn.run({}, makeContext()))).toEqual({ spawn: { x: 0, y: 32767, z: 0 }, fixedHeight: false });
  });

  it("gives a spawn set with a height as it is", () => {
    state.spawn = { x: 120, y: 71, z: -48 };
    expect(result(worldSpawn.run({}, makeContext()))).toEqual({ spawn: { x: 120, y: 71, z: -48 }, fixedHeight: true });
    expect(worldSpawn.readOnly).toBe(true); // answered inside mcbews:ask, as the other reads
  });
});
