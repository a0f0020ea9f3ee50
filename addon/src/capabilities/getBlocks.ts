// get_blocks: the blocks of a box as a palette plus a run-length encoding.
//
// Positions are read in one fixed order, x fastest, then z, then y (bottom layer first, each
// layer row by row along z): position i of a box of size [sx, sy, sz] at origin [x0, y0, z0]
// is x = x0 + i % sx, z = z0 + floor(i / sx) % sz, y = y0 + floor(i / (sx * sz)). `runs` is
// "<palette index>*<count>" (or just the index for a run of one) per run, comma separated.
// A position in an unloaded chunk reads as UNLOADED, one outside the dimension's height range
// as OUT_OF_WORLD: both are palette entries of their own, never air.
//
// The reading runs as a system.runJob generator that yields every POSITIONS_PER_YIELD
// positions, so a large box is spread over ticks instead of stalling one (the game's
// watchdog). It goes a row (the positions along x) at a time: when Dimension.containsBlock
// finds no block other than the row's first in it, the whole row is one run without reading
// each block (sky, stone and sea are mostly such rows); otherwise each block is read. The answer must fit the bridge's answer limits; when a varied box would not,
// it covers a prefix of the positions (`start`, `count`) and the caller asks for the rest.
import { BlockVolume, system, world, type Dimension } from "@minecraft/server";
import type { CapabilityResult, JobCapability } from "../capability.js";
import { dumpsWire, utf8Len, type JsonObject, type JsonValue } from "../json.js";
import { MAX_CHUNKS_PER_MESSAGE, MAX_MESSAGE_BYTES, UPSTREAM_CHUNK_CODE_POINTS } from "../wire.js";

/**
 * Positions per request: one 16x16x16 section. Even when no two neighbours match, a run costs
 * at most 5 bytes ("123*1," is never needed: a run of one is "123,"), so 4096 positions take
 * at most 20 KiB of runs, leaving the rest of ANSWER_BUDGET_BYTES for the palette. Larger boxes
 * are split by the caller (mcbews_repl/blocks.py).
 */
export const MAX_BLOCKS_PER_REQUEST = 4096;
/**
 * What an answer may take: 128 chunks of at most 256 code points (wire.json). Every chunk but
 * the last carries at least 256 UTF-8 bytes, so an answer of at most this many bytes never
 * needs more than 128 chunks; it is also below the 64 KiB message limit.
 */
export const ANSWER_BUDGET_BYTES = Math.min(MAX_CHUNKS_PER_MESSAGE * UPSTREAM_CHUNK_CODE_POINTS, MAX_MESSAGE_BYTES);
/** Room kept for the answer's envelope and fixed fields (ids, origin, size, counts). */
const ENVELOPE_BYTES = 512;
/** Positions read between two yields of the job. */
export const POSITIONS_PER_YIELD = 256;
/** Whole-block coordinates the game accepts (its world border). */
const MAX_COORDINATE = 30_000_000;
export const UNLOADED = "<unloaded>";
export const OUT_OF_WORLD = "<out_of_world>";
const DIMENSIONS = ["overworld", "nether", "the_end"];

export interface BoxRequest {
  dimension: string;
  origin: [number, number, number];
  size: [number, number, number];
  start: number;
  states: boolean;
}

type Parsed = { ok: true; box: BoxRequest } | { ok: false; message: string };

function corner(value: unknown, name: string): [number, number, number] | string {
  const ok = Array.isArray(value) && value.length === 3 && value.every((v) => Number.isInteger(v) && Math.abs(v as number) <= MAX_COORDINATE);
  return ok ? (value as [number, number, number]) : `${name} must be [x, y, z]: three whole numbers within ±${MAX_COORDINATE}`;
}

/** Check a payload: two corners (inclusive, any order), a dimension, where to start. */
export function parseBox(payload: Record<string, unknown>): Parsed {
  const from = corner(payload["from"], "from");
  const to = corner(payload["to"], "to");
  if (typeof from === "string") return { ok: false, message: from };
  if (typeof to === "string") return { ok: false, message: to };
  const dimension = String(payload["dimension"] ?? "overworld").replace(/^minecraft:/, "");
  if (!DIMENSIONS.includes(dimension)) return { ok: false, message: `dimension must be one of ${DIMENSIONS.join(", ")}` };
  const origin = [0, 1, 2].map((i) => Math.min(from[i]!, to[i]!)) as [number, number, number];
  const size = [0, 1, 2].map((i) => Math.abs(from[i]! - to[i]!) + 1) as [number, number, number];
  const volume = size[0] * size[1] * size[2];
  if (volume > MAX_BLOCKS_PER_REQUEST) {
    return { ok: false, message: `the box holds ${volume} blocks, more than ${MAX_BLOCKS_PER_REQUEST} per request: split it` };
  }
  const start = payload["start"] ?? 0;
  if (!Number.isInteger(start) || (start as number) < 0 || (start as number) >= volume) {
    return { ok: false, message: `start must be a whole number from 0 to ${volume - 1}` };
  }
  return { ok: true, box: { dimension, origin, size, start: start as number, states: payload["states"] === true } };
}

