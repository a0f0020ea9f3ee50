// Which players a snapshot capability reports on. `target` is a player name, or empty / `@a`
// for every real player; `@s` is the player that sent the request (or the only real player
// online when the request has no player source). The bridge player is never a target.
import type { Player } from "@minecraft/server";
import type { CapabilityContext } from "./capability.js";
import { BRIDGE_PLAYER } from "./wire.js";

export type TargetResult = { ok: true; players: Player[] } | { ok: false; message: string };

export function realPlayers(players: readonly Player[]): Player[] {
  return players.filter((p) => p.name !== BRIDGE_PLAYER);
}

export function resolveTargets(payload: Record<string, unknown>, ctx: CapabilityContext): TargetResult {
  const target = payload["target"] ?? "";
  if (typeof target !== "string") return { ok: false, message: "target must be a player name, '@a', '@s' or empty" };
  const players = realPlayers(ctx.players());
  const wanted = target.trim();
  if (wanted === "" || wanted === "@a") return { ok: true, players };
  if (wanted === "@s") return resolveSelf(players, ctx.sourcePlayer);
  if (wanted === BRIDGE_PLAYER) return { ok: false, message: `${BRIDGE_PLAYER} is the bridge, not a target` };
  const found = players.filter((p) => p.name === wanted);
  return found.length > 0 ? { ok: true, players: found } : { ok: false, message: `no player named ${wanted} is online` };
}

function resolveSelf(players: Player[], source: string | null): TargetResult {
  if (source !== null && source !== BRIDGE_PLAYER) {
    const self = players.filter((p) => p.name === source);
    if (self.length > 0) return { ok: true, players: self };
  }
  if (players.length === 1) return { ok: true, players };
  return { ok: false, message: "@s needs a player source or exactly one player online; name the player" };
}

/** Round to 3 decimals so answers stay compact. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
