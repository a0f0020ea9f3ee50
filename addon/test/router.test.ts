import { beforeEach, describe, expect, it } from "vitest";
import { createRegistry, type Capability } from "../src/capability.js";
import { parseRequest } from "../src/request.js";
import { answerWith, decideRequest, routeRequest } from "../src/router.js";
import { ERROR_CODES } from "../src/wire.js";
import { makeContext } from "./context.js";
import { joinChunks, vectors } from "./helpers.js";
import { mc } from "./mocks/server.js";

function answerOf(message: string, ctx = makeContext()): { id: string; body: Record<string, unknown> } {
  const out = routeRequest(message, ctx);
  if (out.kind !== "answer") throw new Error(`not answered at once: ${out.kind}`);
  return { id: out.requestId, body: JSON.parse(joinChunks(out.lines)) as Record<string, unknown> };
}

const req = (capability: string, payload: object = {}, id = "r1"): string => JSON.stringify({ v: 2, request_id: id, capability, payload });

beforeEach(() => mc.reset());

describe("request parsing (shared vectors)", () => {
  it.each(vectors.addon_requests)("$name", (v) => {
    const parsed = parseRequest(v.message);
    if (v.ok) {
      expect(parsed).toEqual({ ok: true, request: { requestId: v.request_id, capability: v.capability, payload: v.payload } });
    } else {
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) {
        expect(parsed.code).toBe(v.code);
        expect(parsed.requestId).toBe(v.request_id);
      }
    }
  });

  it("parses every bridge request line Python sends", () => {
    for (const v of vectors.bridge_requests) {
      const message = v.line.slice("scriptevent mcbews:bridge_req ".length);
      expect(parseRequest(message)).toEqual({ ok: true, request: { requestId: v.request_id, capability: v.capability, payload: v.payload } });
    }
  });

  it("never throws on hostile input", () => {
    for (const message of ["", "null", "1e999", '{"v":2,"request_id":{}}', "[".repeat(10000), '{"__proto__":1}']) {
      expect(() => parseRequest(message)).not.toThrow();
    }
  });
});

