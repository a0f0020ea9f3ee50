// The JSON text of an answer to a capability request, wire-escaped and compact.
import { dumpsWire, type JsonObject } from "./json.js";
import type { ErrorCode } from "./wire.js";

export type Answer = { ok: true; result: JsonObject } | { ok: false; error: { code: ErrorCode; message: string } };

export function okAnswer(result: JsonObject): Answer {
  return { ok: true, result };
}

export function errorAnswer(code: ErrorCode, message: string): Answer {
  return { ok: false, error: { code, message } };
}

export function encodeAnswer(answer: Answer): string {
  return dumpsWire(answer);
}
