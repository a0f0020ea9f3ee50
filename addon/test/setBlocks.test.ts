// set_blocks: the payload's checks, the palette's resolution (INVALID_REQUEST naming what the
// game does not know), what the answer says for every position (written, already so, kept,
// unloaded, out of the world), the work spread over ticks, and cancelling.
import { beforeEach, describe, expect, it } from "vitest";
import {
  KEEP,
  MAX_WRITE_BLOCKS,
  POSITIONS_PER_YIELD,
  STATUS,
  decodeRuns,
  parseWrite,
  resolvePalette,
  setBlocks,
  writeAsJob,
  type WriteRequest,
} from "../src/capabilities/setBlocks.js";
import type { CapabilityResult } from "../src/capability.js";
import { CANCEL_EVENT, PULL_REQUEST_EVENT } from "../src/wire.js";
import { makeContext } from "./context.js";
import { fakeHost, runtimeWith } from "./fakeHost.js";
import { NamedError, mc, state } from "./mocks/server.js";

beforeEach(() => mc.reset());

interface Answer {
  written: number;
  already: number;
  kept: number;
  unloaded: number;
  out_of_world: number;
  codes: string[];
  status: string;
  origin: number[];
  size: number[];
  order: string;
}

function parsed(payload: Record<string, unknown>): WriteRequest {
  const out = parseWrite(payload);
  if (!out.ok) throw new Error(out.message);
  return out.request;
}

/** The status of each position (a decoder written apart from the encoder). */
function statuses(answer: Answer): string[] {
  if (answer.status === "") return [];
  return answer.status.split(",").flatMap((run) => {
    const [index, times] = run.split("*");
    return new Array<string>(Number(times ?? 1)).fill(answer.codes[Number(index)]!);
  });
}

async function run(payload: Record<string, unknown>, maxTicks = 500): Promise<{ result: CapabilityResult; ticks: number }> {
  let settled: CapabilityResult | undefined;
  void setBlocks.start(payload, makeContext()).then((r) => (settled = r));
  let ticks = 0;
  for (; ticks < maxTicks && settled === undefined; ticks++) {
    mc.advance();
    await Promise.resolve();
  }
  await Promise.resolve();
  if (settled === undefined) throw new Error("the job did not finish");
  return { result: settled, ticks };
}

async function write(payload: Record<string, unknown>): Promise<Answer> {
  const { result } = await run(payload);
  if (!result.ok) throw new Error(result.message);
  return result.result as unknown as Answer;
}

const at = (x: number, y: number, z: number): string | undefined => state.blocks.get(`overworld:${x},${y},${z}`)?.typeId;

describe("the payload", () => {
  it.each([
    [{ origin: [0, 0], size: [1, 1, 1], palette: ["stone"], runs: "0" }, "origin must be"],
    [{ origin: [0, 0, 0], size: [0, 1, 1], palette: ["stone"], runs: "" }, "size must be"],
    [{ origin: [0, 0, 0], size: [64, 32, 32], palette: ["stone"], runs: "0*65536" }, `more than ${MAX_WRITE_BLOCKS}`],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: [], runs: "0" }, "palette must be"],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], runs: "1" }, "names palette entry 1"],
    [{ origin: [0, 0, 0], size: [2, 1, 1], palette: ["stone"], runs: "0" }, "cover 1 positions; the box has 2"],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], runs: "0*2" }, "more than the box's 1"],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], runs: "x" }, "is not <index>"],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], states: [1], runs: "0" }, "null or an object"],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], states: [null, null], runs: "0" }, "as long as the palette"],
    [{ origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], runs: "0", dimension: "moon" }, "dimension must be"],
  ])("refuses %j", (payload, message) => {
    const out = parseWrite(payload as Record<string, unknown>);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.message).toContain(message);
  });

  it("decodes runs into one entry a position", () => {
    expect([...(decodeRuns("0*3,2,1*2", 3, 6) as Uint16Array)]).toEqual([0, 0, 0, 2, 1, 1]);
  });

  it("an unknown block or state is INVALID_REQUEST naming each, and nothing is written", async () => {
    const { result } = await run({ origin: [0, 0, 0], size: [3, 1, 1], palette: ["stone", "minecraft:not_a_block", "oak_log"], states: [null, null, { pillar_axis: "w" }], runs: "0,1,2" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe("INVALID_REQUEST");
    expect(result.message).toContain("minecraft:not_a_block");
    expect(result.message).toContain('oak_log {"pillar_axis":"w"}');
    expect(result.message).not.toContain("stone");
    expect(state.setPermutationCalls).toBe(0);
  });

  it("check resolves the palette alone and writes nothing", async () => {
    const ok = await run({ palette: ["stone", "oak_log"], states: [null, { pillar_axis: "z" }], check: true });
    expect(ok.result).toEqual({ ok: true, result: { resolved: 2 } });
    const bad = await run({ palette: ["stone", "nothing_here"], check: true });
    expect(bad.result.ok).toBe(false);
    if (!bad.result.ok) expect(bad.result.message).toContain("nothing_here");
    expect(state.setPermutationCalls).toBe(0);
  });

  it("the markers resolve to nothing: they leave the position", () => {
    const targets = resolvePalette(parsed({ origin: [0, 0, 0], size: [3, 1, 1], palette: [KEEP, "<unloaded>", "<out_of_world>"], runs: "0,1,2" }));
    expect(targets).toEqual([null, null, null]);
  });
});

