// Channel A: one request message in, one answer out (as chunk lines for the bridge player).
// Never throws: a payload that does not fit the capability's declared parameters answers
// INVALID_REQUEST, a capability that throws answers CAPABILITY_FAILED; a request whose id
// cannot be read has nowhere to be routed and is dropped with a reason for the log. A job
// capability answers later: its outcome is a promise of the same kinds, which never rejects.
import { encodeAnswer, errorAnswer, okAnswer, type Answer } from "./answer.js";
import type { CapabilityContext, CapabilityResult, JobCapability } from "./capability.js";
import { splitPayload } from "./chunks.js";
import { checkParams } from "./params.js";
import { parseRequest } from "./request.js";
import { BRIDGE_PREFIX } from "./wire.js";

export type RouteOutcome =
  | { kind: "answer"; requestId: string; answer: Answer; lines: string[] }
  | { kind: "drop"; reason: string }
  | { kind: "later"; requestId: string; outcome: Promise<RouteOutcome> };

export function routeRequest(message: string, ctx: CapabilityContext): RouteOutcome {
  const parsed = parseRequest(message);
  if (!parsed.ok) {
    if (parsed.requestId === null) return { kind: "drop", reason: `${parsed.code}: ${parsed.message}` };
    return answerWith(parsed.requestId, errorAnswer(parsed.code, parsed.message));
  }
  const { requestId, capability, payload } = parsed.request;
  const cap = ctx.registry.get(capability);
  if (cap === undefined) {
    return answerWith(requestId, errorAnswer("UNSUPPORTED_CAPABILITY", `no such capability: ${capability}`));
  }
  const invalid = checkParams(cap, payload);
  if (invalid !== null) return answerWith(requestId, errorAnswer("INVALID_REQUEST", invalid));
  if ("start" in cap) return { kind: "later", requestId, outcome: routeJob(requestId, cap, payload, ctx) };
  let answer: Answer;
  try {
    answer = toAnswer(cap.run(payload, ctx));
  } catch (err) {
    answer = errorAnswer("CAPABILITY_FAILED", `${capability} failed: ${describeError(err)}`);
  }
  return answerWith(requestId, answer);
}

function toAnswer(result: CapabilityResult): Answer {
  return result.ok ? okAnswer(result.result) : errorAnswer("CAPABILITY_FAILED", result.message);
}

async function routeJob(requestId: string, cap: JobCapability, payload: Record<string, unknown>, ctx: CapabilityContext): Promise<RouteOutcome> {
  try {
    return answerWith(requestId, toAnswer(await cap.start(payload, ctx)));
  } catch (err) {
    return answerWith(requestId, errorAnswer("CAPABILITY_FAILED", `${cap.name} failed: ${describeError(err)}`));
  }
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
