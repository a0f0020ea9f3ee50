import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_CAPABILITIES } from "../src/capabilities/index.js";
import { createRegistry, type AnyCapability } from "../src/capability.js";
import { prototypeRegistrar, shapeProblem } from "../src/prototypes.js";
import { decideRequest } from "../src/router.js";
import { makeContext } from "./context.js";
import { mc } from "./mocks/server.js";

const req = (capability: string, payload: object = {}): string => JSON.stringify({ v: 2, request_id: "r1", capability, payload });

const greet = {
  name: "greet",
  description: "Says hello",
  params: { who: "string: whom to greet" },
  greeting: "hello",
  run(payload: Record<string, unknown>) {
    return { ok: true as const, result: { text: `${this.greeting} ${String(payload.who)}` } };
  },
};

function setup() {
  const registry = new Map<string, AnyCapability>(createRegistry(DEFAULT_CAPABILITIES));
  const ctx = { ...makeContext(), registry };
  return { registry, ctx, prototypes: prototypeRegistrar(registry) };
}

beforeEach(() => mc.reset());

describe("prototypes", () => {
  it("answer at once, with this bound to the module's object", () => {
    const { ctx, prototypes } = setup();
    expect(prototypes.define(greet)).toBe("greet");
    const decision = decideRequest(req("greet", { who: "Steve" }), ctx);
    expect(decision).toMatchObject({ kind: "answer", answer: { ok: true, result: { text: "hello Steve" } } });
  });

  it("have their params checked like shipped capabilities", () => {
    const { ctx, prototypes } = setup();
    prototypes.define(greet);
    const decision = decideRequest(req("greet", { who: 3 }), ctx);
    expect(decision).toMatchObject({ kind: "answer", answer: { ok: false, error: { code: "INVALID_REQUEST" } } });
    expect(JSON.stringify(decision)).toContain('parameter \\"who\\" of greet must be a string');
  });

  it("are marked in list_capabilities, and only they are", () => {
    const { ctx, prototypes } = setup();
    prototypes.define(greet);
    const decision = decideRequest(req("list_capabilities"), ctx);
    if (decision.kind !== "answer" || !decision.answer.ok) throw new Error("no answer");
    const caps = (decision.answer.result as { capabilities: { name: string; prototype?: boolean }[] }).capabilities;
    expect(caps.filter((c) => c.prototype === true).map((c) => c.name)).toEqual(["greet"]);
    expect(caps.find((c) => c.name === "get_player_snapshot")).not.toHaveProperty("prototype");
  });

  it("are replaced by a second define and gone after remove", () => {
    const { ctx, prototypes } = setup();
    prototypes.define(greet);
    prototypes.define({ ...greet, greeting: "hi" });
    expect(prototypes.names()).toEqual(["greet"]);
    expect(decideRequest(req("greet", { who: "Alex" }), ctx)).toMatchObject({ answer: { result: { text: "hi Alex" } } });
    expect(prototypes.remove("greet")).toBe(true);
    expect(prototypes.remove("greet")).toBe(false);
    expect(decideRequest(req("greet"), ctx)).toMatchObject({ answer: { ok: false, error: { code: "UNSUPPORTED_CAPABILITY" } } });
  });

  it("never replace or remove a shipped capability", () => {
    const { prototypes, registry } = setup();
    expect(() => prototypes.define({ ...greet, name: "list_capabilities" })).toThrow(/ships; give the prototype another name/);
    expect(prototypes.remove("list_capabilities")).toBe(false);
    expect(registry.has("list_capabilities")).toBe(true);
  });

  it("say what does not fit the capability shape", () => {
    expect(shapeProblem(null)).toMatch(/an object with name/);
    expect(shapeProblem({ ...greet, name: "Greet Me" })).toMatch(/lower-case words/);
    expect(shapeProblem({ ...greet, description: 1 })).toMatch(/description must be a string/);
    expect(shapeProblem({ ...greet, params: { who: 1 } })).toMatch(/params.who must be a string/);
    expect(shapeProblem({ name: "x", description: "", params: {} })).toMatch(/exactly one of run/);
    expect(shapeProblem(greet)).toBeNull();
  });
});

describe("a prototype that throws", () => {
  it("answers CAPABILITY_FAILED with its error and the first frames of its stack", () => {
    const { ctx, prototypes } = setup();
    prototypes.define({ ...greet, run: () => JSON.parse("{") });
    const decision = decideRequest(req("greet"), ctx);
    if (decision.kind !== "answer" || decision.answer.ok) throw new Error("expected a failure");
    const lines = decision.answer.error.message.split("\n");
    expect(lines[0]).toMatch(/^greet failed: SyntaxError: /);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.startsWith("  at "))).toBe(true);
    expect(lines.length).toBeLessThanOrEqual(7);
  });

  it("rejecting from an async start answers the same way", async () => {
    const { ctx, prototypes } = setup();
    prototypes.define({ name: "later", description: "", params: {}, start: () => Promise.reject(new RangeError("too far")) });
    const decision = decideRequest(req("later"), ctx);
    if (decision.kind !== "later") throw new Error("expected a job");
    expect(await decision.start()).toMatchObject({ ok: false, error: { code: "CAPABILITY_FAILED", message: expect.stringMatching(/^later failed: RangeError: too far/) } });
  });
});
