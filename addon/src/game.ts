// Builds the host from the game's APIs, registers the custom commands and subscribes the runtime
// to the world. Nothing happens until an entry (main.ts: the beta pack, stable.ts: the stable
// pack) calls startBridge; everything it calls is tested on its own.
import {
  CommandPermissionLevel,
  CustomCommandParamType,
  CustomCommandStatus,
  Player,
  system,
  world,
  type CustomCommandOrigin,
  type CustomCommandRegistry,
  type CustomCommandResult,
} from "@minecraft/server";
import { FormCancelationReason, ModalFormData } from "@minecraft/server-ui";
import { DEFAULT_CAPABILITIES } from "./capabilities/index.js";
import { createRegistry, type AnyCapability } from "./capability.js";
import { POLICY_PROPERTY } from "./policy.js";
import { prototypeRegistrar, type Prototypes } from "./prototypes.js";
import { describeError } from "./router.js";
import { BridgeRuntime, type CommandReply, type Host } from "./runtime.js";
import { ASK_COMMAND, POLL_COMMAND, PULL_COMMAND } from "./wire.js";

const CHAT_COMMAND = "mcbews:chat";
const FORM_RETRIES = 20;
const FORM_RETRY_TICKS = 5;

export interface BridgeOptions {
  /** Spawn the bridge player (the beta pack, through @minecraft/server-gametest). */
  spawnBridge?: () => void;
}

function makeHost(options: BridgeOptions): Host {
  const host: Host = {
    currentTick: () => system.currentTick,
    players: () => world.getAllPlayers(),
    defer: (fn) => void system.run(fn),
    runWorldCommand(command) {
      try {
        return { ok: true, successCount: world.getDimension("overworld").runCommand(command).successCount };
      } catch (err) {
        return { ok: false, error: describeError(err) };
      }
    },
    entity(id) {
      try {
        const found = world.getEntity(id);
        return found === undefined ? undefined : { typeId: found.typeId, nameTag: found.nameTag };
      } catch {
        return undefined; // getEntity throws on an id it cannot read
      }
    },
    readPolicy: () => world.getDynamicProperty(POLICY_PROPERTY),
    writePolicy: (encoded) => world.setDynamicProperty(POLICY_PROPERTY, encoded),
    warn: (message) => console.warn(message),
    subscribeSignal(signal, fn) {
      const found: unknown = (world.afterEvents as unknown as Record<string, unknown>)[signal];
      if (typeof found !== "object" || found === null || !("subscribe" in found)) throw new Error(`world.afterEvents.${signal} is not in this game`);
      const handle = found as { subscribe(fn: (event: unknown) => void): unknown; unsubscribe(fn: unknown): void };
      const subscribed = handle.subscribe(fn);
      return () => handle.unsubscribe(subscribed);
    },
  };
  if (options.spawnBridge !== undefined) host.spawnBridge = options.spawnBridge;
  return host;
}

function openChatPanel(runtime: BridgeRuntime, host: Host, player: Player, attempt = 0): void {
  const form = new ModalFormData().title("MCBEWS chat").textField("Message", "type a message").submitButton("Send");
  form
    .show(player)
    .then((response) => {
      if (response.canceled) {
        // The chat screen that ran the command may still be closing: try again shortly.
        if (response.cancelationReason === FormCancelationReason.UserBusy && attempt < FORM_RETRIES) {
          system.runTimeout(() => openChatPanel(runtime, host, player, attempt + 1), FORM_RETRY_TICKS);
        }
        return;
      }
      const value = response.formValues?.[0];
      if (typeof value !== "string" || value.trim() === "") return;
      const error = runtime.submitUiChat(player.name, value);
      if (error !== null) player.sendMessage(`[mcbews] not sent: ${error}`);
    })
    .catch((err: unknown) => host.warn(`[mcbews] chat panel failed: ${describeError(err)}`));
}

function sourceName(origin: CustomCommandOrigin): string | null {
  return origin.sourceEntity instanceof Player ? origin.sourceEntity.name : null;
}

function result(reply: CommandReply): CustomCommandResult {
  return { status: reply.ok ? CustomCommandStatus.Success : CustomCommandStatus.Failure, message: reply.message };
}

// The pull commands run over the WebSocket as the connected operator. Their callbacks run in the
// game's restricted execution: they read, keep answers in the runtime, and defer any world change
// to system.run (docs/protocol.md).
function registerPullCommands(registry: CustomCommandRegistry, runtime: BridgeRuntime): void {
  const common = { permissionLevel: CommandPermissionLevel.GameDirectors, cheatsRequired: false };
  registry.registerCommand(
    {
      ...common,
      name: ASK_COMMAND,
      description: "mcbews_repl: a capability request (hex); the answer is this command's result",
      mandatoryParameters: [{ type: CustomCommandParamType.String, name: "request" }],
    },
    (origin: CustomCommandOrigin, request: unknown) => result(runtime.ask(String(request), sourceName(origin))),
  );
  registry.registerCommand(
    {
      ...common,
      name: PULL_COMMAND,
      description: "mcbews_repl: one page of a kept answer or panel message",
      mandatoryParameters: [{ type: CustomCommandParamType.String, name: "id" }],
      optionalParameters: [{ type: CustomCommandParamType.Integer, name: "page" }],
    },
    (_origin: CustomCommandOrigin, id: unknown, page: unknown) =>
      result(runtime.pullPage(String(id), typeof page === "number" ? page : 1)),
  );
  registry.registerCommand(
    { ...common, name: POLL_COMMAND, description: "mcbews_repl: the oldest waiting panel message" },
    () => result(runtime.poll()),
  );
}

/** What an entry gets back: the runtime, and where prototypes are registered (the entry exports
 * it, so an exported pack's own entry module can import this bundle and add its prototypes). */
export interface Bridge {
  runtime: BridgeRuntime;
  prototypes: Prototypes;
}

export function startBridge(options: BridgeOptions = {}): Bridge {
  const host = makeHost(options);
  const registry = new Map<string, AnyCapability>(createRegistry(DEFAULT_CAPABILITIES));
  const runtime = new BridgeRuntime(host, registry);
  system.beforeEvents.startup.subscribe((event) => {
    event.customCommandRegistry.registerCommand(
      {
        name: CHAT_COMMAND,
        description: "Open the mcbews chat panel: the message goes to the connected notebook",
        permissionLevel: CommandPermissionLevel.Any,
        cheatsRequired: false,
      },
      (origin: CustomCommandOrigin) => {
        const player = origin.sourceEntity;
        if (!(player instanceof Player)) return { status: CustomCommandStatus.Failure, message: "only a player can chat" };
        system.run(() => openChatPanel(runtime, host, player));
        return { status: CustomCommandStatus.Success };
      },
    );
    registerPullCommands(event.customCommandRegistry, runtime);
  });
  system.afterEvents.scriptEventReceive.subscribe((event) => {
    const source = event.sourceEntity instanceof Player ? event.sourceEntity.name : null;
    runtime.onScriptEvent(event.id, event.message, source);
  });
  world.afterEvents.worldLoad.subscribe(() => {
    system.runInterval(() => runtime.onTick(), 1);
  });
  return { runtime, prototypes: prototypeRegistrar(registry) };
}
