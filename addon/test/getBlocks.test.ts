import { beforeEach, describe, expect, it } from "vitest";
import {
  ANSWER_BUDGET_BYTES,
  MAX_BLOCKS_PER_REQUEST,
  OUT_OF_WORLD,
  POSITIONS_PER_YIELD,
  RunEncoder,
  UNLOADED,
  answerOf,
  parseBox,
  readAsJob,
  readBox,
  type BoxRequest,
} from "../src/capabilities/getBlocks.js";
import { createRegistry, type CapabilityResult } from "../src/capability.js";
import { DEFAULT_CAPABILITIES } from "../src/capabilities/index.js";
import { routeRequest } from "../src/router.js";
import { BridgeRuntime, DEFAULT_OPTIONS } from "../src/runtime.js";
import { BRIDGE_PLAYER, BRIDGE_REQUEST_EVENT, MAX_CHUNKS_PER_MESSAGE } from "../src/wire.js";
import { makeContext } from "./context.js";
import { joinChunks } from "./helpers.js";
import { NamedError, asPlayer, mc, state, system, world } from "./mocks/server.js";

interface Answer {
  dimension: string;
  origin: number[];
  size: number[];
  order: string;
  start: number;
  count: number;
  palette: string[];
  states?: (Record<string, unknown> | null)[];
  runs: string;
}

/** Expand "i*n,j" into one palette entry per position (a decoder written apart from the encoder). */
function expand(answer: Answer): string[] {
  if (answer.runs === "") return [];
  return answer.runs.split(",").flatMap((run) => {
    const [index, times] = run.split("*");
    return new Array<string>(Number(times ?? 1)).fill(answer.palette[Number(index)]!);
  });
}

function box(from: number[], to: number[], extra: Record<string, unknown> = {}): BoxRequest {
  const parsed = parseBox({ from, to, ...extra });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.box;
}

/** Run the job to completion through the mock's ticks. */
async function read(request: BoxRequest, maxTicks = 100): Promise<Answer> {
  let settled: CapabilityResult | undefined;
  void readAsJob(request).then((r) => (settled = r));
  for (let n = 0; n < maxTicks && settled === undefined; n++) {
    mc.advance();
    await Promise.resolve();
  }
  if (settled === undefined) throw new Error("the job did not finish");
  if (!settled.ok) throw new Error(settled.message);
  return settled.result as unknown as Answer;
}

beforeEach(() => mc.reset());

