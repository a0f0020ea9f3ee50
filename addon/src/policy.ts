// The guard rail of run_world_command: which commands a notebook may run through the bridge.
// Harmless, read-only or chat-only commands are allowed by default; an operator widens or
// narrows the list in-world with `/scriptevent mcbews:policy <action>` (see README). The policy
// is stored as JSON in a world dynamic property so it survives reloads.
import { isObject, parseJson } from "./json.js";

export const POLICY_EVENT = "mcbews:policy";
export const POLICY_PROPERTY = "mcbews:command_policy";

/** Commands that only read state or print chat. */
export const DEFAULT_ALLOWED: readonly string[] = [
  "help", "list", "me", "msg", "particle", "playsound", "querytarget", "say", "tell", "tellraw",
  "testfor", "testforblock", "testforblocks", "title", "titleraw", "w",
];

export interface CommandPolicy {
  /** Every command is allowed (an operator said `allow *`). */
  allowAll: boolean;
  /** Command words allowed on top of the defaults. */
  extra: readonly string[];
  /** Default command words an operator took away. */
  revoked: readonly string[];
}

export const DEFAULT_POLICY: CommandPolicy = { allowAll: false, extra: [], revoked: [] };

export type Decision = { allowed: true } | { allowed: false; reason: string };

/** The command word: first token, lower case, without a leading slash. */
export function commandWord(command: string): string {
  const first = command.trim().replace(/^\//, "").split(/\s+/, 1)[0] ?? "";
  return first.toLowerCase();
}

export function allowedWords(policy: CommandPolicy): string[] {
  const words = new Set(DEFAULT_ALLOWED.filter((w) => !policy.revoked.includes(w)));
  for (const w of policy.extra) words.add(w);
  return [...words].sort();
}

export function decide(policy: CommandPolicy, command: string): Decision {
  const word = commandWord(command);
  if (word === "") return { allowed: false, reason: "empty command" };
  if (policy.allowAll) return { allowed: true };
  if (allowedWords(policy).includes(word)) return { allowed: true };
  return {
    allowed: false,
    reason: `command '${word}' is not allowed by the bridge policy; an operator can run /scriptevent ${POLICY_EVENT} allow ${word}`,
  };
}

export type PolicyChange = { ok: true; policy: CommandPolicy; summary: string } | { ok: false; error: string };

const USAGE = `usage: /scriptevent ${POLICY_EVENT} allow <word>|* | deny <word>|* | reset | show`;

/** Apply one operator instruction (`allow give`, `deny say`, `allow *`, `deny *`, `reset`, `show`). */
export function applyPolicyCommand(policy: CommandPolicy, message: string): PolicyChange {
  const [action = "", word = "", ...rest] = message.trim().toLowerCase().split(/\s+/);
  if (rest.length > 0) return { ok: false, error: USAGE };
  let next: CommandPolicy;
  if (action === "show" && word === "") next = policy;
  else if (action === "reset" && word === "") next = DEFAULT_POLICY;
  else if (action === "allow" && word === "*") next = { ...policy, allowAll: true };
  else if (action === "deny" && word === "*") next = { ...policy, allowAll: false };
  else if (action === "allow" && /^[a-z_:]+$/.test(word)) {
    next = { ...policy, extra: addWord(policy.extra, word), revoked: policy.revoked.filter((w) => w !== word) };
  } else if (action === "deny" && /^[a-z_:]+$/.test(word)) {
    const revoked = DEFAULT_ALLOWED.includes(word) ? addWord(policy.revoked, word) : policy.revoked;
    next = { ...policy, extra: policy.extra.filter((w) => w !== word), revoked };
  } else return { ok: false, error: USAGE };
  return { ok: true, policy: next, summary: describePolicy(next) };
}

function addWord(words: readonly string[], word: string): string[] {
  return words.includes(word) ? [...words] : [...words, word].sort();
}

export function describePolicy(policy: CommandPolicy): string {
  return policy.allowAll ? "bridge commands: every command allowed" : `bridge commands allowed: ${allowedWords(policy).join(", ")}`;
}

export function encodePolicy(policy: CommandPolicy): string {
  return JSON.stringify(policy);
}

/** Read a stored policy; anything unreadable gives the default. */
export function decodePolicy(stored: unknown): CommandPolicy {
  if (typeof stored !== "string") return DEFAULT_POLICY;
  const parsed = parseJson(stored);
  if (!parsed.ok || !isObject(parsed.value)) return DEFAULT_POLICY;
  const { allowAll, extra, revoked } = parsed.value;
  return {
    allowAll: allowAll === true,
    extra: stringList(extra),
    revoked: stringList(revoked),
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((w): w is string => typeof w === "string") : [];
}
