// The pull transport (mirror of the Python core's sansio/pull.py; docs/protocol.md): answers and
// UI chat messages are kept here and handed out page by page as the result messages of the
// custom commands mcbews:ask, mcbews:pull and mcbews:poll. Everything is bounded: entries,
// bytes, the UI chat queue, and a TTL counted in ticks. Pure: time is the tick passed in.
import { utf8Len } from "./json.js";
import {
  ANSWER_PAGE_PREFIX,
  EMPTY_REPLY,
  NONE_REPLY,
  PULL_ANSWER_MAX_BYTES,
  PULL_PAGE_BYTES,
  PULL_STORE_MAX_BYTES,
  PULL_STORE_MAX_ENTRIES,
  PULL_TTL_SECONDS,
  UI_CHAT_WAITING_MAX,
  UI_PAGE_PREFIX,
  WAIT_REPLY,
} from "./wire.js";

export type PageKind = "answer" | "ui";

const TICKS_PER_SECOND = 20;
/** Ids travel as one bare word of a command line: letters and digits only. */
const ID = /^[A-Za-z0-9]{1,64}$/;

export function isPullId(id: string): boolean {
  return ID.test(id);
}

/** Cut `text` on code points into pages of at most `pageBytes` UTF-8 bytes ("" is one page). */
export function splitPages(text: string, pageBytes: number = PULL_PAGE_BYTES): string[] {
  const pages: string[] = [];
  let page = "";
  let size = 0;
  for (const point of text) {
    const step = utf8Len(point);
    if (size + step > pageBytes) {
      pages.push(page);
      page = "";
      size = 0;
    }
    page += point;
    size += step;
  }
  pages.push(page);
  return pages;
}

export function formatPage(kind: PageKind, id: string, index: number, total: number, content: string): string {
  return `${kind === "answer" ? ANSWER_PAGE_PREFIX : UI_PAGE_PREFIX}|${id}|${index}/${total}|${content}`;
}

export const waitReply = (id: string): string => `${WAIT_REPLY}|${id}`;
export const noneReply = (id: string, reason: "unknown" | "no_page"): string => `${NONE_REPLY}|${id}|${reason}`;

export type AskDecode = { ok: true; text: string } | { ok: false; reason: "not_hex" | "not_ascii"; detail: string };

/** The request text of `mcbews:ask <hex>`: lower-case hex digits of ASCII bytes (QuickJS has no
 * TextDecoder, and the gateway writes every other character as a \u escape). */
export function decodeAskHex(hex: string): AskDecode {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/.test(hex)) {
    return { ok: false, reason: "not_hex", detail: "expected an even number of lower-case hex digits" };
  }
  let text = "";
  for (let i = 0; i < hex.length; i += 2) {
    const byte = parseInt(hex.slice(i, i + 2), 16);
    if (byte >= 0x80) return { ok: false, reason: "not_ascii", detail: `byte ${i / 2} is 0x${byte.toString(16)}` };
    text += String.fromCharCode(byte);
  }
  return { ok: true, text };
}

export interface PullOptions {
  pageBytes: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  maxEntries: number;
  ttlTicks: number;
  maxUiWaiting: number;
}

export const DEFAULT_PULL_OPTIONS: PullOptions = {
  pageBytes: PULL_PAGE_BYTES,
  maxEntryBytes: PULL_ANSWER_MAX_BYTES,
  maxTotalBytes: PULL_STORE_MAX_BYTES,
  maxEntries: PULL_STORE_MAX_ENTRIES,
  ttlTicks: PULL_TTL_SECONDS * TICKS_PER_SECOND,
  maxUiWaiting: UI_CHAT_WAITING_MAX,
};

interface Entry {
  kind: PageKind;
  pages: string[];
  bytes: number;
  tick: number;
  pulled: Set<number>;
}

export type PutResult = { ok: true } | { ok: false; error: string };

