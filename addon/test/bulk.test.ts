// Requests bigger than one command: the shared vectors (reading parts, the reassembler's
// bounds), and the runtime handing a whole request to its transport, refusing a broken one
// with an answer, and dropping a cancelled one's parts.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { BulkReassembler, parseBulkPart, type BulkOutcome } from "../src/bulk.js";
import { BRIDGE_PLAYER, BULK_EVENT, BULK_MAX_PARTS, BULK_REQUEST_MAX_BYTES, CANCEL_EVENT, PULL_TTL_SECONDS } from "../src/wire.js";
import { fakeHost, runtimeWith, tick } from "./fakeHost.js";
import { mc, state } from "./mocks/server.js";

interface Step {
  tick: number;
  message?: string;
  outcome?: string;
  event?: string;
  text?: string;
  expire?: string[];
  discard?: string;
}

interface BulkVectors {
  encode: { name: string; lines: string[]; text: string }[];
  read: { name: string; message: string; part: null | { id: string; kind: string; index: number; total: number; content: string } }[];
  bounds: { request_max_bytes: number; world_max_bytes: number; max_parts: number; max_requests: number; ttl_ticks: number };
  reassemble: { name: string; steps: Step[] }[];
}

const VECTORS = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../tests/vectors/bulk_v1.json", import.meta.url)), "utf8"),
) as BulkVectors;

const messageOf = (line: string): string => line.slice(`scriptevent ${BULK_EVENT} `.length);

beforeEach(() => mc.reset());

describe("bulk vectors", () => {
  it.each(VECTORS.read)("reads a part: $name", (c) => {
    expect(parseBulkPart(c.message)).toEqual(c.part);
  });

  it.each(VECTORS.encode)("joins what the bridge writes: $name", (c) => {
    const joiner = new BulkReassembler();
    const outcomes = [...c.lines].reverse().map((line) => joiner.feed(parseBulkPart(messageOf(line))!, 0));
    const last = outcomes[outcomes.length - 1]!;
    expect(last.kind).toBe("complete");
    if (last.kind === "complete") expect(last.text).toBe(c.text);
    expect(joiner.heldBytes).toBe(0);
  });

  const b = VECTORS.bounds;
  const bounds = { requestMaxBytes: b.request_max_bytes, worldMaxBytes: b.world_max_bytes, maxParts: b.max_parts, maxRequests: b.max_requests, ttlTicks: b.ttl_ticks };

  it.each(VECTORS.reassemble)("reassembles: $name", (c) => {
    const joiner = new BulkReassembler(bounds);
    for (const step of c.steps) {
      if (step.discard !== undefined) {
        joiner.discard(step.discard, step.tick);
        continue;
      }
      if (step.expire !== undefined) {
        expect(joiner.expire(step.tick).map((o: BulkOutcome) => o.id)).toEqual(step.expire);
        continue;
      }
      const outcome = joiner.feed(parseBulkPart(step.message!)!, step.tick);
      expect(outcome.kind).toBe(step.outcome);
      if (step.event !== undefined && (outcome.kind === "complete" || outcome.kind === "failed")) expect(outcome.event).toBe(step.event);
      if (step.text !== undefined && outcome.kind === "complete") expect(outcome.text).toBe(step.text);
    }
    expect(joiner.heldBytes).toBeLessThanOrEqual(b.world_max_bytes);
  });
});

describe("the default bounds", () => {
  it("hold a whole request of the most bytes in the most parts", () => {
    expect(BULK_REQUEST_MAX_BYTES / BULK_MAX_PARTS).toBeLessThanOrEqual(256);
  });

  it("a flood of parts of distinct requests holds at most the world bound", () => {
    const joiner = new BulkReassembler();
    const big = "x".repeat(300);
    for (let n = 0; n < 10_000; n++) joiner.feed({ id: `r${n % 40}`, kind: "c", index: 1 + Math.floor(n / 40), total: 1000, content: big }, 0);
    expect(joiner.heldBytes).toBeLessThanOrEqual(BULK_REQUEST_MAX_BYTES * 4);
    expect(joiner.size).toBeLessThanOrEqual(32);
  });
});

const request = (id: string, capability: string, payload: object = {}): string => JSON.stringify({ v: 2, request_id: id, capability, payload });

/** The parts of `text` under `id`, `size` characters each (the vectors test the real cutting). */
function parts(id: string, kind: string, text: string, size = 20): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.map((p, i) => `${id} ${kind} ${i + 1}/${pieces.length} ${p}`);
}

