// The bridge's behaviour, with every game access injected through `Host`: game.ts builds the
// real host from @minecraft/server, tests build fakes. Keeps the state (request queue, upstream
// outbox, pull store, text buffers, policy cache) in one object owned by game.ts.
//
// Two transports carry answers and UI chat up (docs/protocol.md). Chat: the bridge player's
// `tell @s` lines (only in the beta pack, whose host can spawn that player). Pull: the result
// messages of the custom commands mcbews:ask, mcbews:pull and mcbews:poll (both packs). Tags:
// page tags on the requesting player, read back by the bridge with `tag @s list` (both packs).
import type { Player } from "@minecraft/server";
import type { CapabilityContext, CommandOutcome, EntityInfo, Registry } from "./capability.js";
import { TELL_WRAPPER } from "./chunks.js";
import { encodeAnswer, errorAnswer, type Answer } from "./answer.js";
import { applyPolicyCommand, decodePolicy, encodePolicy, POLICY_EVENT, type CommandPolicy } from "./policy.js";
import { BoundedQueue } from "./queue.js";
import { CancelledIds, readCancelIds } from "./cancel.js";
import { BulkReassembler, parseBulkPart } from "./bulk.js";
import { isObject, parseJson } from "./json.js";
import { parseRequest } from "./request.js";
import { decodeAskHex, isPullId, PullStore } from "./pull.js";
import { answerWith, decideRequest, describeError, routeRequest, type IdRule, type RouteOutcome } from "./router.js";
import { formatForDisplay, parseTextFrame, TextReassembler } from "./textresp.js";
import { isTagId, readAcks, tagChanges, TagStore } from "./tags.js";
import { pullUiId, uiChatBody, uiChatLines, uiMessageId } from "./uichat.js";
import { readEvent, SIGNALS } from "./afterEvents.js";
import { Forwarder, type Wanted } from "./forwarder.js";
import { splitPayload } from "./chunks.js";
import {
  BRIDGE_PLAYER,
  BRIDGE_PREFIX,
  BRIDGE_REQUEST_EVENT,
  BULK_EVENT,
  CANCEL_EVENT,
  PULL_POLL_LIVE_SECONDS,
  PULL_REQUEST_EVENT,
  PULL_TTL_SECONDS,
  TAGS_ACK_EVENT,
  TAGS_POLL_EVENT,
  TAGS_REQUEST_EVENT,
  TEXT_RESPONSE_EVENT,
  MAX_CHUNKS_PER_MESSAGE,
  UI_CHAT_PREFIX,
  UI_CHAT_WAITING_MAX,
} from "./wire.js";

export interface Host {
  currentTick(): number;
  /** Every player in the world, the bridge player included. */
  players(): readonly Player[];
  /** Spawn the bridge player; may throw. Absent in the stable pack, which answers by pull only. */
  spawnBridge?: () => void;
  /** Run `fn` later in this tick, outside restricted execution (system.run). */
  defer(fn: () => void): void;
  runWorldCommand(command: string): CommandOutcome;
  /** The loaded entity with this id; undefined when there is none (never throws). */
  entity(id: string): EntityInfo | undefined;
  readPolicy(): unknown;
  writePolicy(encoded: string): void;
  warn(message: string): void;
  /** Subscribe `fn` to world.afterEvents[signal]; returns what unsubscribes it. Absent: no
   * events are forwarded (subscribe_events says so). */
  subscribeSignal?: (signal: string, fn: (event: unknown) => void) => () => void;
}

/** Where a forwarded batch went, to know when it has been read. */
type ForwardedOut = { sink: "chat"; lastLine: string } | { sink: "pull" | "tags"; id: string };

/** Forwarded batches on their way at once: the bridge reads up to 8 UI chat messages side by
 * side on pull (its ui_reads_at_once); chat's lines go 16 a tick, so 2 there keep the outbox
 * short. Past it, events wait and merge into the next batch. With these, 1,000 events a second
 * from 30 players went up with none dropped on each transport (docs/protocol.md). */
const FORWARDED_UNREAD_MAX = { chat: 2, pull: 8, tags: 8 } as const;

