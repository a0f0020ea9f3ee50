// The tags transport (mirror of the Python core's sansio/tags.py; docs/protocol.md): an answer or
// a UI chat message is written as page tags on the player who asked (Entity.addTag, stable), and
// the bridge reads them with `tag @s list`, whose output is captured. A page tag is
// `mcbews.<a|u>.<id>.<i>.<n>.<base64url>.`: letters, digits, '.', '-' and '_' only, so it can be
// found in the game's list output whatever the language, separators or formatting codes around
// it. At most TAGS_WINDOW_PAGES page tags stand on one player at a time; the bridge acks what it
// holds (`mcbews:tags_ack <id>:<next>`) and the next ones are written. Everything is bounded:
// entries, bytes, and a TTL counted in ticks. Pure: time is the tick passed in.
import {
  PULL_ANSWER_MAX_BYTES,
  PULL_STORE_MAX_BYTES,
  PULL_STORE_MAX_ENTRIES,
  PULL_TTL_SECONDS,
  TAG_ID_MAX_CHARS,
  TAG_PAGE_BYTES,
  TAG_PAGE_PREFIX,
  TAGS_WINDOW_PAGES,
} from "./wire.js";

export type TagKind = "answer" | "ui";

const TICKS_PER_SECOND = 20;
const ID = new RegExp(`^[A-Za-z0-9]{1,${TAG_ID_MAX_CHARS}}$`);
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** An id this transport can carry: 1-24 letters and digits. */
export function isTagId(id: string): boolean {
  return ID.test(id);
}

/** Any tag this transport wrote (ours to remove), whatever its fields. */
export function isPageTag(tag: string): boolean {
  return tag.startsWith(`${TAG_PAGE_PREFIX}.`);
}

/** The UTF-8 bytes of `text` (QuickJS has no TextEncoder); a lone surrogate becomes U+FFFD. */
export function utf8Bytes(text: string): number[] {
  const out: number[] = [];
  for (const point of text) {
    let code = point.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 63));
    else if (code < 0x10000) out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
    else out.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 63), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  }
  return out;
}

/** Base64url without padding. */
export function base64url(bytes: readonly number[]): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    out += B64[a >> 2]! + B64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    if (b !== undefined) out += B64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    if (c !== undefined) out += B64[c & 63]!;
  }
  return out;
}

/** Every page tag of a message (an empty text is one page); pages are cut on bytes. */
export function encodePageTags(kind: TagKind, id: string, text: string, pageBytes: number = TAG_PAGE_BYTES): string[] {
  const bytes = utf8Bytes(text);
  const total = Math.max(1, Math.ceil(bytes.length / pageBytes));
  const letter = kind === "answer" ? "a" : "u";
  const tags: string[] = [];
  for (let i = 0; i < total; i++) {
    tags.push(`${TAG_PAGE_PREFIX}.${letter}.${id}.${i + 1}.${total}.${base64url(bytes.slice(i * pageBytes, (i + 1) * pageBytes))}.`);
  }
  return tags;
}

export interface Ack {
  id: string;
  next: number;
}

/** The acks of `scriptevent mcbews:tags_ack <id>:<next> ...`; words that are not acks are refused. */
export function readAcks(message: string): { acks: Ack[]; refused: string[] } {
  const acks: Ack[] = [];
  const refused: string[] = [];
  for (const word of message.split(/\s+/)) {
    if (word === "") continue;
    const [id, next, extra] = word.split(":");
    const page = next !== undefined && /^[1-9][0-9]{0,6}$/.test(next) ? Number(next) : NaN;
    if (id === undefined || extra !== undefined || !isTagId(id) || Number.isNaN(page)) refused.push(word.slice(0, 80));
    else acks.push({ id, next: page });
  }
  return { acks, refused };
}

export interface TagOptions {
  pageBytes: number;
  windowPages: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  maxEntries: number;
  ttlTicks: number;
}

export const DEFAULT_TAG_OPTIONS: TagOptions = {
  pageBytes: TAG_PAGE_BYTES,
  windowPages: TAGS_WINDOW_PAGES,
  maxEntryBytes: PULL_ANSWER_MAX_BYTES,
  maxTotalBytes: PULL_STORE_MAX_BYTES,
  maxEntries: PULL_STORE_MAX_ENTRIES,
  ttlTicks: PULL_TTL_SECONDS * TICKS_PER_SECOND,
};

