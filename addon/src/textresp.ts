// Channel C: `scriptevent mcbews:text_resp <frame>` with frame {"id","i","n","p","r","c"} plus
// optional cid/t (every frame) and u (last frame). Frames are buffered by id and joined 1..n
// within the same bounds as the Python core's reassembler; time is the game tick.
import { isObject, parseJson, utf8Len } from "./json.js";
import {
  BUFFER_TTL_SECONDS,
  MAX_BUFFERS,
  MAX_CHUNKS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  MAX_TOTAL_BYTES,
} from "./wire.js";

export const TICKS_PER_SECOND = 20;

export interface TextFrame {
  id: string;
  index: number;
  total: number;
  player: string;
  role: string;
  content: string;
  cid: string | null;
  title: string | null;
}

export type FrameParse = { ok: true; frame: TextFrame } | { ok: false; reason: string; detail: string };

function bad(reason: string, detail: string): FrameParse {
  return { ok: false, reason, detail };
}

function isInt(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value);
}

export function parseTextFrame(message: string): FrameParse {
  const parsed = parseJson(message);
  if (!parsed.ok) return bad("not_json", parsed.error.slice(0, 80));
  const d = parsed.value;
  if (!isObject(d)) return bad("not_an_object", Array.isArray(d) ? "array" : typeof d);
  const { id, i, n, p, r, c, cid, t } = d;
  if (typeof id !== "string" || id === "") return bad("bad_id", "id must be a non-empty string");
  if (!isInt(i) || !isInt(n)) return bad("bad_position", "i and n must be integers");
  if (i < 1 || i > n) return bad("bad_position", `index ${i} outside 1..${n}`);
  if (typeof p !== "string" || p === "" || typeof r !== "string" || typeof c !== "string") {
    return bad("bad_field", "p (non-empty), r and c must be strings");
  }
  if ((cid !== undefined && cid !== null && typeof cid !== "string") || (t !== undefined && t !== null && typeof t !== "string")) {
    return bad("bad_field", "cid and t must be strings");
  }
  return {
    ok: true,
    frame: { id, index: i, total: n, player: p, role: r, content: c, cid: cid ?? null, title: t ?? null },
  };
}

export interface TextResponse {
  id: string;
  player: string;
  role: string;
  text: string;
  cid: string | null;
  title: string | null;
}

export type FeedOutcome =
  | { kind: "completed"; response: TextResponse }
  | { kind: "pending"; id: string; received: number; total: number }
  | { kind: "duplicate"; id: string; index: number }
  | { kind: "failed"; id: string; reason: string; detail: string };

export interface ReassemblyLimits {
  ttlTicks: number;
  maxBuffers: number;
  maxChunks: number;
  maxMessageBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_LIMITS: ReassemblyLimits = {
  ttlTicks: BUFFER_TTL_SECONDS * TICKS_PER_SECOND,
  maxBuffers: MAX_BUFFERS,
  maxChunks: MAX_CHUNKS_PER_MESSAGE,
  maxMessageBytes: MAX_MESSAGE_BYTES,
  maxTotalBytes: MAX_TOTAL_BYTES,
};

interface MessageBuffer {
  first: TextFrame;
  createdAt: number;
  sizeBytes: number;
  parts: Map<number, string>;
}

function sameMeta(a: TextFrame, b: TextFrame): boolean {
  return a.player === b.player && a.role === b.role && a.cid === b.cid && a.title === b.title;
}

/** Bounded reassembly of text frames; the caller passes the tick in. */
export class TextReassembler {
  private buffers = new Map<string, MessageBuffer>();
  private recent = new Map<string, number>();
  private totalBytes = 0;

  constructor(readonly limits: ReassemblyLimits = DEFAULT_LIMITS) {}

  get bufferCount(): number {
    return this.buffers.size;
  }

  get bufferedBytes(): number {
    return this.totalBytes;
  }