export interface RuntimeOptions {
  /** Requests kept while the bridge player is absent. */
  maxQueuedRequests: number;
  /** Upstream chunk lines kept waiting to be sent. */
  maxOutboxLines: number;
  /** Chunk lines the bridge player sends per tick (spacing, not flooding chat): 16 sends a
   * full inventory (15 lines) in one tick and 50 of them (817 lines) in 54 ticks, within the
   * gateway's 5 s call timeout; docs/protocol.md, "Pacing", has the measurement. */
  linesPerTick: number;
  /** Ticks between checks that the bridge player is present. */
  bridgeCheckTicks: number;
  /** Ticks between text-buffer expiry sweeps. */
  expireEveryTicks: number;
}

export const DEFAULT_OPTIONS: RuntimeOptions = {
  maxQueuedRequests: 64,
  maxOutboxLines: 8192, // one answer of the most pages: 64 x 128 lines (about 3.7 MB at most)
  linesPerTick: 16,
  bridgeCheckTicks: 40,
  expireEveryTicks: 20,
};

/** What a custom command answers: its status (ok: Success) and its result message. */
export interface CommandReply {
  ok: boolean;
  message: string;
}

const TICKS_PER_SECOND = 20;

/** The pull transport's rule: its ids travel as bare words of a command line. */
const pullIdRule: IdRule = (id) =>
  isPullId(id) ? null : `the request id ${JSON.stringify(id.slice(0, 80))} is not 1-64 letters and digits, so no mcbews:pull could fetch its answer`;

/** The tags transport's rule: its ids are part of every page tag's name. */
const tagsIdRule: IdRule = (id) =>
  isTagId(id) ? null : `the request id ${JSON.stringify(id.slice(0, 80))} is not 1-24 letters and digits, so its page tags could not be named`;

/** The request id a queued request message names, or null. */
function requestIdOf(message: string): string | null {
  const parsed = parseRequest(message);
  return parsed.ok ? parsed.request.requestId : parsed.requestId;
}

/** The request id of an answer's chunk line (`MCBEWS|BRIDGE|<id>[~kk/nn]|i/n|...`), or null. */
function chunkRequestId(line: string): string | null {
  if (!line.startsWith(`${BRIDGE_PREFIX}|`)) return null;
  const id = line.slice(BRIDGE_PREFIX.length + 1).split("|", 1)[0] ?? "";
  return id.split("~", 1)[0] ?? null;
}

interface QueuedRequest {
  message: string;
  source: string | null;
}

export class BridgeRuntime {
  private readonly requests: BoundedQueue<QueuedRequest>;
  private readonly outbox: BoundedQueue<string>;
  private readonly text = new TextReassembler();
  readonly pull = new PullStore();
  /** Answers and UI chat kept as page tags, by the player they are written on. */
  readonly tags = new TagStore();
  /** Players whose connection reads tags, and the tick each last said so. */
  private readonly tagReaders = new Map<string, number>();
  /** Ids the bridge cancelled lately (mcbews:cancel): their answers are dropped, not kept. */
  readonly cancelled = new CancelledIds(PULL_TTL_SECONDS * TICKS_PER_SECOND);
  /** Requests too large for one command, being received in parts (mcbews:bulk). */
  readonly bulk = new BulkReassembler();
  private uiCounter = 0;
  /** world.afterEvents forwarded for every player (subscribe_events), one batch at a time. */
  readonly forwarder: Forwarder | undefined;
  private unreadForwarded: ForwardedOut[] = [];
  private forwardDropsWarned = 0;
  private evictionsWarned = 0;
  private tagEvictionsWarned = 0;
  private lastBridgeCheck = Number.NEGATIVE_INFINITY;
  private lastExpire = 0;

  constructor(
    private readonly host: Host,
    private readonly registry: Registry,
    private readonly options: RuntimeOptions = DEFAULT_OPTIONS,
  ) {
    this.requests = new BoundedQueue(options.maxQueuedRequests);
    this.outbox = new BoundedQueue(options.maxOutboxLines);
    const subscribeSignal = host.subscribeSignal;
    this.forwarder =
      subscribeSignal === undefined
        ? undefined
        : new Forwarder(
            (kind, emit) => subscribeSignal(SIGNALS[kind], (event) => emit(readEvent(kind, event))),
            () => host.currentTick(),
          );
  }

  get queuedRequests(): number {
    return this.requests.length;
  }

  get pendingLines(): number {
    return this.outbox.length;
  }

  bridge(): Player | undefined {
    return this.host.players().find((p) => p.name === BRIDGE_PLAYER);
  }

  policy(): CommandPolicy {
    return decodePolicy(this.host.readPolicy());
  }

