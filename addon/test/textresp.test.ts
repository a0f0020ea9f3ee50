import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, formatForDisplay, parseTextFrame, TextReassembler, type FeedOutcome, type TextFrame } from "../src/textresp.js";
import { vectors } from "./helpers.js";

const PREFIX = "scriptevent mcbews:text_resp ";

function frameOf(message: string): TextFrame {
  const parsed = parseTextFrame(message.startsWith(PREFIX) ? message.slice(PREFIX.length) : message);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.frame;
}

function frame(id: string, i: number, n: number, c: string, p = "Steve", r = "assistant"): TextFrame {
  return { id, index: i, total: n, player: p, role: r, content: c, cid: null, title: null };
}

describe("text frames (shared vectors)", () => {
  it.each(vectors.text_frames)("parses $name", (v) => {
    expect(frameOf(v.line)).toEqual({
      id: v.id, index: v.i, total: v.n, player: v.p, role: v.r, content: v.c, cid: v.cid ?? null, title: v.t ?? null,
    });
  });

  it.each(vectors.bad_text_frames)("rejects $message as $reason", (v) => {
    expect(parseTextFrame(v.message)).toMatchObject({ ok: false, reason: v.reason });
  });

  it.each(vectors.text_reassembly)("reassembles $name", (v) => {
    const r = new TextReassembler();
    let last: FeedOutcome | undefined;
    for (const line of v.lines) {
      last = r.feed(frameOf(line), 0);
      if (last.kind === "failed") break;
    }
    if (v.error !== undefined) expect(last).toMatchObject({ kind: "failed", reason: v.error });
    else expect(last).toMatchObject({ kind: "completed", response: { text: v.text, player: v.player, role: v.role } });
  });
});

describe("text reassembly", () => {
  it("joins out of order and ignores identical duplicates", () => {
    const r = new TextReassembler();
    expect(r.feed(frame("a", 3, 3, "!"), 0)).toMatchObject({ kind: "pending", received: 1 });
    expect(r.feed(frame("a", 1, 3, "he"), 0)).toMatchObject({ kind: "pending", received: 2 });
    expect(r.feed(frame("a", 1, 3, "he"), 0)).toEqual({ kind: "duplicate", id: "a", index: 1 });
    expect(r.feed(frame("a", 2, 3, "y"), 0)).toMatchObject({ kind: "completed", response: { text: "hey!" } });
    expect(r.feed(frame("a", 2, 3, "y"), 1)).toEqual({ kind: "duplicate", id: "a", index: 2 });
    expect(r.bufferCount).toBe(0);
    expect(r.bufferedBytes).toBe(0);
  });

  it("drops a message whose total, role, cid or title changes, or whose duplicate differs", () => {
    const r = new TextReassembler();
    r.feed(frame("t", 1, 2, "a"), 0);
    expect(r.feed(frame("t", 2, 3, "b"), 0)).toMatchObject({ kind: "failed", reason: "total_changed" });
    r.feed(frame("u", 1, 2, "a"), 0);
    expect(r.feed(frame("u", 2, 2, "b", "Steve", "user"), 0)).toMatchObject({ kind: "failed", reason: "meta_changed" });
    r.feed(frame("w", 1, 2, "a"), 0);
    expect(r.feed({ ...frame("w", 2, 2, "b"), cid: "c-1" }, 0)).toMatchObject({ kind: "failed", reason: "meta_changed" });
    r.feed(frame("v", 1, 2, "a"), 0);
    expect(r.feed(frame("v", 1, 2, "b"), 0)).toMatchObject({ kind: "failed", reason: "conflicting_duplicate" });
    expect(r.bufferCount).toBe(0);
  });

  it("expires buffers after the TTL (in ticks)", () => {
    const r = new TextReassembler();
    expect(DEFAULT_LIMITS.ttlTicks).toBe(600);
    r.feed(frame("x", 1, 2, "a"), 100);
    expect(r.expire(699)).toEqual([]);
    expect(r.expire(700)).toEqual(["x"]);
    expect(r.feed(frame("x", 2, 2, "b"), 701)).toMatchObject({ kind: "pending" });
  });

  it("caps the number of buffers", () => {
    const r = new TextReassembler();
    for (let n = 0; n < 64; n++) expect(r.feed(frame(`m${n}`, 1, 2, "a"), 0).kind).toBe("pending");
    expect(r.feed(frame("m64", 1, 2, "a"), 0)).toMatchObject({ kind: "failed", reason: "too_many_buffers" });
    expect(r.feed(frame("single", 1, 1, "ok"), 0)).toMatchObject({ kind: "completed" });
  });

  it("caps chunks, bytes per message and bytes in all", () => {
    const r = new TextReassembler();
    expect(r.feed(frame("c", 1, 129, "a"), 0)).toMatchObject({ kind: "failed", reason: "bad_position" });
    const big = "x".repeat(40000);
    r.feed(frame("m", 1, 3, big), 0);
    expect(r.feed(frame("m", 2, 3, big), 0)).toMatchObject({ kind: "failed", reason: "message_too_large" });
    expect(r.feed(frame("one", 1, 1, "y".repeat(65537)), 0)).toMatchObject({ kind: "failed", reason: "message_too_large" });
    const small = new TextReassembler({ ...DEFAULT_LIMITS, maxTotalBytes: 10 });
    small.feed(frame("p", 1, 2, "12345"), 0);
    small.feed(frame("q", 1, 2, "12345"), 0);
    expect(small.feed(frame("s", 1, 2, "1"), 0)).toMatchObject({ kind: "failed", reason: "buffer_space_exhausted" });
    expect(small.bufferedBytes).toBe(10);
  });
});

describe("display", () => {
  it("prefixes the text with its role, coloured", () => {
    expect(formatForDisplay({ id: "a", player: "Steve", role: "assistant", text: "hi", cid: null, title: null })).toBe("§a[assistant]§r hi");
    expect(formatForDisplay({ id: "a", player: "Steve", role: "approval", text: "ok?", cid: null, title: "Build" })).toBe("§e[approval Build]§r ok?");
    expect(formatForDisplay({ id: "a", player: "Steve", role: "other", text: "x", cid: null, title: null })).toBe("§7[other]§r x");
  });
});