function runToken(entry: number, length: number): string {
  return length > 1 ? `${entry}*${length}` : String(entry);
}

function digits(n: number): number {
  return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : String(n).length;
}

/** The length of runToken(entry, length), without building it. */
function tokenLength(entry: number, length: number): number {
  return digits(entry) + (length > 1 ? 1 + digits(length) : 0);
}

/** Palette and runs, growing within the answer budget. */
export class RunEncoder {
  readonly palette: string[] = [];
  readonly states: (JsonObject | null)[] = [];
  private readonly index = new Map<string, number>();
  private readonly runs: string[] = [];
  private current = -1;
  private currentKey: string | null = null;
  private length = 0;
  private bytes = ENVELOPE_BYTES;
  count = 0;

  constructor(private readonly budget: number = ANSWER_BUDGET_BYTES) {}

  /** Add one position; false (and nothing added) when it would not fit the budget. */
  add(key: string, typeId: string, states: JsonObject | null): boolean {
    if (key === this.currentKey) return this.extend();
    const known = this.index.get(key);
    const entry = known ?? this.palette.length;
    let cost = digits(entry) + 1;
    if (known === undefined) cost += utf8Len(dumpsWire(typeId)) + utf8Len(dumpsWire(states)) + 2;
    if (this.bytes + cost > this.budget) return false;
    if (known === undefined) {
      this.index.set(key, entry);
      this.palette.push(typeId);
      this.states.push(states);
    }
    this.flush();
    this.current = entry;
    this.currentKey = key;
    this.length = 1;
    this.bytes += cost;
    this.count += 1;
    return true;
  }

  /** Add ``count`` positions of one block; how many fitted the budget (all, or fewer). */
  addMany(key: string, typeId: string, states: JsonObject | null, count: number): number {
    if (count <= 0 || !this.add(key, typeId, states)) return 0;
    const rest = count - 1;
    const cost = tokenLength(this.current, this.length + rest) - tokenLength(this.current, this.length);
    if (rest > 0 && this.bytes + cost <= this.budget) {
      this.bytes += cost;
      this.length += rest;
      this.count += rest;
      return count;
    }
    let added = 1;
    while (added < count && this.extend()) added += 1;
    return added;
  }

  /** The same block as the position before: one more in the run ("3" -> "3*2" -> "3*3"). */
  private extend(): boolean {
    const length = this.length + 1;
    const cost = length === 2 ? 2 : digits(length) - digits(length - 1);
    if (this.bytes + cost > this.budget) return false;
    this.bytes += cost;
    this.length = length;
    this.count += 1;
    return true;
  }

  /** The key of the position added last. */
  lastKey(): string {
    return this.currentKey ?? "";
  }

  private flush(): void {
    if (this.current >= 0) this.runs.push(runToken(this.current, this.length));
  }

  encoded(): string {
    this.flush();
    this.current = -1;
    this.currentKey = null;
    return this.runs.join(",");
  }
}

type HeightRange = { min: number; max: number };

/** Read one position into the encoder; false when it no longer fits the answer. */
function readInto(encoder: RunEncoder, dimension: Dimension, range: HeightRange, x: number, y: number, z: number, withStates: boolean): boolean {
  if (y < range.min || y >= range.max) return encoder.add(OUT_OF_WORLD, OUT_OF_WORLD, null);
  let block;
  try {
    block = dimension.getBlock({ x, y, z });
  } catch (err) {
    // The typings document both errors; a chunk that unloads mid-read throws the first.
    const name = err instanceof Error ? err.name : "";
    if (name === "LocationOutOfWorldBoundariesError") return encoder.add(OUT_OF_WORLD, OUT_OF_WORLD, null);
    if (name !== "LocationInUnloadedChunkError") throw err;
    block = undefined;
  }
  if (block === undefined) return encoder.add(UNLOADED, UNLOADED, null);
  if (!withStates) return encoder.add(block.typeId, block.typeId, null);
  const states = block.permutation.getAllStates() as JsonObject;
  return encoder.add(block.typeId + JSON.stringify(states, Object.keys(states).sort()), block.typeId, states);
}

