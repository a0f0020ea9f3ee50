// What a capability is, what it may touch (a context passed in), and the registry that holds
// them. The registry is a value built by main.ts and handed to the router: no module state.
import type { Player } from "@minecraft/server";
import type { JsonObject } from "./json.js";
import type { CommandPolicy } from "./policy.js";
import type { ErrorCode } from "./wire.js";

/** What subscribe_events changes: the kinds the addon forwards (forwarder.ts). */
export interface ForwarderControl {
  /** Forward exactly these kinds (each with its rate) from now on; returns what is forwarded. */
  subscribe(wanted: Readonly<Record<string, number>>): Record<string, number>;
}

/** A failure answers CAPABILITY_FAILED unless it names another code (a job that finds its
 * request invalid only once it starts answers INVALID_REQUEST). */
export type CapabilityResult = { ok: true; result: JsonObject } | { ok: false; message: string; code?: ErrorCode };

export type CommandOutcome = { ok: true; successCount: number } | { ok: false; error: string };

/** What a table needs to tell an entity apart: its type and its name tag ("" if unnamed). */
export interface EntityInfo {
  typeId: string;
  nameTag: string;
}

export interface CapabilityContext {
  /** Every player in the world, the bridge player included (capabilities filter it out). */
  players(): readonly Player[];
  /** The name of the player that sent the request, when the script event had one. */
  sourcePlayer: string | null;
  /** Run a command as the world (the overworld); never throws. */
  runCommand(command: string): CommandOutcome;
  /** The entity with this id (querytarget's uniqueId), if it is loaded; never throws. */
  entity(id: string): EntityInfo | undefined;
  /** The command policy in force for run_world_command. */
  policy(): CommandPolicy;
  /** The registry answering this request, for discovery. */
  registry: Registry;
  /** The forwarder of world.afterEvents (subscribe_events); absent where none runs. */
  forwarder?: ForwarderControl;
  /** True once the bridge cancelled the request this context serves (mcbews:cancel): a job
   * stops at its next yield. Absent outside a request. */
  cancelled?: () => boolean;
  /** Given by the runtime: whether the bridge cancelled a request id (the router binds it to
   * the request as `cancelled`). */
  isCancelled?: (requestId: string) => boolean;
}

/** What list_capabilities shows of a capability. */
export interface CapabilityInfo {
  readonly name: string;
  /** One line, shown by list_capabilities. */
  readonly description: string;
  /** Parameter name to a one-line "type: description" (type and default); the leading type
   * word (string, number, integer, boolean, array, object) is checked (params.ts). */
  readonly params: Readonly<Record<string, string>>;
  /** Defined while the addon runs (prototypes.ts), not shipped in its sources. */
  readonly prototype?: boolean;
}

/** A capability that answers at once, within the tick its request arrived in. */
export interface Capability extends CapabilityInfo {
  /** True when run() only reads the world (no runCommand, no writes): it may then run inside a
   * custom command's callback, which the game executes in restricted execution, and answer in
   * that command's own result. Otherwise the pull transport runs it at the next script tick. */
  readonly readOnly?: boolean;
  run(payload: Record<string, unknown>, ctx: CapabilityContext): CapabilityResult;
}

/** A capability whose work is spread over ticks (system.runJob): it answers when done. The
 * pull transport starts it at the next script tick, outside restricted execution. */
export interface JobCapability extends CapabilityInfo {
  start(payload: Record<string, unknown>, ctx: CapabilityContext): Promise<CapabilityResult>;
}

export type AnyCapability = Capability | JobCapability;

export type Registry = ReadonlyMap<string, AnyCapability>;

export function createRegistry(capabilities: readonly AnyCapability[]): Registry {
  const map = new Map<string, AnyCapability>();
  for (const cap of capabilities) {
    if (map.has(cap.name)) throw new Error(`capability ${cap.name} registered twice`);
    map.set(cap.name, cap);
  }
  return map;
}
