// A small in-memory stand-in for @minecraft/server (the npm package ships typings only).
// vitest.config.ts aliases the module id to this file; tests import `mc` from here directly to
// drive the world (players, ticks, script events) and inspect what the addon did.
import type * as real from "@minecraft/server";

export enum EquipmentSlot {
  Chest = "Chest",
  Feet = "Feet",
  Head = "Head",
  Legs = "Legs",
  Mainhand = "Mainhand",
  Offhand = "Offhand",
}
export enum GameMode {
  Adventure = "Adventure",
  Creative = "Creative",
  Spectator = "Spectator",
  Survival = "Survival",
}
export enum CommandPermissionLevel {
  Any = 0,
  GameDirectors = 1,
  Admin = 2,
}
export enum CustomCommandParamType {
  Boolean = "Boolean",
  Integer = "Integer",
  String = "String",
}
export enum CustomCommandStatus {
  Success = 0,
  Failure = 1,
}

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export interface ItemInit {
  typeId: string;
  amount?: number;
  maxAmount?: number;
  nameTag?: string;
  lore?: string[];
  enchantments?: { id: string; level: number }[];
  durability?: { damage: number; max: number };
}

export class ItemStack {
  readonly typeId: string;
  amount: number;
  readonly maxAmount: number;
  nameTag?: string;
  private readonly init: ItemInit;

  constructor(init: ItemInit) {
    this.init = init;
    this.typeId = init.typeId;
    this.amount = init.amount ?? 1;
    this.maxAmount = init.maxAmount ?? 64;
    if (init.nameTag !== undefined) this.nameTag = init.nameTag;
  }

  getLore(): string[] {
    return [...(this.init.lore ?? [])];
  }

  getComponent(id: string): object | undefined {
    const { enchantments, durability } = this.init;
    if (id === "minecraft:enchantable" && enchantments !== undefined) {
      return { getEnchantments: () => enchantments.map((e) => ({ type: { id: e.id }, level: e.level })) };
    }
    if (id === "minecraft:durability" && durability !== undefined) {
      return { damage: durability.damage, maxDurability: durability.max };
    }
    return undefined;
  }
}

export interface PlayerInit {
  name: string;
  id?: string;
  dimension?: string;
  location?: Vec3;
  rotation?: { x: number; y: number };
  velocity?: Vec3;
  health?: { current: number; max: number } | null;
  gameMode?: GameMode;
  tags?: string[];
  level?: number;
  xp?: { atLevel: number; toNext: number; total: number };
  selectedSlot?: number;
  sneaking?: boolean;
  sleeping?: boolean;
  inventory?: (ItemStack | undefined)[] | null;
  equipment?: Partial<Record<EquipmentSlot, ItemStack>>;
}

export class Player {
  readonly name: string;
  readonly id: string;
  readonly dimension: { id: string };
  location: Vec3;
  readonly level: number;
  readonly xpEarnedAtCurrentLevel: number;
  readonly totalXpNeededForNextLevel: number;
  selectedSlotIndex: number;
  isSneaking: boolean;
  readonly isSleeping: boolean;
  readonly messages: string[] = [];
  readonly commands: string[] = [];
  /** What runCommand does; the default succeeds once. */
  commandHandler: (command: string) => { successCount: number } = () => ({ successCount: 1 });
  private readonly init: PlayerInit;

  constructor(init: PlayerInit) {
    this.init = init;
    this.name = init.name;
    this.id = init.id ?? `-${init.name.length}4294967295`;
    this.dimension = { id: init.dimension ?? "minecraft:overworld" };
    this.location = init.location ?? { x: 0.5, y: 64, z: 0.5 };
    this.level = init.level ?? 0;
    this.xpEarnedAtCurrentLevel = init.xp?.atLevel ?? 0;
    this.totalXpNeededForNextLevel = init.xp?.toNext ?? 7;
    this.selectedSlotIndex = init.selectedSlot ?? 0;
    this.isSneaking = init.sneaking ?? false;
    this.isSleeping = init.sleeping ?? false;
  }

