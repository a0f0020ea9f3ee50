// Cancelling: the shared vectors, ids checked before anything runs on every path, and what a
// cancel notice drops (a kept answer, a job's answer still to come, chat lines not yet sent,
// a half-received text response).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { CancelledIds, readCancelIds } from "../src/cancel.js";
import { parseBox, readAsJob } from "../src/capabilities/getBlocks.js";
import type { CapabilityResult } from "../src/capability.js";
import { BRIDGE_PLAYER, CANCEL_EVENT, CANCEL_IDS_KEPT } from "../src/wire.js";
import { fakeHost, runtimeWith, tick } from "./fakeHost.js";
import { mc, state } from "./mocks/server.js";

interface CancelVectors {
  read: { name: string; message: string; ids: string[]; refused: string[] }[];
  encode: { name: string; ids: string[]; lines: string[] }[];
}

const VECTORS = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../tests/vectors/cancel_v1.json", import.meta.url)), "utf8"),
) as CancelVectors;

const hexOf = (text: string): string => [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
const request = (id: string, capability: string, payload: object = {}): string =>
  JSON.stringify({ v: 2, request_id: id, capability, payload });
const cancelMessage = (line: string): string => line.slice(`scriptevent ${CANCEL_EVENT} `.length);

beforeEach(() => mc.reset());

describe("cancel vectors", () => {
  it.each(VECTORS.read)("reads a notice: $name", (c) => {
    expect(readCancelIds(c.message)).toEqual({ ids: c.ids, refused: c.refused });
  });

  it.each(VECTORS.encode.filter((c) => c.lines.length > 0))("reads what the bridge writes: $name", (c) => {
    const named = c.lines.flatMap((line) => readCancelIds(cancelMessage(line)).ids);
    expect(named).toEqual([...new Set(c.ids)]);
  });
});

describe("cancelled ids", () => {
  it("keeps the newest ones, each for its TTL", () => {
    const ids = new CancelledIds(10, 3);
    for (const id of ["a", "b", "c", "d"]) ids.add(id, 0);
    expect(["a", "b", "c", "d"].map((id) => ids.has(id))).toEqual([false, true, true, true]);
    ids.expire(10);
    expect(ids.size).toBe(0);
  });

  it("holds at most CANCEL_IDS_KEPT however many are named", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    const many = Array.from({ length: CANCEL_IDS_KEPT + 50 }, (_, n) => `c${n}`);
    rt.onScriptEvent(CANCEL_EVENT, many.join(" "), null);
    expect(rt.cancelled.size).toBe(CANCEL_IDS_KEPT);
  });
});

describe("every request id is checked before anything runs", () => {
  it("a script-event pull request whose id is not a bare word runs nothing and is logged", () => {
    const fake = fakeHost({ stable: true });
    const ran: string[] = [];
    fake.host.runWorldCommand = (command) => (ran.push(command), { ok: true, successCount: 1 });
    const rt = runtimeWith(fake);
    rt.onScriptEvent("mcbews:pull_req", request("req-dash2", "run_world_command", { command: "say hi" }), null);
    tick(rt, 3, fake);
    expect(ran).toEqual([]);
    expect(rt.pull.size).toBe(0);
    expect(fake.warnings.some((w) => w.includes("dropped a pull request") && w.includes("req-dash2"))).toBe(true);
  });

  it("mcbews:ask with such an id answers the refusal and runs nothing", () => {
    const fake = fakeHost({ stable: true });
    const ran: string[] = [];
    fake.host.runWorldCommand = (command) => (ran.push(command), { ok: true, successCount: 1 });
    const rt = runtimeWith(fake);
    const reply = rt.ask(hexOf(request("bad-id", "run_world_command", { command: "say hi" })), null);
    tick(rt, 3, fake);
    expect(reply.ok).toBe(false);
    expect(reply.message).toContain("not 1-64 letters and digits");
    expect(ran).toEqual([]);
  });

  it("a chat request whose id holds the page marker runs nothing and is logged as such", () => {
    const fake = fakeHost();
    const ran: string[] = [];
    fake.host.runWorldCommand = (command) => (ran.push(command), { ok: true, successCount: 1 });
    const rt = runtimeWith(fake);
    tick(rt);
    rt.onScriptEvent("mcbews:bridge_req", request("r1~01/02", "run_world_command", { command: "say hi" }), null);
    tick(rt, 3, fake);
    expect(ran).toEqual([]);
    const warning = fake.warnings.find((w) => w.includes("r1~01/02")) ?? "";
    expect(warning).toContain("marks answer pages");
    expect(warning).not.toContain("no readable id");
  });
});