  /** A script event arrived (whatever its source type). */
  onScriptEvent(id: string, message: string, source: string | null): void {
    if (id === BRIDGE_REQUEST_EVENT) this.onRequest({ message, source });
    else if (id === PULL_REQUEST_EVENT) this.onPullRequest(message, source);
    else if (id === TEXT_RESPONSE_EVENT) this.onTextFrame(message);
    else if (id === POLICY_EVENT) this.onPolicy(message, source);
    else if (id === CANCEL_EVENT) this.onCancel(message);
    else if (id === TAGS_REQUEST_EVENT) this.onTagsRequest(message, source);
    else if (id === TAGS_ACK_EVENT) this.onTagsAck(message, source);
    else if (id === TAGS_POLL_EVENT) this.markTagReader(source);
    else if (id === BULK_EVENT) this.onBulkPart(message, source);
  }

  /** `scriptevent mcbews:bulk <id> <k> <i>/<n> <content>`: one part of a large request; the
   * last one to come hands the whole to the event it stands for, from the same source. */
  private onBulkPart(message: string, source: string | null): void {
    const part = parseBulkPart(message);
    if (part === null) {
      this.host.warn(`[mcbews] dropped a bulk part that does not read as one: ${JSON.stringify(message.slice(0, 60))}`);
      return;
    }
    if (this.cancelled.has(part.id)) return; // cancelled: its late parts start nothing
    const outcome = this.bulk.feed(part, this.host.currentTick(), source);
    if (outcome.kind === "failed") return this.refuseBulk(outcome.event, outcome.id, outcome.source, outcome.reason);
    if (outcome.kind !== "complete") return;
    if (requestIdOf(outcome.text) !== outcome.id) {
      this.host.warn(`[mcbews] dropped a bulk request: its parts are named ${outcome.id} but the request inside is not`);
      return;
    }
    this.onScriptEvent(outcome.event, outcome.text, source);
  }

  /** A large request that did not arrive whole: answered INVALID_REQUEST on its transport
   * (over tags, on the player its first part came from). */
  private refuseBulk(event: string, id: string, source: string | null, reason: string): void {
    this.host.warn(`[mcbews] dropped the large request ${id}: ${reason}`);
    const answer = errorAnswer("INVALID_REQUEST", `the request was not received whole: ${reason}`);
    if (event === PULL_REQUEST_EVENT) this.keepAnswer(id, answer);
    else if (event === TAGS_REQUEST_EVENT && source !== null && isTagId(id)) this.keepTagAnswer(id, source, answer);
    else if (event === BRIDGE_REQUEST_EVENT && this.host.spawnBridge !== undefined) this.deliver(answerWith(id, answer));
  }

  /** `scriptevent mcbews:cancel <id> ...`: drop everything held for those ids. */
  private onCancel(message: string): void {
    const { ids, refused } = readCancelIds(message);
    if (refused.length > 0) this.host.warn(`[mcbews] a cancel notice named ${refused.length} word(s) that are not ids (ignored): ${refused.slice(0, 3).join(" ")}`);
    const now = this.host.currentTick();
    for (const id of ids) {
      this.cancelled.add(id, now);
      this.bulk.discard(id, now);
      this.pull.forget(id);
      this.syncTags(this.tags.forget(id));
      this.text.discard(id);
      this.outbox.removeWhere((line) => chunkRequestId(line) === id);
      this.requests.removeWhere((request) => requestIdOf(request.message) === id);
    }
  }

  private onRequest(request: QueuedRequest): void {
    if (this.host.spawnBridge === undefined) {
      this.host.warn("[mcbews] this pack answers through /mcbews:ask and /mcbews:pull, or as tags; a request by chat was ignored (the bridge tries each way when a game connects)");
      return;
    }
    if (this.bridge() === undefined) {
      const dropped = this.requests.push(request);
      if (dropped) this.host.warn(`[mcbews] request queue full, dropped the oldest request`);
      return;
    }
    this.route(request);
  }

  private route(request: QueuedRequest): void {
    this.deliver(routeRequest(request.message, this.context(request.source)));
  }

