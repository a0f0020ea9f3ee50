// get_inventory_snapshot: the occupied slots of each player's inventory and their equipment.
import { EquipmentSlot, type ItemStack, type Player } from "@minecraft/server";
import type { Capability } from "../capability.js";
import type { JsonObject } from "../json.js";
import { resolveTargets } from "../targets.js";

const EQUIPMENT: readonly [string, EquipmentSlot][] = [
  ["head", EquipmentSlot.Head],
  ["chest", EquipmentSlot.Chest],
  ["legs", EquipmentSlot.Legs],
  ["feet", EquipmentSlot.Feet],
  ["offhand", EquipmentSlot.Offhand],
];

/** One item; optional parts (nameTag, lore, enchantments, durability) only when present. */
export function describeItem(item: ItemStack): JsonObject {
  const out: JsonObject = { typeId: item.typeId, amount: item.amount, maxAmount: item.maxAmount };
  if (item.nameTag !== undefined) out["nameTag"] = item.nameTag;
  const lore = item.getLore();
  if (lore.length > 0) out["lore"] = lore;
  const enchantments = item.getComponent("minecraft:enchantable")?.getEnchantments() ?? [];
  if (enchantments.length > 0) out["enchantments"] = enchantments.map((e) => ({ id: e.type.id, level: e.level }));
  const durability = item.getComponent("minecraft:durability");
  if (durability) out["durability"] = { damage: durability.damage, max: durability.maxDurability };
  return out;
}

export function snapshotInventory(player: Player): JsonObject {
  const container = player.getComponent("minecraft:inventory")?.container;
  const slots: JsonObject[] = [];
  const size = container?.size ?? 0;
  for (let slot = 0; slot < size; slot++) {
    const item = container?.getItem(slot);
    if (item) slots.push({ slot, ...describeItem(item) });
  }
  const equippable = player.getComponent("minecraft:equippable");
  const equipment: JsonObject = {};
  for (const [key, slot] of EQUIPMENT) {
    const item = equippable?.getEquipment(slot);
    equipment[key] = item ? describeItem(item) : null;
  }
  return { name: player.name, size, slots, equipment };
}

export const inventorySnapshot: Capability = {
  name: "get_inventory_snapshot",
  readOnly: true,
  description: "Occupied inventory slots (item, amount, name, lore, enchantments, durability) and equipment of players",
  params: { target: "string: a player name, '@s', or '@a'/empty for every player (default)" },
  run(payload, ctx) {
    const targets = resolveTargets(payload, ctx);
    if (!targets.ok) return targets;
    return { ok: true, result: { players: targets.players.map(snapshotInventory) } };
  },
};
