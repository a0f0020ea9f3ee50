// A capability context over the mock world, for router and capability tests.
import type { CapabilityContext, CommandOutcome } from "../src/capability.js";
import { createRegistry } from "../src/capability.js";
import { DEFAULT_CAPABILITIES } from "../src/capabilities/index.js";
import { DEFAULT_POLICY, type CommandPolicy } from "../src/policy.js";
import { asPlayer, state, world } from "./mocks/server.js";

export function makeContext(over: { policy?: CommandPolicy; source?: string | null; run?: (c: string) => CommandOutcome } = {}): CapabilityContext {
  return {
    players: () => state.players.map(asPlayer),
    sourcePlayer: over.source ?? null,
    runCommand: over.run ?? (() => ({ ok: true, successCount: 1 })),
    entity: (id) => {
      try {
        return world.getEntity(id);
      } catch {
        return undefined;
      }
    },
    policy: () => over.policy ?? DEFAULT_POLICY,
    registry: createRegistry(DEFAULT_CAPABILITIES),
  };
}
