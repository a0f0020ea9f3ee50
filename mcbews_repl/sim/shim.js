// Simulator shims of @minecraft/server, -ui and -gametest, installed on globalThis before the
// addon's sim_bundle.js runs. Game state lives in Python; every read and write goes through one
// callable, __sim_call(op, json) -> json, so the traffic stays coarse and easy to log. Player
// state is fetched once per host entry (or after a command) and cached, because a capability
// reads a dozen properties of the same player in a row.
"use strict";
(() => {
  // The one way into Python, kept in this closure: scripts cannot reach it but through the
  // Script API below, so nothing a script hands the engine can call Python on its own.
  const host = __sim_call;
  delete globalThis.__sim_call;
  const call = (op, args) => {
    const out = JSON.parse(host(op, JSON.stringify(args ?? {})));
    if (out !== null && typeof out === "object" && "__error" in out) throw new Error(out.__error);
    return out;
  };
  // Restricted execution (a custom command's callback, facts.json): the functions the game
  // refuses there throw its ReferenceError. The host fills in the facts before the addon loads.
  let restricted = false;
  let facts = { refused: [], error: "Native function [%s] does not have required privileges." };
  const privileged = (name) => {
    if (restricted && facts.refused.includes(name)) throw new ReferenceError(facts.error.replace("%s", name));
  };
  let cache = new Map();
  // Block sections ("dim:cx:sy:cz") and chunk loaded flags ("dim:cx:cz") stay cached across
  // host entries while the world's block version (edits, loaded chunks) stays the same; the
  // version is asked for again after every command and host entry, before the next read.
  let sections = new Map();
  let blockVersion = null;
  let blocksChecked = false;
  const invalidate = () => { cache = new Map(); blocksChecked = false; };
  // Each entry from Python starts afresh: the engine's interrupt skips every finally block,
  // so an interrupted custom command leaves no restricted execution behind it.
  const enter = () => { invalidate(); restricted = false; };
  const blocksCurrent = () => {
    if (blocksChecked) return;
    const version = call("blocks_version", {});
    if (version !== blockVersion) { blockVersion = version; sections = new Map(); last = { found: null }; }
    blocksChecked = true;
  };
  const state = (name) => {
    if (!cache.has(name)) cache.set(name, call("player", { name }));
    const s = cache.get(name);
    if (s === null) throw new Error(`player ${name} is no longer in the world`);
    return s;
  };

  const enums = {
    CommandPermissionLevel: { Any: 0, GameDirectors: 1, Admin: 2, Host: 3, Owner: 4 },
    CustomCommandStatus: { Success: 0, Failure: 1 },
    CustomCommandParamType: {
      BlockType: "BlockType", Boolean: "Boolean", EntitySelector: "EntitySelector", EntityType: "EntityType", Enum: "Enum",
      Float: "Float", Integer: "Integer", ItemType: "ItemType", Location: "Location", PlayerSelector: "PlayerSelector", String: "String",
    },
    EquipmentSlot: { Chest: "Chest", Feet: "Feet", Head: "Head", Legs: "Legs", Mainhand: "Mainhand", Offhand: "Offhand" },
    GameMode: { Adventure: "Adventure", Creative: "Creative", Spectator: "Spectator", Survival: "Survival" },
    FormCancelationReason: { UserBusy: "UserBusy", UserClosed: "UserClosed" },
  };

  class ItemStack {
    constructor(data) { this._d = data; }
    get typeId() { return this._d.typeId; }
    get amount() { return this._d.amount; }
    get maxAmount() { return this._d.maxAmount; }
    get nameTag() { return this._d.nameTag ?? undefined; }
    getLore() { return [...this._d.lore]; }
    getComponent(id) {
      const d = this._d;
      if (id === "minecraft:enchantable" || id === "enchantable") {
        return { getEnchantments: () => d.enchantments.map((e) => ({ type: { id: e.type }, level: e.level })) };
      }
      if ((id === "minecraft:durability" || id === "durability") && d.maxDurability > 0) {
        return { damage: d.damage, maxDurability: d.maxDurability };
      }
      return undefined;
    }
  }
  const item = (data) => (data ? new ItemStack(data) : undefined);

  const runCommand = (origin, command) => {
    flushWrites(); // the command sees the script's writes
    const out = call("run_command", { origin, command });
    invalidate();
    return { successCount: out.successCount };
  };

  // --- blocks: read a 16x16x16 section at a time, cached like player state ------------
  class LocationOutOfWorldBoundariesError extends Error { constructor(m) { super(m); this.name = "LocationOutOfWorldBoundariesError"; } }
  class LocationInUnloadedChunkError extends Error { constructor(m) { super(m); this.name = "LocationInUnloadedChunkError"; } }
  const heights = new Map(); // dimension -> {min, max}: fixed for the world's life
  const range = (dim) => {
    if (!heights.has(dim)) heights.set(dim, call("height_range", { dimension: dim }));
    return heights.get(dim);
  };
  const heightRange = (dim) => ({ ...range(dim) });
  let last = { dim: null, cx: 0, sy: 0, cz: 0, found: null }; // the section read last
  const section = (dim, cx, sy, cz) => {
    blocksCurrent();
    if (last.found !== null && last.dim === dim && last.cx === cx && last.sy === sy && last.cz === cz) return last.found;
    const key = `${dim}:${cx}:${sy}:${cz}`;
    let found = sections.get(key);
    if (found === undefined) { found = call("block_section", { dimension: dim, cx, sy, cz }); sections.set(key, found); }
    last = { dim, cx, sy, cz, found };
    return found;
  };

  class UnloadedChunksError extends Error { constructor(m) { super(m); this.name = "UnloadedChunksError"; } }

  class BlockVolume {
    constructor(from, to) { this.from = { ...from }; this.to = { ...to }; }
    getMin() { return { x: Math.min(this.from.x, this.to.x), y: Math.min(this.from.y, this.to.y), z: Math.min(this.from.z, this.to.z) }; }
    getMax() { return { x: Math.max(this.from.x, this.to.x), y: Math.max(this.from.y, this.to.y), z: Math.max(this.from.z, this.to.z) }; }
    getCapacity() { const a = this.getMin(), b = this.getMax(); return (b.x - a.x + 1) * (b.y - a.y + 1) * (b.z - a.z + 1); }
  }
  const typeSet = (ids) => (ids === undefined ? null : new Set(ids.map((t) => (t.includes(":") ? t : `minecraft:${t}`))));

  class BlockPermutation {
    constructor(entry) { this._e = entry; }
    get type() { return { id: this._e.typeId }; }
    getAllStates() { return { ...this._e.states }; }
    getState(name) { return this._e.states[name]; }
    matches(typeId, states) {
      const id = typeId.includes(":") ? typeId : `minecraft:${typeId}`;
      return id === this._e.typeId && Object.entries(states ?? {}).every(([k, v]) => this._e.states[k] === v);
    }
    // The game's resolve throws for a block type or state it does not know (facts.json,
    // block_permutation_resolve: the types and states from vanilla-data). Asked of Python
    // once per name and states.
    static resolve(name, states) {
      const key = JSON.stringify([String(name), states ?? null]);
      let entry = resolved.get(key);
      if (entry === undefined) {
        entry = call("resolve_block", { name: String(name), states: states ?? null });
        resolved.set(key, entry);
      }
      if (entry.error !== undefined) throw new Error(entry.error);
      return new BlockPermutation(entry);
    }
  }
  const resolved = new Map(); // resolve's answers: the block types never change
  // Block writes (Block.setPermutation) wait here and go to Python in one call before anything
  // else reads the world from outside the script: at the end of each host entry, and before a
  // command runs. The cached section is changed at once, so the script reads its own writes.
  let writes = []; // [dimension, x, y, z, typeId, states]
  const flushWrites = () => {
    if (writes.length === 0) return;
    const byDimension = new Map();
    for (const [dim, ...rest] of writes) {
      if (!byDimension.has(dim)) byDimension.set(dim, []);
      byDimension.get(dim).push(rest);
    }
    writes = [];
    for (const [dimension, list] of byDimension) call("set_blocks", { dimension, writes: list });
    // The cached sections hold these writes already: when they were current before, they are
    // current at the world's new block version too, and need not be read again.
    if (blocksChecked) blockVersion = call("blocks_version", {});
  };

  class Block {
    // Plain fields, not getters, where a box reader touches them for every position.
    constructor(dimension, x, y, z, entry) { this.dimension = dimension; this.x = x; this.y = y; this.z = z; this._e = entry; this.typeId = entry.typeId; }
    get location() { return { x: this.x, y: this.y, z: this.z }; }
    get type() { return { id: this._e.typeId }; }
    get permutation() { return new BlockPermutation(this._e); }
    get isAir() { return this._e.typeId === "minecraft:air"; }
    get isLiquid() { return this._e.typeId === "minecraft:water" || this._e.typeId === "minecraft:lava"; }
    get isValid() { return true; }
    // The typings: throws in an unloaded chunk or outside the height range; refused in
    // restricted execution (facts.json, block_set_permutation).
    setPermutation(permutation) {
      privileged("Block::setPermutation");
      const dim = this.dimension._short;
      const found = section(dim, this.x >> 4, this.y >> 4, this.z >> 4);
      if (!found.loaded) throw new LocationInUnloadedChunkError(`${this.x}, ${this.y}, ${this.z} is in an unloaded chunk`);
      const entry = permutation._e;
      let index = found.palette.findIndex((p) => p.typeId === entry.typeId && JSON.stringify(p.states) === JSON.stringify(entry.states));
      if (index < 0) { found.palette.push({ typeId: entry.typeId, states: { ...entry.states } }); index = found.palette.length - 1; }
      found.ids[((this.y & 15) * 16 + (this.z & 15)) * 16 + (this.x & 15)] = index;
      this._e = found.palette[index];
      this.typeId = entry.typeId;
      writes.push([dim, this.x, this.y, this.z, entry.typeId, { ...entry.states }]);
    }
  }

  class Dimension {
    constructor(id) { this.id = `minecraft:${id}`; this._short = id; }
    get heightRange() { return heightRange(this._short); }
    runCommand(command) { privileged("Dimension::runCommand"); return runCommand({ dimension: this._short }, command); }
    isChunkLoaded(location) {
      const cx = Math.floor(location.x) >> 4, cz = Math.floor(location.z) >> 4;
      const key = `${this._short}:${cx}:${cz}`;
      blocksCurrent();
      if (!sections.has(key)) sections.set(key, call("chunk_loaded", { dimension: this._short, cx, cz }));
      return sections.get(key);
    }
    // True when a block of the volume passes the filter (types only: tags and permutations
    // are not modelled and say so). An unloaded chunk throws UnloadedChunksError unless
    // allowUnloadedChunks, then its blocks are skipped, as the typings document.
    containsBlock(volume, filter, allowUnloadedChunks = false) {
      const f = filter ?? {};
      if (f.includeTags || f.excludeTags || f.includePermutations || f.excludePermutations) {
        throw new Error("the simulated world's containsBlock filters by type only");
      }
      const include = typeSet(f.includeTypes), exclude = typeSet(f.excludeTypes) ?? new Set();
      const lo = volume.getMin(), hi = volume.getMax();
      const bounds = this._range ?? (this._range = range(this._short));
      if (lo.y < bounds.min || hi.y >= bounds.max) throw new LocationOutOfWorldBoundariesError(`${lo.y}..${hi.y} is outside ${this.id}'s height range`);
      for (let cx = lo.x >> 4; cx <= hi.x >> 4 && !allowUnloadedChunks; cx++) {
        for (let cz = lo.z >> 4; cz <= hi.z >> 4; cz++) {
          if (!this.isChunkLoaded({ x: cx * 16, y: lo.y, z: cz * 16 })) throw new UnloadedChunksError("the volume reaches into chunks that are not loaded");
        }
      }
      for (let y = lo.y; y <= hi.y; y++) for (let z = lo.z; z <= hi.z; z++) for (let x = lo.x; x <= hi.x; x++) {
        const found = section(this._short, x >> 4, y >> 4, z >> 4);
        if (!found.loaded) continue; // allowUnloadedChunks: those blocks are not checked
        const typeId = found.palette[found.ids[((y & 15) * 16 + (z & 15)) * 16 + (x & 15)]].typeId;
        if ((include === null || include.has(typeId)) && !exclude.has(typeId)) return true;
      }
      return false;
    }
    // The game's contract (its typings): undefined in an unloaded chunk, a throw outside the
    // dimension's height range.
    getBlock(location) {
      const x = Math.floor(location.x), y = Math.floor(location.y), z = Math.floor(location.z);
      const bounds = this._range ?? (this._range = range(this._short));
      if (y < bounds.min || y >= bounds.max) throw new LocationOutOfWorldBoundariesError(`y ${y} is outside ${this.id}'s height range`);
      const found = section(this._short, x >> 4, y >> 4, z >> 4);
      if (!found.loaded) return undefined;
      return new Block(this, x, y, z, found.palette[found.ids[((y & 15) * 16 + (z & 15)) * 16 + (x & 15)]]);
    }
  }

  class Player {
    constructor(name) { this._name = name; }
    get name() { return this._name; }
    get typeId() { return "minecraft:player"; }
    get nameTag() { return this._name; }
    get id() { return state(this._name).id; }
    get location() { return { ...state(this._name).location }; }
    get dimension() { return new Dimension(state(this._name).dimension); }
    get level() { return state(this._name).level; }
    get xpEarnedAtCurrentLevel() { return state(this._name).xpPoints; }
    get totalXpNeededForNextLevel() { return xpForLevel(state(this._name).level); }
    get selectedSlotIndex() { return state(this._name).selectedSlot; }
    get isSneaking() { return false; }
    get isSleeping() { return false; }
    isValid() { return call("player", { name: this._name }) !== null; }
    getTotalXp() {
      const s = state(this._name);
      let total = s.xpPoints;
      for (let l = 0; l < s.level; l++) total += xpForLevel(l);
      return total;
    }
    getRotation() { const s = state(this._name); return { x: s.pitch, y: s.yaw }; }
    getVelocity() { return { x: 0, y: 0, z: 0 }; }
    getGameMode() { return state(this._name).gameMode; }
    getTags() { return [...state(this._name).tags]; }
    hasTag(tag) { return state(this._name).tags.includes(tag); }
    // Writes: refused in restricted execution; the host checks the tag's length (facts.json).
    addTag(tag) { privileged("Entity::addTag"); const added = call("add_tag", { name: this._name, tag: String(tag) }); invalidate(); return added; }
    removeTag(tag) { privileged("Entity::removeTag"); const had = call("remove_tag", { name: this._name, tag: String(tag) }); invalidate(); return had; }
    sendMessage(message) { call("send_message", { name: this._name, message: rawText(message) }); }
    runCommand(command) { privileged("Entity::runCommand"); return runCommand({ player: this._name }, command); }
    getComponent(id) {
      const name = this._name;
      const s = state(name);
      switch (id.replace(/^minecraft:/, "")) {
        case "health":
          return { currentValue: s.health, effectiveMax: s.maxHealth, defaultValue: s.maxHealth };
        case "inventory":
          return {
            container: {
              size: s.inventory.length,
              getItem: (slot) => item(state(name).inventory[slot]),
              get emptySlotsCount() { return state(name).inventory.filter((x) => x === null).length; },
            },
          };
        case "equippable":
          return {
            getEquipment: (slot) => item(slot === "Mainhand" ? state(name).inventory[state(name).selectedSlot] : state(name).equipment[slot]),
          };
        default:
          return undefined;
      }
    }
  }

  // XP needed to go from `level` to level+1 (the game's published formula).
  const xpForLevel = (level) => (level < 16 ? 2 * level + 7 : level < 31 ? 5 * level - 38 : 9 * level - 158);
  const rawText = (message) => {
    if (typeof message === "string") return message;
    if (Array.isArray(message)) return message.map(rawText).join("");
    if (message && typeof message === "object") {
      if (typeof message.text === "string") return message.text;
      if (Array.isArray(message.rawtext)) return message.rawtext.map(rawText).join("");
      if (typeof message.translate === "string") return message.translate;
    }
    return String(message);
  };

  // --- events and the tick scheduler --------------------------------------------------
  const signal = () => {
    const listeners = [];
    return {
      subscribe(fn) { listeners.push(fn); return fn; },
      unsubscribe(fn) { const i = listeners.indexOf(fn); if (i >= 0) listeners.splice(i, 1); },
      _fire(event) { for (const fn of [...listeners]) guard("event listener", () => fn(event)); },
    };
  };
  const report = (where, err) => {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    const stack = err instanceof Error && err.stack ? err.stack : "";
    try { host("script_error", JSON.stringify({ where, message, stack })); } catch (_) { /* host gone */ }
  };
  const guard = (where, fn) => { try { return fn(); } catch (err) { report(where, err); return undefined; } };

  let currentTick = 0;
  let nextRunId = 1;
  const jobs = new Map(); // id -> { due, every, fn }
  // system.runJob generators. The game gives jobs a time slice each tick; the simulated
  // world gives them a fixed number of resumptions per tick, shared round robin, so a
  // test sees the same ticks every run (docs/sim.md, "Script API block reads").
  const JOB_STEPS_PER_TICK = 16;
  let nextJobId = 1;
  const generators = new Map(); // id -> generator
  const runJobs = () => {
    let steps = 0;
    while (generators.size > 0 && steps < JOB_STEPS_PER_TICK) {
      for (const [id, generator] of [...generators]) {
        if (steps >= JOB_STEPS_PER_TICK) break;
        steps += 1;
        const step = guard("system.runJob generator", () => generator.next());
        if (step === undefined || step.done) generators.delete(id);
      }
    }
  };
  const schedule = (fn, delay, every) => {
    const id = nextRunId++;
    jobs.set(id, { due: currentTick + Math.max(1, Math.floor(delay)), every, fn });
    return id;
  };

  const system = {
    get currentTick() { return currentTick; },
    run: (fn) => schedule(fn, 1, 0),
    runTimeout: (fn, ticks = 1) => schedule(fn, ticks, 0),
    runInterval: (fn, ticks = 1) => schedule(fn, ticks, Math.max(1, Math.floor(ticks))),
    clearRun: (id) => { jobs.delete(id); },
    runJob: (generator) => { const id = nextJobId++; generators.set(id, generator); return id; },
    clearJob: (id) => { generators.delete(id); },
    afterEvents: { scriptEventReceive: signal() },
    beforeEvents: { startup: signal() },
  };

  // The world.afterEvents the addon forwards (facts.json script_events): the signals of the
  // @minecraft/server 2.4.0 typings, fired by the simulated players' doings (sim/doings.py).
  const AFTER_EVENTS = ["playerBreakBlock", "playerPlaceBlock", "entityHitBlock", "entityDie", "playerSpawn",
    "playerLeave", "itemUse", "itemStartUse", "itemCompleteUse", "itemReleaseUse", "itemStopUse", "itemStartUseOn",
    "itemStopUseOn", "playerInteractWithBlock", "buttonPush", "leverAction"];
  const afterEvents = { worldLoad: signal() };
  for (const name of AFTER_EVENTS) afterEvents[name] = signal();
  // An event object from Python's description: {"$player": name}, {"$block": [dim, x, y, z, id]},
  // {"$permutation": typeId}, {"$item": stack}, {"$dimension": id}, {"$entity": {...}} become
  // the Script API's objects; anything else is copied as it is.
  const scriptValue = (v) => {
    if (Array.isArray(v)) return v.map(scriptValue);
    if (v === null || typeof v !== "object") return v;
    if ("$player" in v) return new Player(v.$player);
    if ("$block" in v) { // [dim, x, y, z, typeId]: the block as it is now, without a section read
      const [dim, x, y, z, typeId] = v.$block;
      return new Block(new Dimension(dim), x, y, z, { typeId, states: {} });
    }
    if ("$permutation" in v) return new BlockPermutation({ typeId: v.$permutation, states: {} });
    if ("$item" in v) return item(v.$item);
    if ("$dimension" in v) return new Dimension(v.$dimension);
    if ("$entity" in v) {
      const e = v.$entity;
      return { id: e.id, typeId: e.typeId, nameTag: e.nameTag, location: { ...e.location }, dimension: new Dimension(e.dimension), isValid: false };
    }
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = scriptValue(x);
    return out;
  };

  const world = {
    afterEvents,
    getAllPlayers: () => call("players", {}).map((n) => new Player(n)),
    getPlayers: (opts) => call("players", opts ?? {}).map((n) => new Player(n)),
    getDimension: (id) => new Dimension(String(id).replace(/^minecraft:/, "")),
    getDefaultSpawnLocation: () => call("spawn", {}),
    getEntity: (id) => {
      const found = call("entity", { id: String(id) });
      if (found === null) return undefined;
      if (found.player !== null) return new Player(found.player);
      return { id: String(id), typeId: found.typeId, nameTag: found.nameTag, isValid: () => true };
    },
    getDynamicProperty: (key) => call("dyn_get", { key }).value ?? undefined,
    setDynamicProperty: (key, value) => { call("dyn_set", { key, value: value ?? null }); },
    sendMessage: (message) => { call("send_message", { name: null, message: rawText(message) }); },
  };

  const customCommands = new Map();
  const registry = {
    registerCommand(def, fn) {
      customCommands.set(def.name, fn);
      const params = (list) => (list ?? []).map((p) => ({ name: p.name, type: p.type }));
      call("register_command", {
        name: def.name, permissionLevel: def.permissionLevel ?? 0,
        mandatory: params(def.mandatoryParameters), optional: params(def.optionalParameters),
      });
    },
    registerEnum() {},
  };

  class ModalFormData {
    constructor() { this._title = ""; this._fields = []; }
    title(t) { this._title = rawText(t); return this; }
    textField(label, placeholder, opts) { this._fields.push({ kind: "text", label: rawText(label), default: opts?.defaultValue ?? "" }); return this; }
    toggle(label, opts) { this._fields.push({ kind: "toggle", label: rawText(label), default: opts?.defaultValue ?? false }); return this; }
    submitButton() { return this; }
    show(player) {
      privileged("ModalFormData::show");
      const form = { player: player.name, title: this._title, fields: this._fields };
      return new Promise((resolve) => resolve(call("form", form)));
    }
  }

  globalThis.__mc_server = {
    ...enums, Player, ItemStack, Block, BlockPermutation, BlockVolume, system, world,
    LocationInUnloadedChunkError, LocationOutOfWorldBoundariesError, UnloadedChunksError,
  };
  globalThis.__mc_server_ui = { FormCancelationReason: enums.FormCancelationReason, ModalFormData };
  globalThis.__mc_server_gametest = {
    spawnSimulatedPlayer(location, name, gameMode) {
      privileged("::spawnSimulatedPlayer");
      call("spawn_simulated_player", { name, gameMode: gameMode ?? "Survival", x: location.x, y: location.y, z: location.z, dimension: location.dimension?._short ?? "overworld" });
      invalidate();
      return new Player(name);
    },
  };
  globalThis.console = {
    log: (...a) => call("log", { level: "info", message: a.map(String).join(" ") }),
    info: (...a) => call("log", { level: "info", message: a.map(String).join(" ") }),
    warn: (...a) => call("log", { level: "warning", message: a.map(String).join(" ") }),
    error: (...a) => call("log", { level: "error", message: a.map(String).join(" ") }),
  };

  // A microtask that throws would hand the engine its exception to report to Python; report
  // it here, as the game reports any script error.
  const queueMicrotask = globalThis.queueMicrotask;
  globalThis.queueMicrotask = (fn) => queueMicrotask(typeof fn === "function" ? () => guard("microtask", fn) : fn);

  // --- entries Python calls (one JSON string in, one out) -------------------------------
  globalThis.__sim_host = {
    configure(json) { facts = JSON.parse(json); },
    report,
    startup: () => { enter(); system.beforeEvents.startup._fire({ customCommandRegistry: registry }); },
    worldLoad: () => { enter(); world.afterEvents.worldLoad._fire({}); },
    tick(tick) {
      enter();
      currentTick = tick;
      for (const [id, job] of [...jobs]) {
        if (job.due > tick || !jobs.has(id)) continue;
        if (job.every > 0) job.due = tick + job.every; else jobs.delete(id);
        guard("system.run callback", job.fn);
      }
      const jobsRan = generators.size > 0;
      runJobs();
      guard("block writes", flushWrites);
      // A job that ran may still be running, or have finished and left work for the next
      // tick (its promise settles after this entry): fast mode ticks on either way.
      if (jobsRan) return tick + 1;
      let next = -1; // the next one-shot job: fast mode runs its tick at once
      for (const job of jobs.values()) if (job.every === 0 && (next < 0 || job.due < next)) next = job.due;
      return next;
    },
    afterEvent(json) {
      enter();
      const e = JSON.parse(json);
      const found = afterEvents[e.signal];
      if (found === undefined) throw new Error(`world.afterEvents has no ${e.signal}`);
      found._fire(scriptValue(e.event));
    },
    scriptEvent(json) {
      enter();
      const e = JSON.parse(json);
      const sourceEntity = e.sourcePlayer === null ? undefined : new Player(e.sourcePlayer);
      system.afterEvents.scriptEventReceive._fire({ id: e.id, message: e.message, sourceType: e.sourceType, sourceEntity });
      guard("block writes", flushWrites);
    },
    customCommand(json) {
      enter();
      const c = JSON.parse(json);
      const fn = customCommands.get(c.name);
      if (fn === undefined) return JSON.stringify({ status: 1, message: `unknown custom command ${c.name}` });
      const origin = { sourceEntity: c.player === null ? undefined : new Player(c.player), sourceType: c.player === null ? "Server" : "Entity" };
      restricted = true; // the game runs the callback in restricted execution
      let out;
      try {
        out = guard(`custom command ${c.name}`, () => fn(origin, ...c.args)) ?? { status: 1, message: "the command handler failed" };
      } finally {
        restricted = false;
        guard("block writes", flushWrites);
      }
      return JSON.stringify({ status: out.status ?? 0, message: out.message ?? "" });
    },
  };
})();
