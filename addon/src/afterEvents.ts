// What each forwarded kind reads from its world.afterEvents event object (the @minecraft/server
// 2.4.0 typings: PlayerBreakBlockAfterEvent and the rest), as the short keys of a forwarded
// event (docs/protocol.md, "Forwarded events"): p player, x y z where, d dimension, b block, i
// item, n count, f face, e the entity that did it, v victim, vn its name, c cause, s initial
// spawn, o powered, ff first, ud a charge's use duration (ticks left). A read that throws (an entity no longer valid) leaves its key out.
import type {
  Block,
  ButtonPushAfterEvent,
  Dimension,
  Entity,
  EntityDieAfterEvent,
  EntityHitBlockAfterEvent,
  ItemCompleteUseAfterEvent,
  ItemReleaseUseAfterEvent,
  ItemStack,
  ItemStartUseAfterEvent,
  ItemStartUseOnAfterEvent,
  ItemStopUseAfterEvent,
  ItemStopUseOnAfterEvent,
  ItemUseAfterEvent,
  Player,
  LeverActionAfterEvent,
  PlayerBreakBlockAfterEvent,
  PlayerInteractWithBlockAfterEvent,
  PlayerLeaveAfterEvent,
  PlayerPlaceBlockAfterEvent,
  PlayerSpawnAfterEvent,
  Vector3,
} from "@minecraft/server";
import { dimensionNumber, type EventFields, type ForwardKind } from "./forwarder.js";
import { round3 } from "./targets.js";

/** The signal's name on world.afterEvents of each kind. */
export const SIGNALS: Readonly<Record<ForwardKind, string>> = {
  player_break_block: "playerBreakBlock",
  player_place_block: "playerPlaceBlock",
  entity_hit_block: "entityHitBlock",
  entity_die: "entityDie",
  player_spawn: "playerSpawn",
  player_leave: "playerLeave",
  item_use: "itemUse",
  item_start_use: "itemStartUse",
  item_complete_use: "itemCompleteUse",
  item_release_use: "itemReleaseUse",
  item_stop_use: "itemStopUse",
  item_start_use_on: "itemStartUseOn",
  item_stop_use_on: "itemStopUseOn",
  player_interact_with_block: "playerInteractWithBlock",
  button_push: "buttonPush",
  lever_action: "leverAction",
};

type Value = string | number | boolean | undefined;

function read<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

function put(fields: EventFields, key: string, value: Value): void {
  if (value !== undefined && value !== "") fields[key] = value;
}

function at(fields: EventFields, where: Vector3 | undefined, dimension: Dimension | undefined): void {
  if (where !== undefined) {
    put(fields, "x", round3(where.x));
    put(fields, "y", round3(where.y));
    put(fields, "z", round3(where.z));
  }
  if (dimension !== undefined) put(fields, "d", read(() => dimensionNumber(dimension.id)));
}

function blockAt(fields: EventFields, block: Block): void {
  at(fields, read(() => ({ x: block.x, y: block.y, z: block.z })), read(() => block.dimension));
}

/** A player's name when the entity is one (it has a name), else undefined. */
function playerName(entity: Entity | undefined): string | undefined {
  if (entity === undefined) return undefined;
  return read(() => (entity.typeId === "minecraft:player" && "name" in entity ? String(entity.name) : undefined));
}

function entityAt(fields: EventFields, entity: Entity): void {
  at(fields, read(() => entity.location), read(() => entity.dimension));
}

type Reader = (event: never) => EventFields;

function breakBlock(e: PlayerBreakBlockAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.player.name));
  blockAt(f, e.block);
  put(f, "b", read(() => e.brokenBlockPermutation.type.id));
  put(f, "i", read(() => e.itemStackBeforeBreak?.typeId));
  return f;
}

function placeBlock(e: PlayerPlaceBlockAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.player.name));
  blockAt(f, e.block);
  put(f, "b", read(() => e.block.typeId));
  return f;
}

function hitBlock(e: EntityHitBlockAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", playerName(e.damagingEntity));
  blockAt(f, e.hitBlock);
  put(f, "b", read(() => e.hitBlockPermutation.type.id));
  put(f, "f", read(() => String(e.blockFace)));
  put(f, "e", read(() => e.damagingEntity.typeId));
  return f;
}

