// Forwarded events (docs/protocol.md, "Forwarded events"): the world.afterEvents a connection
// subscribed to with subscribe_events, for every player, batched per tick and sent up the way UI
// chat goes. Pure: the game's signals come in through a `SignalHook` (game.ts hooks the real
// world.afterEvents, afterEvents.ts reads their event objects), time is the tick passed in.
//
// Bounds, each dropping and counting by kind (the counts go up in the next batch's "drop"):
// a subscription's rate (at most N events of that kind a second per player), what goes up in a
// second (FORWARD_EVENTS_PER_SECOND_MAX, FORWARD_BYTES_PER_SECOND_MAX), and what waits (the
// backlog, at most a second's bytes). A batch takes from the front of the backlog within its
// own bounds (FORWARD_BATCH_MAX_EVENTS and _BYTES); what does not fit waits for the next one.
// So a notebook that falls behind for a moment (a busy machine, batches still on their way)
// gets every event late rather than some never: only a flood past a second's bounds drops.
import { dumpsWire, utf8Len } from "./json.js";
import {
  FORWARD_BATCH_MAX_BYTES,
  FORWARD_BATCH_MAX_EVENTS,
  FORWARD_BATCH_VERSION,
  FORWARD_BYTES_PER_SECOND_MAX,
  FORWARD_EVENTS_PER_SECOND_MAX,
  FORWARD_RATE_MAX_PER_SECOND,
} from "./wire.js";

/** Every kind the addon forwards, named after its world.afterEvents signal in snake case. */
export const FORWARD_KINDS = [
  "player_break_block",
  "player_place_block",
  "entity_hit_block",
  "entity_die",
  "player_spawn",
  "player_leave",
  "item_use",
  "item_start_use",
  "item_complete_use",
  "item_release_use",
  "item_stop_use",
  "item_start_use_on",
  "item_stop_use_on",
  "player_interact_with_block",
  "button_push",
  "lever_action",
] as const;

export type ForwardKind = (typeof FORWARD_KINDS)[number];

/** An event's fields by their short keys (p player, x y z, d dimension, b block ...). */
export type EventFields = Record<string, string | number | boolean>;

/** Subscribe `emit` to a kind's signal; returns what unsubscribes it. */
export type SignalHook = (kind: ForwardKind, emit: (fields: EventFields) => void) => () => void;

export function isForwardKind(name: string): name is ForwardKind {
  return (FORWARD_KINDS as readonly string[]).includes(name);
}

const TICKS_PER_SECOND = 20;
/** Room kept in a batch for its head, its kind list and its drop counts. */
const HEAD_RESERVE_BYTES = 1024;

export interface ForwarderLimits {
  batchEvents: number;
  batchBytes: number;
  eventsPerSecond: number;
  bytesPerSecond: number;
  /** What may wait unsent, in event bytes. */
  backlogBytes: number;
}

export const DEFAULT_FORWARDER_LIMITS: ForwarderLimits = {
  batchEvents: FORWARD_BATCH_MAX_EVENTS,
  batchBytes: FORWARD_BATCH_MAX_BYTES,
  eventsPerSecond: FORWARD_EVENTS_PER_SECOND_MAX,
  bytesPerSecond: FORWARD_BYTES_PER_SECOND_MAX,
  // Our choice: a second of the most that may go up, so a reader a second behind loses nothing
  // and the addon's memory for it stays at 128 KiB.
  backlogBytes: FORWARD_BYTES_PER_SECOND_MAX,
};

/** A kind and its rate: at most `rate` a second per player (0: no rate of its own). */
export type Wanted = Partial<Record<ForwardKind, number>>;

/** Read the capability's `kinds` parameter: an object of kind name to rate. */
export function readWanted(kinds: unknown): { ok: true; wanted: Wanted } | { ok: false; message: string } {
  if (typeof kinds !== "object" || kinds === null || Array.isArray(kinds)) {
    return { ok: false, message: 'kinds is an object of kind names to rates, e.g. {"player_break_block": 0}' };
  }
  const wanted: Wanted = {};
  for (const [name, rate] of Object.entries(kinds)) {
    if (!isForwardKind(name)) return { ok: false, message: `unknown kind ${JSON.stringify(name.slice(0, 40))}; known: ${FORWARD_KINDS.join(", ")}` };
    const r: unknown = rate ?? 0;
    if (typeof r !== "number" || !Number.isInteger(r) || r < 0 || r > FORWARD_RATE_MAX_PER_SECOND) {
      return { ok: false, message: `the rate of ${name} is a whole number of events a second per player, 0 (none) to ${FORWARD_RATE_MAX_PER_SECOND}` };
    }
    wanted[name] = r;
  }
  return { ok: true, wanted };
}

interface Waiting {
  kind: ForwardKind;
  fields: EventFields;
  size: number;
  tick: number;
}

export class Forwarder {
  private readonly subscribed = new Map<ForwardKind, { rate: number; off: () => void }>();
  private waiting: Waiting[] = [];
  private waitingBytes = 0;
  private readonly drops = new Map<string, number>();
  private windowStart = Number.NEGATIVE_INFINITY;
  private windowEvents = 0;
  private windowBytes = 0;
  /** Per kind and player: the window's start and the events let through in it. */
  private readonly rates = new Map<string, { start: number; count: number }>();
  /** Every event dropped since the start, for the warning the runtime gives. */
  droppedTotal = 0;
  batches = 0;