  getRotation(): { x: number; y: number } {
    return this.init.rotation ?? { x: 0, y: 0 };
  }
  getVelocity(): Vec3 {
    return this.init.velocity ?? { x: 0, y: 0, z: 0 };
  }
  getGameMode(): GameMode {
    return this.init.gameMode ?? GameMode.Survival;
  }
  getTags(): string[] {
    return [...(this.init.tags ?? [])];
  }
  /** Entity.addTag: false when it is already there; throws past 255 characters (the typings). */
  addTag(tag: string): boolean {
    if (tag.length > 255) throw new Error(`ArgumentOutOfBoundsError: a tag of ${tag.length} characters`);
    const tags = (this.init.tags ??= []);
    if (tags.includes(tag)) return false;
    tags.push(tag);
    return true;
  }
  removeTag(tag: string): boolean {
    const tags = this.init.tags ?? [];
    const at = tags.indexOf(tag);
    if (at < 0) return false;
    tags.splice(at, 1);
    return true;
  }
  getTotalXp(): number {
    return this.init.xp?.total ?? 0;
  }
  sendMessage(message: string): void {
    this.messages.push(message);
  }
  runCommand(command: string): { successCount: number } {
    this.commands.push(command);
    return this.commandHandler(command);
  }

  getComponent(id: string): object | undefined {
    const init = this.init;
    if (id === "minecraft:health") {
      const health = init.health === undefined ? { current: 20, max: 20 } : init.health;
      return health === null ? undefined : { currentValue: health.current, effectiveMax: health.max };
    }
    if (id === "minecraft:inventory") {
      if (init.inventory === null) return undefined;
      const slots = init.inventory ?? new Array<ItemStack | undefined>(36).fill(undefined);
      return { container: { size: slots.length, getItem: (i: number) => slots[i] } };
    }
    if (id === "minecraft:equippable") {
      return { getEquipment: (slot: EquipmentSlot) => init.equipment?.[slot] };
    }
    return undefined;
  }
}

/** The real type, for passing mock players to code typed against @minecraft/server. */
export function asPlayer(player: Player): real.Player {
  return player as unknown as real.Player;
}

type Listener<T> = (event: T) => void;

class Signal<T> {
  listeners: Listener<T>[] = [];
  subscribe(listener: Listener<T>): Listener<T> {
    this.listeners.push(listener);
    return listener;
  }
  fire(event: T): void {
    for (const l of this.listeners) l(event);
  }
}

export interface ScriptEventInit {
  id: string;
  message: string;
  sourceType: string;
  sourceEntity?: Player;
}

export interface Registered {
  command: {
    name: string;
    permissionLevel: CommandPermissionLevel;
    mandatoryParameters?: { name: string; type: CustomCommandParamType }[];
    optionalParameters?: { name: string; type: CustomCommandParamType }[];
  };
  callback: (origin: { sourceEntity?: Player }, ...args: unknown[]) => { status: CustomCommandStatus; message?: string } | undefined;
}

interface Timer {
  at: number;
  every: number | null;
  callback: () => void;
}

export interface BlockInit {
  typeId: string;
  states?: Record<string, string | number | boolean>;
}

/** A thrown error of the kind the game throws (matched by name, as the addon does). */
export class NamedError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

type StateValue = string | number | boolean;

/** The block types the mock world knows, each state with its values (the first the default). */
export const KNOWN_BLOCKS: Record<string, Record<string, StateValue[]>> = {
  "minecraft:air": {},
  "minecraft:stone": {},
  "minecraft:dirt": {},
  "minecraft:glass": {},
  "minecraft:red_wool": {},
  "minecraft:grass_block": {},
  "minecraft:oak_log": { pillar_axis: ["y", "x", "z"] },
  "minecraft:oak_stairs": { upside_down_bit: [false, true], weirdo_direction: [0, 1, 2, 3] },
};

/** The game's BlockPermutation over KNOWN_BLOCKS: resolve throws for a name or state it does
 * not know (the typings: "This function can throw errors"). */
export class BlockPermutation {
  private constructor(
    readonly typeId: string,
    private readonly states: Record<string, StateValue>,
  ) {}

  static resolve(name: string, states?: Record<string, StateValue>): BlockPermutation {
    const known = KNOWN_BLOCKS[name];
    if (known === undefined) throw new Error(`Failed to resolve block permutation: unknown block ${name}`);
    const full: Record<string, StateValue> = {};
    for (const [key, values] of Object.entries(known)) full[key] = values[0]!;
    for (const [key, value] of Object.entries(states ?? {})) {
      if (!(known[key] ?? []).includes(value)) throw new Error(`Failed to resolve block permutation: ${key}=${String(value)}`);
      full[key] = value;
    }
    return new BlockPermutation(name, full);
  }

  static of(block: BlockInit): BlockPermutation {
    const known = KNOWN_BLOCKS[block.typeId] ?? {};
    const full: Record<string, StateValue> = {};
    for (const [key, values] of Object.entries(known)) full[key] = values[0]!;
    return new BlockPermutation(block.typeId, { ...full, ...(block.states ?? {}) });
  }

