import { describe, expect, it } from "vitest";
import { dumpsWire, escapeWire, parseJson, utf8Len } from "../src/json.js";
import { randomText, rng } from "./helpers.js";

describe("wire JSON", () => {
  it("escapes @ and § so tell cannot rewrite them", () => {
    expect(dumpsWire({ target: "@s", c: "§c" })).toBe('{"target":"\\u0040s","c":"\\u00a7c"}');
  });

  it("round-trips through JSON.parse", () => {
    const next = rng(7);
    for (let n = 0; n < 300; n++) {
      const text = randomText(next, 40);
      const wire = dumpsWire({ text });
      expect(wire).not.toMatch(/[@§]/);
      expect(JSON.parse(wire)).toEqual({ text });
    }
  });

  it("escapes lone surrogates and keeps pairs", () => {
    expect(escapeWire('"\ud800x"')).toBe('"\\ud800x"');
    expect(escapeWire('"😀"')).toBe('"😀"');
  });

  it("counts UTF-8 bytes by hand, like Buffer does", () => {
    const next = rng(11);
    for (let n = 0; n < 300; n++) {
      const text = randomText(next, 50);
      expect(utf8Len(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
    expect(utf8Len("\udc00")).toBe(6);
  });

  it("parses without throwing", () => {
    expect(parseJson("{").ok).toBe(false);
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });
});