  feed(frame: TextFrame, now: number): FeedOutcome {
    const size = utf8Len(frame.content);
    if (frame.total > this.limits.maxChunks || frame.index < 1 || frame.index > frame.total) {
      this.discard(frame.id);
      return this.fail(frame, "bad_position", `${frame.index}/${frame.total}`);
    }
    let buf = this.buffers.get(frame.id);
    if (buf === undefined) {
      if (this.recent.has(frame.id)) return { kind: "duplicate", id: frame.id, index: frame.index };
      if (frame.total === 1) return this.single(frame, size, now);
      if (this.buffers.size >= this.limits.maxBuffers) return this.fail(frame, "too_many_buffers", `${this.limits.maxBuffers} in use`);
      buf = { first: frame, createdAt: now, sizeBytes: 0, parts: new Map() };
      this.buffers.set(frame.id, buf);
    }
    const problem = this.check(buf, frame, size);
    if (problem !== null) {
      this.discard(frame.id);
      return this.fail(frame, problem[0], problem[1]);
    }
    if (buf.parts.has(frame.index)) return { kind: "duplicate", id: frame.id, index: frame.index };
    buf.parts.set(frame.index, frame.content);
    buf.sizeBytes += size;
    this.totalBytes += size;
    if (buf.parts.size < frame.total) return { kind: "pending", id: frame.id, received: buf.parts.size, total: frame.total };
    let text = "";
    for (let i = 1; i <= frame.total; i++) text += buf.parts.get(i) ?? "";
    this.discard(frame.id);
    this.remember(frame.id, now);
    return { kind: "completed", response: responseOf(buf.first, text) };
  }

  private single(frame: TextFrame, size: number, now: number): FeedOutcome {
    if (size > this.limits.maxMessageBytes) return this.fail(frame, "message_too_large", `${size} bytes`);
    this.remember(frame.id, now);
    return { kind: "completed", response: responseOf(frame, frame.content) };
  }

  private check(buf: MessageBuffer, frame: TextFrame, size: number): [string, string] | null {
    if (frame.total !== buf.first.total) return ["total_changed", `total ${frame.total} after ${buf.first.total}`];
    if (!sameMeta(frame, buf.first)) return ["meta_changed", "p, r, cid or t differs from the first frame"];
    const seen = buf.parts.get(frame.index);
    if (seen !== undefined) return seen === frame.content ? null : ["conflicting_duplicate", `index ${frame.index} arrived with other content`];
    if (buf.sizeBytes + size > this.limits.maxMessageBytes) return ["message_too_large", `over ${this.limits.maxMessageBytes} bytes`];
    if (this.totalBytes + size > this.limits.maxTotalBytes) return ["buffer_space_exhausted", `over ${this.limits.maxTotalBytes} bytes buffered`];
    return null;
  }

  private fail(frame: TextFrame, reason: string, detail: string): FeedOutcome {
    return { kind: "failed", id: frame.id, reason, detail };
  }

  discard(id: string): boolean {
    const buf = this.buffers.get(id);
    if (buf === undefined) return false;
    this.buffers.delete(id);
    this.totalBytes -= buf.sizeBytes;
    return true;
  }

  private remember(id: string, now: number): void {
    this.recent.delete(id);
    this.recent.set(id, now);
    const limit = 4 * this.limits.maxBuffers;
    for (const key of this.recent.keys()) {
      if (this.recent.size <= limit) break;
      this.recent.delete(key);
    }
  }

  /** Drop buffers older than the TTL; returns the ids dropped. */
  expire(now: number): string[] {
    for (const [id, at] of this.recent) {
      if (now - at < this.limits.ttlTicks) break;
      this.recent.delete(id);
    }
    const old: string[] = [];
    for (const [id, buf] of this.buffers) if (now - buf.createdAt >= this.limits.ttlTicks) old.push(id);
    for (const id of old) this.discard(id);
    return old;
  }
}

function responseOf(first: TextFrame, text: string): TextResponse {
  return { id: first.id, player: first.player, role: first.role, text, cid: first.cid, title: first.title };
}

const ROLE_STYLE: Readonly<Record<string, string>> = { user: "§b", assistant: "§a", approval: "§e" };

/** The chat line shown to the player: a role-coloured prefix, then the text. */
export function formatForDisplay(response: TextResponse): string {
  const style = ROLE_STYLE[response.role] ?? "§7";
  const title = response.title ? ` ${response.title}` : "";
  return `${style}[${response.role}${title}]§r ${response.text}`;
}
