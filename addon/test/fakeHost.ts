// A fake Host over the mock world, for runtime tests: what the addon warns, spawns and defers.
import { createRegistry } from "../src/capability.js";
import { DEFAULT_CAPABILITIES } from "../src/capabilities/index.js";
import { BridgeRuntime, DEFAULT_OPTIONS, type Host } from "../src/runtime.js";
import { BRIDGE_PLAYER } from "../src/wire.js";
import { asPlayer, mc, state } from "./mocks/server.js";

export interface Fake {
  host: Host;
  warnings: string[];
  spawn: { fail: string | null; count: number };
  deferred: (() => void)[];
  /** world.afterEvents listeners the runtime subscribed, by signal name. */
  signals: Map<string, Set<(event: unknown) => void>>;
  /** Fire a world.afterEvents signal with an event object. */
  fire(signal: string, event: unknown): void;
}

export function fakeHost(options: { stable?: boolean } = {}): Fake {
  const warnings: string[] = [];
  const spawn = { fail: null as string | null, count: 0 };
  const deferred: (() => void)[] = [];
  const signals = new Map<string, Set<(event: unknown) => void>>();
  const host: Host = {
    currentTick: () => state.tick,
    defer: (fn) => void deferred.push(fn),
    players: () => state.players.map(asPlayer),
    spawnBridge: () => {
      spawn.count += 1;
      if (spawn.fail !== null) throw new Error(spawn.fail);
      mc.addPlayer({ name: BRIDGE_PLAYER });
    },
    runWorldCommand: (command) => ({ ok: true, successCount: command.length }),
    entity: () => undefined,
    readPolicy: () => state.dynamicProperties.get("policy"),
    writePolicy: (encoded) => void state.dynamicProperties.set("policy", encoded),
    warn: (message) => void warnings.push(message),
    subscribeSignal(signal, fn) {
      const held = signals.get(signal) ?? new Set();
      signals.set(signal, held);
      held.add(fn);
      return () => void held.delete(fn);
    },
  };
  if (options.stable === true) delete host.spawnBridge;
  const fire = (signal: string, event: unknown): void => {
    for (const fn of signals.get(signal) ?? []) fn(event);
  };
  return { host, warnings, spawn, deferred, signals, fire };
}

export function runtimeWith(fake: Fake, options = DEFAULT_OPTIONS): BridgeRuntime {
  return new BridgeRuntime(fake.host, createRegistry(DEFAULT_CAPABILITIES), options);
}

/** Run `count` ticks: the runtime's tick, then what it deferred (system.run runs later in the
 * same tick in the game). */
export function tick(runtime: BridgeRuntime, count = 1, fake?: Fake): void {
  for (let n = 0; n < count; n++) {
    runtime.onTick();
    for (const fn of fake?.deferred.splice(0) ?? []) fn();
    state.tick += 1;
  }
}

