// Modules and the watchdog for the simulated world's script host (modules.py, prototypes.py).
// A module arrives as source text (modules.py rewrote its imports and exports into a function)
// and is evaluated at its own "slot": its first line is line slot * LINES + 1 of the script, so
// a stack frame's line number says which module it is in and where. The stack formatter below
// writes those frames as "at run (cell count_cows, line 4)" and, when a user module is on the
// stack, leaves out the addon's own frames: an error is shown where it happened, in the cell's
// lines. The script's value is the one entry Python calls (host.py): it never throws, and hands
// back only text, so no object a script made is ever turned into text by the binding, which
// does that outside the engine's watch.
"use strict";
(() => {
  const LINES = __sim_slot_lines;
  const HANG = __sim_hang_message;
  const labels = new Map(); // slot -> { label, user }
  const namespaces = new Map(); // a pack's module path -> its exports
  const compiled = new Map(); // slot -> the module's function, until it runs
  const evaluate = globalThis.eval; // called by another name: a global (indirect) eval

  // --- the watchdog (docs/sim.md) --------------------------------------------------------
  // Every guarded loop condition calls this; the host sets the deadline (ms since the epoch)
  // when it enters the script. Past it, every check throws, so a loop that catches the error
  // still ends at its next check.
  const CHECK_EVERY = 64;
  let count = 0;
  let deadline = 0;
  class WatchdogError extends Error {}
  WatchdogError.prototype.name = "WatchdogError"; // set before the stack is written
  globalThis.__mcbews_watchdog = () => {
    if (++count < CHECK_EVERY) return true;
    count = 0;
    if (Date.now() <= deadline) return true;
    count = CHECK_EVERY;
    throw new WatchdogError(HANG);
  };

  // --- stacks in the source's own lines --------------------------------------------------
  const where = (frame) => {
    const line = frame.getLineNumber() ?? 0;
    const slot = Math.floor((line - 1) / LINES);
    const known = frame.getFileName() === "<input>" ? labels.get(slot) : undefined;
    if (known === undefined) return { user: false, text: `${frame.getFileName()}:${line}:${frame.getColumnNumber()}` };
    return { user: known.user, text: `${known.label}, line ${line - slot * LINES}` };
  };
  const format = (error, frames) => {
    const placed = frames.map((frame) => ({ name: frame.getFunctionName() || "<anonymous>", ...where(frame) }));
    const anyUser = placed.some((p) => p.user);
    const shown = placed.filter((p) => p.user || !anyUser).map((p) => `    at ${p.name} (${p.text})`);
    // The engine's interrupt and out-of-memory errors: nothing may add to them afterwards.
    if (error instanceof InternalError) Object.freeze(error);
    return [`${error.name}: ${error.message}`, ...shown].join("\n");
  };
  Error.prepareStackTrace = format;
  // Kept: a script's own formatter would run inside every error the engine makes.
  Object.defineProperty(Error, "prepareStackTrace", { get: () => format, configurable: false });

  // The engine's own errors (the interrupt, out of memory) reach the binding uncaught, which
  // turns them into text outside the engine's watch: what that reads is fixed here, before
  // any script runs (a script's toString there could hang or call into Python unwatched).
  const errorStack = Object.getOwnPropertyDescriptor(Error.prototype, "stack");
  Object.defineProperties(InternalError.prototype, {
    [Symbol.toPrimitive]: { value: undefined },
    toString: { value: Error.prototype.toString },
    name: { value: "InternalError" },
    stack: { get: errorStack.get, set: errorStack.set },
  });
  Object.preventExtensions(InternalError.prototype);

  const describe = (err) => {
    try {
      const stack = err instanceof Error ? err.stack : undefined;
      return typeof stack === "string" && stack !== "" ? stack : String(err);
    } catch (_) {
      return "an error that cannot be shown (its own toString failed)";
    }
  };

  // --- loading -----------------------------------------------------------------------------
  const builtins = { "@minecraft/server": "__mc_server", "@minecraft/server-ui": "__mc_server_ui", "@minecraft/server-gametest": "__mc_server_gametest" };
  const builtin = (specifier) => {
    const name = builtins[specifier];
    const found = name === undefined ? undefined : globalThis[name];
    if (found === undefined) throw new Error(`cannot import ${specifier}: the simulated world offers ${Object.keys(builtins).join(", ")}`);
    return new Proxy(found, {
      get(target, key) {
        if (typeof key === "string" && !(key in target) && key !== "default" && key !== "then") {
          throw new ReferenceError(`the simulated world does not provide ${key} from ${specifier} yet`);
        }
        return target[key];
      },
    });
  };

  const modules = {
    label(slot, label, user) { labels.set(slot, { label, user }); },
    arm(ms) { deadline = ms; count = 0; },
    /** Evaluate a module's function at its slot's lines; it waits there until it runs. */
    compile(slot, source) { compiled.set(slot, evaluate("\n".repeat(slot * LINES) + source)); },
    /** Run a pack's module; `resolved` maps its relative specifiers to module paths. */
    run(path, slot, resolved) {
      const paths = JSON.parse(resolved);
      const fn = take(slot);
      const exports = {};
      fn((specifier) => {
        if (specifier in paths) return namespaces.get(paths[specifier]);
        return builtin(specifier);
      }, exports);
      namespaces.set(path, exports);
      // A pack's bridge exports its prototype registrar (src/stable.ts): define() uses it.
      if (typeof exports.prototypes?.define === "function") globalThis.__mcbews_prototypes ??= exports.prototypes;
    },
    /** Run a notebook's prototype module and register what it exports (prototypes.ts). */
    define(name, slot) {
      const fn = take(slot);
      const exports = {};
      fn(builtin, exports);
      const found = "default" in exports ? [exports.default] : Object.values(exports).filter((v) => v && typeof v === "object");
      if (found.length !== 1) throw new TypeError(`the cell must export one capability (export default { name, description, params, run }); it exports ${Object.keys(exports).join(", ") || "nothing"}`);
      const cap = found[0];
      if (cap && typeof cap === "object" && cap.name === undefined) cap.name = name;
      if (cap && cap.name !== name) throw new TypeError(`the cell defines ${JSON.stringify(cap.name)}, not ${name}: use the same name in both places`);
      const defined = __mcbews_prototypes.define(cap);
      return JSON.stringify({ name: defined, params: cap.params ?? {} });
    },
    remove: (name) => __mcbews_prototypes.remove(name),
    names: () => JSON.stringify(__mcbews_prototypes.names()),
    /** The addon's bundle, loaded as a module: report its failure as a script error. */
    loaded(promise) { promise.then(() => {}, (e) => report("module load", e)); },
  };
  const take = (slot) => {
    const fn = compiled.get(slot);
    compiled.delete(slot);
    if (typeof fn !== "function") throw new TypeError(`no module was compiled at slot ${slot}`);
    return fn;
  };
  const report = __sim_host.report;
  // Every entry, captured now: what a script later does to the globals changes none of them.
  const entries = { ...__sim_host, ...modules };
  /** The one entry from Python: JSON text, [true, the value] or [false, the error's text]
   * (JSON.stringify makes flat strings, which the binding reads; a concatenation may not). */
  return (name, ...args) => {
    try {
      return JSON.stringify([true, entries[name](...args) ?? null]);
    } catch (err) {
      return JSON.stringify([false, describe(err)]);
    }
  };
})();
