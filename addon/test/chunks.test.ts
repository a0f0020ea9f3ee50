import { describe, expect, it } from "vitest";
import { formatChunk, splitPayload, TELL_WRAPPER, type ChannelPrefix } from "../src/chunks.js";
import { dumpsWire, utf8Len } from "../src/json.js";
import { BRIDGE_PREFIX, COMMAND_LINE_BUDGET_BYTES, MAX_CHUNKS_PER_MESSAGE, UI_CHAT_PREFIX } from "../src/wire.js";
import { decodeChunk, joinChunks, randomText, rng, vectors } from "./helpers.js";

const PREFIX: Record<string, ChannelPrefix> = { bridge: BRIDGE_PREFIX, ui_chat: UI_CHAT_PREFIX };

function split(payload: string, id = "req-1", prefix: ChannelPrefix = BRIDGE_PREFIX): string[] {
  const result = splitPayload(prefix, id, payload);
  if (!result.ok) throw new Error(result.error);
  return result.chunks;
}

describe("chunk format", () => {
  it.each(vectors.chunks)("formats the vector $name", (v) => {
    expect(formatChunk(PREFIX[v.channel]!, v.message_id, v.index, v.total, v.content)).toBe(v.line);
  });

  it("a short payload is one chunk", () => {
    expect(split('{"ok":true,"result":{"name":"Steve"}}')).toEqual(['MCBEWS|BRIDGE|req-1|1/1|{"ok":true,"result":{"name":"Steve"}}']);
  });

  it("an empty payload is one empty chunk", () => {
    expect(split("")).toEqual(["MCBEWS|BRIDGE|req-1|1/1|"]);
  });

  it("rejects ids that cannot head a chunk", () => {
    expect(splitPayload(BRIDGE_PREFIX, "a|b", "{}").ok).toBe(false);
    expect(splitPayload(BRIDGE_PREFIX, " ", "{}").ok).toBe(false);
  });

  it("refuses payloads needing more than 128 chunks", () => {
    const result = splitPayload(BRIDGE_PREFIX, "r", "x".repeat(256 * MAX_CHUNKS_PER_MESSAGE + 1));
    expect(result.ok).toBe(false);
  });

  it("fails cleanly when the header leaves no room", () => {
    expect(splitPayload(BRIDGE_PREFIX, "r".repeat(460), "x").ok).toBe(false);
  });
});

describe("chunking properties", () => {
  const next = rng(2024);
  const cases = Array.from({ length: 200 }, (_, n) => ({ n, text: randomText(next, n % 10 === 0 ? 4000 : 600) }));

  it.each(cases)("case $n: fits, rejoins, counts code points, sizes headers with the final total", ({ text }) => {
    const payload = dumpsWire({ text });
    const lines = split(payload, "rq-" + String(text.length));
    expect(joinChunks(lines)).toBe(payload);
    for (const line of lines) {
      const chunk = decodeChunk(line);
      expect(utf8Len(TELL_WRAPPER + line)).toBeLessThanOrEqual(COMMAND_LINE_BUDGET_BYTES);
      expect(Array.from(chunk.content).length).toBeLessThanOrEqual(256);
      expect(chunk.total).toBe(lines.length);
      expect(line).not.toMatch(/[@§]/);
    }
  });

  it("fills chunks greedily: only the last is short", () => {
    const lines = split("x".repeat(1000));
    expect(lines.map((l) => decodeChunk(l).content.length)).toEqual([256, 256, 256, 232]);
  });

  it("keeps 4-byte code points whole and within the byte budget", () => {
    const lines = split("😀".repeat(500));
    for (const line of lines) {
      expect(utf8Len(TELL_WRAPPER + line)).toBeLessThanOrEqual(COMMAND_LINE_BUDGET_BYTES);
      expect(decodeChunk(line).content).toMatch(/^(😀)*$/u);
    }
    expect(joinChunks(lines)).toBe("😀".repeat(500));
  });

  it("converges when the total gains a digit", () => {
    // 9 chunks at one digit become 10 at two digits: every header must say /10 (or more).
    for (let size = 2000; size < 3000; size += 37) {
      const lines = split("你".repeat(size), "r");
      const totals = new Set(lines.map((l) => decodeChunk(l).total));
      expect([...totals]).toEqual([lines.length]);
      for (const line of lines) expect(utf8Len(TELL_WRAPPER + line)).toBeLessThanOrEqual(COMMAND_LINE_BUDGET_BYTES);
    }
  });

  it("never ends a chunk but the last with a space the game may trim from the line", () => {
    const text = "a".repeat(255) + " " + "b".repeat(300) + "  \u3000" + "c".repeat(252) + " ".repeat(600) + "d";
    const lines = split(text);
    expect(joinChunks(lines)).toBe(text);
    const contents = lines.map((l) => decodeChunk(l).content);
    expect(contents[0]).toBe("a".repeat(255));
    for (const content of contents.slice(0, -1)) {
      expect(/\s$/u.test(content) && !/^\s+$/u.test(content)).toBe(false);
    }
  });

  it("works for the UI chat prefix too", () => {
    const lines = split("y".repeat(600), "ui-1-1", UI_CHAT_PREFIX);
    expect(lines[0]).toMatch(/^MCBEWS\|UI_CHAT\|ui-1-1\|1\/3\|/);
  });
});