describe("what a cancel notice drops", () => {
  it("an answer kept for pulling", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    rt.onScriptEvent("mcbews:pull_req", request("k1", "list_capabilities"), null);
    expect(rt.pull.size).toBe(1);
    rt.onScriptEvent(CANCEL_EVENT, "k1", null);
    expect(rt.pull.size).toBe(0);
    expect(rt.pullPage("k1", 1).message).toBe("MCBEWS|NONE|k1|unknown");
  });

  it("an answer that finishes after its cancel is not kept", async () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    expect(rt.ask(hexOf(request("w1", "run_world_command", { command: "say hi" })), null).message).toBe("MCBEWS|WAIT|w1");
    rt.onScriptEvent(CANCEL_EVENT, "w1", null);
    tick(rt, 2, fake);
    await Promise.resolve();
    expect(rt.pull.size).toBe(0);
    expect(rt.pullPage("w1", 1).message).toBe("MCBEWS|NONE|w1|unknown");
  });

  it("a request that arrives already cancelled runs nothing", () => {
    const fake = fakeHost({ stable: true });
    const ran: string[] = [];
    fake.host.runWorldCommand = (command) => (ran.push(command), { ok: true, successCount: 1 });
    const rt = runtimeWith(fake);
    rt.onScriptEvent(CANCEL_EVENT, "late1", null);
    rt.onScriptEvent("mcbews:pull_req", request("late1", "run_world_command", { command: "say hi" }), null);
    tick(rt, 2, fake);
    expect(ran).toEqual([]);
  });

  it("chat chunk lines not yet sent, and only that request's", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    tick(rt);
    rt.onScriptEvent("mcbews:bridge_req", request("big1", "list_capabilities"), null);
    const first = rt.pendingLines;
    rt.onScriptEvent("mcbews:bridge_req", request("small1", "list_capabilities"), null);
    const queued = rt.pendingLines;
    expect(first).toBeGreaterThan(0);
    expect(queued).toBe(2 * first);
    rt.onScriptEvent(CANCEL_EVENT, "big1", null);
    expect(rt.pendingLines).toBe(first);
    tick(rt, 20);
    const bridge = state.players.find((p) => p.name === BRIDGE_PLAYER)!;
    const ids = new Set(bridge.commands.map((c) => c.split("|")[2]!.split("~")[0]));
    expect([...ids]).toEqual(["small1"]);
  });

  it("a half-received text response", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    const frame = (i: number): string => JSON.stringify({ v: 1, id: "t1", i, n: 2, p: "Steve", r: "assistant", t: `part ${i} ` });
    rt.onScriptEvent("mcbews:text_resp", frame(1), null);
    rt.onScriptEvent(CANCEL_EVENT, "t1", null);
    rt.onScriptEvent("mcbews:text_resp", frame(2), null);
    const steve = state.players.find((p) => p.name === "Steve")!;
    expect(steve.messages).toEqual([]);
  });

  it("a warning for words that are not ids, and nothing done for them", () => {
    const fake = fakeHost({ stable: true });
    const rt = runtimeWith(fake);
    rt.onScriptEvent(CANCEL_EVENT, "ok1 no|pe", null);
    expect(rt.cancelled.has("ok1")).toBe(true);
    expect(fake.warnings.some((w) => w.includes("not ids") && w.includes("no|pe"))).toBe(true);
  });
});

describe("a block read that is cancelled", () => {
  it("stops at its job's next yield", async () => {
    const parsed = parseBox({ from: [0, 0, 0], to: [15, 15, 15] });
    if (!parsed.ok) throw new Error(parsed.message);
    let cancelled = false;
    let settled: CapabilityResult | undefined;
    void readAsJob(parsed.box, () => cancelled).then((r) => (settled = r));
    mc.advance();
    await Promise.resolve();
    expect(settled).toBeUndefined();
    cancelled = true;
    for (let n = 0; n < 3 && settled === undefined; n++) {
      mc.advance();
      await Promise.resolve();
    }
    expect(settled).toEqual({ ok: false, message: "the request was cancelled" });
  });
});
