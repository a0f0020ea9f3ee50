// The beta pack's entry: both transports. The bridge player (spawnSimulatedPlayer, from the beta
// module @minecraft/server-gametest) carries answers up as chat; the custom commands carry them
// as their results. The world needs the Beta APIs experiment for this pack to load at all.
import { GameMode, world, type Dimension } from "@minecraft/server";
import { spawnSimulatedPlayer } from "@minecraft/server-gametest";
import { startBridge } from "./game.js";
import { BRIDGE_PLAYER } from "./wire.js";

function spawnPoint(dimension: Dimension): { x: number; y: number; z: number } {
  const spawn = world.getDefaultSpawnLocation();
  // An unset spawn reports y = 32767; keep the bridge player inside the world.
  const y = Math.min(Math.max(spawn.y, dimension.heightRange.min + 1), dimension.heightRange.max - 2);
  return { x: spawn.x, y, z: spawn.z };
}

// Exported for an exported pack's entry module, which registers its prototypes (prototypes.ts).
export const { prototypes } = startBridge({
  spawnBridge() {
    const dimension = world.getDimension("overworld");
    spawnSimulatedPlayer({ dimension, ...spawnPoint(dimension) }, BRIDGE_PLAYER, GameMode.Creative);
  },
});