describe("router answers", () => {
  it("answers every error code with the request id when readable", () => {
    const seen = new Set<string>();
    const failing: Capability = { name: "boom", description: "throws", params: {}, run: () => { throw new Error("kaput"); } };
    const ctx = { ...makeContext(), registry: createRegistry([failing]) };
    const cases: [string, string][] = [
      ['{"v":2,"request_id":"r1","capability":"x"', "MALFORMED_JSON"],
      ['{"v":2,"request_id":"r1","payload":{}}', "INVALID_REQUEST"],
      ['{"v":3,"request_id":"r1","capability":"x","payload":{}}', "UNSUPPORTED_VERSION"],
      [req("fly"), "UNSUPPORTED_CAPABILITY"],
      [req("boom"), "CAPABILITY_FAILED"],
    ];
    for (const [message, code] of cases) {
      const out = routeRequest(message, ctx);
      if (code === "MALFORMED_JSON") {
        // Unparseable JSON has no readable id: nowhere to route it.
        expect(out).toMatchObject({ kind: "drop" });
        expect(out.kind === "drop" && out.reason.startsWith("MALFORMED_JSON")).toBe(true);
        seen.add(code);
        continue;
      }
      const { id, body } = answerOf(message, ctx);
      expect(id).toBe("r1");
      expect(body).toMatchObject({ ok: false, error: { code } });
      seen.add(code);
    }
    expect([...seen].sort()).toEqual([...ERROR_CODES].sort());
  });

  it("routes a MALFORMED_JSON answer when the id is readable by the caller", () => {
    const out = answerWith("r5", { ok: false, error: { code: "MALFORMED_JSON", message: "bad" } });
    expect(out.kind === "answer" && JSON.parse(joinChunks(out.lines))).toEqual({ ok: false, error: { code: "MALFORMED_JSON", message: "bad" } });
  });

  it("a capability's own failure is CAPABILITY_FAILED with its message", () => {
    const { body } = answerOf(req("get_player_snapshot", { target: "Nobody" }));
    expect(body).toEqual({ ok: false, error: { code: "CAPABILITY_FAILED", message: "no player named Nobody is online" } });
  });

  it("an unknown parameter is INVALID_REQUEST naming it and listing the accepted ones", () => {
    mc.addPlayer({ name: "Steve" });
    const { body } = answerOf(req("get_inventory_snapshot", { player: 123 }));
    expect(body).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    const message = (body["error"] as { message: string }).message;
    expect(message).toContain('unknown parameter "player" for get_inventory_snapshot');
    expect(message).toContain("accepted: target (string:");
    const none = answerOf(req("list_capabilities", { verbose: true })).body["error"] as { message: string };
    expect(none.message).toContain("list_capabilities takes no parameters");
  });

  it("a parameter of the wrong type is INVALID_REQUEST naming it, its type and what it got", () => {
    const { body } = answerOf(req("get_inventory_snapshot", { target: 123 }));
    expect(body).toEqual({
      ok: false,
      error: {
        code: "INVALID_REQUEST",
        message:
          'parameter "target" of get_inventory_snapshot must be a string, not an integer; ' +
          "accepted: target (string: a player name, '@s', or '@a'/empty for every player (default))",
      },
    });
    expect(answerOf(req("describe_entities", { ids: "-1" })).body).toMatchObject({ error: { code: "INVALID_REQUEST" } });
  });

  it("valid parameters, null ones and undeclared types still reach the capability", () => {
    mc.addPlayer({ name: "Steve" });
    expect(answerOf(req("get_player_snapshot", { target: "Steve" })).body).toMatchObject({ ok: true });
    expect(answerOf(req("get_player_snapshot", { target: null })).body).toMatchObject({ ok: true });
    const loose: Capability = { name: "loose", description: "", params: { x: "anything" }, run: (p) => ({ ok: true, result: { x: p["x"] as string } }) };
    const ctx = { ...makeContext(), registry: createRegistry([loose]) };
    expect(answerOf(req("loose", { x: [1] }), ctx).body).toEqual({ ok: true, result: { x: [1] } });
  });

  it("an answer too large for 2 MiB becomes CAPABILITY_FAILED (a smaller one is paged: answerPages.test.ts)", () => {
    const huge: Capability = { name: "huge", description: "", params: {}, run: () => ({ ok: true, result: { x: "x".repeat(2_100_000) } }) };
    const { body } = answerOf(req("huge"), { ...makeContext(), registry: createRegistry([huge]) });
    expect(body).toMatchObject({ ok: false, error: { code: "CAPABILITY_FAILED" } });
  });

  it("escapes @ and § in answers", () => {
    mc.addPlayer({ name: "S§teve", tags: ["@a"] });
    const out = routeRequest(req("get_player_snapshot"), makeContext());
    expect(out.kind === "answer" && out.lines.join("")).not.toMatch(/[@§]/);
  });

  it("refuses to register a capability twice", () => {
    const cap: Capability = { name: "x", description: "", params: {}, run: () => ({ ok: true, result: {} }) };
    expect(() => createRegistry([cap, cap])).toThrow(/twice/);
  });
});

describe("decideRequest in restricted execution (a custom command's callback)", () => {
  const req = (capability: string, payload: object = {}): string => JSON.stringify({ v: 2, request_id: "d1", capability, payload });

  it("runs a read-only capability at once", () => {
    for (const cap of ["get_player_snapshot", "get_inventory_snapshot", "describe_entities", "list_capabilities"]) {
      expect(decideRequest(req(cap), makeContext(), true).kind).toBe("answer");
    }
  });

  it("defers a capability that changes the world, and runs it when asked", async () => {
    let ran = 0;
    const ctx = makeContext({ run: () => ((ran += 1), { ok: true, successCount: 1 }) });
    const decision = decideRequest(req("run_world_command", { command: "say hi" }), ctx, true);
    expect(decision.kind).toBe("later");
    expect(ran).toBe(0);
    if (decision.kind !== "later") throw new Error("not deferred");
    expect(await decision.start()).toEqual({ ok: true, result: { command: "say", successCount: 1 } });
    expect(ran).toBe(1);
    const job = decideRequest(req("get_blocks", { from: [0, 0, 0], to: [0, 0, 0] }), ctx, true);
    expect(job.kind).toBe("later"); // a job never starts inside the command's callback
  });

  it("answers parameter and name errors at once, even for a deferred capability", () => {
    expect(decideRequest(req("run_world_command", { cmd: 1 }), makeContext(), true).kind).toBe("answer");
    expect(decideRequest(req("nope"), makeContext(), true).kind).toBe("answer");
    expect(decideRequest("{", makeContext(), true).kind).toBe("drop");
  });
});
