// Shared test helpers: the wire vectors and a test-only chunk decoder.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const VECTORS = fileURLToPath(new URL("../../tests/vectors/mcbews_v1.json", import.meta.url));

export interface Vectors {
  bridge_requests: { name: string; request_id: string; capability: string; payload: Record<string, unknown>; line: string }[];
  addon_requests: {
    name: string;
    message: string;
    ok: boolean;
    code?: string;
    request_id: string | null;
    capability?: string;
    payload?: Record<string, unknown>;
  }[];
  chunks: { name: string; line: string; channel: "bridge" | "ui_chat"; message_id: string; index: number; total: number; content: string }[];
  ui_chat: { name: string; text: string; ok: boolean; player?: string; message?: string; cid?: string | null }[];
  text_frames: { name: string; line: string; id: string; i: number; n: number; p: string; r: string; c: string; cid?: string; t?: string }[];
  bad_text_frames: { message: string; reason: string }[];
  text_reassembly: { name: string; lines: string[]; text?: string; player?: string; role?: string; error?: string }[];
  budget: { command_line_budget_bytes: number };
}

export const vectors = JSON.parse(readFileSync(VECTORS, "utf8")) as Vectors;

export interface DecodedChunk {
  prefix: string;
  id: string;
  index: number;
  total: number;
  content: string;
}

/** Decode `MCBEWS|<CH>|<id>|<i>/<n>|<content>` (content may contain pipes). */
export function decodeChunk(line: string): DecodedChunk {
  const m = /^(MCBEWS\|(?:BRIDGE|UI_CHAT))\|([^|]+)\|(\d+)\/(\d+)\|(.*)$/s.exec(line);
  if (m === null) throw new Error(`not a chunk: ${line}`);
  return { prefix: m[1]!, id: m[2]!, index: Number(m[3]), total: Number(m[4]), content: m[5]! };
}

/** Join complete chunk lines of one message. */
export function joinChunks(lines: readonly string[]): string {
  const chunks = lines.map(decodeChunk);
  return chunks
    .sort((a, b) => a.index - b.index)
    .map((c) => c.content)
    .join("");
}

/** A small seeded generator (mulberry32) for property tests. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ["a", "Z", "0", " ", "|", "@", "§", "\"", "\\", "é", "你", "😀", "\n", "{", "}", "\u00a0", "\u2028"];

export function randomText(next: () => number, maxLength: number): string {
  const length = Math.floor(next() * maxLength);
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(next() * ALPHABET.length)]!;
  return out;
}
