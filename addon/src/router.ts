// Channel A: one request message in, one answer out. Never throws: a payload that does not fit
// the capability's declared parameters answers INVALID_REQUEST, a capability that throws answers
// CAPABILITY_FAILED; a request whose id cannot be read has nowhere to be routed and is dropped
// with a reason for the log. A job capability answers later: its outcome is a promise of the
// same kinds, which never rejects. The chat transport cuts the answer into chunk lines for the
// bridge player; the pull transport keeps its text (pull.ts).
import { encodeAnswer, errorAnswer, okAnswer, type Answer } from "./answer.js";
import type { Capability, CapabilityContext, CapabilityResult, JobCapability } from "./capability.js";
import { splitAnswer } from "./answerPages.js";
import { checkParams } from "./params.js";
import { parseRequest } from "./request.js";
import type { SplitResult } from "./chunks.js";
import { utf8Len } from "./json.js";
import { ANSWER_PAGE_MARKER, PULL_ANSWER_MAX_BYTES } from "./wire.js";

export type RouteOutcome =
  | { kind: "answer"; requestId: string; answer: Answer; lines: string[] }
  | { kind: "drop"; reason: string }
  | { kind: "later"; requestId: string; outcome: Promise<RouteOutcome> };

/** What to do with one request. `later`: its answer comes from `start()`, which whoever holds
 * the decision calls (a job capability, or, in restricted execution, one that changes the
 * world: the pull transport calls it at the next script tick). The promise never rejects. */
export type Decision =
  | { kind: "answer"; requestId: string; answer: Answer }
  | { kind: "later"; requestId: string; start: () => Promise<Answer> }
  | { kind: "drop"; reason: string };

/** Why a transport cannot answer under this id (null: it can). */
export type IdRule = (requestId: string) => string | null;

/** The chat transport's rule: `~` marks the pages of a paged answer's id. */
export const chatIdRule: IdRule = (id) =>
  id.includes(ANSWER_PAGE_MARKER) ? `the request id ${JSON.stringify(id.slice(0, 80))} holds '${ANSWER_PAGE_MARKER}', which marks answer pages: it cannot be answered` : null;

/** Decide a request. `restricted`: we are inside a custom command's callback, where only
 * capabilities marked readOnly may run at once. `idRule`: what the transport can answer under;
 * a request it cannot answer is dropped with the reason before anything runs. */
export function decideRequest(message: string, ctx: CapabilityContext, restricted = false, idRule?: IdRule): Decision {
  const parsed = parseRequest(message);
  const id = parsed.ok ? parsed.request.requestId : parsed.requestId;
  const unanswerable = id === null || idRule === undefined ? null : idRule(id);
  if (unanswerable !== null) return { kind: "drop", reason: unanswerable };
  if (!parsed.ok) {
    if (parsed.requestId === null) return { kind: "drop", reason: `${parsed.code}: ${parsed.message}` };
    return { kind: "answer", requestId: parsed.requestId, answer: errorAnswer(parsed.code, parsed.message) };
  }
  const { requestId, capability, payload } = parsed.request;
  const isCancelled = ctx.isCancelled;
  if (isCancelled?.(requestId) === true) return { kind: "drop", reason: `request ${requestId} was cancelled before it arrived` };
  const served: CapabilityContext = { ...ctx, cancelled: () => isCancelled?.(requestId) === true };
  const cap = served.registry.get(capability);
  if (cap === undefined) {
    return { kind: "answer", requestId, answer: errorAnswer("UNSUPPORTED_CAPABILITY", `no such capability: ${capability}`) };
  }
  const invalid = checkParams(cap, payload);
  if (invalid !== null) return { kind: "answer", requestId, answer: errorAnswer("INVALID_REQUEST", invalid) };
  if ("start" in cap) return { kind: "later", requestId, start: () => startJob(cap, payload, served) };
  if (restricted && cap.readOnly !== true) {
    return { kind: "later", requestId, start: () => Promise.resolve(runCapability(cap, payload, served)) };
  }
  return { kind: "answer", requestId, answer: runCapability(cap, payload, served) };
}

function toAnswer(result: CapabilityResult): Answer {
  return result.ok ? okAnswer(result.result) : errorAnswer(result.code ?? "CAPABILITY_FAILED", result.message);
}

function runCapability(cap: Capability, payload: Record<string, unknown>, ctx: CapabilityContext): Answer {
  try {
    return toAnswer(cap.run(payload, ctx));
  } catch (err) {
    return errorAnswer("CAPABILITY_FAILED", `${cap.name} failed: ${describeError(err)}`);
  }
}

async function startJob(cap: JobCapability, payload: Record<string, unknown>, ctx: CapabilityContext): Promise<Answer> {
  try {
    return toAnswer(await cap.start(payload, ctx));
  } catch (err) {
    return errorAnswer("CAPABILITY_FAILED", `${cap.name} failed: ${describeError(err)}`);
  }
}

/** The chat transport: decide, then cut the answer into chunk lines (a job's when it is done). */
export function routeRequest(message: string, ctx: CapabilityContext): RouteOutcome {
  const decision = decideRequest(message, ctx, false, chatIdRule);
  if (decision.kind === "drop") return decision;
  if (decision.kind === "later") {
    const { requestId } = decision;
    return { kind: "later", requestId, outcome: decision.start().then((answer) => answerWith(requestId, answer)) };
  }
  return answerWith(decision.requestId, decision.answer);
}

/** Chunk an answer, paged when it needs more than 128 chunks; one larger than the pages or the
 * byte bound allow becomes a CAPABILITY_FAILED answer. */
export function answerWith(requestId: string, answer: Answer): RouteOutcome {
  const text = encodeAnswer(answer);
  const bytes = utf8Len(text);
  const split: SplitResult =
    bytes > PULL_ANSWER_MAX_BYTES
      ? { ok: false, error: `${bytes} bytes, more than the ${PULL_ANSWER_MAX_BYTES} an answer may have` }
      : splitAnswer(requestId, text);
  if (split.ok) return { kind: "answer", requestId, answer, lines: split.chunks };
  const fallback = errorAnswer("CAPABILITY_FAILED", `the answer is too large to send: ${split.error}`);
  const retry = splitAnswer(requestId, encodeAnswer(fallback));
  return retry.ok
    ? { kind: "answer", requestId, answer: fallback, lines: retry.chunks }
    : { kind: "drop", reason: retry.error };
}

export function describeError(err: unknown): string {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return text.slice(0, 200);
}
