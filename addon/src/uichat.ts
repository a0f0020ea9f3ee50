// Channel B: a message typed into the addon's panel goes upstream as MCBEWS|UI_CHAT chunks of
// the JSON {"player":...,"message":...} (optional "cid"); the pull transport keeps the same
// JSON for mcbews:poll.
import { type SplitResult, splitPayload } from "./chunks.js";
import { dumpsWire } from "./json.js";
import { UI_CHAT_PREFIX } from "./wire.js";

/** Message ids are `ui-<tick>-<n>`: unique within a session, readable in logs. */
export function uiMessageId(tick: number, counter: number): string {
  return `ui-${tick}-${counter}`;
}

/** The pull transport's ids are one bare word of a command line: `u<tick>t<n>`. */
export function pullUiId(tick: number, counter: number): string {
  return `u${tick}t${counter}`;
}

/** The message's JSON text, or null for an empty message. */
export function uiChatBody(player: string, message: string, conversationId?: string): string | null {
  if (message.trim() === "") return null;
  const body: Record<string, string> = { player, message };
  if (conversationId !== undefined) body["cid"] = conversationId;
  return dumpsWire(body);
}

export function uiChatLines(messageId: string, player: string, message: string, conversationId?: string): SplitResult {
  const body = uiChatBody(player, message, conversationId);
  if (body === null) return { ok: false, error: "the message is empty" };
  return splitPayload(UI_CHAT_PREFIX, messageId, body);
}
