import { describe, expect, it } from "vitest";
import { applyPolicyCommand, commandWord, decide, decodePolicy, DEFAULT_POLICY, encodePolicy, type CommandPolicy } from "../src/policy.js";

function apply(policy: CommandPolicy, message: string): CommandPolicy {
  const change = applyPolicyCommand(policy, message);
  if (!change.ok) throw new Error(change.error);
  return change.policy;
}

describe("command policy", () => {
  it("takes the command word from the line", () => {
    expect(commandWord("/Say hi")).toBe("say");
    expect(commandWord("  tp @s 0 0 0")).toBe("tp");
    expect(commandWord("")).toBe("");
  });

  it("allows harmless commands by default and denies the rest", () => {
    expect(decide(DEFAULT_POLICY, "say hi")).toEqual({ allowed: true });
    expect(decide(DEFAULT_POLICY, "tellraw @a {}")).toEqual({ allowed: true });
    for (const cmd of ["give @s tnt", "fill 0 0 0 9 9 9 air", "execute as @a run kill @s", "op Steve", ""]) {
      expect(decide(DEFAULT_POLICY, cmd).allowed).toBe(false);
    }
  });

  it("widens, narrows, opens, closes and resets", () => {
    let p = apply(DEFAULT_POLICY, "allow give");
    expect(decide(p, "give @s dirt").allowed).toBe(true);
    p = apply(p, "deny say");
    expect(decide(p, "say hi").allowed).toBe(false);
    p = apply(p, "allow say");
    expect(decide(p, "say hi").allowed).toBe(true);
    p = apply(p, "deny give");
    expect(decide(p, "give @s dirt").allowed).toBe(false);
    p = apply(p, "allow *");
    expect(decide(p, "kill @e").allowed).toBe(true);
    p = apply(p, "deny *");
    expect(decide(p, "kill @e").allowed).toBe(false);
    expect(apply(apply(p, "allow tp"), "reset")).toEqual(DEFAULT_POLICY);
    expect(apply(p, "show")).toEqual(p);
  });

  it("rejects malformed instructions", () => {
    for (const bad of ["", "allow", "allow a b", "grant give", "allow gi;ve", "reset now"]) {
      expect(applyPolicyCommand(DEFAULT_POLICY, bad).ok).toBe(false);
    }
  });

  it("round-trips through storage and falls back to the default", () => {
    const p = apply(apply(DEFAULT_POLICY, "allow give"), "deny say");
    expect(decodePolicy(encodePolicy(p))).toEqual(p);
    for (const stored of [undefined, 5, "not json", "[]", '{"extra":"give"}']) {
      expect(decide(decodePolicy(stored), "give x").allowed).toBe(false);
    }
  });
});
