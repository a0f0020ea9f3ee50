// Channel B: a message typed into the addon's panel goes upstream as MCBEWS|UI_CHAT chunks of
// the JSON {"player":...,"message":...} (optional "cid").
import { type SplitResult, splitPayload } from "./chunks.js";
import { dumpsWire } from "./json.js";
import { UI_CHAT_PREFIX } from "./wire.js";

/** Message ids are `ui-<tick>-<n>`: unique within a session, readable in logs. */
export function uiMessageId(tick: number, counter: number): string {
  return `ui-${tick}-${counter}`;
}

export function uiChatLines(messageId: string, player: string, message: string, conversationId?: string): SplitResult {
  if (message.trim() === "") return { ok: false, error: "the message is empty" };
  const body: Record<string, string> = { player, message };
  if (conversationId !== undefined) body["cid"] = conversationId;
  return splitPayload(UI_CHAT_PREFIX, messageId, dumpsWire(body));
}
