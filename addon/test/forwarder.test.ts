// Forwarded events: the shared vectors (what each event object gives, what a batch's text is),
// per-tick batching, the bounds and their drop counts, per-player rates, one batch at a time on
// each way up (chat, pull, tags), and the subscribe_events capability.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { readEvent, SIGNALS } from "../src/afterEvents.js";
import { subscribeEvents } from "../src/capabilities/subscribeEvents.js";
import type { CapabilityContext } from "../src/capability.js";
import { DEFAULT_FORWARDER_LIMITS, FORWARD_KINDS, Forwarder, readWanted, type EventFields, type ForwardKind } from "../src/forwarder.js";
import { utf8Len } from "../src/json.js";
import { BRIDGE_PLAYER, FORWARD_BATCH_MAX_BYTES, FORWARD_BATCH_MAX_EVENTS, UI_CHAT_PREFIX } from "../src/wire.js";
import { fakeHost, runtimeWith, tick } from "./fakeHost.js";
import { joinChunks } from "./helpers.js";
import { makeContext } from "./context.js";
import { mc, state } from "./mocks/server.js";

interface Vectors {
  read: { name: string; kind: ForwardKind; event: unknown; fields: EventFields }[];
  batches: { name: string; tick: number; events: [ForwardKind, EventFields][]; drop?: Record<string, number>; text: string }[];
}

const VECTORS = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../tests/vectors/forwarded_v1.json", import.meta.url)), "utf8"),
) as Vectors;

/** A forwarder over fake signals: `fire(kind, fields)` is an event, `now` the tick. */
function harness(limits = DEFAULT_FORWARDER_LIMITS) {
  const listeners = new Map<ForwardKind, (fields: EventFields) => void>();
  const clock = { tick: 0 };
  const fwd = new Forwarder(
    (kind, emit) => {
      listeners.set(kind, emit);
      return () => listeners.delete(kind);
    },
    () => clock.tick,
    limits,
  );
  const fire = (kind: ForwardKind, fields: EventFields): void => listeners.get(kind)?.(fields);
  return { fwd, fire, clock, listeners };
}

const batchOf = (text: string | null) => JSON.parse(text ?? "null") as { t: number; k: string[]; ev: [number, EventFields][]; drop?: Record<string, number> };

beforeEach(() => mc.reset());

describe("forwarded vectors", () => {
  it.each(VECTORS.read)("reads an event object: $name", (c) => {
    expect(readEvent(c.kind, c.event)).toEqual(c.fields);
  });

  it.each(VECTORS.batches)("writes a batch: $name", (c) => {
    const { fwd, fire, clock } = harness();
    fwd.subscribe(Object.fromEntries(FORWARD_KINDS.map((k) => [k, 0])));
    clock.tick = c.tick;
    for (const [kind, fields] of c.events) fire(kind, fields);
    for (const [kind, count] of Object.entries(c.drop ?? {})) for (let i = 0; i < count; i++) (fwd as unknown as { drop(k: string): void }).drop(kind);
    expect(fwd.take()).toBe(c.text);
  });

  it("covers every kind the addon forwards, each with a signal of the 2.4.0 world.afterEvents", () => {
    expect(new Set(VECTORS.read.map((c) => c.kind))).toEqual(new Set(FORWARD_KINDS));
    expect(Object.keys(SIGNALS).sort()).toEqual([...FORWARD_KINDS].sort());
  });

  it("never throws on an event object whose reads throw", () => {
    const hostile = new Proxy({}, { get: () => { throw new Error("invalid entity"); } });
    for (const kind of FORWARD_KINDS) expect(readEvent(kind, hostile)).toEqual({});
  });
});