  get type(): { id: string } {
    return { id: this.typeId };
  }

  getAllStates(): Record<string, StateValue> {
    return { ...this.states };
  }

  matches(typeId: string, states?: Record<string, StateValue>): boolean {
    return typeId === this.typeId && Object.entries(states ?? {}).every(([k, v]) => this.states[k] === v);
  }
}

/** A non-player entity, as world.getEntity returns it. */
export interface MockEntity {
  id: string;
  typeId: string;
  nameTag: string;
}

class MockState {
  players: Player[] = [];
  /** "dimension:x,y,z" -> block; anything else is air. */
  blocks = new Map<string, BlockInit>();
  /** "dimension:cx,cz" of chunks that are not loaded. */
  unloadedChunks = new Set<string>();
  getBlockCalls = 0;
  setPermutationCalls = 0;
  /** Throw this from the next setPermutation (then forget it). */
  nextSetPermutationError: Error | null = null;
  containsBlockCalls = 0;
  /** Throw this from the next getBlock (then forget it). */
  nextGetBlockError: Error | null = null;
  jobs: Generator<void, void, void>[] = [];
  /** Resumptions each job gets per tick. */
  jobStepsPerTick = 4;
  entities: MockEntity[] = [];
  dynamicProperties = new Map<string, unknown>();
  /** What getDefaultSpawnLocation answers: a new world's, whose height is not fixed. */
  spawn: Vec3 = { x: 0, y: 32767, z: 0 };
  worldCommands: string[] = [];
  worldCommandHandler: (command: string) => { successCount: number } = () => ({ successCount: 1 });
  registeredCommands: Registered[] = [];
  timers: Timer[] = [];
  tick = 0;
}

export const state = new MockState();

/** A box of positions, corners inclusive, as the game's BlockVolume. */
export class BlockVolume {
  constructor(
    public from: Vec3,
    public to: Vec3,
  ) {}

  *positions(): Generator<Vec3> {
    const [a, b] = [this.from, this.to];
    for (let y = Math.min(a.y, b.y); y <= Math.max(a.y, b.y); y++) {
      for (let z = Math.min(a.z, b.z); z <= Math.max(a.z, b.z); z++) {
        for (let x = Math.min(a.x, b.x); x <= Math.max(a.x, b.x); x++) yield { x, y, z };
      }
    }
  }
}

interface BlockFilter {
  includeTypes?: string[];
  excludeTypes?: string[];
}

function dimension(short: string, heightRange: { min: number; max: number }) {
  return {
    id: `minecraft:${short}`,
    heightRange,
    runCommand(command: string): { successCount: number } {
      state.worldCommands.push(command);
      return state.worldCommandHandler(command);
    },
    isChunkLoaded(location: Vec3): boolean {
      return !state.unloadedChunks.has(`${short}:${Math.floor(location.x) >> 4},${Math.floor(location.z) >> 4}`);
    },
    containsBlock(volume: BlockVolume, filter: BlockFilter, allowUnloadedChunks = false): boolean {
      state.containsBlockCalls += 1;
      const positions = [...volume.positions()];
      if (!allowUnloadedChunks && positions.some((at) => !this.isChunkLoaded(at))) {
        throw new NamedError("UnloadedChunksError", "the volume reaches into unloaded chunks");
      }
      for (const at of positions) {
        if (!this.isChunkLoaded(at)) continue;
        const typeId = state.blocks.get(`${short}:${at.x},${at.y},${at.z}`)?.typeId ?? "minecraft:air";
        const included = filter.includeTypes === undefined || filter.includeTypes.includes(typeId);
        if (included && !(filter.excludeTypes ?? []).includes(typeId)) return true;
      }
      return false;
    },
    getBlock(location: Vec3) {
      state.getBlockCalls += 1;
      const error = state.nextGetBlockError;
      if (error !== null) {
        state.nextGetBlockError = null;
        throw error;
      }
      const { x, y, z } = location;
      if (y < heightRange.min || y >= heightRange.max) throw new NamedError("LocationOutOfWorldBoundariesError", `y ${y}`);
      if (!this.isChunkLoaded(location)) return undefined;
      const key = `${short}:${x},${y},${z}`;
      const block = state.blocks.get(key) ?? { typeId: "minecraft:air" };
      return {
        typeId: block.typeId,
        location: { x, y, z },
        permutation: { getAllStates: () => ({ ...(block.states ?? {}) }), matches: (t: string, st?: Record<string, StateValue>) => BlockPermutation.of(block).matches(t, st) },
        setPermutation(permutation: BlockPermutation): void {
          state.setPermutationCalls += 1;
          const error = state.nextSetPermutationError;
          if (error !== null) {
            state.nextSetPermutationError = null;
            throw error;
          }
          state.blocks.set(key, { typeId: permutation.typeId, states: permutation.getAllStates() });
        },
      };
    },
  };
}