/** Whether the row of ``length`` blocks from x, y, z holds nothing but ``typeId``. */
function uniformRow(dimension: Dimension, x: number, y: number, z: number, length: number, typeId: string): boolean {
  try {
    const row = new BlockVolume({ x, y, z }, { x: x + length - 1, y, z });
    return !dimension.containsBlock(row, { excludeTypes: [typeId] }, false);
  } catch {
    return false; // part of the row is not loaded (UnloadedChunksError): read it block by block
  }
}

/** Read ``length`` positions along x from x, y, z; how many fitted the answer. */
function readRow(encoder: RunEncoder, dimension: Dimension, range: HeightRange, x: number, y: number, z: number, length: number, withStates: boolean): number {
  if (y < range.min || y >= range.max) return encoder.addMany(OUT_OF_WORLD, OUT_OF_WORLD, null, length);
  if (!readInto(encoder, dimension, range, x, y, z, withStates)) return 0;
  const first = encoder.lastKey();
  if (!withStates && length > 1 && first !== UNLOADED && uniformRow(dimension, x, y, z, length, first)) {
    return 1 + encoder.addMany(first, first, null, length - 1);
  }
  let done = 1;
  while (done < length && readInto(encoder, dimension, range, x + done, y, z, withStates)) done += 1;
  return done;
}

/** Read the box from `box.start`, a row at a time, yielding every POSITIONS_PER_YIELD
 * positions or so. */
export function* readBox(dimension: Dimension, box: BoxRequest, encoder: RunEncoder): Generator<void, void, void> {
  const [sx, sy, sz] = box.size;
  const [x0, y0, z0] = box.origin;
  const volume = sx * sy * sz;
  const range = dimension.heightRange; // read once: it is fixed for the dimension
  let i = box.start;
  let sinceYield = 0;
  while (i < volume) {
    const x = i % sx;
    const z = Math.floor(i / sx) % sz;
    const y = Math.floor(i / (sx * sz));
    const length = sx - x; // the rest of this row
    const done = readRow(encoder, dimension, range, x0 + x, y0 + y, z0 + z, length, box.states);
    i += done;
    if (done < length) return; // the answer is full: the caller asks again from here
    sinceYield += done;
    if (sinceYield >= POSITIONS_PER_YIELD && i < volume) {
      sinceYield = 0;
      yield;
    }
  }
}

export function answerOf(box: BoxRequest, encoder: RunEncoder): JsonObject {
  const runs = encoder.encoded();
  const result: { [key: string]: JsonValue } = {
    dimension: `minecraft:${box.dimension}`,
    origin: box.origin,
    size: box.size,
    order: "xzy",
    start: box.start,
    count: encoder.count,
    palette: encoder.palette,
  };
  if (box.states) result["states"] = encoder.states;
  result["runs"] = runs;
  return result;
}

/** Run the read as a job; the promise settles when the job has finished (or failed). A
 * cancelled request (`cancelled()` turns true) stops at the job's next yield. */
export function readAsJob(box: BoxRequest, cancelled: () => boolean = () => false): Promise<CapabilityResult> {
  return new Promise((resolve) => {
    const dimension = world.getDimension(box.dimension);
    const encoder = new RunEncoder();
    function* job(): Generator<void, void, void> {
      try {
        for (const _ of readBox(dimension, box, encoder)) {
          if (cancelled()) {
            resolve({ ok: false, message: "the request was cancelled" });
            return;
          }
          yield;
        }
        resolve({ ok: true, result: answerOf(box, encoder) });
      } catch (err) {
        resolve({ ok: false, message: `reading blocks failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`.slice(0, 200) });
      }
    }
    system.runJob(job());
  });
}

export const getBlocks: JobCapability = {
  name: "get_blocks",
  description: `Block types in a box (at most ${MAX_BLOCKS_PER_REQUEST}) as a palette and runs, x fastest, then z, then y; unloaded or out-of-world positions are their own entries`,
  params: {
    from: "array: [x, y, z], one corner (whole numbers, inclusive)",
    to: "array: [x, y, z], the opposite corner",
    dimension: "string: overworld (default), nether or the_end",
    states: "boolean: also give each palette entry's block states (default false)",
    start: "integer: the position to start from, in the reading order (default 0)",
  },
  start(payload, ctx) {
    const parsed = parseBox(payload);
    if (!parsed.ok) return Promise.resolve({ ok: false, message: parsed.message });
    return readAsJob(parsed.box, () => ctx.cancelled?.() === true);
  },
};
