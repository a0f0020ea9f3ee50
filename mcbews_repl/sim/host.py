"""The script host: the addon's sim_bundle.js running in QuickJS on the simulated world.

QuickJS is Bedrock's own script engine. The ``quickjs`` module (PyPI ``quickjs-ng``) has no
module loader, so the addon is built with ``@minecraft/*`` bound to objects that
``shim.js`` installs on ``globalThis``. Every JS -> Python call goes through one callable
taking and returning JSON text (:mod:`.hostapi` answers it); Python -> JS calls go through
``globalThis.__sim_host``. A script error is logged with its JS stack and kept in
:attr:`ScriptHost.errors`; it never hangs the world. The binding refuses to call into Python
while its own time limit is set, so the watchdog is the loops' own: :mod:`.modules` makes
every loop of a module it loads check the clock against the hang threshold (docs/sim.md);
memory and stack are bounded as well. Prototypes (:meth:`ScriptHost.define_prototype`) are
loaded into the running addon by :mod:`.modules` and ``modules.js``.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import quickjs  # type: ignore[import-untyped]  # the binding ships no stubs

from ..exceptions import PrototypeError
from .facts import restricted_execution
from .hostapi import HostApi
from .modules import ModuleSyntaxError, wrap_module

__all__ = ["ScriptError", "ScriptHost", "bundled_addon", "declared_dependencies"]

log = logging.getLogger("mcbews_repl.sim")

# The game's watchdog (docs/sim.md): script-watchdog-memory-limit is 250 MB; its hang threshold
# is 3000 ms in worlds and Realms (10000 ms in a Dedicated Server's server.properties).
SCRIPT_MEMORY_LIMIT_BYTES = 250 * 1024 * 1024
SCRIPT_STACK_LIMIT_BYTES = 4 * 1024 * 1024  # deep enough for JSON, bounded for runaway recursion
HANG_THRESHOLD_MS = 3000
# Each loaded module starts at its own multiple of this many lines (modules.js): a stack
# frame's line number then says which module and which of its lines. Longer modules are refused.
SLOT_LINES = 10_000


@dataclass(frozen=True)
class ScriptError:
    where: str
    message: str
    stack: str


def bundled_addon(pack: str = "stable") -> Path:
    """A pack's bundle shipped in the package (``mcbews_repl/addon/sim_<pack>.js``)."""
    return Path(str(resources.files("mcbews_repl").joinpath("addon", f"sim_{pack}.js")))


_DEPENDENCIES = re.compile(r"^// dependencies: (\[.*\])$", re.MULTILINE)


def declared_dependencies(bundle_source: str) -> list[dict[str, Any]]:
    """The module dependencies a bundle declares in its header (its pack's manifest.json
    ones; addon/scripts/build.mjs writes them); none for a bundle without the line."""
    head = bundle_source[:4096]
    match = _DEPENDENCIES.search(head)
    if match is None:
        return []
    try:
        found = json.loads(match.group(1))
    except ValueError:
        return []
    return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []


def _source(name: str) -> str:
    return resources.files("mcbews_repl.sim").joinpath(name).read_text(encoding="utf-8")


_FRAME_LINE = re.compile(r"\((?P<label>[^()]*), line (?P<line>\d+)\)")


def js_error_text(exc: Exception) -> str:
    """A JavaScript exception as its stack says it (the binding puts the message first, then
    the stack, which starts with the same message)."""
    text = str(exc).strip()
    first, _, rest = text.partition("\n")
    return rest.strip("\n") if rest.startswith(first) else text


def _line_of(label: str, text: str) -> int | None:
    """The first line number a stack gives inside ``label`` (modules.js writes the frames)."""
    for found in _FRAME_LINE.finditer(text):
        if found.group("label") == label:
            return int(found.group("line"))
    return None


