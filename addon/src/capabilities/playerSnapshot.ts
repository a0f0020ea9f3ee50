// get_player_snapshot: where each player is and how they are doing.
import type { Player } from "@minecraft/server";
import type { Capability } from "../capability.js";
import type { JsonObject } from "../json.js";
import { resolveTargets, round3 } from "../targets.js";

function vec3(v: { x: number; y: number; z: number }): JsonObject {
  return { x: round3(v.x), y: round3(v.y), z: round3(v.z) };
}

export function snapshotPlayer(player: Player): JsonObject {
  const rotation = player.getRotation();
  const health = player.getComponent("minecraft:health");
  return {
    name: player.name,
    id: player.id,
    dimension: player.dimension.id,
    location: vec3(player.location),
    rotation: { pitch: round3(rotation.x), yaw: round3(rotation.y) },
    velocity: vec3(player.getVelocity()),
    health: health ? { current: round3(health.currentValue), max: round3(health.effectiveMax) } : null,
    gameMode: String(player.getGameMode()),
    tags: player.getTags(),
    level: player.level,
    xp: {
      atLevel: player.xpEarnedAtCurrentLevel,
      toNextLevel: player.totalXpNeededForNextLevel,
      total: player.getTotalXp(),
    },
    selectedSlot: player.selectedSlotIndex,
    sneaking: player.isSneaking,
    sleeping: player.isSleeping,
  };
}

export const playerSnapshot: Capability = {
  name: "get_player_snapshot",
  readOnly: true,
  description: "Position, rotation, velocity, health, game mode, tags, level/XP, selected slot and flags of players",
  params: { target: "string: a player name, '@s', or '@a'/empty for every player (default)" },
  run(payload, ctx) {
    const targets = resolveTargets(payload, ctx);
    if (!targets.ok) return targets;
    return { ok: true, result: { players: targets.players.map(snapshotPlayer) } };
  },
};
