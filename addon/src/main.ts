// The one side-effecting module: builds the host from the game's APIs and subscribes the
// runtime to the world. Everything it calls is tested on its own.
import {
  CommandPermissionLevel,
  CustomCommandStatus,
  GameMode,
  Player,
  system,
  world,
  type CustomCommandOrigin,
  type Dimension,
} from "@minecraft/server";
import { spawnSimulatedPlayer } from "@minecraft/server-gametest";
import { FormCancelationReason, ModalFormData } from "@minecraft/server-ui";
import { DEFAULT_CAPABILITIES } from "./capabilities/index.js";
import { createRegistry } from "./capability.js";
import { POLICY_PROPERTY } from "./policy.js";
import { describeError } from "./router.js";
import { BridgeRuntime, type Host } from "./runtime.js";
import { BRIDGE_PLAYER } from "./wire.js";

const CHAT_COMMAND = "mcbews:chat";
const FORM_RETRIES = 20;
const FORM_RETRY_TICKS = 5;

function spawnPoint(dimension: Dimension): { x: number; y: number; z: number } {
  const spawn = world.getDefaultSpawnLocation();
  // An unset spawn reports y = 32767; keep the bridge player inside the world.
  const y = Math.min(Math.max(spawn.y, dimension.heightRange.min + 1), dimension.heightRange.max - 2);
  return { x: spawn.x, y, z: spawn.z };
}

const host: Host = {
  currentTick: () => system.currentTick,
  players: () => world.getAllPlayers(),
  spawnBridge() {
    const dimension = world.getDimension("overworld");
    spawnSimulatedPlayer({ dimension, ...spawnPoint(dimension) }, BRIDGE_PLAYER, GameMode.Creative);
  },
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
};

const runtime = new BridgeRuntime(host, createRegistry(DEFAULT_CAPABILITIES));

function openChatPanel(player: Player, attempt = 0): void {
  const form = new ModalFormData().title("MCBEWS chat").textField("Message", "type a message").submitButton("Send");
  form
    .show(player)
    .then((response) => {
      if (response.canceled) {
        // The chat screen that ran the command may still be closing: try again shortly.
        if (response.cancelationReason === FormCancelationReason.UserBusy && attempt < FORM_RETRIES) {
          system.runTimeout(() => openChatPanel(player, attempt + 1), FORM_RETRY_TICKS);
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
      system.run(() => openChatPanel(player));
      return { status: CustomCommandStatus.Success };
    },
  );
});

system.afterEvents.scriptEventReceive.subscribe((event) => {
  const source = event.sourceEntity instanceof Player ? event.sourceEntity.name : null;
  runtime.onScriptEvent(event.id, event.message, source);
});

world.afterEvents.worldLoad.subscribe(() => {
  system.runInterval(() => runtime.onTick(), 1);
});
