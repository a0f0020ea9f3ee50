import { describe, expect, it } from "vitest";
import { TELL_WRAPPER } from "../src/chunks.js";
import { utf8Len } from "../src/json.js";
import { uiChatLines, uiMessageId } from "../src/uichat.js";
import { decodeChunk, joinChunks, randomText, rng, vectors } from "./helpers.js";

function lines(id: string, player: string, message: string, cid?: string): string[] {
  const out = uiChatLines(id, player, message, cid);
  if (!out.ok) throw new Error(out.error);
  return out.chunks;
}

describe("UI chat chunks", () => {
  it("produces the seed's single chunk", () => {
    const seed = vectors.chunks.find((c) => c.name === "seed ui chat single")!;
    expect(lines(seed.message_id, "Steve", "你好世界")).toEqual([seed.line]);
  });

  it("matches the shared ui_chat vectors when decoded", () => {
    for (const v of vectors.ui_chat.filter((u) => u.ok)) {
      const text = joinChunks(lines("ui-0-1", v.player!, v.message!, v.cid ?? undefined));
      expect(JSON.parse(text)).toEqual(JSON.parse(v.text));
    }
  });

  it("ids are ui-<tick>-<n>", () => {
    expect(uiMessageId(1234, 7)).toBe("ui-1234-7");
  });

  it("refuses an empty message", () => {
    expect(uiChatLines("ui-1-1", "Steve", "  ").ok).toBe(false);
  });

  it("long messages fit, rejoin and escape @ and §", () => {
    const next = rng(99);
    for (let n = 0; n < 50; n++) {
      const message = "@a §c " + randomText(next, 3000);
      const out = lines(`ui-${n}-1`, "Steve", message);
      for (const line of out) {
        expect(decodeChunk(line).prefix).toBe("MCBEWS|UI_CHAT");
        expect(utf8Len(TELL_WRAPPER + line)).toBeLessThanOrEqual(461);
        expect(line).not.toMatch(/[@§]/);
      }
      expect(JSON.parse(joinChunks(out))).toEqual({ player: "Steve", message });
    }
  });
});
