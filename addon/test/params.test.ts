import { describe, expect, it } from "vitest";
import type { Capability } from "../src/capability.js";
import { checkParams, declaredType } from "../src/params.js";

const cap = (params: Record<string, string>): Capability => ({ name: "c", description: "", params, run: () => ({ ok: true, result: {} }) });

describe("declared parameter types", () => {
  it("read the leading type word of a description", () => {
    expect(declaredType("string: a name")).toBe("string");
    expect(declaredType("number (default 16)")).toBe("number");
    expect(declaredType(" integer")).toBe("integer");
    expect(declaredType("array: ids")).toBe("array");
    expect(declaredType("a name")).toBeNull();
    expect(declaredType("strings of things")).toBeNull(); // a whole word only
  });
});

describe("checkParams", () => {
  const typed = cap({ s: "string", n: "number", i: "integer", b: "boolean", a: "array", o: "object", any: "whatever" });

  it.each([
    ["s", "x"],
    ["n", 1.5],
    ["i", 3],
    ["b", false],
    ["a", []],
    ["o", {}],
    ["any", [1]],
    ["s", null],
  ])("accepts %s = %j", (key, value) => {
    expect(checkParams(typed, { [key]: value })).toBeNull();
  });

  it.each([
    ["s", 1, "must be a string, not an integer"],
    ["n", "1", "must be a number, not a string"],
    ["n", Number.POSITIVE_INFINITY, "must be a number"],
    ["i", 1.5, "must be an integer, not a number"],
    ["b", "true", "must be a boolean, not a string"],
    ["a", {}, "must be an array, not an object"],
    ["o", [], "must be an object, not an array"],
  ])("refuses %s = %j", (key, value, why) => {
    const message = checkParams(typed, { [key]: value });
    expect(message).toContain(`parameter "${key}" of c ${why}`);
    expect(message).toContain("accepted: s (string); n (number)");
  });

  it("refuses keys the capability does not declare, even inherited names", () => {
    expect(checkParams(typed, { x: 1 })).toMatch(/^unknown parameter "x" for c; accepted: s \(string\)/);
    expect(checkParams(cap({}), { toString: 1 })).toBe('unknown parameter "toString" for c; c takes no parameters');
  });
});