  constructor(
    private readonly hook: SignalHook,
    private readonly now: () => number,
    private readonly limits: ForwarderLimits = DEFAULT_FORWARDER_LIMITS,
  ) {}

  /** What is forwarded now, with each kind's rate. */
  forwarded(): Wanted {
    const out: Wanted = {};
    for (const [kind, sub] of this.subscribed) out[kind] = sub.rate;
    return out;
  }

  get active(): boolean {
    return this.subscribed.size > 0;
  }

  /** Forward exactly `wanted` from now on: subscribe the new kinds' signals, unsubscribe the
   * ones no longer wanted (their waiting events go too). */
  subscribe(wanted: Wanted): Wanted {
    for (const [kind, sub] of [...this.subscribed]) {
      if (wanted[kind] !== undefined) continue;
      sub.off();
      this.subscribed.delete(kind);
      this.discardKind(kind);
    }
    for (const kind of FORWARD_KINDS) {
      const rate = wanted[kind];
      if (rate === undefined) continue;
      const held = this.subscribed.get(kind);
      if (held !== undefined) {
        held.rate = rate;
        continue;
      }
      const off = this.hook(kind, (fields) => this.record(kind, fields));
      this.subscribed.set(kind, { rate, off });
    }
    return this.forwarded();
  }

  private discardKind(kind: ForwardKind): void {
    this.waiting = this.waiting.filter((w) => w.kind !== kind);
    this.waitingBytes = this.waiting.reduce((n, w) => n + w.size, 0);
    this.drops.delete(kind);
  }

  private drop(kind: string): void {
    this.drops.set(kind, (this.drops.get(kind) ?? 0) + 1);
    this.droppedTotal += 1;
  }

  /** An event of `kind` happened now: keep it for the next batch, or drop and count it. */
  record(kind: ForwardKind, fields: EventFields): void {
    const sub = this.subscribed.get(kind);
    if (sub === undefined) return;
    const tick = this.now();
    if (tick - this.windowStart >= TICKS_PER_SECOND) {
      this.windowStart = tick;
      this.windowEvents = 0;
      this.windowBytes = 0;
    }
    const size = eventBytes(fields);
    const limits = this.limits;
    if (sub.rate > 0 && !this.withinRate(kind, String(fields["p"] ?? ""), sub.rate, tick)) return this.drop(kind);
    // One event too big for any batch could never go up: dropped and counted, not kept.
    if (size > limits.batchBytes - HEAD_RESERVE_BYTES) return this.drop(kind);
    if (this.waitingBytes + size > limits.backlogBytes) return this.drop(kind);
    if (this.windowEvents >= limits.eventsPerSecond || this.windowBytes + size > limits.bytesPerSecond) return this.drop(kind);
    this.windowEvents += 1;
    this.windowBytes += size;
    this.waiting.push({ kind, fields, size, tick });
    this.waitingBytes += size;
  }

  private withinRate(kind: string, player: string, rate: number, tick: number): boolean {
    const key = `${kind}|${player}`;
    let held = this.rates.get(key);
    if (held === undefined || tick - held.start >= TICKS_PER_SECOND) {
      if (this.rates.size >= 1024) this.rates.clear(); // bounded: a world of many players
      held = { start: tick, count: 0 };
      this.rates.set(key, held);
    }
    if (held.count >= rate) return false;
    held.count += 1;
    return true;
  }

  /** Whether a batch waits to go (events, or drop counts to report). */
  get pending(): boolean {
    return this.waiting.length > 0 || this.drops.size > 0;
  }

  /** How many events wait for a batch. */
  get backlog(): number {
    return this.waiting.length;
  }

  /** The next batch's JSON text, taking the oldest events that fit one batch (the rest wait for
   * the next); null when nothing waits. Its tick is its first event's. */
  take(): string | null {
    if (!this.pending) return null;
    const room = this.limits.batchBytes - HEAD_RESERVE_BYTES;
    let count = 0;
    let bytes = 0;
    while (count < this.waiting.length && count < this.limits.batchEvents && bytes + this.waiting[count]!.size <= room) {
      bytes += this.waiting[count]!.size;
      count += 1;
    }
    const taken = this.waiting.slice(0, count);
    const kinds: string[] = [];
    const ev: [number, EventFields][] = [];
    for (const { kind, fields } of taken) {
      let index = kinds.indexOf(kind);
      if (index < 0) index = kinds.push(kind) - 1;
      ev.push([index, fields]);
    }
    const batch: Record<string, unknown> = { fwd: FORWARD_BATCH_VERSION, t: taken[0]?.tick ?? this.now(), k: kinds, ev };
    if (this.drops.size > 0) batch["drop"] = Object.fromEntries(this.drops);
    this.waiting = this.waiting.slice(count);
    this.waitingBytes -= bytes;
    this.drops.clear();
    this.batches += 1;
    return dumpsWire(batch);
  }
}

/** An event's share of a batch: its fields' JSON and the `[i,]` around them. */
export function eventBytes(fields: EventFields): number {
  return utf8Len(dumpsWire(fields)) + 6;
}

/** A dimension's number, as the WebSocket events give it (0 overworld, 1 nether, 2 the end). */
export function dimensionNumber(id: string): number | undefined {
  switch (id) {
    case "minecraft:overworld":
      return 0;
    case "minecraft:nether":
      return 1;
    case "minecraft:the_end":
      return 2;
    default:
      return undefined;
  }
}
