// Compact JSON as it travels inside Minecraft command lines and chat (mirror of the Python
// core's jsonwire). `@` is escaped as \u0040 (tell would expand @a into player names) and `§`
// as \u00a7 (the game's formatting code); JSON decoders turn both back into themselves.
// QuickJS has no TextEncoder, so UTF-8 sizes are counted by hand.

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type ParseResult = { ok: true; value: unknown } | { ok: false; error: string };

/** Escape `@`, `§` and lone surrogates in already-serialized JSON text. */
export function escapeWire(jsonText: string): string {
  let out = "";
  for (let i = 0; i < jsonText.length; i++) {
    const unit = jsonText.charCodeAt(i);
    if (unit === 0x40) out += "\\u0040";
    else if (unit === 0xa7) out += "\\u00a7";
    else if (unit >= 0xd800 && unit <= 0xdbff && isLow(jsonText.charCodeAt(i + 1))) {
      out += jsonText[i]! + jsonText[i + 1]!;
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) out += "\\u" + unit.toString(16).padStart(4, "0");
    else out += jsonText[i]!;
  }
  return out;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Serialize as compact, wire-safe JSON (`@`/`§` escaped). */
export function dumpsWire(value: unknown): string {
  return escapeWire(JSON.stringify(value) ?? "null");
}

/** UTF-8 length of `text`; a lone surrogate counts as its 6-byte `\uXXXX` escape. */
export function utf8Len(text: string): number {
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) size += 1;
    else if (unit < 0x800) size += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      size += 4;
      i++;
    } else if (unit >= 0xd800 && unit <= 0xdfff) size += 6;
    else size += 3;
  }
  return size;
}

/** JSON.parse that never throws. */
export function parseJson(text: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
