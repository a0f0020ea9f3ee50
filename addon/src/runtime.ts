// The bridge's behaviour, with every game access injected through `Host`: main.ts builds the
// real host from @minecraft/server, tests build fakes. Keeps the state (request queue, upstream
// outbox, text buffers, policy cache) in one object owned by main.ts.
import type { Player } from "@minecraft/server";
import type { CapabilityContext, CommandOutcome, EntityInfo, Registry } from "./capability.js";
import { TELL_WRAPPER } from "./chunks.js";
import { applyPolicyCommand, decodePolicy, encodePolicy, POLICY_EVENT, type CommandPolicy } from "./policy.js";
import { BoundedQueue } from "./queue.js";
import { describeError, routeRequest, type RouteOutcome } from "./router.js";
import { formatForDisplay, parseTextFrame, TextReassembler } from "./textresp.js";
import { uiChatLines, uiMessageId } from "./uichat.js";
import { BRIDGE_PLAYER, BRIDGE_REQUEST_EVENT, TEXT_RESPONSE_EVENT } from "./wire.js";

export interface Host {
  currentTick(): number;
  /** Every player in the world, the bridge player included. */
  players(): readonly Player[];
  /** Spawn the bridge player; may throw (for instance without Beta APIs). */
  spawnBridge(): void;
  runWorldCommand(command: string): CommandOutcome;
  /** The loaded entity with this id; undefined when there is none (never throws). */
  entity(id: string): EntityInfo | undefined;
  readPolicy(): unknown;
  writePolicy(encoded: string): void;
  warn(message: string): void;
}

export interface RuntimeOptions {
  /** Requests kept while the bridge player is absent. */
  maxQueuedRequests: number;
  /** Upstream chunk lines kept waiting to be sent. */
  maxOutboxLines: number;
  /** Chunk lines the bridge player sends per tick (spacing, not flooding chat). */
  linesPerTick: number;
  /** Ticks between checks that the bridge player is present. */
  bridgeCheckTicks: number;
  /** Ticks between text-buffer expiry sweeps. */
  expireEveryTicks: number;
}

export const DEFAULT_OPTIONS: RuntimeOptions = {
  maxQueuedRequests: 64,
  maxOutboxLines: 4096,
  linesPerTick: 4,
  bridgeCheckTicks: 40,
  expireEveryTicks: 20,
};

interface QueuedRequest {
  message: string;
  source: string | null;
}

export class BridgeRuntime {
  private readonly requests: BoundedQueue<QueuedRequest>;
  private readonly outbox: BoundedQueue<string>;
  private readonly text = new TextReassembler();
  private uiCounter = 0;
  private lastBridgeCheck = Number.NEGATIVE_INFINITY;
  private lastExpire = 0;

  constructor(
    private readonly host: Host,
    private readonly registry: Registry,
    private readonly options: RuntimeOptions = DEFAULT_OPTIONS,
  ) {
    this.requests = new BoundedQueue(options.maxQueuedRequests);
    this.outbox = new BoundedQueue(options.maxOutboxLines);
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
    else if (id === TEXT_RESPONSE_EVENT) this.onTextFrame(message);
    else if (id === POLICY_EVENT) this.onPolicy(message, source);
  }

  private onRequest(request: QueuedRequest): void {
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
      this.host.warn(`[mcbews] dropped a bridge request with no readable id (${outcome.reason})`);
      return;
    }
    this.enqueueLines(outcome.lines);
  }

  private context(source: string | null): CapabilityContext {
    return {
      players: () => this.host.players(),
      sourcePlayer: source,
      runCommand: (command) => this.host.runWorldCommand(command),
      entity: (id) => this.host.entity(id),
      policy: () => this.policy(),
      registry: this.registry,
    };
  }

  private enqueueLines(lines: readonly string[]): void {
    for (const line of lines) {
      if (this.outbox.push(line) !== undefined) this.host.warn("[mcbews] upstream outbox full, dropped a chunk");
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

  /** A player submitted the UI chat panel. Returns an error text, or null when queued. */
  submitUiChat(player: string, message: string): string | null {
    this.uiCounter += 1;
    const lines = uiChatLines(uiMessageId(this.host.currentTick(), this.uiCounter), player, message);
    if (!lines.ok) return lines.error;
    this.enqueueLines(lines.chunks);
    return null;
  }

  /** Called every tick by main.ts. */
  onTick(): void {
    const now = this.host.currentTick();
    let bridge = this.bridge();
    if (bridge === undefined && now - this.lastBridgeCheck >= this.options.bridgeCheckTicks) {
      this.lastBridgeCheck = now;
      try {
        this.host.spawnBridge();
      } catch (err) {
        this.host.warn(`[mcbews] cannot spawn ${BRIDGE_PLAYER} (are Beta APIs on?): ${describeError(err)}`);
      }
      bridge = this.bridge();
    }
    if (bridge !== undefined) {
      for (const request of this.requests.take(this.options.maxQueuedRequests)) this.route(request);
      this.send(bridge);
    }
    if (now - this.lastExpire >= this.options.expireEveryTicks) {
      this.lastExpire = now;
      for (const id of this.text.expire(now)) this.host.warn(`[mcbews] text response ${id} expired incomplete`);
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