  private deliver(outcome: RouteOutcome): void {
    if (outcome.kind === "later") {
      void outcome.outcome.then((done) => this.deliver(done));
      return;
    }
    if (outcome.kind === "drop") {
      this.host.warn(`[mcbews] dropped a bridge request: ${outcome.reason}`);
      return;
    }
    if (this.cancelled.has(outcome.requestId)) return; // cancelled while it was worked on
    const free = this.options.maxOutboxLines - this.outbox.length;
    if (outcome.lines.length <= free) return this.enqueueLines(outcome.lines);
    // Never a partial answer: the gateway would wait for chunks that were dropped.
    const busy = `the answer needs ${outcome.lines.length} chat lines and ${free} of the addon's ${this.options.maxOutboxLines} are free; try again when the answers before it are sent`;
    const fallback = answerWith(outcome.requestId, errorAnswer("CAPABILITY_FAILED", busy));
    if (fallback.kind === "answer") this.enqueueLines(fallback.lines);
  }

  private context(source: string | null): CapabilityContext {
    return {
      players: () => this.host.players(),
      sourcePlayer: source,
      runCommand: (command) => this.host.runWorldCommand(command),
      entity: (id) => this.host.entity(id),
      policy: () => this.policy(),
      registry: this.registry,
      isCancelled: (requestId) => this.cancelled.has(requestId),
      ...(this.forwarder === undefined ? {} : { forwarder: { subscribe: (wanted: Wanted) => this.forwarder!.subscribe(wanted) } }),
    };
  }

  private enqueueLines(lines: readonly string[]): void {
    for (const line of lines) {
      if (this.outbox.push(line) !== undefined) this.host.warn("[mcbews] upstream outbox full, dropped a chunk");
    }
  }

  // --- the pull transport ------------------------------------------------------------------

  /** A request that came as a script event (too large for mcbews:ask): answer it into the store. */
  private onPullRequest(message: string, source: string | null): void {
    const decision = decideRequest(message, this.context(source), false, pullIdRule);
    if (decision.kind === "drop") {
      this.host.warn(`[mcbews] dropped a pull request: ${decision.reason}`);
      return;
    }
    const id = decision.requestId;
    if (decision.kind === "answer") return this.keepAnswer(id, decision.answer);
    this.pull.markWaiting(id, this.host.currentTick());
    void decision.start().then((answer) => this.keepAnswer(id, answer));
  }

  /** `mcbews:ask <hex>`, inside the command's callback (restricted execution): a read-only
   * capability answers at once, with its first page; any other (a job, or one that changes the
   * world) starts at the next tick, and the reply is WAIT until its answer is kept. */
  ask(hex: string, source: string | null): CommandReply {
    const request = decodeAskHex(hex);
    if (!request.ok) return { ok: false, message: `[mcbews] the request is not readable: ${request.reason} (${request.detail})` };
    const decision = decideRequest(request.text, this.context(source), true, pullIdRule);
    if (decision.kind === "drop") return { ok: false, message: `[mcbews] the request was not run: ${decision.reason}` };
    const id = decision.requestId;
    if (decision.kind === "later") {
      this.pull.markWaiting(id, this.host.currentTick());
      this.host.defer(() => void decision.start().then((answer) => this.keepAnswer(id, answer)));
      return { ok: true, message: this.pull.reply(id, 1) };
    }
    this.keepAnswer(id, decision.answer);
    return { ok: true, message: this.pull.reply(id, 1) };
  }

  /** `mcbews:pull <id> [page]`. */
  pullPage(id: string, page: number): CommandReply {
    if (!isPullId(id)) return { ok: false, message: "[mcbews] an id is 1-64 letters and digits" };
    return { ok: true, message: this.pull.reply(id, page) };
  }

  /** `mcbews:poll`: the first page of the oldest waiting UI chat message. */
  poll(): CommandReply {
    return { ok: true, message: this.pull.poll(this.host.currentTick()) };
  }

  private keepAnswer(id: string, answer: Answer): void {
    if (this.cancelled.has(id)) return; // the bridge stopped waiting while it was worked on
    const kept = this.pull.put("answer", id, encodeAnswer(answer), this.host.currentTick());
    if (!kept.ok) {
      const fallback = errorAnswer("CAPABILITY_FAILED", `the answer is too large to keep: ${kept.error}`);
      this.pull.put("answer", id, encodeAnswer(fallback), this.host.currentTick());
    }
    this.warnEvictions();
  }

  private warnEvictions(): void {
    if (this.pull.evicted === this.evictionsWarned) return;
    this.host.warn(`[mcbews] pull store full: dropped ${this.pull.evicted - this.evictionsWarned} unread answer(s)`);
    this.evictionsWarned = this.pull.evicted;
  }