class ScriptHost:
    """The addon's script context. ``bundle_source``: a simulator bundle to load at once;
    None leaves loading to the caller (:func:`.packs.load_pack` links a pack's modules)."""

    def __init__(
        self,
        api: HostApi,
        bundle_source: str | None,
        *,
        hang_threshold_ms: int = HANG_THRESHOLD_MS,
    ) -> None:
        self.api = api
        self.errors: list[ScriptError] = []
        self.hang_threshold_ms = hang_threshold_ms
        self._slots: dict[str, int] = {}
        self._ctx = quickjs.Context()
        self._ctx.set_memory_limit(SCRIPT_MEMORY_LIMIT_BYTES)
        self._ctx.set_max_stack_size(SCRIPT_STACK_LIMIT_BYTES)
        self._ctx.add_callable("__sim_call", self._call)
        self._ctx.eval(_source("shim.js"))
        self._ctx.set("__sim_slot_lines", SLOT_LINES)
        self._ctx.set("__sim_hang_ms", hang_threshold_ms)
        self._arm()
        self._ctx.eval(_source("modules.js"))
        self._modules = {
            name: self._ctx.eval(f"__mcbews_modules.{name}")
            for name in ("label", "run", "define", "remove", "names")
        }
        self._fns = {
            name: self._ctx.eval(f"__sim_host.{name}")
            for name in ("startup", "worldLoad", "tick", "scriptEvent", "customCommand")
        }
        self._ctx.eval("__sim_host.configure")(json.dumps(restricted_execution()))
        if bundle_source is not None:
            self._load_module(bundle_source)

    def _arm(self) -> None:
        """Start the watchdog's clock: the script now entered may run this long."""
        self._ctx.set("__sim_deadline", time.time() * 1000.0 + self.hang_threshold_ms)

    def _load_module(self, source: str) -> None:
        self._arm()
        promise = self._ctx.module(source)
        self._ctx.set("__sim_loaded", promise)
        self._ctx.eval(
            "__sim_loaded.then(() => {}, (e) => __sim_call('script_error', JSON.stringify("
            "{where: 'module load', message: String(e), stack: (e && e.stack) || ''})))"
        )
        self.drain()
        if self.errors:
            first = self.errors[0]
            raise RuntimeError(f"the addon failed to load: {first.message}\n{first.stack}")

    # --- JS -> Python ---------------------------------------------------------------
    def _call(self, op: str, args_json: str) -> str:
        """The one bridge from JS. It must never raise: the binding turns a Python
        exception into a SystemError, so failures travel back as ``{"__error": ...}``."""
        try:
            if op == "script_error":
                self._script_error(json.loads(args_json))
                return "null"
            result: Any = self.api.handle(op, json.loads(args_json))
            return json.dumps(result)
        except Exception as exc:  # reported to JS, which throws it as an Error
            log.debug("sim host op %s failed", op, exc_info=True)
            return json.dumps({"__error": f"{type(exc).__name__}: {exc}"})

    def fail(self, where: str, message: str) -> None:
        """Record a script error as the game's content log would show it (no JS ran)."""
        self._script_error({"where": where, "message": message, "stack": f"    at {where}"})

    def _script_error(self, data: dict[str, str]) -> None:
        error = ScriptError(data.get("where", "?"), data.get("message", ""), data.get("stack", ""))
        self.errors.append(error)
        log.error("addon script error in %s: %s\n%s", error.where, error.message, error.stack)

    # --- Python -> JS ---------------------------------------------------------------
    def drain(self) -> None:
        """Run pending promise jobs (form answers, .then chains) to completion."""
        try:
            while True:
                self._arm()
                if not self._ctx.execute_pending_job():
                    break
        except quickjs.JSException as exc:
            self._script_error({"where": "promise job", "message": str(exc), "stack": str(exc)})

    def _enter(self, method: str, *args: Any) -> Any:
        self._arm()
        try:
            value = self._fns[method](*args)
        except quickjs.JSException as exc:
            self._script_error({"where": method, "message": str(exc), "stack": str(exc)})
            value = None
        self.drain()
        return value

    def startup(self) -> None:
        self._enter("startup")

    def world_load(self) -> None:
        self._enter("worldLoad")

    def tick(self, tick: int) -> int | None:
        """Run the jobs due at ``tick``; return the next one-shot job's tick, if any."""
        value = self._enter("tick", tick)
        return int(value) if isinstance(value, int | float) and value >= 0 else None

    def script_event(
        self, event_id: str, message: str, source_type: str, source_player: str | None
    ) -> None:
        event = {
            "id": event_id,
            "message": message,
            "sourceType": source_type,
            "sourcePlayer": source_player,
        }
        self._enter("scriptEvent", json.dumps(event))

    def custom_command(self, name: str, player: str | None, args: list[Any]) -> dict[str, Any]:
        raw = self._enter(
            "customCommand", json.dumps({"name": name, "player": player, "args": args})
        )
        result: dict[str, Any] = json.loads(raw) if isinstance(raw, str) else {"status": 1}
        return result

    # --- modules and prototypes (modules.py, modules.js) -----------------------------
    def compile_module(self, label: str, source: str, *, user: bool) -> Any:
        """Evaluate a module as a function at its own slot; raise :class:`PrototypeError`
        with the source's line for a syntax error."""
        if source.count("\n") >= SLOT_LINES - 2:
            raise PrototypeError(f"{label} is too long: keep it under {SLOT_LINES - 2} lines")
        try:
            wrapped = wrap_module(source)
        except ModuleSyntaxError as exc:
            raise PrototypeError(f"{label}, line {exc.line}: {exc}", exc.line) from None
        slot = self._slots.setdefault(label, len(self._slots) + 1)
        self._modules["label"](slot, label, user)
        self._arm()
        try:
            return self._ctx.eval("\n" * (slot * SLOT_LINES) + wrapped.function)
        except quickjs.JSException as exc:
            text = js_error_text(exc)
            line = _line_of(label, text)
            where = label if line is None else f"{label}, line {line}"
            last = source.count("\n") + 1
            if line is not None and line > last:  # past the end: a brace or bracket too many
                line, where = last, f"{label}, at its end (a brace or bracket too many?)"
            raise PrototypeError(f"{where}: {text.splitlines()[0]}", line) from None

    def module_imports(self, source: str) -> list[str]:
        return wrap_module(source).imports

    def run_module(self, path: str, function: Any, resolved: dict[str, str]) -> None:
        """Run one module of a pack; its relative imports resolve through ``resolved``."""
        self._call_js(path, self._modules["run"], path, function, json.dumps(resolved))

    def define_prototype(self, name: str, source: str) -> dict[str, str]:
        """Register a notebook's capability module into the running addon (replacing one of
        that name); return its params; raise :class:`PrototypeError` saying why it was not."""
        function = self.compile_module(f"cell {name}", source, user=True)
        defined = self._call_js(f"cell {name}", self._modules["define"], name, function)
        params: dict[str, str] = json.loads(defined)["params"]
        return params

    def remove_prototype(self, name: str) -> bool:
        return bool(self._modules["remove"](name))

    def prototype_names(self) -> list[str]:
        names: list[str] = json.loads(self._modules["names"]())
        return names

    def _call_js(self, label: str, fn: Any, *args: Any) -> Any:
        self._arm()
        try:
            return fn(*args)
        except quickjs.JSException as exc:
            text = js_error_text(exc)
            line = _line_of(label, text)
            shown = text if line is not None else text.splitlines()[0]  # no frame of its own
            raise PrototypeError(f"{label} failed to load: {shown}", line) from None
        finally:
            self.drain()
