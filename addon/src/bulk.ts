// Requests bigger than one command (docs/protocol.md; mirror of the Python core's
// sansio/bulk.py): `scriptevent mcbews:bulk <id> <k> <i>/<n> <content>` is part i of n of a
// request's JSON text, k the script event the whole stands for (c bridge_req, p pull_req,
// t tags_req). The reassembler joins a request's parts in any order and hands back the text
// and the event; it is bounded like the bridge's own reassembler: a TTL since the last part,
// bytes per request and across the world, parts per request, requests at once. A request that
// breaks a bound fails: it is dropped, its later parts are ignored, and the runtime answers it
// CAPABILITY_FAILED when it can. Pure: time is the tick passed in.
import { utf8Len } from "./json.js";
import {
  BRIDGE_REQUEST_EVENT,
  BULK_MAX_PARTS,
  BULK_MAX_REQUESTS,
  BULK_REQUEST_MAX_BYTES,
  BULK_TTL_SECONDS,
  BULK_WORLD_MAX_BYTES,
  CANCEL_IDS_KEPT,
  PULL_REQUEST_EVENT,
  TAGS_REQUEST_EVENT,
} from "./wire.js";

export type BulkKind = "c" | "p" | "t";

/** The script event each kind stands for. */
export const BULK_KINDS: Readonly<Record<BulkKind, string>> = {
  c: BRIDGE_REQUEST_EVENT,
  p: PULL_REQUEST_EVENT,
  t: TAGS_REQUEST_EVENT,
};

export interface BulkPart {
  id: string;
  kind: BulkKind;
  index: number;
  total: number;
  content: string;
}

const HEAD = /^([A-Za-z0-9]{1,64}) ([cpt]) ([1-9][0-9]{0,5})\/([1-9][0-9]{0,5}) /;

/** A part from its script event's message; null when it is not one. */
export function parseBulkPart(message: string): BulkPart | null {
  const match = HEAD.exec(message);
  if (match === null) return null;
  const index = Number(match[3]);
  const total = Number(match[4]);
  if (index > total) return null;
  return { id: match[1]!, kind: match[2] as BulkKind, index, total, content: message.slice(match[0].length) };
}

export interface BulkBounds {
  requestMaxBytes: number;
  worldMaxBytes: number;
  maxParts: number;
  maxRequests: number;
  ttlTicks: number;
}

export const DEFAULT_BULK_BOUNDS: BulkBounds = {
  requestMaxBytes: BULK_REQUEST_MAX_BYTES,
  worldMaxBytes: BULK_WORLD_MAX_BYTES,
  maxParts: BULK_MAX_PARTS,
  maxRequests: BULK_MAX_REQUESTS,
  ttlTicks: BULK_TTL_SECONDS * 20,
};

export type BulkOutcome =
  | { kind: "partial"; id: string; received: number; total: number }
  | { kind: "duplicate"; id: string }
  | { kind: "complete"; id: string; event: string; text: string }
  /** `source`: the player the request's first part came from (for an answer on tags). */
  | { kind: "failed"; id: string; event: string; reason: string; source: string | null }
  /** A part of a request that failed or expired lately: nothing is kept. */
  | { kind: "ignored"; id: string };

interface Buffer {
  kind: BulkKind;
  total: number;
  parts: Map<number, string>;
  bytes: number;
  lastTick: number;
  source: string | null;
}

/** Requests being received, by id. */
export class BulkReassembler {
  private readonly buffers = new Map<string, Buffer>();
  /** Ids that failed or expired, with the tick: their late parts start nothing. */
  private readonly gone = new Map<string, number>();
  private held = 0;

  constructor(private readonly bounds: BulkBounds = DEFAULT_BULK_BOUNDS) {}

  /** Bytes of parts held across every request. */
  get heldBytes(): number {
    return this.held;
  }

  get size(): number {
    return this.buffers.size;
  }

