// Channel A requests: `scriptevent mcbews:bridge_req {"v":2,"request_id","capability","payload"}`.
// Parsing never throws; every failure carries the request id when one could be read, so the
// answer can be routed back to the waiting caller.
import { isObject, parseJson } from "./json.js";
import { isValidMessageId } from "./chunks.js";
import { REQUEST_VERSION, type ErrorCode } from "./wire.js";

export interface BridgeRequest {
  requestId: string;
  capability: string;
  payload: Record<string, unknown>;
}

export type ParsedRequest =
  | { ok: true; request: BridgeRequest }
  | { ok: false; code: ErrorCode; message: string; requestId: string | null };

function fail(code: ErrorCode, message: string, requestId: string | null): ParsedRequest {
  return { ok: false, code, message, requestId };
}

export function parseRequest(message: string): ParsedRequest {
  const parsed = parseJson(message);
  if (!parsed.ok) return fail("MALFORMED_JSON", `request is not JSON: ${parsed.error}`.slice(0, 160), null);
  const data = parsed.value;
  if (!isObject(data)) return fail("INVALID_REQUEST", "request must be a JSON object", null);
  const rawId = data["request_id"];
  const requestId = typeof rawId === "string" && isValidMessageId(rawId) ? rawId : null;
  if (requestId === null) {
    return fail("INVALID_REQUEST", "request_id must be a non-empty string without '|'", null);
  }
  if (data["v"] !== REQUEST_VERSION) {
    return fail("UNSUPPORTED_VERSION", `v must be ${REQUEST_VERSION}, got ${JSON.stringify(data["v"]) ?? "nothing"}`, requestId);
  }
  const capability = data["capability"];
  if (typeof capability !== "string" || capability.length === 0) {
    return fail("INVALID_REQUEST", "capability must be a non-empty string", requestId);
  }
  const payload = data["payload"] ?? {};
  if (!isObject(payload)) return fail("INVALID_REQUEST", "payload must be a JSON object", requestId);
  return { ok: true, request: { requestId, capability, payload } };
}
