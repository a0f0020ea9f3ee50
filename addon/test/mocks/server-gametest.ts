// Stand-in for @minecraft/server-gametest: spawnSimulatedPlayer adds a player to the mock world.
import { Player, state, type GameMode, type Vec3 } from "./server.js";

export const gametest = {
  spawns: [] as { location: Vec3; name: string; gameMode: GameMode }[],
  failWith: null as string | null,
  reset(): void {
    this.spawns = [];
    this.failWith = null;
  },
};

export function spawnSimulatedPlayer(location: Vec3 & { dimension: object }, name: string, gameMode: GameMode): Player {
  if (gametest.failWith !== null) throw new Error(gametest.failWith);
  const { x, y, z } = location;
  gametest.spawns.push({ location: { x, y, z }, name, gameMode });
  const player = new Player({ name, location: { x, y, z }, gameMode });
  state.players.push(player);
  return player;
}
