// The upstream chunk grammar `MCBEWS|<CHANNEL>|<id>|<index>/<total>|<content>` (mirror of the
// Python core's chunks.py). Every chunk is sent as `tell @s <chunk>` by the bridge player, so the
// whole line must fit the command budget; content is cut on code points, at most 256 of them.
import { utf8Len } from "./json.js";
import {
  BRIDGE_PREFIX,
  COMMAND_LINE_BUDGET_BYTES,
  MAX_CHUNKS_PER_MESSAGE,
  UI_CHAT_PREFIX,
  UPSTREAM_CHUNK_CODE_POINTS,
} from "./wire.js";

export type ChannelPrefix = typeof BRIDGE_PREFIX | typeof UI_CHAT_PREFIX;

/** What the bridge player runs for each chunk: only it sees the chat, the game reports it. */
export const TELL_WRAPPER = "tell @s ";

/** Characters a command line may lose at its end: the game (like the simulated one) may trim
 * the line it runs, so a chunk never ends with one unless it is all of them or the last.
 * JavaScript's \s, the C0 separators and NEL: every character either language calls space. */
const TRIMMABLE = /[\s\u001c-\u001f\u0085]/u;

export interface SplitOptions {
  maxCodePoints?: number;
  budgetBytes?: number;
  wrapper?: string;
  /** The most chunks one message may have (default 128). */
  maxChunks?: number;
}

export type SplitResult = { ok: true; chunks: string[] } | { ok: false; error: string };

export function formatChunk(prefix: string, id: string, index: number, total: number, content: string): string {
  return `${prefix}|${id}|${index}/${total}|${content}`;
}

/** A message id can head a chunk: non-blank and free of `|`. */
export function isValidMessageId(id: string): boolean {
  return id.trim().length > 0 && !id.includes("|");
}

/**
 * Cut `payload` into chunk lines (without the wrapper) whose `<wrapper><chunk>` fits the budget.
 * The total is iterated until its digit count is stable, so every header is sized with the
 * final total.
 */
export function splitPayload(prefix: ChannelPrefix, id: string, payload: string, options: SplitOptions = {}): SplitResult {
  if (!isValidMessageId(id)) return { ok: false, error: "message id must be non-empty and contain no '|'" };
  const maxCodePoints = options.maxCodePoints ?? UPSTREAM_CHUNK_CODE_POINTS;
  const budget = options.budgetBytes ?? COMMAND_LINE_BUDGET_BYTES;
  const wrapper = options.wrapper ?? TELL_WRAPPER;
  const maxChunks = options.maxChunks ?? MAX_CHUNKS_PER_MESSAGE;
  const points = Array.from(payload);
  let totalGuess = 1;
  for (;;) {
    const pieces = cut(prefix, id, points, totalGuess, maxCodePoints, budget, wrapper);
    if (typeof pieces === "string") return { ok: false, error: pieces };
    if (String(pieces.length).length <= String(totalGuess).length) {
      const total = pieces.length;
      if (total > maxChunks) {
        return { ok: false, error: `payload needs ${total} chunks, more than ${maxChunks}` };
      }
      return { ok: true, chunks: pieces.map((piece, i) => formatChunk(prefix, id, i + 1, total, piece)) };
    }
    totalGuess = pieces.length;
  }
}

/** Cut `points` from `start` into chunk contents whose lines, headed for `totalGuess`, fit the
 * budget; at most `maxPieces` of them (answer pages stop there). The error text when a header
 * leaves no room. */
export function cut(
  prefix: string,
  id: string,
  points: readonly string[],
  totalGuess: number,
  maxCodePoints: number,
  budget: number,
  wrapper: string,
  start = 0,
  maxPieces = Number.POSITIVE_INFINITY,
): string[] | string {
  const pieces: string[] = [];
  let pos = start;
  for (let index = 1; pieces.length < maxPieces; index++) {
    const room = budget - utf8Len(wrapper + formatChunk(prefix, id, index, totalGuess, ""));
    let end = pos;
    let size = 0;
    while (end < points.length && end - pos < maxCodePoints) {
      const step = utf8Len(points[end]!);
      if (size + step > room) break;
      size += step;
      end++;
    }
    if (end === pos && pos < points.length) return `no room for content: the header leaves ${room} bytes`;
    let keep = end;
    while (end < points.length && keep > pos + 1 && TRIMMABLE.test(points[keep - 1]!)) keep--;
    if (!TRIMMABLE.test(points[keep - 1] ?? "")) end = keep; // an all-space piece stays whole
    pieces.push(points.slice(pos, end).join(""));
    pos = end;
    if (pos >= points.length) return pieces;
  }
  return pieces;
}
