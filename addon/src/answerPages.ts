// Paged answers on the chat transport (docs/protocol.md, "Paged answers"; mirror of the Python
// core's sansio/answer_pages.py). An answer that fits 128 chunks goes up as one chunked message
// under its request id, as mcbews v1 always did. A larger one goes up as pages: page k of n is
// a chunked message of at most 128 chunks under the id `<request_id>~<kk>/<nn>` (two digits
// each), and the gateway joins the pages' texts in order. Every page id has the same length, so
// a page is cut once, with its final header size, and every line fits the command budget.
import { cut, formatChunk, splitPayload, TELL_WRAPPER, type SplitResult } from "./chunks.js";
import {
  ANSWER_PAGE_MARKER,
  BRIDGE_PREFIX,
  CHAT_ANSWER_MAX_PAGES,
  COMMAND_LINE_BUDGET_BYTES,
  MAX_CHUNKS_PER_MESSAGE,
  UPSTREAM_CHUNK_CODE_POINTS,
} from "./wire.js";

export interface PagingOptions {
  maxChunks?: number;
  maxPages?: number;
  maxCodePoints?: number;
  budgetBytes?: number;
}

const two = (n: number): string => String(n).padStart(2, "0");

/** The chunk message id of page `index` of `total`. */
export function pageId(requestId: string, index: number, total: number): string {
  return `${requestId}${ANSWER_PAGE_MARKER}${two(index)}/${two(total)}`;
}

/** The chunk lines (without the `tell @s ` wrapper) that carry `text` as the answer to
 * `requestId`: one message when it fits `maxChunks`, else pages. */
export function splitAnswer(requestId: string, text: string, options: PagingOptions = {}): SplitResult {
  const maxChunks = options.maxChunks ?? MAX_CHUNKS_PER_MESSAGE;
  const maxPages = options.maxPages ?? CHAT_ANSWER_MAX_PAGES;
  const maxCodePoints = options.maxCodePoints ?? UPSTREAM_CHUNK_CODE_POINTS;
  const budget = options.budgetBytes ?? COMMAND_LINE_BUDGET_BYTES;
  if (requestId.includes(ANSWER_PAGE_MARKER)) return { ok: false, error: `a request id must not contain '${ANSWER_PAGE_MARKER}'` };
  const whole = splitPayload(BRIDGE_PREFIX, requestId, text, { maxCodePoints, budgetBytes: budget, maxChunks });
  if (whole.ok || !whole.error.startsWith("payload needs")) return whole;
  const points = Array.from(text);
  const pages: string[][] = [];
  const placeholder = pageId(requestId, 0, 0);
  for (let pos = 0; pos < points.length; ) {
    if (pages.length >= maxPages) return { ok: false, error: `the answer needs more than ${maxPages} pages of ${maxChunks} chunks` };
    // Headed for the largest total a page may have: a smaller one only leaves more room.
    const pieces = cut(BRIDGE_PREFIX, placeholder, points, maxChunks, maxCodePoints, budget, TELL_WRAPPER, pos, maxChunks);
    if (typeof pieces === "string") return { ok: false, error: pieces };
    pages.push(pieces);
    pos += pieces.reduce((sum, piece) => sum + Array.from(piece).length, 0);
  }
  const lines = pages.flatMap((pieces, k) => {
    const id = pageId(requestId, k + 1, pages.length);
    return pieces.map((piece, i) => formatChunk(BRIDGE_PREFIX, id, i + 1, pieces.length, piece));
  });
  return { ok: true, chunks: lines };
}