describe("the forwarder", () => {
  it("subscribes only the kinds asked for and unsubscribes the rest", () => {
    const { fwd, listeners } = harness();
    expect(fwd.subscribe({ player_break_block: 0, item_use: 5 })).toEqual({ player_break_block: 0, item_use: 5 });
    expect([...listeners.keys()].sort()).toEqual(["item_use", "player_break_block"]);
    expect(fwd.subscribe({ item_use: 2 })).toEqual({ item_use: 2 });
    expect([...listeners.keys()]).toEqual(["item_use"]);
    expect(fwd.subscribe({})).toEqual({});
    expect(listeners.size).toBe(0);
    expect(fwd.active).toBe(false);
  });

  it("puts one tick's events in one batch, in order", () => {
    const { fwd, fire, clock } = harness();
    fwd.subscribe({ player_break_block: 0, player_place_block: 0 });
    clock.tick = 5;
    fire("player_break_block", { p: "A" });
    fire("player_place_block", { p: "B" });
    fire("player_break_block", { p: "C" });
    const batch = batchOf(fwd.take());
    expect(batch.t).toBe(5);
    expect(batch.k).toEqual(["player_break_block", "player_place_block"]);
    expect(batch.ev.map(([i, f]) => [i, f["p"]])).toEqual([[0, "A"], [1, "B"], [0, "C"]]);
    expect(fwd.take()).toBeNull();
  });

  it("cuts a batch at its events; the rest waits for the next batch, none dropped", () => {
    const { fwd, fire, clock } = harness();
    fwd.subscribe({ player_break_block: 0 });
    clock.tick = 1;
    for (let i = 0; i < FORWARD_BATCH_MAX_EVENTS + 10; i++) fire("player_break_block", { p: "A", x: i });
    clock.tick = 3;
    const first = batchOf(fwd.take());
    expect(first.ev).toHaveLength(FORWARD_BATCH_MAX_EVENTS);
    expect(first.t).toBe(1);
    expect(first.drop).toBeUndefined();
    const second = batchOf(fwd.take());
    expect(second.ev.map(([, f]) => f["x"])).toEqual([...Array(10).keys()].map((i) => FORWARD_BATCH_MAX_EVENTS + i));
    expect(second.t).toBe(1); // its first event's tick, not the tick it went
    expect(fwd.take()).toBeNull();
    expect(fwd.droppedTotal).toBe(0);
  });

  it("cuts a batch at its bytes, never past FORWARD_BATCH_MAX_BYTES", () => {
    const { fwd, fire } = harness();
    fwd.subscribe({ player_leave: 0 });
    for (let i = 0; i < 60; i++) fire("player_leave", { p: "x".repeat(400), i });
    const texts: string[] = [];
    for (let text = fwd.take(); text !== null; text = fwd.take()) texts.push(text);
    expect(texts.length).toBeGreaterThan(1);
    for (const text of texts) expect(utf8Len(text)).toBeLessThanOrEqual(FORWARD_BATCH_MAX_BYTES);
    expect(texts.flatMap((t) => batchOf(t).ev.map(([, f]) => f["i"]))).toEqual([...Array(60).keys()]);
    expect(fwd.droppedTotal).toBe(0);
  });

  it("bounds what waits in bytes and counts what did not fit", () => {
    const { fwd, fire } = harness({ ...DEFAULT_FORWARDER_LIMITS, backlogBytes: 2000 });
    fwd.subscribe({ item_use: 0 });
    const size = utf8Len(JSON.stringify({ p: "A", i: 10 })) + 6;
    for (let i = 10; i < 110; i++) fire("item_use", { p: "A", i });
    expect(fwd.backlog).toBe(Math.floor(2000 / size));
    const batch = batchOf(fwd.take());
    expect(batch.drop).toEqual({ item_use: 100 - Math.floor(2000 / size) });
  });

  it("drops and counts one event too big for any batch", () => {
    const { fwd, fire } = harness();
    fwd.subscribe({ player_leave: 0 });
    fire("player_leave", { p: "x".repeat(FORWARD_BATCH_MAX_BYTES) });
    fire("player_leave", { p: "Alex" });
    const batch = batchOf(fwd.take());
    expect(batch.ev.map(([, f]) => f["p"])).toEqual(["Alex"]);
    expect(batch.drop).toEqual({ player_leave: 1 });
  });

  it("bounds what goes up in a second", () => {
    const { fwd, fire, clock } = harness({ ...DEFAULT_FORWARDER_LIMITS, eventsPerSecond: 30 });
    fwd.subscribe({ item_use: 0 });
    let kept = 0;
    let dropped = 0;
    for (let t = 0; t < 20; t++) {
      clock.tick = t;
      for (let i = 0; i < 5; i++) fire("item_use", { p: "A" });
      const batch = batchOf(fwd.take());
      kept += batch.ev.length;
      dropped += batch.drop?.["item_use"] ?? 0;
    }
    expect(kept).toBe(30);
    expect(dropped).toBe(70);
    clock.tick = 20; // a new second
    fire("item_use", { p: "A" });
    expect(batchOf(fwd.take()).ev).toHaveLength(1);
  });

  it("keeps a subscription's rate per player", () => {
    const { fwd, fire, clock } = harness();
    fwd.subscribe({ player_break_block: 2 });
    clock.tick = 0;
    for (const p of ["A", "A", "A", "B", "B", "B", "B"]) fire("player_break_block", { p });
    const batch = batchOf(fwd.take());
    expect(batch.ev.map(([, f]) => f["p"])).toEqual(["A", "A", "B", "B"]);
    expect(batch.drop).toEqual({ player_break_block: 3 });
    clock.tick = 20;
    fire("player_break_block", { p: "A" });
    expect(batchOf(fwd.take()).ev).toHaveLength(1);
  });

  it("reads the capability's kinds and refuses what it does not know", () => {
    expect(readWanted({ player_break_block: 0, item_use: null })).toEqual({ ok: true, wanted: { player_break_block: 0, item_use: 0 } });
    expect(readWanted({ player_dance: 0 })).toMatchObject({ ok: false, message: expect.stringContaining("unknown kind") });
    expect(readWanted({ item_use: 21 })).toMatchObject({ ok: false });
    expect(readWanted({ item_use: 1.5 })).toMatchObject({ ok: false });
    expect(readWanted(["item_use"])).toMatchObject({ ok: false });
  });
});