describe("the runtime", () => {
  it("a pull request in parts, any order, is answered into the store like a pull_req", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const lines = parts("k1", "p", request("k1", "list_capabilities"));
    for (const line of [...lines].reverse()) rt.onScriptEvent(BULK_EVENT, line, null);
    expect(rt.pull.size).toBe(1);
    expect(rt.pullPage("k1", 1).message).toMatch(/^MCBEWS\|ANSWER\|k1\|1\/\d+\|\{"ok":true/);
    expect(rt.bulk.heldBytes).toBe(0);
  });

  it("a chat request in parts is routed like a bridge_req", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    tick(rt);
    for (const line of parts("c1", "c", request("c1", "list_capabilities"))) rt.onScriptEvent(BULK_EVENT, line, null);
    tick(rt, 2, fake);
    const bridge = state.players.find((p) => p.name === BRIDGE_PLAYER)!;
    expect(bridge.commands.some((c) => c.startsWith("tell @s MCBEWS|BRIDGE|c1|"))).toBe(true);
  });

  it("a request whose parts are named for another id is dropped", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    for (const line of parts("k1", "p", request("k2", "list_capabilities"))) rt.onScriptEvent(BULK_EVENT, line, null);
    expect(rt.pull.size).toBe(0);
    expect(fake.warnings.some((w) => w.includes("named k1"))).toBe(true);
  });

  it("a part that does not read is logged and dropped", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    rt.onScriptEvent(BULK_EVENT, "k-1 p 1/1 {}", null);
    expect(fake.warnings.some((w) => w.includes("does not read as one"))).toBe(true);
  });

  it("a broken request is answered INVALID_REQUEST saying why", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    rt.onScriptEvent(BULK_EVENT, "k1 p 1/2 {", null);
    rt.onScriptEvent(BULK_EVENT, "k1 p 1/2 [", null);
    const page = rt.pullPage("k1", 1).message;
    expect(page).toContain("INVALID_REQUEST");
    expect(page).toContain("different content");
  });

  it("a request missing a part is answered when its TTL passes, and holds nothing after", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    rt.onScriptEvent(BULK_EVENT, "k1 p 1/3 {", null);
    rt.onScriptEvent(BULK_EVENT, "k1 p 3/3 }", null);
    tick(rt, PULL_TTL_SECONDS * 20 + 25, fake);
    expect(rt.bulk.size).toBe(0);
    expect(rt.pullPage("k1", 1).message).toContain("only 2 of its 3 parts");
    rt.onScriptEvent(BULK_EVENT, 'k1 p 2/3 ""', null);
    expect(rt.bulk.size).toBe(0);
  });

  it("over tags, a request in parts is answered on its player, a broken one too when its TTL passes", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const steve = mc.addPlayer({ name: "Steve" });
    for (const line of parts("t1", "t", request("t1", "list_capabilities"))) rt.onScriptEvent(BULK_EVENT, line, "Steve");
    expect(steve.getTags().some((t) => t.startsWith("mcbews.a.t1."))).toBe(true);
    rt.onScriptEvent(BULK_EVENT, "t2 t 1/2 {", "Steve");
    tick(rt, PULL_TTL_SECONDS * 20 + 25, fake);
    const answer = steve.getTags().filter((t) => t.startsWith("mcbews.a.t2."));
    const sorted = [...answer].sort((a, b) => Number(a.split(".")[3]) - Number(b.split(".")[3]));
    const text = Buffer.concat(sorted.map((t) => Buffer.from(t.split(".")[5]!, "base64url"))).toString("utf8");
    expect(text).toContain("INVALID_REQUEST");
    expect(text).toContain("only 1 of its 2 parts");
  });

  it("a cancelled request drops its parts, and its late parts start nothing", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const lines = parts("k1", "p", request("k1", "list_capabilities"));
    rt.onScriptEvent(BULK_EVENT, lines[0]!, null);
    expect(rt.bulk.heldBytes).toBeGreaterThan(0);
    rt.onScriptEvent(CANCEL_EVENT, "k1", null);
    expect(rt.bulk.heldBytes).toBe(0);
    for (const line of lines) rt.onScriptEvent(BULK_EVENT, line, null);
    expect(rt.bulk.size).toBe(0);
    expect(rt.pull.size).toBe(0);
  });
});
