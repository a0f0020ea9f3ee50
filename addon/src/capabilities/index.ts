// The default capability set, in the order list_capabilities reports it.
import type { Capability } from "../capability.js";
import { describeEntities } from "./describeEntities.js";
import { inventorySnapshot } from "./inventorySnapshot.js";
import { listCapabilities } from "./listCapabilities.js";
import { playerSnapshot } from "./playerSnapshot.js";
import { runWorldCommand } from "./runWorldCommand.js";

export const DEFAULT_CAPABILITIES: readonly Capability[] = [playerSnapshot, inventorySnapshot, runWorldCommand, describeEntities, listCapabilities];