  feed(part: BulkPart, tick: number, source: string | null = null): BulkOutcome {
    const { id } = part;
    if (this.gone.has(id)) return { kind: "ignored", id };
    const event = BULK_KINDS[part.kind];
    let buffer = this.buffers.get(id);
    if (buffer === undefined) {
      if (part.total > this.bounds.maxParts) return this.fail(id, event, `${part.total} parts, more than the ${this.bounds.maxParts} a request may have`, tick, source);
      if (this.buffers.size >= this.bounds.maxRequests) return this.fail(id, event, `${this.bounds.maxRequests} large requests are already being received`, tick, source);
      buffer = { kind: part.kind, total: part.total, parts: new Map(), bytes: 0, lastTick: tick, source };
      this.buffers.set(id, buffer);
    }
    if (buffer.kind !== part.kind || buffer.total !== part.total) return this.fail(id, BULK_KINDS[buffer.kind], `a part says ${part.kind} ${part.total} parts, an earlier one ${buffer.kind} ${buffer.total}`, tick, source);
    const known = buffer.parts.get(part.index);
    if (known !== undefined) {
      if (known !== part.content) return this.fail(id, event, `part ${part.index} came twice with different content`, tick, source);
      buffer.lastTick = tick;
      return { kind: "duplicate", id };
    }
    const bytes = utf8Len(part.content);
    if (buffer.bytes + bytes > this.bounds.requestMaxBytes) return this.fail(id, event, `its parts pass ${this.bounds.requestMaxBytes} bytes, the most a request may have`, tick, source);
    if (this.held + bytes > this.bounds.worldMaxBytes) return this.fail(id, event, `the addon already holds ${this.held} bytes of large requests (at most ${this.bounds.worldMaxBytes})`, tick, source);
    buffer.parts.set(part.index, part.content);
    buffer.bytes += bytes;
    buffer.lastTick = tick;
    this.held += bytes;
    if (buffer.parts.size < buffer.total) return { kind: "partial", id, received: buffer.parts.size, total: buffer.total };
    const pieces: string[] = [];
    for (let i = 1; i <= buffer.total; i++) pieces.push(buffer.parts.get(i)!);
    this.drop(id);
    return { kind: "complete", id, event, text: pieces.join("") };
  }

  /** Drop what is held for `id` (cancelled); its late parts are then ignored. */
  discard(id: string, tick: number): void {
    this.drop(id);
    this.forgetLater(id, tick);
  }

  /** Requests whose next part has not come within the TTL: dropped, each as a failure. */
  expire(tick: number): BulkOutcome[] {
    const out: BulkOutcome[] = [];
    for (const [id, buffer] of this.buffers) {
      if (tick - buffer.lastTick < this.bounds.ttlTicks) continue;
      out.push(this.fail(id, BULK_KINDS[buffer.kind], `only ${buffer.parts.size} of its ${buffer.total} parts came within ${this.bounds.ttlTicks / 20} s`, tick));
    }
    for (const [id, at] of this.gone) if (tick - at >= this.bounds.ttlTicks) this.gone.delete(id);
    return out;
  }

  private fail(id: string, event: string, reason: string, tick: number, source: string | null = null): BulkOutcome {
    const from = this.buffers.get(id)?.source ?? source;
    this.drop(id);
    this.forgetLater(id, tick);
    return { kind: "failed", id, event, reason, source: from };
  }

  private forgetLater(id: string, tick: number): void {
    this.gone.delete(id);
    this.gone.set(id, tick);
    // Bounded like the cancelled ids: the oldest are forgotten first.
    while (this.gone.size > CANCEL_IDS_KEPT) {
      const oldest = this.gone.keys().next();
      if (oldest.done === true) break;
      this.gone.delete(oldest.value);
    }
  }

  private drop(id: string): void {
    const buffer = this.buffers.get(id);
    if (buffer === undefined) return;
    this.held -= buffer.bytes;
    this.buffers.delete(id);
  }
}