  /** A connection read UI chat by polling lately: queue it for mcbews:poll rather than chat. */
  private pullReaderLive(): boolean {
    const last = this.pull.lastPollTick;
    return last !== null && this.host.currentTick() - last <= PULL_POLL_LIVE_SECONDS * TICKS_PER_SECOND;
  }

  // --- the tags transport ------------------------------------------------------------------

  /** `scriptevent mcbews:tags_req {...}`: answer it as page tags on the player who sent it. */
  private onTagsRequest(message: string, source: string | null): void {
    // The source player, else the one the request names ("to"): how a script event's source is
    // reported for a command run over the WebSocket is not relied on.
    const reader = source ?? this.namedReader(message);
    if (reader === null) {
      this.host.warn("[mcbews] dropped a tags request: it came from no player and names none in the world, so there is no one to write the answer on");
      return;
    }
    this.markTagReader(reader);
    const decision = decideRequest(message, this.context(reader), false, tagsIdRule);
    if (decision.kind === "drop") {
      this.host.warn(`[mcbews] dropped a tags request: ${decision.reason}`);
      return;
    }
    const id = decision.requestId;
    if (decision.kind === "answer") return this.keepTagAnswer(id, reader, decision.answer);
    void decision.start().then((answer) => this.keepTagAnswer(id, reader, answer));
  }

  /** The player a tags request names in "to", when that player is in the world. */
  private namedReader(message: string): string | null {
    const parsed = parseJson(message);
    const to = parsed.ok && isObject(parsed.value) ? parsed.value["to"] : undefined;
    if (typeof to !== "string") return null;
    return this.host.players().some((p) => p.name === to && p.name !== BRIDGE_PLAYER) ? to : null;
  }

  private keepTagAnswer(id: string, reader: string, answer: Answer): void {
    if (this.cancelled.has(id)) return; // the bridge stopped waiting while it was worked on
    const tick = this.host.currentTick();
    let kept = this.tags.put("answer", id, reader, encodeAnswer(answer), tick);
    if (!kept.ok) {
      const fallback = errorAnswer("CAPABILITY_FAILED", `the answer is too large to keep: ${kept.error}`);
      kept = this.tags.put("answer", id, reader, encodeAnswer(fallback), tick);
    }
    for (const name of kept.touched) this.syncTags(name);
    this.warnTagEvictions();
  }

  /** `scriptevent mcbews:tags_ack <id>:<next> ...`: the bridge holds those pages. */
  private onTagsAck(message: string, source: string | null): void {
    this.markTagReader(source);
    const { acks, refused } = readAcks(message);
    if (refused.length > 0) this.host.warn(`[mcbews] a tags ack named ${refused.length} word(s) that are not acks (ignored): ${refused.slice(0, 3).join(" ")}`);
    const touched = new Set<string>();
    for (const ack of acks) {
      const reader = this.tags.ack(ack.id, ack.next, this.host.currentTick());
      if (reader !== null) touched.add(reader);
    }
    for (const name of touched) this.syncTags(name);
  }

  private markTagReader(source: string | null): void {
    if (source !== null) this.tagReaders.set(source, this.host.currentTick());
  }

  /** The player of a connection that read tags lately (the latest), or null. */
  private liveTagReader(): string | null {
    const now = this.host.currentTick();
    let best: [string, number] | null = null;
    for (const [name, tick] of this.tagReaders) {
      if (now - tick > PULL_POLL_LIVE_SECONDS * TICKS_PER_SECOND) this.tagReaders.delete(name);
      else if (best === null || tick >= best[1]) best = [name, tick];
    }
    return best === null ? null : best[0];
  }

  /** Make `reader`'s page tags what the store wants now (never touching other tags). */
  private syncTags(reader: string | null): void {
    if (reader === null) return;
    const player = this.host.players().find((p) => p.name === reader);
    if (player === undefined) return; // left: its tags are swept when it is back
    try {
      const { add, remove } = tagChanges(player.getTags(), this.tags.wanted(reader));
      for (const tag of remove) player.removeTag(tag);
      for (const tag of add) player.addTag(tag);
    } catch (err) {
      this.host.warn(`[mcbews] could not write the answer tags on ${reader}: ${describeError(err)}`);
    }
  }

