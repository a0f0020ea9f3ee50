// Paged answers on the chat transport: the shared vectors, the bounds, and any text rejoining.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { pageId, splitAnswer } from "../src/answerPages.js";
import { createRegistry, type Capability } from "../src/capability.js";
import { utf8Len } from "../src/json.js";
import { answerWith, routeRequest } from "../src/router.js";
import { BridgeRuntime, DEFAULT_OPTIONS } from "../src/runtime.js";
import { BRIDGE_PLAYER, CHAT_ANSWER_MAX_PAGES, COMMAND_LINE_BUDGET_BYTES, MAX_CHUNKS_PER_MESSAGE } from "../src/wire.js";
import { makeContext } from "./context.js";
import { fakeHost, tick } from "./fakeHost.js";
import { decodeChunk, randomText, rng } from "./helpers.js";
import { mc, state } from "./mocks/server.js";

interface PageVectors {
  answers: { name: string; request_id: string; max_chunks: number; max_code_points: number; max_pages: number; text: string; lines: string[] }[];
  too_large: { name: string; request_id: string; max_chunks: number; max_code_points: number; max_pages: number; text: string }[];
  page_ids: { id: string; request_id: string; index: number; total: number }[];
}

const VECTORS = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../tests/vectors/answer_pages_v1.json", import.meta.url)), "utf8"),
) as PageVectors;

const limits = (v: { max_chunks: number; max_code_points: number; max_pages: number }) => ({
  maxChunks: v.max_chunks,
  maxCodePoints: v.max_code_points,
  maxPages: v.max_pages,
});

/** What the gateway does: each page's chunks joined, then the pages in order. */
function rejoin(requestId: string, lines: readonly string[]): string {
  const pages = new Map<string, Map<number, string>>();
  for (const line of lines) {
    const chunk = decodeChunk(line);
    const parts = pages.get(chunk.id) ?? new Map<number, string>();
    parts.set(chunk.index, chunk.content);
    pages.set(chunk.id, parts);
  }
  const ids = [...pages.keys()];
  if (ids.length === 1 && ids[0] === requestId) return [...pages.get(requestId)!.values()].join("");
  return ids.map((_, k) => [...pages.get(pageId(requestId, k + 1, ids.length))!.values()].join("")).join("");
}

beforeEach(() => mc.reset());

describe("paged answers (shared vectors)", () => {
  it.each(VECTORS.answers)("cuts: $name", (v) => {
    expect(splitAnswer(v.request_id, v.text, limits(v))).toEqual({ ok: true, chunks: v.lines });
  });

  it.each(VECTORS.too_large)("refuses: $name", (v) => {
    expect(splitAnswer(v.request_id, v.text, limits(v))).toMatchObject({ ok: false });
  });

  it.each(VECTORS.page_ids)("names page $index of $total: $id", (v) => {
    expect(pageId(v.request_id, v.index, v.total)).toBe(v.id);
  });
});

describe("splitAnswer", () => {
  it("any text rejoins, every line fits the budget and every page the chunk cap", () => {
    const next = rng(20);
    for (let round = 0; round < 200; round++) {
      const text = randomText(next, 600);
      const maxChunks = 2 + Math.floor(next() * 4);
      const split = splitAnswer("a1b2", text, { maxChunks, maxCodePoints: 8 + Math.floor(next() * 20), maxPages: 99 });
      if (!split.ok) throw new Error(split.error);
      expect(rejoin("a1b2", split.chunks)).toBe(text);
      const totals = split.chunks.map((line) => decodeChunk(line).total);
      expect(Math.max(...totals)).toBeLessThanOrEqual(maxChunks);
      for (const line of split.chunks) expect(utf8Len(`tell @s ${line}`)).toBeLessThanOrEqual(COMMAND_LINE_BUDGET_BYTES);
    }
  });

  it("fills the real limits: 200 KB of ASCII answer is 7 pages of at most 128 chunks", () => {
    const text = JSON.stringify({ ok: true, result: { s: "x".repeat(200_000) } });
    const split = splitAnswer("0123456789ab", text);
    if (!split.ok) throw new Error(split.error);
    const ids = new Set(split.chunks.map((line) => decodeChunk(line).id));
    expect([...ids][0]).toBe("0123456789ab~01/07");
    expect(ids.size).toBe(7);
    expect(split.chunks.length).toBeLessThanOrEqual(7 * MAX_CHUNKS_PER_MESSAGE);
    expect(rejoin("0123456789ab", split.chunks)).toBe(text);
  });

  it("refuses an id with the page marker", () => {
    expect(splitAnswer("a~b", "{}")).toMatchObject({ ok: false });
  });
});

describe("answers on the chat transport", () => {
  const req = (capability: string): string => JSON.stringify({ v: 2, request_id: "r1", capability, payload: {} });
  const returning = (size: number): Capability => ({ name: "big", description: "", params: {}, run: () => ({ ok: true, result: { x: "x".repeat(size) } }) });

  it("an answer over 128 chunks is paged, not refused", () => {
    const out = routeRequest(req("big"), { ...makeContext(), registry: createRegistry([returning(40_000)]) });
    if (out.kind !== "answer") throw new Error(out.kind);
    expect(JSON.parse(rejoin("r1", out.lines))).toEqual({ ok: true, result: { x: "x".repeat(40_000) } });
    expect(decodeChunk(out.lines[0]!).id).toBe("r1~01/02");
  });

  it("one over the page count or 2 MiB becomes CAPABILITY_FAILED, in one message", () => {
    const pages = CHAT_ANSWER_MAX_PAGES * MAX_CHUNKS_PER_MESSAGE * 256;
    for (const size of [pages + 10, 2_100_000]) {
      const out = answerWith("r1", { ok: true, result: { x: "x".repeat(size) } });
      if (out.kind !== "answer") throw new Error(out.kind);
      expect(JSON.parse(rejoin("r1", out.lines))).toMatchObject({ ok: false, error: { code: "CAPABILITY_FAILED" } });
      expect(out.lines.length).toBe(1);
    }
  });

  it("an answer with no room left in the outbox is refused whole, never sent in part", () => {
    const fake = fakeHost();
    const small = { ...DEFAULT_OPTIONS, maxOutboxLines: 100 };
    const rt = new BridgeRuntime(fake.host, createRegistry([returning(40_000)]), small);
    tick(rt);
    rt.onScriptEvent("mcbews:bridge_req", req("big"), null);
    expect(rt.pendingLines).toBe(1);
    tick(rt);
    const sent = state.players.find((p) => p.name === BRIDGE_PLAYER)!.commands.map((c) => c.slice("tell @s ".length));
    expect(JSON.parse(rejoin("r1", sent))).toMatchObject({ ok: false, error: { code: "CAPABILITY_FAILED", message: expect.stringMatching(/needs \d+ chat lines and 100 of/) } });
  });
});