describe("get_blocks request checks", () => {
  it("takes two corners in any order, inclusive", () => {
    expect(box([3, 70, -1], [1, 64, 2])).toEqual({ dimension: "overworld", origin: [1, 64, -1], size: [3, 7, 4], start: 0, states: false });
    expect(box([0, 0, 0], [0, 0, 0], { dimension: "minecraft:nether", states: true }).dimension).toBe("nether");
  });

  it.each([
    [{ from: [0, 0], to: [1, 1, 1] }, "from must be [x, y, z]"],
    [{ from: [0, 0.5, 0], to: [1, 1, 1] }, "from must be [x, y, z]"],
    [{ from: [0, 0, 0], to: [1, 1, 40_000_000] }, "to must be [x, y, z]"],
    [{ from: [0, 0, 0], to: [1, 1, 1], dimension: "moon" }, "dimension must be one of overworld, nether, the_end"],
    [{ from: [0, 0, 0], to: [1, 1, 1], start: 8 }, "start must be a whole number from 0 to 7"],
    [{ from: [0, 0, 0], to: [16, 15, 15] }, `the box holds 4352 blocks, more than ${MAX_BLOCKS_PER_REQUEST} per request`],
  ])("refuses %j", (payload, message) => {
    const parsed = parseBox(payload);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it("accepts exactly the limit: one 16x16x16 section", () => {
    expect(parseBox({ from: [0, 0, 0], to: [15, 15, 15] }).ok).toBe(true);
  });
});

describe("get_blocks parameters are checked before it runs", () => {
  it.each([
    [{ from: [0, 0, 0], to: [1, 1, 1], state: true }, 'unknown parameter "state" for get_blocks'],
    [{ from: [0, 0, 0], to: [1, 1, 1], states: "yes" }, 'parameter "states" of get_blocks must be a boolean'],
    [{ from: "0 0 0", to: [1, 1, 1] }, 'parameter "from" of get_blocks must be an array'],
    [{ from: [0, 0, 0], to: [1, 1, 1], start: 1.5 }, 'parameter "start" of get_blocks must be an integer'],
  ])("refuses %j as INVALID_REQUEST", (payload, message) => {
    const out = routeRequest(JSON.stringify({ v: 2, request_id: "p1", capability: "get_blocks", payload }), makeContext());
    if (out.kind !== "answer") throw new Error(`not answered at once: ${out.kind}`);
    const body = JSON.parse(joinChunks(out.lines)) as { ok: boolean; error: { code: string; message: string } };
    expect(body.error.code).toBe("INVALID_REQUEST");
    expect(body.error.message).toContain(message);
  });
});

describe("get_blocks encoding", () => {
  it("reads x fastest, then z, then y, as runs over a palette", async () => {
    mc.setBlock(1, 64, 0, { typeId: "minecraft:stone" });
    mc.setBlock(0, 64, 1, { typeId: "minecraft:dirt" });
    mc.setBlock(1, 65, 1, { typeId: "minecraft:stone" });
    const answer = await read(box([0, 64, 0], [1, 65, 1]));
    expect(answer).toMatchObject({ dimension: "minecraft:overworld", origin: [0, 64, 0], size: [2, 2, 2], order: "xzy", start: 0, count: 8 });
    expect(expand(answer)).toEqual([
      "minecraft:air", "minecraft:stone", "minecraft:dirt", "minecraft:air", // y 64: z 0 (x 0, 1), z 1
      "minecraft:air", "minecraft:air", "minecraft:air", "minecraft:stone", // y 65
    ]);
    expect(answer.runs).toBe("0,1,2,0*4,1");
    expect(answer.states).toBeUndefined();
  });

  it("gives block states per palette entry only when asked", async () => {
    mc.setBlock(0, 64, 0, { typeId: "minecraft:oak_log", states: { pillar_axis: "y" } });
    mc.setBlock(1, 64, 0, { typeId: "minecraft:oak_log", states: { pillar_axis: "x" } });
    const plain = await read(box([0, 64, 0], [1, 64, 0]));
    expect(plain.palette).toEqual(["minecraft:oak_log"]);
    expect(plain.runs).toBe("0*2");
    const detailed = await read(box([0, 64, 0], [1, 64, 0], { states: true }));
    expect(detailed.palette).toEqual(["minecraft:oak_log", "minecraft:oak_log"]);
    expect(detailed.states).toEqual([{ pillar_axis: "y" }, { pillar_axis: "x" }]);
  });
});

describe("get_blocks: unknown stays unknown", () => {
  it("reports positions in an unloaded chunk as their own entry, never air", async () => {
    mc.unloadChunk(1, 0); // x 16..31
    const answer = await read(box([14, 64, 0], [17, 64, 0]));
    expect(expand(answer)).toEqual(["minecraft:air", "minecraft:air", UNLOADED, UNLOADED]);
  });

  it("reports positions outside the height range as out of the world", async () => {
    const top = await read(box([0, 318, 0], [0, 321, 0]));
    expect(expand(top)).toEqual(["minecraft:air", "minecraft:air", OUT_OF_WORLD, OUT_OF_WORLD]);
    const nether = await read(box([0, -1, 0], [0, 0, 0], { dimension: "nether" }));
    expect(expand(nether)).toEqual([OUT_OF_WORLD, "minecraft:air"]);
  });

  it("reads a chunk that unloads mid-read as unloaded, and fails on other errors", async () => {
    state.nextGetBlockError = new NamedError("LocationInUnloadedChunkError", "gone");
    expect(expand(await read(box([0, 64, 0], [1, 64, 0])))).toEqual([UNLOADED, "minecraft:air"]);
    state.nextGetBlockError = new Error("boom");
    await expect(read(box([0, 64, 0], [1, 64, 0]))).rejects.toThrow("reading blocks failed: Error: boom");
  });
});

describe("get_blocks limits", () => {
  it("spreads a full request over ticks with system.runJob", async () => {
    state.jobStepsPerTick = 4;
    for (let y = 0; y < 16; y++) for (let z = 0; z < 16; z++) mc.setBlock(15, y, z, { typeId: "minecraft:stone" });
    let done = false;
    void readAsJob(box([0, 0, 0], [15, 15, 15])).then(() => (done = true));
    mc.advance();
    await Promise.resolve();
    expect(state.getBlockCalls).toBe(4 * POSITIONS_PER_YIELD); // no row is all one block
    expect(done).toBe(false);
    mc.advance(3);
    await Promise.resolve();
    expect(state.getBlockCalls).toBe(MAX_BLOCKS_PER_REQUEST);
    expect(done).toBe(true);
  });

  it("reads a row of one block as one run, without reading each block", async () => {
    mc.setBlock(3, 64, 1, { typeId: "minecraft:stone" });
    const answer = await read(box([0, 63, 0], [15, 64, 1])); // four rows, one with a stone
    expect(expand(answer)).toEqual([
      ...new Array<string>(48).fill("minecraft:air"),
      "minecraft:air", "minecraft:air", "minecraft:air", "minecraft:stone",
      ...new Array<string>(12).fill("minecraft:air"),
    ]);
    expect(answer.runs).toBe("0*51,1,0*12");
    expect(state.containsBlockCalls).toBe(4);
    expect(state.getBlockCalls).toBe(3 + 16); // the first block of three rows, all of the fourth
  });

  it("reads a row that reaches into an unloaded chunk block by block", async () => {
    mc.unloadChunk(1, 0);
    const answer = await read(box([12, 64, 0], [19, 64, 0]));
    expect(expand(answer)).toEqual([...new Array<string>(4).fill("minecraft:air"), ...new Array<string>(4).fill(UNLOADED)]);
  });

  it("stops within the answer budget and resumes where it stopped", () => {
    for (let i = 0; i < 600; i++) mc.setBlock(i % 30, 64 + Math.floor(i / 30), 0, { typeId: `custom:block_with_a_rather_long_name_${i}` });
    const request = box([0, 64, 0], [29, 83, 0]);
    const small = new RunEncoder(4000);
    for (const _ of readBox(world.getDimension("overworld") as never, request, small));
    const first = answerOf(request, small) as unknown as Answer;
    expect(first.count).toBeGreaterThan(0);
    expect(first.count).toBeLessThan(600);
    expect(JSON.stringify(first).length).toBeLessThanOrEqual(4000);
    const rest = new RunEncoder(ANSWER_BUDGET_BYTES);
    const next = { ...request, start: first.count };
    for (const _ of readBox(world.getDimension("overworld") as never, next, rest));
    const second = answerOf(next, rest) as unknown as Answer;
    expect(second.start + second.count).toBe(600);
    expect([...expand(first), ...expand(second)]).toEqual(
      Array.from({ length: 600 }, (_, i) => `custom:block_with_a_rather_long_name_${i}`),
    );
  });

  it("never answers more than 128 chunks, however varied the box", async () => {
    // 4096 positions, no two neighbours alike, 400 long names: the worst case for the budget.
    for (let i = 0; i < 4096; i++) {
      mc.setBlock(i % 16, Math.floor(i / 256), Math.floor(i / 16) % 16, { typeId: `custom:an_unusually_long_block_identifier_${(i * 7) % 400}` });
    }
    const out = routeRequest(JSON.stringify({ v: 2, request_id: "big", capability: "get_blocks", payload: { from: [0, 0, 0], to: [15, 15, 15] } }), makeContext());
    expect(out.kind).toBe("later");
    if (out.kind !== "later") return;
    mc.advance(10);
    const done = await out.outcome;
    if (done.kind !== "answer") throw new Error(done.kind);
    expect(done.lines.length).toBeLessThanOrEqual(MAX_CHUNKS_PER_MESSAGE);
    const body = JSON.parse(joinChunks(done.lines)) as { ok: boolean; result: Answer };
    expect(body.ok).toBe(true);
    expect(body.result.count).toBeGreaterThan(0);
    expect(body.result.count).toBeLessThan(4096);
  });
});

describe("get_blocks through the runtime", () => {
  it("answers when the job is done, other requests meanwhile answering at once", async () => {
    const warnings: string[] = [];
    const runtime = new BridgeRuntime(
      {
        currentTick: () => state.tick,
        defer: (fn) => void system.run(fn),
        players: () => state.players.map(asPlayer),
        spawnBridge: () => void mc.addPlayer({ name: BRIDGE_PLAYER }),
        runWorldCommand: () => ({ ok: true, successCount: 1 }),
        entity: () => undefined,
        readPolicy: () => undefined,
        writePolicy: () => undefined,
        warn: (message) => void warnings.push(message),
      },
      createRegistry(DEFAULT_CAPABILITIES),
      DEFAULT_OPTIONS,
    );
    runtime.onTick(); // spawns the bridge player
    const bridge = state.players.find((p) => p.name === BRIDGE_PLAYER)!;
    mc.setBlock(0, 0, 0, { typeId: "minecraft:stone" });
    runtime.onScriptEvent(BRIDGE_REQUEST_EVENT, JSON.stringify({ v: 2, request_id: "b1", capability: "get_blocks", payload: { from: [0, 0, 0], to: [15, 15, 15] } }), null);
    runtime.onScriptEvent(BRIDGE_REQUEST_EVENT, JSON.stringify({ v: 2, request_id: "q1", capability: "list_capabilities", payload: {} }), null);
    runtime.onTick();
    const sent = (): string[] => bridge.commands.map((c) => c.slice("tell @s ".length));
    expect(sent().length).toBeGreaterThan(0);
    expect(sent().every((line) => line.includes("|q1|"))).toBe(true); // the quick one is not held up
    for (let n = 0; n < 10; n++) {
      mc.advance();
      await Promise.resolve();
      await Promise.resolve();
      runtime.onTick();
    }
    const answer = JSON.parse(joinChunks(sent().filter((line) => line.includes("|b1|")))) as { ok: boolean; result: Answer };
    expect(answer.ok).toBe(true);
    expect(answer.result.runs).toBe("0,1*4095");
    expect(answer.result.palette).toEqual(["minecraft:stone", "minecraft:air"]);
    expect(warnings).toEqual([]);
  });
});