  private warnTagEvictions(): void {
    if (this.tags.evicted === this.tagEvictionsWarned) return;
    this.host.warn(`[mcbews] tag store full: dropped ${this.tags.evicted - this.tagEvictionsWarned} unread answer(s)`);
    this.tagEvictionsWarned = this.tags.evicted;
  }

  /** Every player's page tags as the store wants them: the TTL's removals, and tags left from an
   * earlier session (a world saved with some, a player who left while an answer stood on them). */
  private sweepTags(): void {
    for (const player of this.host.players()) {
      if (player.name === BRIDGE_PLAYER) continue;
      this.syncTags(player.name);
    }
  }

  private onTextFrame(message: string): void {
    const parsed = parseTextFrame(message);
    if (!parsed.ok) {
      this.host.warn(`[mcbews] text frame rejected: ${parsed.reason} (${parsed.detail})`);
      return;
    }
    const frame = parsed.frame;
    const player = this.host.players().find((p) => p.name === frame.player && p.name !== BRIDGE_PLAYER);
    if (player === undefined) {
      this.text.discard(frame.id);
      return;
    }
    const outcome = this.text.feed(frame, this.host.currentTick());
    if (outcome.kind === "failed") this.host.warn(`[mcbews] text response ${outcome.id} dropped: ${outcome.reason}`);
    if (outcome.kind === "completed") player.sendMessage(formatForDisplay(outcome.response));
  }

  private onPolicy(message: string, source: string | null): void {
    const change = applyPolicyCommand(this.policy(), message);
    const reply = change.ok ? change.summary : change.error;
    if (change.ok) this.host.writePolicy(encodePolicy(change.policy));
    const player = source === null ? undefined : this.host.players().find((p) => p.name === source);
    if (player !== undefined) player.sendMessage(`[mcbews] ${reply}`);
    else this.host.warn(`[mcbews] policy: ${reply}`);
  }

  /** A player submitted the UI chat panel. Returns an error text, or null when queued. It goes
   * up as chat when this pack has a bridge player and no connection polls; otherwise it waits
   * for mcbews:poll. */
  submitUiChat(player: string, message: string): string | null {
    this.uiCounter += 1;
    const tick = this.host.currentTick();
    const tagReader = this.pullReaderLive() ? null : this.liveTagReader();
    if (tagReader !== null) return this.keepTagUi(tagReader, player, message, tick);
    if (this.host.spawnBridge !== undefined && this.bridge() !== undefined && !this.pullReaderLive()) {
      const lines = uiChatLines(uiMessageId(tick, this.uiCounter), player, message);
      if (!lines.ok) return lines.error;
      this.enqueueLines(lines.chunks);
      return null;
    }
    const body = uiChatBody(player, message);
    if (body === null) return "the message is empty";
    return this.pull.enqueueUi(pullUiId(tick, this.uiCounter), body, tick);
  }

  /** A UI chat message for a connection that reads tags: page tags on its player. */
  private keepTagUi(reader: string, player: string, message: string, tick: number): string | null {
    const body = uiChatBody(player, message);
    if (body === null) return "the message is empty";
    if (this.tags.count("ui") >= UI_CHAT_WAITING_MAX) return `${UI_CHAT_WAITING_MAX} messages already wait for the notebook to read them`;
    const kept = this.tags.put("ui", pullUiId(tick, this.uiCounter), reader, body, tick);
    if (!kept.ok) return kept.error;
    for (const name of kept.touched) this.syncTags(name);
    return null;
  }

  // --- forwarded events (forwarder.ts) -------------------------------------------------------

  /** Send the waiting forwarded events, a batch at a time, the way UI chat goes now, while
   * fewer than that way's limit of batches are still on their way; the rest wait in the
   * forwarder for a later tick. */
  private flushForwarded(tick: number): void {
    const forwarder = this.forwarder;
    if (forwarder === undefined) return;
    while (forwarder.pending && this.sendForwardedBatch(forwarder, tick));
    if (forwarder.droppedTotal - this.forwardDropsWarned >= 1000) {
      this.host.warn(`[mcbews] forwarded events: ${forwarder.droppedTotal - this.forwardDropsWarned} dropped past the bounds (counted in the batches)`);
      this.forwardDropsWarned = forwarder.droppedTotal;
    }
  }

