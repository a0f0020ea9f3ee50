// Capabilities added while the addon runs: prototypes a notebook defines in the simulated world,
// and prototypes an exported pack's entry module registers after importing this bundle
// (docs/capabilities.md). They answer like the shipped ones, their params are checked the same
// way (params.ts), and list_capabilities marks them. A shipped capability is never replaced.
import type { AnyCapability, CapabilityContext, CapabilityResult } from "./capability.js";
import { describeError } from "./router.js";

/** Lower-case words joined by underscores, as the shipped capabilities are named. */
const NAME = /^[a-z][a-z0-9_]{0,63}$/;

export interface Prototypes {
  /** Register `cap` (replacing a prototype of that name); returns its name; throws a TypeError
   * naming what does not fit the capability shape. */
  define(cap: unknown): string;
  /** Remove a prototype; false when there was none of that name. */
  remove(name: string): boolean;
  /** The prototypes' names, in the order they were first defined. */
  names(): string[];
}

type Shape = Record<string, unknown>;

/** Why `cap` is not a capability (name, description, params, run or start), or null. */
export function shapeProblem(cap: unknown): string | null {
  if (typeof cap !== "object" || cap === null) return "a capability is an object with name, description, params and run(payload, ctx)";
  const c = cap as Shape;
  if (typeof c.name !== "string" || !NAME.test(c.name)) return `name must be lower-case words joined by _ (like count_cows), not ${JSON.stringify(c.name)}`;
  if (typeof c.description !== "string") return `${c.name}: description must be a string (one line, shown by list_capabilities)`;
  const params = c.params ?? {};
  if (typeof params !== "object" || params === null || Array.isArray(params)) return `${c.name}: params must be an object of name -> "type: description"`;
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== "string") return `${c.name}: params.${key} must be a string like "string: a player name"`;
  }
  const runs = typeof c.run === "function";
  const starts = typeof c.start === "function";
  if (runs === starts) return `${c.name}: give exactly one of run(payload, ctx) or an async start(payload, ctx)`;
  if (c.readOnly !== undefined && typeof c.readOnly !== "boolean") return `${c.name}: readOnly must be true or false`;
  return null;
}

/** Stack frames shown with a prototype's failure: where in its module it happened. */
const MAX_FRAMES = 6;

/** A prototype's exception as its answer says it: the error and the first frames of its stack
 * (a shipped capability's failure is its one-line message, router.ts). */
export function failure(name: string, err: unknown): CapabilityResult {
  const stack = err instanceof Error && typeof err.stack === "string" ? err.stack : "";
  const frames = stack.split("\n").filter((line) => /^\s+at /.test(line)).slice(0, MAX_FRAMES);
  return { ok: false, message: [`${name} failed: ${describeError(err)}`, ...frames.map((f) => `  ${f.trim()}`)].join("\n") };
}

/** The capability as the registry keeps it: marked as a prototype, its methods called on the
 * object the module gave (so `this` inside run still works). */
function marked(cap: Shape): AnyCapability {
  const info = { name: cap.name as string, description: cap.description as string, params: { ...(cap.params ?? {}) } as Record<string, string>, prototype: true };
  if (typeof cap.start === "function") {
    const start = cap.start as (p: Record<string, unknown>, ctx: CapabilityContext) => Promise<CapabilityResult>;
    return { ...info, start: (payload, ctx) => start.call(cap, payload, ctx).catch((err: unknown) => failure(info.name, err)) };
  }
  const run = cap.run as (p: Record<string, unknown>, ctx: CapabilityContext) => CapabilityResult;
  const guarded = (payload: Record<string, unknown>, ctx: CapabilityContext): CapabilityResult => {
    try {
      return run.call(cap, payload, ctx);
    } catch (err) {
      return failure(info.name, err);
    }
  };
  return { ...info, readOnly: cap.readOnly === true, run: guarded };
}

export function prototypeRegistrar(registry: Map<string, AnyCapability>): Prototypes {
  return {
    define(cap) {
      const problem = shapeProblem(cap);
      if (problem !== null) throw new TypeError(problem);
      const shape = cap as Shape;
      const name = shape.name as string;
      const existing = registry.get(name);
      if (existing !== undefined && existing.prototype !== true) {
        throw new TypeError(`${name} is a capability the addon ships; give the prototype another name`);
      }
      registry.set(name, marked(shape));
      return name;
    },
    remove(name) {
      const existing = registry.get(name);
      if (existing === undefined || existing.prototype !== true) return false;
      return registry.delete(name);
    },
    names() {
      return [...registry.values()].filter((cap) => cap.prototype === true).map((cap) => cap.name);
    },
  };
}
