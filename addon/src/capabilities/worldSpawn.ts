// get_world_spawn: the world's default spawn, for programs whose positions count from it (the
// mcpi facade, as RaspberryJuice counts from the spawn). world.getDefaultSpawnLocation is stable
// in @minecraft/server 2.4.0 and carries restricted_execution in its call privileges (the
// module metadata), so this read answers inside a custom command's callback. Its typings: "By
// default, the Y coordinate is 32767, indicating a player's spawn height is not fixed and will
// be determined by surrounding blocks"; fixedHeight says which one the answer is.
import { world } from "@minecraft/server";
import type { Capability } from "../capability.js";

/** The y of a spawn whose height is found from the blocks there (the 2.4.0 typings). */
export const UNFIXED_SPAWN_Y = 32767;

export const worldSpawn: Capability = {
  name: "get_world_spawn",
  readOnly: true,
  description: "The world's default spawn in the overworld; fixedHeight false: y is 32767, the height is found from the blocks there",
  params: {},
  run() {
    const { x, y, z } = world.getDefaultSpawnLocation();
    return { ok: true, result: { spawn: { x, y, z }, fixedHeight: y !== UNFIXED_SPAWN_Y } };
  },
};
