import { beforeEach, describe, expect, it } from "vitest";
import { POLICY_EVENT } from "../src/policy.js";
import { DEFAULT_OPTIONS } from "../src/runtime.js";
import { BRIDGE_PLAYER } from "../src/wire.js";
import { fakeHost, runtimeWith, tick } from "./fakeHost.js";
import { joinChunks } from "./helpers.js";
import { mc, state, type Player } from "./mocks/server.js";

function bridge(): Player {
  const p = state.players.find((x) => x.name === BRIDGE_PLAYER);
  if (!p) throw new Error("no bridge");
  return p;
}

function sentLines(): string[] {
  return bridge().commands.map((c) => {
    expect(c.startsWith("tell @s ")).toBe(true);
    return c.slice("tell @s ".length);
  });
}

const request = (id: string, capability = "list_capabilities", payload: object = {}): string =>
  JSON.stringify({ v: 2, request_id: id, capability, payload });

beforeEach(() => mc.reset());

describe("bridge runtime", () => {
  it("spawns the bridge player, then answers requests through it with tell @s", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    tick(rt);
    expect(fake.spawn.count).toBe(1);
    rt.onScriptEvent("mcbews:bridge_req", request("r1", "get_player_snapshot", { target: "@s" }), "Steve");
    tick(rt, 5);
    const answer = JSON.parse(joinChunks(sentLines())) as { ok: boolean; result: { players: { name: string }[] } };
    expect(answer.ok).toBe(true);
    expect(answer.result.players.map((p) => p.name)).toEqual(["Steve"]);
  });

  it("queues requests until the bridge player exists, bounded", () => {
    const fake = fakeHost();
    fake.spawn.fail = "Beta APIs are off";
    const rt = runtimeWith(fake, { ...DEFAULT_OPTIONS, maxQueuedRequests: 3 });
    for (let n = 0; n < 5; n++) rt.onScriptEvent("mcbews:bridge_req", request(`q${n}`), null);
    expect(rt.queuedRequests).toBe(3);
    expect(fake.warnings.filter((w) => w.includes("queue full"))).toHaveLength(2);
    tick(rt);
    expect(fake.warnings.some((w) => w.includes("Beta APIs are off"))).toBe(true);
    fake.spawn.fail = null;
    tick(rt, DEFAULT_OPTIONS.bridgeCheckTicks + 200);
    expect(rt.queuedRequests).toBe(0);
    const ids = new Set(sentLines().map((l) => l.split("|")[2]));
    expect([...ids]).toEqual(["q2", "q3", "q4"]);
  });

  it("respawns the bridge player when it is gone", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    tick(rt);
    mc.removePlayer(BRIDGE_PLAYER);
    tick(rt, DEFAULT_OPTIONS.bridgeCheckTicks + 1);
    expect(fake.spawn.count).toBe(2);
    expect(rt.bridge()).toBeDefined();
  });

  it("spaces chunks out: a few lines per tick", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    tick(rt);
    rt.submitUiChat("Steve", "x".repeat(6000));
    expect(rt.pendingLines).toBe(24);
    tick(rt);
    expect(bridge().commands).toHaveLength(DEFAULT_OPTIONS.linesPerTick);
    tick(rt, 2);
    expect(rt.pendingLines).toBe(0);
    expect(JSON.parse(joinChunks(sentLines()))).toEqual({ player: "Steve", message: "x".repeat(6000) });
  });

  it("logs and drops a request with no readable id", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    tick(rt);
    rt.onScriptEvent("mcbews:bridge_req", "{not json", null);
    tick(rt);
    expect(bridge().commands).toEqual([]);
    expect(fake.warnings.some((w) => w.includes("MALFORMED_JSON"))).toBe(true);
  });

  it("keeps going when the bridge player's command throws", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    tick(rt);
    bridge().commandHandler = () => {
      throw new Error("nope");
    };
    rt.submitUiChat("Steve", "hi");
    tick(rt);
    expect(fake.warnings.some((w) => w.includes("could not send"))).toBe(true);
  });

  it("shows finished text responses to the target player only", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    const steve = mc.addPlayer({ name: "Steve" });
    const alex = mc.addPlayer({ name: "Alex" });
    rt.onScriptEvent("mcbews:text_resp", '{"id":"r","i":2,"n":2,"p":"Steve","r":"assistant","c":"世界"}', null);
    rt.onScriptEvent("mcbews:text_resp", '{"id":"r","i":1,"n":2,"p":"Steve","r":"assistant","c":"你好，"}', null);
    expect(steve.messages).toEqual(["§a[assistant]§r 你好，世界"]);
    expect(alex.messages).toEqual([]);
  });

  it("drops frames for players who are not online, and bad frames", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    const steve = mc.addPlayer({ name: "Steve" });
    rt.onScriptEvent("mcbews:text_resp", '{"id":"r","i":1,"n":1,"p":"Nobody","r":"assistant","c":"x"}', null);
    rt.onScriptEvent("mcbews:text_resp", '{"id":"b","i":1,"n":1,"p":"MCBEWS_BRIDGE","r":"assistant","c":"x"}', null);
    rt.onScriptEvent("mcbews:text_resp", "not json", null);
    expect(steve.messages).toEqual([]);
    expect(fake.warnings.some((w) => w.includes("not_json"))).toBe(true);
  });

  it("expires incomplete text responses after 30 s of ticks", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    mc.addPlayer({ name: "Steve" });
    rt.onScriptEvent("mcbews:text_resp", '{"id":"late","i":1,"n":2,"p":"Steve","r":"assistant","c":"a"}', null);
    tick(rt, 640);
    expect(fake.warnings.some((w) => w.includes("late expired"))).toBe(true);
  });

  it("lets an operator change the command policy in-world, and replies to them", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    const op = mc.addPlayer({ name: "Op" });
    tick(rt);
    rt.onScriptEvent(POLICY_EVENT, "allow give", "Op");
    expect(op.messages[0]).toMatch(/allowed: .*give/);
    rt.onScriptEvent("mcbews:bridge_req", request("g", "run_world_command", { command: "give @s dirt" }), null);
    tick(rt, 3);
    expect(JSON.parse(joinChunks(sentLines()))).toEqual({ ok: true, result: { command: "give", successCount: 12 } });
    rt.onScriptEvent(POLICY_EVENT, "bogus", null);
    expect(fake.warnings.some((w) => w.includes("usage"))).toBe(true);
  });

  it("ignores other script events", () => {
    const fake = fakeHost();
    const rt = runtimeWith(fake);
    rt.onScriptEvent("other:thing", "{}", null);
    expect(rt.queuedRequests).toBe(0);
    expect(fake.warnings).toEqual([]);
  });
});