describe("writing", () => {
  it("writes blocks with their states, leaves what already is, and keeps holes", async () => {
    mc.setBlock(1, 0, 0, { typeId: "minecraft:stone" });
    mc.setBlock(3, 0, 0, { typeId: "minecraft:glass" });
    const answer = await write({ origin: [0, 0, 0], size: [4, 1, 1], palette: ["stone", "oak_log", KEEP], states: [null, { pillar_axis: "x" }, null], runs: "0*2,1,2" });
    expect(statuses(answer)).toEqual(["written", "already", "written", "kept"]);
    expect([answer.written, answer.already, answer.kept, answer.unloaded, answer.out_of_world]).toEqual([2, 1, 1, 0, 0]);
    expect(at(0, 0, 0)).toBe("minecraft:stone");
    expect(state.blocks.get("overworld:2,0,0")).toEqual({ typeId: "minecraft:oak_log", states: { pillar_axis: "x" } });
    expect(at(3, 0, 0)).toBe("minecraft:glass");
    expect(answer.codes).toEqual([...STATUS]);
    expect(answer.order).toBe("xzy");
  });

  it("air is written as air", async () => {
    mc.setBlock(0, 0, 0, { typeId: "minecraft:stone" });
    const answer = await write({ origin: [0, 0, 0], size: [1, 1, 1], palette: ["air"], runs: "0" });
    expect(answer.written).toBe(1);
    expect(at(0, 0, 0)).toBe("minecraft:air");
  });

  it("goes x fastest, then z, then y", async () => {
    await write({ origin: [10, 5, 20], size: [2, 2, 2], palette: ["stone", "dirt", "glass", "red_wool"], runs: "0,1,2,3,3,2,1,0" });
    expect([at(10, 5, 20), at(11, 5, 20), at(10, 5, 21), at(11, 5, 21)]).toEqual(["minecraft:stone", "minecraft:dirt", "minecraft:glass", "minecraft:red_wool"]);
    expect([at(10, 6, 20), at(11, 6, 20), at(10, 6, 21), at(11, 6, 21)]).toEqual(["minecraft:red_wool", "minecraft:glass", "minecraft:dirt", "minecraft:stone"]);
  });

  it("says which positions were outside the height range or in an unloaded chunk, and writes none of them", async () => {
    mc.unloadChunk(1, 0);
    const answer = await write({ origin: [15, 319, 0], size: [2, 2, 1], palette: ["stone"], runs: "0*4" });
    expect(statuses(answer)).toEqual(["written", "unloaded", "out_of_world", "out_of_world"]);
    expect(state.setPermutationCalls).toBe(1);
  });

  it("a chunk that unloads between the read and the write counts as unloaded", async () => {
    state.nextSetPermutationError = new NamedError("LocationInUnloadedChunkError", "gone");
    const answer = await write({ origin: [0, 0, 0], size: [2, 1, 1], palette: ["stone"], runs: "0*2" });
    expect(statuses(answer)).toEqual(["unloaded", "written"]);
  });

  it("spreads the work over ticks: one yield every POSITIONS_PER_YIELD positions", async () => {
    state.jobStepsPerTick = 1;
    const side = 16;
    const { result, ticks } = await run({ origin: [0, 0, 0], size: [side, side, side], palette: ["stone"], runs: `0*${side ** 3}` });
    expect(result.ok).toBe(true);
    expect(ticks).toBe(side ** 3 / POSITIONS_PER_YIELD);
  });

  it("a cancelled request stops at its next yield", async () => {
    let cancelled = false;
    let settled: CapabilityResult | undefined;
    const request = parsed({ origin: [0, 0, 0], size: [16, 16, 16], palette: ["stone"], runs: "0*4096" });
    void writeAsJob(request, resolvePalette(request) as never, () => cancelled).then((r) => (settled = r));
    state.jobStepsPerTick = 1;
    mc.advance(2);
    cancelled = true;
    mc.advance(3);
    await Promise.resolve();
    expect(settled?.ok).toBe(false);
    expect(state.setPermutationCalls).toBeLessThanOrEqual(3 * POSITIONS_PER_YIELD);
    expect(state.setPermutationCalls).toBeGreaterThan(0);
  });
});

describe("through the runtime", () => {
  it("over pull, a script-event request answers when the job is done; a cancel drops it", async () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const request = (id: string) => JSON.stringify({ v: 2, request_id: id, capability: "set_blocks", payload: { origin: [0, 0, 0], size: [2, 1, 1], palette: ["stone"], runs: "0*2" } });
    rt.onScriptEvent(PULL_REQUEST_EVENT, request("s1"), null);
    expect(rt.pullPage("s1", 1).message).toBe("MCBEWS|WAIT|s1");
    mc.advance();
    await Promise.resolve();
    await Promise.resolve();
    expect(rt.pullPage("s1", 1).message).toContain('"written":2');
    rt.onScriptEvent(PULL_REQUEST_EVENT, request("s2"), null);
    rt.onScriptEvent(CANCEL_EVENT, "s2", null);
    mc.advance(2);
    await Promise.resolve();
    expect(rt.pullPage("s2", 1).message).toBe("MCBEWS|NONE|s2|unknown");
  });

  it("mcbews:ask never writes inside the command's callback: the job starts later", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const text = JSON.stringify({ v: 2, request_id: "a1", capability: "set_blocks", payload: { origin: [0, 0, 0], size: [1, 1, 1], palette: ["stone"], runs: "0" } });
    const hex = [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
    expect(rt.ask(hex, null).message).toBe("MCBEWS|WAIT|a1");
    expect(state.jobs.length).toBe(0);
    expect(fake.deferred.length).toBe(1);
  });
});
