// set_blocks: write a box of blocks given as a palette plus a run-length encoding, the shape
// get_blocks answers in, so a read can be edited and written back.
//
// Positions go in get_blocks' order, x fastest, then z, then y: position i of a box of size
// [sx, sy, sz] at origin [x0, y0, z0] is x = x0 + i % sx, z = z0 + floor(i / sx) % sz,
// y = y0 + floor(i / (sx * sz)). `runs` is "<palette index>*<count>" (or the index alone for
// one) per run, comma separated. A palette entry is a block name (`minecraft:` may be left
// out) with its states in `states` (null or absent: the block's defaults), or one of the
// markers that leave the position as it is: `<keep>`, and get_blocks' own `<unloaded>` and
// `<out_of_world>` (a read written back leaves what it could not read alone).
//
// Every entry is resolved first (BlockPermutation.resolve, stable in the declared 2.4.0): a
// name or state the game does not know answers INVALID_REQUEST naming each, and nothing is
// written. Then a system.runJob generator writes, yielding every POSITIONS_PER_YIELD
// positions, so the game spreads the work over ticks within its job budget and never stalls;
// a cancelled request stops at the next yield. For each position: outside the dimension's
// height range it is not written (out_of_world), in an unloaded chunk neither (unloaded: the
// typings of getBlock and setPermutation), a block that already is the permutation is left
// (already), any other gets Block.setPermutation (written). The answer counts each and gives
// every position's outcome as runs over STATUS, in the same order, so nothing is silently
// skipped. Dimension.fillBlocks (also stable) is not used: its answer lists the blocks it
// placed without telling those already so apart, which this answer must.
//
// Writing changes the world, so the capability is never run inside a custom command's
// callback (restricted execution, MicrosoftDocs minecraft-creator scripting/
// execution-privilege.md: "Both before event and custom command callback closures are run in
// restricted execution", and setPermutation "can't be called in read-only mode" in the
// typings): the pull transport starts it with system.run, as it starts every job.
import { BlockPermutation, system, world, type Dimension } from "@minecraft/server";
import type { CapabilityResult, JobCapability } from "../capability.js";
import type { JsonObject } from "../json.js";
import { OUT_OF_WORLD, UNLOADED } from "./getBlocks.js";

/** Positions per request: 32 x 32 x 32. The bridge splits larger writes (and usually sends
 * one section, 4096, a request so a cancel stops soon). */
export const MAX_WRITE_BLOCKS = 32768;
/** Palette entries per request. */
export const MAX_PALETTE = 4096;
/** Positions written between two yields of the job. */
export const POSITIONS_PER_YIELD = 256;
/** The marker that leaves a position as it is. */
export const KEEP = "<keep>";
/** What happened at each position, the order of the answer's `status` indices. */
export const STATUS = ["written", "already", "kept", "unloaded", "out_of_world"] as const;
const MAX_COORDINATE = 30_000_000;
const DIMENSIONS = ["overworld", "nether", "the_end"];
const LEAVE = new Set([KEEP, UNLOADED, OUT_OF_WORLD]);

type StateValue = string | number | boolean;

export interface WriteRequest {
  dimension: string;
  origin: [number, number, number];
  size: [number, number, number];
  palette: string[];
  states: (Record<string, StateValue> | null)[];
  /** The palette entry of each position, in the order above. */
  entries: Uint16Array;
}

type Parsed = { ok: true; request: WriteRequest } | { ok: false; message: string };

