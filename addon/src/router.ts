// Channel A: one request message in, one answer out. Never throws: a payload that does not fit
// the capability's declared parameters answers INVALID_REQUEST, a capability that throws answers
// CAPABILITY_FAILED; a request whose id cannot be read has nowhere to be routed and is dropped
// with a reason for the log. The chat transport cuts the answer into chunk lines for the bridge
// player; the pull transport keeps its text (pull.ts).
import { encodeAnswer, errorAnswer, okAnswer, type Answer } from "./answer.js";
import type { Capability, CapabilityContext } from "./capability.js";
import { splitPayload } from "./chunks.js";
import { checkParams } from "./params.js";
import { parseRequest } from "./request.js";
import { BRIDGE_PREFIX } from "./wire.js";

export type RouteOutcome =
  | { kind: "answer"; requestId: string; answer: Answer; lines: string[] }
  | { kind: "drop"; reason: string };

/** What to do with one request. `defer`: the capability cannot run in the game's restricted
 * execution (it changes the world), so it runs later, at the next script tick. */
export type Decision =
  | { kind: "answer"; requestId: string; answer: Answer }
  | { kind: "defer"; requestId: string; run: () => Answer }
  | { kind: "drop"; reason: string };

/** Decide a request. `restricted`: we are inside a custom command's callback, where only
 * capabilities marked readOnly may run at once. */
export function decideRequest(message: string, ctx: CapabilityContext, restricted = false): Decision {
  const parsed = parseRequest(message);
  if (!parsed.ok) {
    if (parsed.requestId === null) return { kind: "drop", reason: `${parsed.code}: ${parsed.message}` };
    return { kind: "answer", requestId: parsed.requestId, answer: errorAnswer(parsed.code, parsed.message) };
  }
  const { requestId, capability, payload } = parsed.request;
  const cap = ctx.registry.get(capability);
  if (cap === undefined) {
    return { kind: "answer", requestId, answer: errorAnswer("UNSUPPORTED_CAPABILITY", `no such capability: ${capability}`) };
  }
  const invalid = checkParams(cap, payload);
  if (invalid !== null) return { kind: "answer", requestId, answer: errorAnswer("INVALID_REQUEST", invalid) };
  const run = (): Answer => runCapability(cap, payload, ctx);
  if (restricted && cap.readOnly !== true) return { kind: "defer", requestId, run };
  return { kind: "answer", requestId, answer: run() };
}

function runCapability(cap: Capability, payload: Record<string, unknown>, ctx: CapabilityContext): Answer {
  try {
    const result = cap.run(payload, ctx);
    return result.ok ? okAnswer(result.result) : errorAnswer("CAPABILITY_FAILED", result.message);
  } catch (err) {
    return errorAnswer("CAPABILITY_FAILED", `${cap.name} failed: ${describeError(err)}`);
  }
}

/** The chat transport: decide, then cut the answer into chunk lines. */
export function routeRequest(message: string, ctx: CapabilityContext): RouteOutcome {
  const decision = decideRequest(message, ctx);
  if (decision.kind === "drop") return decision;
  const answer = decision.kind === "answer" ? decision.answer : decision.run();
  return answerWith(decision.requestId, answer);
}

/** Chunk an answer; one too large for 128 chunks becomes a CAPABILITY_FAILED answer. */
export function answerWith(requestId: string, answer: Answer): RouteOutcome {
  const split = splitPayload(BRIDGE_PREFIX, requestId, encodeAnswer(answer));
  if (split.ok) return { kind: "answer", requestId, answer, lines: split.chunks };
  const fallback = errorAnswer("CAPABILITY_FAILED", `the answer is too large to send: ${split.error}`);
  const retry = splitPayload(BRIDGE_PREFIX, requestId, encodeAnswer(fallback));
  return retry.ok
    ? { kind: "answer", requestId, answer: fallback, lines: retry.chunks }
    : { kind: "drop", reason: retry.error };
}

export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 200);
}