describe("subscribe_events and the ways up", () => {
  const breakEvent = (name: string, x: number) => ({
    player: { name, typeId: "minecraft:player" },
    block: { x, y: 63, z: 0, typeId: "minecraft:air", dimension: { id: "minecraft:overworld" } },
    dimension: { id: "minecraft:overworld" },
    brokenBlockPermutation: { type: { id: "minecraft:stone" } },
  });

  function subscribed(stable = false) {
    const fake = fakeHost({ stable });
    const rt = runtimeWith(fake);
    const ctx: CapabilityContext = { ...makeContext(), forwarder: { subscribe: (w) => rt.forwarder!.subscribe(w) } };
    const out = subscribeEvents.run({ kinds: { player_break_block: 0 } }, ctx);
    expect(out).toEqual({ ok: true, result: { forwarded: { player_break_block: 0 }, kinds: [...FORWARD_KINDS] } });
    return { fake, rt };
  }

  it("answers what is forwarded, and stops with an empty kinds", () => {
    const { fake, rt } = subscribed();
    expect(fake.signals.get("playerBreakBlock")?.size).toBe(1);
    const ctx: CapabilityContext = { ...makeContext(), forwarder: { subscribe: (w) => rt.forwarder!.subscribe(w) } };
    expect(subscribeEvents.run({}, ctx)).toMatchObject({ ok: true, result: { forwarded: {} } });
    expect(fake.signals.get("playerBreakBlock")?.size).toBe(0);
    expect(subscribeEvents.run({ kinds: { nope: 1 } }, ctx)).toMatchObject({ ok: false });
    expect(subscribeEvents.run({ kinds: {} }, makeContext())).toMatchObject({ ok: false, message: expect.stringContaining("forwards no events") });
  });

  it("goes up as UI chat lines on chat, in the tick after the events", () => {
    const { fake, rt } = subscribed();
    tick(rt); // the bridge player spawns
    fake.fire("playerBreakBlock", breakEvent("Alex", 1));
    fake.fire("playerBreakBlock", breakEvent("Kai", 2));
    tick(rt);
    const bridge = state.players.find((p) => p.name === BRIDGE_PLAYER)!;
    const lines = bridge.commands.map((c) => c.slice("tell @s ".length));
    expect(lines.every((l) => l.startsWith(`${UI_CHAT_PREFIX}|fw-`))).toBe(true);
    const batch = batchOf(joinChunks(lines));
    expect(batch.ev.map(([, f]) => f["p"])).toEqual(["Alex", "Kai"]);
  });

  it("waits for mcbews:poll on pull: at most 8 batches unread, later events merged into the next", () => {
    const { fake, rt } = subscribed(true);
    const names = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
    for (const [k, name] of names.entries()) {
      fake.fire("playerBreakBlock", breakEvent(name, k));
      tick(rt);
    }
    expect(rt.pull.uiWaiting).toBe(8); // I and J wait, merged
    const polled = (): string[] => {
      const reply = rt.poll().message;
      return batchOf(reply.split("|").slice(4).join("|")).ev.map(([, f]) => String(f["p"]));
    };
    expect(names.slice(0, 8).map(() => polled())).toEqual(names.slice(0, 8).map((n) => [n]));
    tick(rt);
    expect(polled()).toEqual(["I", "J"]);
    expect(rt.poll().message).toBe("MCBEWS|EMPTY");
  });

  it("loses nothing while a reader falls seconds behind a flood: what waits goes up as room comes", () => {
    const { fake, rt } = subscribed(true);
    const polled = (): string[] => { // a batch's first page by mcbews:poll, the others by pull
      const first = rt.poll().message;
      if (first === "MCBEWS|EMPTY") return [];
      const [, , id, count] = first.split("|");
      const total = Number(count!.split("/")[1]);
      const pages = [first, ...[...Array(total - 1).keys()].map((i) => rt.pull.reply(id!, i + 2))];
      return batchOf(pages.map((page) => page.split("|").slice(4).join("|")).join("")).ev.map(([, f]) => String(f["x"]));
    };
    let fired = 0;
    for (let t = 0; t < 20; t++) { // a second at 50 a tick, nothing read
      for (let i = 0; i < 50; i++) fake.fire("playerBreakBlock", breakEvent("Alex", fired++));
      tick(rt);
    }
    expect(rt.pull.uiWaiting).toBe(8);
    const heard: string[] = [];
    for (let t = 0; t < 40; t++) { // then the reader catches up, 8 reads a tick
      for (let i = 0; i < 8; i++) heard.push(...polled());
      tick(rt);
    }
    expect(heard).toEqual([...Array(fired).keys()].map(String));
    expect(rt.forwarder!.droppedTotal).toBe(0);
    expect(fake.warnings.filter((w) => w.includes("forwarded"))).toEqual([]);
  });

  it("never loses a batch to a full UI chat queue: it waits until there is room", () => {
    const { fake, rt } = subscribed(true);
    for (let i = 0; i < 64; i++) rt.submitUiChat("Steve", `message ${i}`);
    fake.fire("playerBreakBlock", breakEvent("Alex", 1));
    tick(rt, 3);
    expect(rt.pull.uiWaiting).toBe(64);
    expect(fake.warnings.filter((w) => w.includes("forwarded"))).toEqual([]);
    rt.poll();
    tick(rt);
    expect(rt.pull.uiWaiting).toBe(64); // the batch took the free place
  });

  it("is written as page tags for a tags reader", () => {
    const { fake, rt } = subscribed(true);
    const steve = mc.addPlayer({ name: "Steve" });
    rt.onScriptEvent("mcbews:tags_poll", "", "Steve");
    fake.fire("playerBreakBlock", breakEvent("Alex", 1));
    tick(rt);
    expect(steve.getTags().some((t) => t.startsWith("mcbews.u.f"))).toBe(true);
  });
});