const dimensions: Record<string, ReturnType<typeof dimension>> = {
  overworld: dimension("overworld", { min: -64, max: 320 }),
  nether: dimension("nether", { min: 0, max: 128 }),
  the_end: dimension("the_end", { min: 0, max: 256 }),
};

export const world = {
  afterEvents: { worldLoad: new Signal<object>() },
  getAllPlayers: (): Player[] => [...state.players],
  getDimension: (id: string) => {
    const found = dimensions[id.replace(/^minecraft:/, "")];
    if (found === undefined) throw new Error(`no dimension ${id}`);
    return found;
  },
  getDefaultSpawnLocation: (): Vec3 => ({ ...state.spawn }),
  /** Like the game: undefined for an unknown id, a throw for one that is not an id at all. */
  getEntity(id: string): MockEntity | undefined {
    if (!/^-?\d+$/.test(id)) throw new Error(`invalid entity id ${id}`);
    const player = state.players.find((p) => p.id === id);
    if (player) return { id, typeId: "minecraft:player", nameTag: player.name };
    return state.entities.find((e) => e.id === id);
  },
  getDynamicProperty: (key: string): unknown => state.dynamicProperties.get(key),
  setDynamicProperty: (key: string, value: unknown): void => {
    state.dynamicProperties.set(key, value);
  },
};

export const system = {
  get currentTick(): number {
    return state.tick;
  },
  afterEvents: { scriptEventReceive: new Signal<ScriptEventInit>() },
  beforeEvents: {
    startup: new Signal<{ customCommandRegistry: { registerCommand: (c: Registered["command"], cb: Registered["callback"]) => void } }>(),
  },
  run(callback: () => void): number {
    return this.runTimeout(callback, 0);
  },
  runTimeout(callback: () => void, ticks = 1): number {
    state.timers.push({ at: state.tick + Math.max(ticks, 0), every: null, callback });
    return state.timers.length;
  },
  runInterval(callback: () => void, ticks = 1): number {
    state.timers.push({ at: state.tick + ticks, every: Math.max(ticks, 1), callback });
    return state.timers.length;
  },
  runJob(generator: Generator<void, void, void>): number {
    state.jobs.push(generator);
    return state.jobs.length;
  },
};

/** Test controls. */
export const mc = {
  reset(): void {
    Object.assign(state, new MockState());
  },
  addPlayer(init: PlayerInit): Player {
    const player = new Player(init);
    state.players.push(player);
    return player;
  },
  addEntity(entity: MockEntity): void {
    state.entities.push(entity);
  },
  removePlayer(name: string): void {
    state.players = state.players.filter((p) => p.name !== name);
  },
  /** Run due timers and give each job its steps, then advance one tick; `count` times. */
  advance(count = 1): void {
    for (let n = 0; n < count; n++) {
      const due = state.timers.filter((t) => t.at <= state.tick);
      state.timers = state.timers.filter((t) => t.at > state.tick || t.every !== null);
      for (const t of due) {
        if (t.every !== null) t.at = state.tick + t.every;
        t.callback();
      }
      for (const job of [...state.jobs]) {
        for (let step = 0; step < state.jobStepsPerTick; step++) {
          if (job.next().done === true) {
            state.jobs = state.jobs.filter((j) => j !== job);
            break;
          }
        }
      }
      state.tick += 1;
    }
  },
  /** Place a block ("overworld" unless a dimension is given). */
  setBlock(x: number, y: number, z: number, block: BlockInit, dim = "overworld"): void {
    state.blocks.set(`${dim}:${x},${y},${z}`, block);
  },
  unloadChunk(cx: number, cz: number, dim = "overworld"): void {
    state.unloadedChunks.add(`${dim}:${cx},${cz}`);
  },
  startup(): void {
    system.beforeEvents.startup.fire({
      customCommandRegistry: { registerCommand: (command, callback) => state.registeredCommands.push({ command, callback }) },
    });
  },
  worldLoad(): void {
    world.afterEvents.worldLoad.fire({});
  },
  scriptEvent(id: string, message: string, sourceEntity?: Player): void {
    const init: ScriptEventInit = { id, message, sourceType: sourceEntity ? "Entity" : "Server" };
    if (sourceEntity) init.sourceEntity = sourceEntity;
    system.afterEvents.scriptEventReceive.fire(init);
  },
};