function entityDie(e: EntityDieAfterEvent): EventFields {
  const f: EventFields = {};
  const killer = read(() => e.damageSource.damagingEntity);
  put(f, "p", playerName(killer));
  entityAt(f, e.deadEntity);
  put(f, "v", read(() => e.deadEntity.typeId));
  put(f, "vn", playerName(e.deadEntity) ?? read(() => e.deadEntity.nameTag));
  put(f, "c", read(() => String(e.damageSource.cause)));
  if (killer !== undefined) put(f, "e", read(() => killer.typeId));
  return f;
}

function spawn(e: PlayerSpawnAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.player.name));
  entityAt(f, e.player);
  put(f, "s", read(() => e.initialSpawn));
  return f;
}

function leave(e: PlayerLeaveAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.playerName));
  return f;
}

function itemUse(e: ItemUseAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.source.name));
  entityAt(f, e.source);
  put(f, "i", read(() => e.itemStack.typeId));
  put(f, "n", read(() => e.itemStack.amount));
  return f;
}

/** A charged item's use (itemStartUse, itemCompleteUse, itemReleaseUse, itemStopUse): who,
 * where they stood, the item (absent from a release or stop that has none) and the ticks left. */
interface ChargeEvent {
  readonly itemStack?: ItemStack;
  readonly source: Player;
  readonly useDuration: number;
}

function charge(e: ChargeEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.source.name));
  entityAt(f, e.source);
  put(f, "i", read(() => e.itemStack?.typeId));
  put(f, "n", read(() => e.itemStack?.amount));
  put(f, "ud", read(() => e.useDuration));
  return f;
}

function startUseOn(e: ItemStartUseOnAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.source.name));
  blockAt(f, e.block);
  put(f, "b", read(() => e.block.typeId));
  put(f, "f", read(() => String(e.blockFace)));
  put(f, "i", read(() => e.itemStack?.typeId));
  return f;
}

function stopUseOn(e: ItemStopUseOnAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.source.name));
  blockAt(f, e.block);
  put(f, "b", read(() => e.block.typeId));
  put(f, "i", read(() => e.itemStack?.typeId));
  return f;
}

function interact(e: PlayerInteractWithBlockAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.player.name));
  blockAt(f, e.block);
  put(f, "b", read(() => e.block.typeId));
  put(f, "f", read(() => String(e.blockFace)));
  put(f, "i", read(() => e.itemStack?.typeId));
  put(f, "ff", read(() => e.isFirstEvent));
  return f;
}

function buttonPush(e: ButtonPushAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", playerName(e.source));
  blockAt(f, e.block);
  put(f, "b", read(() => e.block.typeId));
  put(f, "e", read(() => e.source.typeId));
  return f;
}

function leverAction(e: LeverActionAfterEvent): EventFields {
  const f: EventFields = {};
  put(f, "p", read(() => e.player.name));
  blockAt(f, e.block);
  put(f, "b", read(() => e.block.typeId));
  put(f, "o", read(() => e.isPowered));
  return f;
}

/** Each kind's reader of its event object. */
export const READERS: Readonly<Record<ForwardKind, Reader>> = {
  player_break_block: breakBlock as Reader,
  player_place_block: placeBlock as Reader,
  entity_hit_block: hitBlock as Reader,
  entity_die: entityDie as Reader,
  player_spawn: spawn as Reader,
  player_leave: leave as Reader,
  item_use: itemUse as Reader,
  item_start_use: ((e: ItemStartUseAfterEvent) => charge(e)) as Reader,
  item_complete_use: ((e: ItemCompleteUseAfterEvent) => charge(e)) as Reader,
  item_release_use: ((e: ItemReleaseUseAfterEvent) => charge(e)) as Reader,
  item_stop_use: ((e: ItemStopUseAfterEvent) => charge(e)) as Reader,
  item_start_use_on: startUseOn as Reader,
  item_stop_use_on: stopUseOn as Reader,
  player_interact_with_block: interact as Reader,
  button_push: buttonPush as Reader,
  lever_action: leverAction as Reader,
};

/** The fields of one event object of `kind` (never throws). */
export function readEvent(kind: ForwardKind, event: unknown): EventFields {
  try {
    return READERS[kind](event as never);
  } catch {
    return {};
  }
}