  /** Send one batch; false when its way up has no room for it now. */
  private sendForwardedBatch(forwarder: Forwarder, tick: number): boolean {
    const tagReader = this.pullReaderLive() ? null : this.liveTagReader();
    const chat = tagReader === null && this.host.spawnBridge !== undefined && this.bridge() !== undefined && !this.pullReaderLive();
    if (this.forwardedUnread() >= FORWARDED_UNREAD_MAX[tagReader !== null ? "tags" : chat ? "chat" : "pull"]) return false;
    // Room first, so a batch once taken is never refused for want of it.
    if (tagReader !== null && this.tags.count("ui") >= UI_CHAT_WAITING_MAX) return false;
    if (chat && this.options.maxOutboxLines - this.outbox.length < MAX_CHUNKS_PER_MESSAGE) return false;
    if (tagReader === null && !chat && this.pull.uiWaiting >= UI_CHAT_WAITING_MAX) return false;
    const text = forwarder.take();
    if (text === null) return false;
    this.uiCounter += 1;
    const id = `f${tick}t${this.uiCounter}`;
    if (tagReader !== null) {
      const kept = this.tags.put("ui", id, tagReader, text, tick);
      if (!kept.ok) {
        this.host.warn(`[mcbews] a batch of forwarded events was not kept: ${kept.error}`);
        return false;
      }
      for (const name of kept.touched) this.syncTags(name);
      this.unreadForwarded.push({ sink: "tags", id });
    } else if (chat) {
      const lines = splitPayload(UI_CHAT_PREFIX, `fw-${tick}-${this.uiCounter}`, text);
      if (!lines.ok) {
        this.host.warn(`[mcbews] a batch of forwarded events was not sent: ${lines.error}`);
        return false;
      }
      this.enqueueLines(lines.chunks);
      this.unreadForwarded.push({ sink: "chat", lastLine: lines.chunks[lines.chunks.length - 1]! });
    } else {
      const error = this.pull.enqueueUi(id, text, tick);
      if (error !== null) {
        this.host.warn(`[mcbews] a batch of forwarded events was not kept: ${error}`);
        return false;
      }
      this.unreadForwarded.push({ sink: "pull", id });
    }
    return true;
  }

  /** How many batches are still on their way (not yet sent as chat, pulled, or their tags
   * acknowledged). */
  private forwardedUnread(): number {
    const unread = (out: ForwardedOut): boolean =>
      out.sink === "chat" ? this.outbox.some((line) => line === out.lastLine) : out.sink === "pull" ? this.pull.holds(out.id) : this.tags.holds(out.id);
    this.unreadForwarded = this.unreadForwarded.filter(unread);
    return this.unreadForwarded.length;
  }

  /** Called every tick by main.ts. */
  onTick(): void {
    const now = this.host.currentTick();
    this.flushForwarded(now);
    if (this.host.spawnBridge !== undefined) this.tickBridge(now, this.host.spawnBridge);
    if (now - this.lastExpire >= this.options.expireEveryTicks) {
      this.lastExpire = now;
      for (const id of this.text.expire(now)) this.host.warn(`[mcbews] text response ${id} expired incomplete`);
      this.pull.expire(now);
      this.tags.expire(now);
      this.sweepTags();
      this.cancelled.expire(now);
      for (const failed of this.bulk.expire(now)) {
        if (failed.kind === "failed") this.refuseBulk(failed.event, failed.id, failed.source, failed.reason);
      }
    }
  }

  /** The chat transport's tick: keep the bridge player in the world and let it speak. */
  private tickBridge(now: number, spawnBridge: () => void): void {
    let bridge = this.bridge();
    if (bridge === undefined && now - this.lastBridgeCheck >= this.options.bridgeCheckTicks) {
      this.lastBridgeCheck = now;
      try {
        spawnBridge();
      } catch (err) {
        this.host.warn(`[mcbews] cannot spawn ${BRIDGE_PLAYER} (are Beta APIs on?): ${describeError(err)}`);
      }
      bridge = this.bridge();
    }
    if (bridge !== undefined) {
      for (const request of this.requests.take(this.options.maxQueuedRequests)) this.route(request);
      this.send(bridge);
    }
  }

  private send(bridge: Player): void {
    for (const line of this.outbox.take(this.options.linesPerTick)) {
      try {
        bridge.runCommand(TELL_WRAPPER + line);
      } catch (err) {
        this.host.warn(`[mcbews] ${BRIDGE_PLAYER} could not send a chunk: ${describeError(err)}`);
      }
    }
  }
}