interface Entry {
  kind: TagKind;
  reader: string;
  tags: string[];
  next: number; // 1-based: every page before it was acked
  bytes: number;
  tick: number; // written, or last acked: a long answer read page by page stays alive
}

export type PutResult = { ok: true } | { ok: false; error: string };

/** Kept messages by id, oldest first, each for the player it is written on. */
export class TagStore {
  private readonly entries = new Map<string, Entry>();
  private totalBytes = 0;
  /** Entries dropped to make room before they were read (the runtime warns). */
  evicted = 0;

  constructor(private readonly options: TagOptions = DEFAULT_TAG_OPTIONS) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Keep `text` under `id` for `reader`; evicts the oldest to make room. Returns the readers
   * whose tags changed (an evicted entry may have been another player's). */
  put(kind: TagKind, id: string, reader: string, text: string, tick: number): PutResult & { touched: string[] } {
    const tags = encodePageTags(kind, id, text, this.options.pageBytes);
    const bytes = tags.reduce((sum, tag) => sum + tag.length, 0);
    const size = utf8Bytes(text).length;
    if (size > this.options.maxEntryBytes) {
      return { ok: false, error: `${size} bytes, more than the ${this.options.maxEntryBytes} an answer may have`, touched: [] };
    }
    const touched = new Set<string>([reader]);
    const old = this.drop(id);
    if (old !== undefined) touched.add(old);
    while (this.entries.size >= this.options.maxEntries || this.totalBytes + bytes > this.options.maxTotalBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      const gone = this.drop(oldest.value);
      if (gone !== undefined) touched.add(gone);
      this.evicted += 1;
    }
    this.entries.set(id, { kind, reader, tags, next: 1, bytes, tick });
    this.totalBytes += bytes;
    return { ok: true, touched: [...touched] };
  }

  /** The bridge holds every page of `id` before `next`: those go, the next are shown; past the
   * last page the entry goes. The reader whose tags changed, or null (nothing kept under id). */
  ack(id: string, next: number, tick: number): string | null {
    const entry = this.entries.get(id);
    if (entry === undefined) return null;
    if (next > entry.tags.length) {
      this.drop(id);
      return entry.reader;
    }
    entry.next = Math.max(entry.next, next);
    entry.tick = tick;
    return entry.reader;
  }

  /** Drop what is kept under `id` (cancelled); the reader whose tags change, or null. */
  forget(id: string): string | null {
    return this.drop(id) ?? null;
  }

  /** Drop entries older than the TTL; returns the readers whose tags changed. */
  expire(tick: number): string[] {
    const touched = new Set<string>();
    for (const [id, entry] of [...this.entries]) {
      if (tick - entry.tick >= this.options.ttlTicks) {
        this.drop(id);
        touched.add(entry.reader);
      }
    }
    return [...touched];
  }

  /** The page tags that should stand on `reader` now: at most a window of them, taken round
   * by round (each message's next page, then each one's page after that...), so a small answer
   * is never stuck behind a large one. */
  wanted(reader: string): Set<string> {
    const mine = [...this.entries.values()].filter((e) => e.reader === reader);
    const out = new Set<string>();
    for (let depth = 0; ; depth++) {
      let added = false;
      for (const entry of mine) {
        const tag = entry.tags[entry.next - 1 + depth];
        if (tag === undefined) continue;
        if (out.size >= this.options.windowPages) return out;
        out.add(tag);
        added = true;
      }
      if (!added) return out;
    }
  }

  /** Whether anything is kept under `id` (not yet read to its end, not expired). */
  holds(id: string): boolean {
    return this.entries.has(id);
  }

  /** How many messages of `kind` are kept. */
  count(kind: TagKind): number {
    let n = 0;
    for (const entry of this.entries.values()) if (entry.kind === kind) n += 1;
    return n;
  }

  /** Every player that has something kept for it. */
  readers(): Set<string> {
    return new Set([...this.entries.values()].map((e) => e.reader));
  }

  private drop(id: string): string | undefined {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    this.entries.delete(id);
    this.totalBytes -= entry.bytes;
    return entry.reader;
  }
}

/** What to change on a player so its page tags are `wanted`: tags of ours not wanted go, wanted
 * ones not there come. Other tags are never touched. */
export function tagChanges(current: readonly string[], wanted: Set<string>): { add: string[]; remove: string[] } {
  const ours = current.filter(isPageTag);
  const have = new Set(ours);
  return { remove: ours.filter((t) => !wanted.has(t)), add: [...wanted].filter((t) => !have.has(t)) };
}
