// The default capability set, in the order list_capabilities reports it.
import type { AnyCapability } from "../capability.js";
import { describeEntities } from "./describeEntities.js";
import { getBlocks } from "./getBlocks.js";
import { inventorySnapshot } from "./inventorySnapshot.js";
import { listCapabilities } from "./listCapabilities.js";
import { playerSnapshot } from "./playerSnapshot.js";
import { runWorldCommand } from "./runWorldCommand.js";
import { setBlocks } from "./setBlocks.js";
import { subscribeEvents } from "./subscribeEvents.js";
import { worldSpawn } from "./worldSpawn.js";

export const DEFAULT_CAPABILITIES: readonly AnyCapability[] = [playerSnapshot, inventorySnapshot, runWorldCommand, describeEntities, getBlocks, setBlocks, subscribeEvents, worldSpawn, listCapabilities];