function triple(value: unknown, name: string, min: number, max: number): [number, number, number] | string {
  const ok = Array.isArray(value) && value.length === 3 && value.every((v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max);
  return ok ? (value as [number, number, number]) : `${name} must be [x, y, z]: three whole numbers from ${min} to ${max}`;
}

function parseStates(value: unknown, count: number): (Record<string, StateValue> | null)[] | string {
  if (value === undefined || value === null) return new Array<null>(count).fill(null);
  if (!Array.isArray(value) || value.length !== count) return `states must be a list as long as the palette (${count}), each null or an object`;
  const out: (Record<string, StateValue> | null)[] = [];
  for (const entry of value) {
    if (entry === null) {
      out.push(null);
      continue;
    }
    if (typeof entry !== "object" || Array.isArray(entry)) return "each entry of states must be null or an object of state values";
    const values = Object.values(entry as Record<string, unknown>);
    if (!values.every((v) => typeof v === "string" || typeof v === "boolean" || Number.isInteger(v))) return "a state value must be a string, a whole number or a boolean";
    out.push(entry as Record<string, StateValue>);
  }
  return out;
}

/** "0*3,2" -> the entry of each position; a message when it does not fit. */
export function decodeRuns(runs: unknown, paletteSize: number, volume: number): Uint16Array | string {
  if (typeof runs !== "string") return "runs must be a string of palette runs, such as \"0*3,1\"";
  const entries = new Uint16Array(volume);
  let at = 0;
  for (const run of runs === "" ? [] : runs.split(",")) {
    const match = /^(\d{1,4})(?:\*(\d{1,6}))?$/.exec(run);
    if (match === null) return `the run ${JSON.stringify(run.slice(0, 20))} is not <index> or <index>*<count>`;
    const entry = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    if (entry >= paletteSize) return `the run ${run} names palette entry ${entry}; the palette has ${paletteSize}`;
    if (count < 1 || at + count > volume) return `the runs cover more than the box's ${volume} positions`;
    entries.fill(entry, at, at + count);
    at += count;
  }
  if (at !== volume) return `the runs cover ${at} positions; the box has ${volume}`;
  return entries;
}

/** Check a payload: where, how big, the palette and its states, the runs. */
export function parseWrite(payload: Record<string, unknown>): Parsed {
  const origin = triple(payload["origin"], "origin", -MAX_COORDINATE, MAX_COORDINATE);
  if (typeof origin === "string") return { ok: false, message: origin };
  const size = triple(payload["size"], "size", 1, MAX_WRITE_BLOCKS);
  if (typeof size === "string") return { ok: false, message: size };
  const volume = size[0] * size[1] * size[2];
  if (volume > MAX_WRITE_BLOCKS) return { ok: false, message: `the box holds ${volume} blocks, more than ${MAX_WRITE_BLOCKS} per request: split it` };
  const dimension = String(payload["dimension"] ?? "overworld").replace(/^minecraft:/, "");
  if (!DIMENSIONS.includes(dimension)) return { ok: false, message: `dimension must be one of ${DIMENSIONS.join(", ")}` };
  const palette = payload["palette"];
  if (!Array.isArray(palette) || palette.length === 0 || palette.length > MAX_PALETTE || !palette.every((p) => typeof p === "string" && p.length > 0 && p.length <= 128)) {
    return { ok: false, message: `palette must be a list of 1 to ${MAX_PALETTE} block names` };
  }
  const states = parseStates(payload["states"], palette.length);
  if (typeof states === "string") return { ok: false, message: states };
  const entries = decodeRuns(payload["runs"], palette.length, volume);
  if (typeof entries === "string") return { ok: false, message: entries };
  return { ok: true, request: { dimension, origin, size, palette: palette as string[], states, entries } };
}

const fullName = (name: string): string => (name.includes(":") ? name : `minecraft:${name}`);

/** Each palette entry as a permutation (null: leave the position); or the entries the game
 * refused, each named with what it said. */
export function resolvePalette(request: WriteRequest): (BlockPermutation | null)[] | string {
  const out: (BlockPermutation | null)[] = [];
  const refused: string[] = [];
  request.palette.forEach((name, i) => {
    if (LEAVE.has(name)) return void out.push(null);
    const states = request.states[i] ?? undefined;
    try {
      out.push(BlockPermutation.resolve(fullName(name), states));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const shown = states === undefined ? name : `${name} ${JSON.stringify(states)}`;
      refused.push(`${shown} (${why.slice(0, 80)})`);
      out.push(null);
    }
  });
  if (refused.length === 0) return out;
  return `the game knows no such block or state: ${refused.slice(0, 8).join("; ")}${refused.length > 8 ? `; and ${refused.length - 8} more` : ""}`;
}

/** The outcome of each position as runs over STATUS, and how many of each. */
export class StatusRuns {
  readonly counts = STATUS.map(() => 0);
  private readonly runs: string[] = [];
  private current = -1;
  private length = 0;

  add(status: number, count = 1): void {
    this.counts[status]! += count;
    if (status === this.current) {
      this.length += count;
      return;
    }
    this.flush();
    this.current = status;
    this.length = count;
  }

  private flush(): void {
    if (this.current >= 0) this.runs.push(this.length > 1 ? `${this.current}*${this.length}` : String(this.current));
  }

  encoded(): string {
    this.flush();
    this.current = -1;
    return this.runs.join(",");
  }
}

const W = 0, ALREADY = 1, KEPT = 2, UNLOADED_AT = 3, OUTSIDE = 4;

function errorName(err: unknown): string {
  return err instanceof Error ? err.name : "";
}

/** Write one position; its STATUS index. */
function writeOne(dimension: Dimension, target: BlockPermutation, x: number, y: number, z: number): number {
  let block;
  try {
    block = dimension.getBlock({ x, y, z });
  } catch (err) {
    if (errorName(err) === "LocationOutOfWorldBoundariesError") return OUTSIDE;
    if (errorName(err) === "LocationInUnloadedChunkError") return UNLOADED_AT;
    throw err;
  }
  if (block === undefined) return UNLOADED_AT;
  if (block.permutation.matches(target.type.id, target.getAllStates() as Record<string, StateValue>)) return ALREADY;
  try {
    block.setPermutation(target);
  } catch (err) {
    // A chunk that unloads between the read and the write throws the typings' errors.
    if (errorName(err) === "LocationInUnloadedChunkError") return UNLOADED_AT;
    if (errorName(err) === "LocationOutOfWorldBoundariesError") return OUTSIDE;
    throw err;
  }
  return W;
}

/** Write the box, yielding every POSITIONS_PER_YIELD positions or so. */
export function* writeBox(dimension: Dimension, request: WriteRequest, targets: readonly (BlockPermutation | null)[], status: StatusRuns): Generator<void, void, void> {
  const [sx, , sz] = request.size;
  const [x0, y0, z0] = request.origin;
  const range = dimension.heightRange;
  const layer = sx * sz;
  for (let i = 0; i < request.entries.length; i++) {
    const target = targets[request.entries[i]!] ?? null;
    const y = y0 + Math.floor(i / layer);
    if (target === null) status.add(KEPT);
    else if (y < range.min || y >= range.max) status.add(OUTSIDE);
    else status.add(writeOne(dimension, target, x0 + (i % sx), y, z0 + (Math.floor(i / sx) % sz)));
    if ((i + 1) % POSITIONS_PER_YIELD === 0 && i + 1 < request.entries.length) yield;
  }
}

export function answerOf(request: WriteRequest, status: StatusRuns): JsonObject {
  const counts: JsonObject = {};
  STATUS.forEach((name, i) => (counts[name] = status.counts[i]!));
  return {
    dimension: `minecraft:${request.dimension}`,
    origin: request.origin,
    size: request.size,
    order: "xzy",
    ...counts,
    codes: [...STATUS],
    status: status.encoded(),
  };
}

/** Run the write as a job; settles when it is done, has failed or was cancelled. */
export function writeAsJob(request: WriteRequest, targets: readonly (BlockPermutation | null)[], cancelled: () => boolean = () => false): Promise<CapabilityResult> {
  return new Promise((resolve) => {
    const dimension = world.getDimension(request.dimension);
    const status = new StatusRuns();
    function* job(): Generator<void, void, void> {
      try {
        for (const _ of writeBox(dimension, request, targets, status)) {
          if (cancelled()) {
            resolve({ ok: false, message: `the request was cancelled after ${status.counts[W]} blocks were written` });
            return;
          }
          yield;
        }
        resolve({ ok: true, result: answerOf(request, status) });
      } catch (err) {
        resolve({ ok: false, message: `writing blocks failed after ${status.counts[W]} were written: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`.slice(0, 200) });
      }
    }
    system.runJob(job());
  });
}

/** `check: true`: resolve the palette alone, so a write split into many requests is refused
 * whole (INVALID_REQUEST naming every unknown entry) before any of it is written. */
export function checkPalette(payload: Record<string, unknown>): CapabilityResult {
  const parsed = parseWrite({ origin: [0, 0, 0], size: [1, 1, 1], runs: "0", palette: payload["palette"], states: payload["states"] });
  if (!parsed.ok) return { ok: false, code: "INVALID_REQUEST", message: parsed.message };
  const targets = resolvePalette(parsed.request);
  if (typeof targets === "string") return { ok: false, code: "INVALID_REQUEST", message: targets };
  return { ok: true, result: { resolved: targets.length } };
}

export const setBlocks: JobCapability = {
  name: "set_blocks",
  description: `Write a box (at most ${MAX_WRITE_BLOCKS} blocks) given as a palette and runs, x fastest, then z, then y; <keep> leaves a position; answers what was written, already so, or not written and why`,
  params: {
    origin: "array: [x, y, z], the box's lowest corner (whole numbers)",
    size: "array: [sx, sy, sz], the box's extent along x, y, z",
    palette: "array: block names (minecraft: may be left out); <keep> leaves a position as it is",
    states: "array: each palette entry's block states, or null for its defaults (default: all null)",
    runs: "string: <palette index>*<count> per run, comma separated, covering every position",
    dimension: "string: overworld (default), nether or the_end",
    check: "boolean: only resolve the palette and write nothing (default false): a large write is checked whole before any part of it is written",
  },
  start(payload, ctx) {
    if (payload["check"] === true) return Promise.resolve(checkPalette(payload));
    const parsed = parseWrite(payload);
    if (!parsed.ok) return Promise.resolve({ ok: false, code: "INVALID_REQUEST", message: parsed.message });
    const targets = resolvePalette(parsed.request);
    if (typeof targets === "string") return Promise.resolve({ ok: false, code: "INVALID_REQUEST", message: targets });
    return writeAsJob(parsed.request, targets, () => ctx.cancelled?.() === true);
  },
};