/** Kept answers and UI chat messages, by id, oldest first (a Map keeps insertion order). */
export class PullStore {
  private readonly entries = new Map<string, Entry>();
  private readonly waiting = new Map<string, number>(); // accepted ids whose answer comes later
  private readonly uiQueue: string[] = [];
  private totalBytes = 0;
  /** Entries dropped to make room before their pages were pulled (the runtime warns). */
  evicted = 0;
  /** The tick of the last mcbews:poll, or null if nobody ever polled. */
  lastPollTick: number | null = null;

  constructor(private readonly options: PullOptions = DEFAULT_PULL_OPTIONS) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  get uiWaiting(): number {
    return this.uiQueue.length;
  }

  /** Keep `text` under `id`; evicts the oldest entries to make room. */
  put(kind: PageKind, id: string, text: string, tick: number): PutResult {
    const bytes = utf8Len(text);
    if (bytes > this.options.maxEntryBytes) {
      return { ok: false, error: `${bytes} bytes, more than the ${this.options.maxEntryBytes} an answer may have` };
    }
    this.drop(id);
    this.waiting.delete(id);
    while (this.entries.size >= this.options.maxEntries || this.totalBytes + bytes > this.options.maxTotalBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.drop(oldest.value);
      this.evicted += 1;
    }
    this.entries.set(id, { kind, pages: splitPages(text, this.options.pageBytes), bytes, tick, pulled: new Set() });
    this.totalBytes += bytes;
    return { ok: true };
  }

  /** Whether anything is kept under `id` (not yet pulled to its end, not expired). */
  holds(id: string): boolean {
    return this.entries.has(id);
  }

  /** The request `id` is accepted; its answer is put later (mcbews:pull answers WAIT meanwhile). */
  markWaiting(id: string, tick: number): void {
    this.waiting.set(id, tick);
  }

  /** The reply to `mcbews:pull <id> <page>`. An entry whose pages were all pulled is dropped. */
  reply(id: string, page: number): string {
    const entry = this.entries.get(id);
    if (entry === undefined) return this.waiting.has(id) ? waitReply(id) : noneReply(id, "unknown");
    if (!Number.isInteger(page) || page < 1 || page > entry.pages.length) return noneReply(id, "no_page");
    entry.pulled.add(page);
    const line = formatPage(entry.kind, id, page, entry.pages.length, entry.pages[page - 1]!);
    if (entry.pulled.size === entry.pages.length) this.drop(id);
    return line;
  }

  /** Queue a UI chat message for mcbews:poll; an error text when too many already wait. */
  enqueueUi(id: string, text: string, tick: number): string | null {
    if (this.uiQueue.length >= this.options.maxUiWaiting) {
      return `${this.uiQueue.length} messages already wait for the notebook to read them`;
    }
    const put = this.put("ui", id, text, tick);
    if (!put.ok) return put.error;
    this.uiQueue.push(id);
    return null;
  }

  /** The reply to `mcbews:poll`: the first page of the oldest waiting UI chat message. */
  poll(tick: number): string {
    this.lastPollTick = tick;
    while (this.uiQueue.length > 0) {
      const id = this.uiQueue.shift()!;
      if (this.entries.has(id)) return this.reply(id, 1);
    }
    return EMPTY_REPLY;
  }

  /** The bridge no longer waits for `id` (mcbews:cancel): drop its entry and its waiting mark.
   * True when something was held for it. */
  forget(id: string): boolean {
    const held = this.entries.has(id) || this.waiting.has(id);
    this.drop(id);
    this.waiting.delete(id);
    return held;
  }

  /** Drop entries and waiting marks older than the TTL; returns the ids dropped. */
  expire(tick: number): string[] {
    const gone: string[] = [];
    for (const [id, entry] of this.entries) {
      if (tick - entry.tick >= this.options.ttlTicks) gone.push(id);
    }
    for (const id of gone) this.drop(id);
    for (const [id, since] of this.waiting) {
      if (tick - since >= this.options.ttlTicks) this.waiting.delete(id);
    }
    return gone;
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    this.entries.delete(id);
    this.totalBytes -= entry.bytes;
    const queued = this.uiQueue.indexOf(id);
    if (queued >= 0) this.uiQueue.splice(queued, 1);
  }
}
