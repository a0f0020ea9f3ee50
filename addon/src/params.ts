// Capability parameters are declared as name -> "type: description" (list_capabilities shows
// them as they are). Before a capability runs, the payload is checked against them: a key
// that is not declared, or a value of another type than the description's leading word
// (string, number, integer, boolean, array, object), is refused naming the parameter and
// listing the accepted ones, instead of being silently ignored. A description without a
// type word accepts any value. null counts as "not given".
import type { CapabilityInfo } from "./capability.js";

const TYPE_WORD = /^(string|number|integer|boolean|array|object)\b/;

export type ParamType = "string" | "number" | "integer" | "boolean" | "array" | "object";

export function declaredType(description: string): ParamType | null {
  const match = TYPE_WORD.exec(description.trim());
  return match ? (match[1] as ParamType) : null;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number" && Number.isInteger(value)) return "an integer";
  return `a ${typeof value}`;
}

function fits(value: unknown, type: ParamType): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

function accepted(cap: CapabilityInfo): string {
  const names = Object.keys(cap.params);
  if (names.length === 0) return `${cap.name} takes no parameters`;
  return `accepted: ${names.map((n) => `${n} (${cap.params[n]})`).join("; ")}`;
}

/** Why the payload does not fit the capability's declared parameters, or null if it does. */
export function checkParams(cap: CapabilityInfo, payload: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(payload)) {
    if (!Object.hasOwn(cap.params, key)) {
      return `unknown parameter "${key}" for ${cap.name}; ${accepted(cap)}`.slice(0, 400);
    }
    const type = declaredType(cap.params[key] ?? "");
    if (value === null || type === null || fits(value, type)) continue;
    const wanted = type === "integer" || type === "array" || type === "object" ? `an ${type}` : `a ${type}`;
    return `parameter "${key}" of ${cap.name} must be ${wanted}, not ${typeOf(value)}; ${accepted(cap)}`.slice(0, 400);
  }
  return null;
}
