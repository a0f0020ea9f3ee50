// Modules and the watchdog for the simulated world's script host (modules.py, prototypes.py).
// A module arrives as a function (modules.py rewrote its imports and exports) evaluated at its
// own "slot": its first line is line slot * LINES + 1 of the script, so a stack frame's line
// number says which module it is in and where. The stack formatter below writes those frames
// as "at run (cell count_cows, line 4)" and, when a user module is on the stack, leaves out the
// addon's own frames: an error is shown where it happened, in the cell's lines.
"use strict";
(() => {
  const LINES = __sim_slot_lines;
  const labels = new Map(); // slot -> { label, user }
  const namespaces = new Map(); // a pack's module path -> its exports

  // --- the watchdog (docs/sim.md) --------------------------------------------------------
  // Every guarded loop condition calls this; the host sets __sim_deadline (ms since the epoch)
  // when it enters the script. Past it, every check throws, so a loop that catches the error
  // still ends at its next check.
  const CHECK_EVERY = 64;
  let count = 0;
  class WatchdogError extends Error {}
  WatchdogError.prototype.name = "WatchdogError"; // set before the stack is written
  globalThis.__mcbews_watchdog = () => {
    if (++count < CHECK_EVERY) return true;
    count = 0;
    if (Date.now() <= globalThis.__sim_deadline) return true;
    count = CHECK_EVERY;
    throw new WatchdogError(`script hang: ran longer than ${__sim_hang_ms} ms without returning (the watchdog's hang threshold), so it was interrupted`);
  };

  // --- stacks in the source's own lines --------------------------------------------------
  const where = (frame) => {
    const line = frame.getLineNumber() ?? 0;
    const slot = Math.floor((line - 1) / LINES);
    const known = frame.getFileName() === "<input>" ? labels.get(slot) : undefined;
    if (known === undefined) return { user: false, text: `${frame.getFileName()}:${line}:${frame.getColumnNumber()}` };
    return { user: known.user, text: `${known.label}, line ${line - slot * LINES}` };
  };
  Error.prepareStackTrace = (error, frames) => {
    const placed = frames.map((frame) => ({ name: frame.getFunctionName() || "<anonymous>", ...where(frame) }));
    const anyUser = placed.some((p) => p.user);
    const shown = placed.filter((p) => p.user || !anyUser).map((p) => `    at ${p.name} (${p.text})`);
    return [`${error.name}: ${error.message}`, ...shown].join("\n");
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

  globalThis.__mcbews_modules = {
    label(slot, label, user) { labels.set(slot, { label, user }); },
    /** Run a pack's module; `resolved` maps its relative specifiers to module paths. */
    run(path, fn, resolved) {
      const paths = JSON.parse(resolved);
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
    define(name, fn) {
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
  };
})();
