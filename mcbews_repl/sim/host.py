"""The script host: the addon's sim_bundle.js running in QuickJS on the simulated world.

QuickJS is Bedrock's own script engine. The ``quickjs`` module (PyPI ``quickjs-ng``) has no
module loader, so the addon is built with ``@minecraft/*`` bound to objects that
``shim.js`` installs on ``globalThis``. Every JS -> Python call goes through one callable
taking and returning JSON text (:mod:`.hostapi` answers it); Python -> JS calls go through
``globalThis.__sim_host``. A script error is logged with its JS stack and kept in
:attr:`ScriptHost.errors`; it never hangs the world.

Each entry from Python into JavaScript is one *job* (a tick's callbacks, an event, a custom
command, a prototype's load, with the promise jobs it leaves), and each job may run for the
hang threshold (docs/sim.md "The watchdog"): the loops of every module the host loads check
the clock themselves (:mod:`.modules`), and the engine's own interrupt (:mod:`.interrupt`)
ends whatever else runs on, where this platform lets it be installed (by a watchdog thread of
the host's, once a job is past its deadline; :meth:`ScriptHost.close` joins it). Memory and
stack are bounded as well. Prototypes (:meth:`ScriptHost.define_prototype`) are loaded into
the running addon by :mod:`.modules` and ``modules.js``, whose one entry function hands back
only text.
"""

from __future__ import annotations

import json
import logging
import re
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import quickjs  # type: ignore[import-untyped]  # the binding ships no stubs

from ..exceptions import PrototypeError
from .facts import restricted_execution
from .hostapi import HostApi
from .interrupt import attach, detach
from .modules import ModuleSyntaxError, wrap_module

__all__ = ["ScriptError", "ScriptHost", "Watchdog", "bundled_addon", "declared_dependencies"]

log = logging.getLogger("mcbews_repl.sim")

# The game's watchdog (docs/sim.md): script-watchdog-memory-limit is 250 MB; its hang threshold
# is 3000 ms in worlds and Realms (10000 ms in a Dedicated Server's server.properties).
SCRIPT_MEMORY_LIMIT_BYTES = 250 * 1024 * 1024
SCRIPT_STACK_LIMIT_BYTES = 4 * 1024 * 1024  # deep enough for JSON, bounded for runaway recursion
HANG_THRESHOLD_MS = 3000
# The engine's interrupt comes this much later than the loops' own checks, so a loop a module
# wrote ends with the WatchdogError the addon can still answer with (docs/sim.md).
ENGINE_GRACE_MS = 500
# Each loaded module starts at its own multiple of this many lines (modules.js): a stack
# frame's line number then says which module and which of its lines. Longer modules are refused.
SLOT_LINES = 10_000


# Which watchdog a script host runs: the engine's interrupt and the loops' checks, or only the
# loops' checks (a platform where the interrupt cannot be installed, or asked for).
Watchdog = Literal["engine", "loops"]


def hang_message(threshold_ms: int) -> str:
    """What a script that ran past ``threshold_ms`` is reported as."""
    return (f"script hang: ran longer than {threshold_ms} ms without returning (the watchdog's "
            "hang threshold), so it was interrupted")  # fmt: skip


@dataclass(frozen=True)
class ScriptError:
    """An error a script threw: where (which entry or module), its message and stack."""

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
    None leaves loading to the caller (:func:`.packs.load_pack` links a pack's modules).
    ``watchdog="loops"`` leaves the engine's interrupt out (what a platform without it gets);
    :attr:`watchdog` says which one runs."""

    def __init__(
        self,
        api: HostApi,
        bundle_source: str | None,
        *,
        hang_threshold_ms: int = HANG_THRESHOLD_MS,
        watchdog: Watchdog = "engine",
    ) -> None:
        self.api = api
        self.errors: list[ScriptError] = []
        self.hang_threshold_ms = hang_threshold_ms
        self.hang_message = hang_message(hang_threshold_ms)
        self._slots: dict[str, int] = {}
        self._depth = 0  # entries from Python into JS now running (JS -> Python -> JS nests)
        self._job_deadline = 0.0  # time.monotonic() at which the running job is past it
        self._ctx = quickjs.Context()
        self._ctx.set_memory_limit(SCRIPT_MEMORY_LIMIT_BYTES)
        self._ctx.set_max_stack_size(SCRIPT_STACK_LIMIT_BYTES)
        self._watch = attach(self._ctx, SCRIPT_STACK_LIMIT_BYTES) if watchdog == "engine" else None
        if self._watch is not None:  # a host dropped unclosed still ends its thread
            weakref.finalize(self, detach, self._watch, wait=False)
        self.watchdog: Watchdog = "engine" if self._watch is not None else "loops"
        self._ctx.add_callable("__sim_call", self._call)
        self._ctx.set("__sim_slot_lines", SLOT_LINES)
        self._ctx.set("__sim_hang_message", self.hang_message)
        self._entry: Any = None
        try:
            with self._job():
                self._ctx.eval(_source("shim.js"))
                self._entry = self._ctx.eval(_source("modules.js"))  # the one entry from Python
            self._enter("configure", json.dumps(restricted_execution()))
            if bundle_source is not None:
                self._load_module(bundle_source)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """End the engine watchdog's thread and join it (the world is closing, or loads its
        scripts again). A job run afterwards has only the loops' checks."""
        if self._watch is not None:
            detach(self._watch)

    # --- jobs: each entry from Python, watched ---------------------------------------------
    @contextmanager
    def _job(self) -> Iterator[None]:
        """One entry from Python into JS and the promise jobs it leaves: the watchdog's clock
        starts here. An entry nested in it (JS -> Python -> JS) belongs to the same job."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._depth = 1
        self._job_deadline = time.monotonic() + self.hang_threshold_ms / 1000
        if self._watch is not None:
            self._watch.start((self.hang_threshold_ms + ENGINE_GRACE_MS) / 1000)
        if self._entry is not None:  # the loops' own deadline, in ms since the epoch
            self._entry("arm", time.time() * 1000.0 + self.hang_threshold_ms)
        try:
            yield
        finally:
            self._depth = 0
            if self._watch is not None:
                self._watch.stop()

    def _call_entry(self, name: str, *args: Any) -> tuple[bool, Any]:
        """Call an entry of modules.js/shim.js: (True, its value) or (False, the error's
        text). It never raises for a script's error; the engine's own (the interrupt, out of
        memory) reach here as a JSException."""
        try:
            ok, value = json.loads(self._entry(name, *args))
        except quickjs.JSException as exc:
            return False, self._failure_text(js_error_text(exc))
        return (True, value) if ok else (False, self._failure_text(str(value)))

    def _failure_text(self, text: str) -> str:
        """A job's error as shown: once the engine interrupted the job, what ended it is the
        hang, whatever error the interrupt surfaced as."""
        if self._watch is None or not self._watch.fired:
            return text
        _, _, frames = text.partition("\n")
        return f"WatchdogError: {self.hang_message}" + (f"\n{frames}" if frames else "")

    def _drain(self) -> None:
        """Run the promise jobs left pending (form answers, .then chains), as part of the
        running job; past its deadline the rest wait for the next entry."""
        while time.monotonic() < self._job_deadline and not (self._watch and self._watch.fired):
            try:
                if not self._ctx.execute_pending_job():
                    return
            except quickjs.JSException as exc:
                self._script_error("promise job", self._failure_text(js_error_text(exc)))

    def drain(self) -> None:
        """Run pending promise jobs to completion (or to the hang threshold)."""
        with self._job():
            self._drain()

    def _load_module(self, source: str) -> None:
        with self._job():
            promise = self._ctx.module(source)
            self._call_entry("loaded", promise)
            self._drain()
        if self.errors:
            first = self.errors[0]
            raise RuntimeError(f"the addon failed to load: {first.message}\n{first.stack}")

    # --- JS -> Python ---------------------------------------------------------------
    def _call(self, op: str, args_json: str) -> str:
        """The one bridge from JS. It must never raise: the binding turns a Python
        exception into a SystemError, so failures travel back as ``{"__error": ...}``."""
        try:
            if op == "script_error":
                data = json.loads(args_json)
                self._script_error(data.get("where", "?"), data.get("message", ""),
                                   data.get("stack", ""))  # fmt: skip
                return "null"
            result: Any = self.api.handle(op, json.loads(args_json))
            return json.dumps(result)
        except Exception as exc:  # reported to JS, which throws it as an Error
            log.debug("sim host op %s failed", op, exc_info=True)
            return json.dumps({"__error": f"{type(exc).__name__}: {exc}"})

    def fail(self, where: str, message: str) -> None:
        """Record a script error as the game's content log would show it (no JS ran)."""
        self._script_error(where, message, f"    at {where}")

    def _script_error(self, where: str, message: str, stack: str | None = None) -> None:
        error = ScriptError(where, message, message if stack is None else stack)
        self.errors.append(error)
        log.error("addon script error in %s: %s\n%s", error.where, error.message, error.stack)

    # --- Python -> JS ---------------------------------------------------------------
    def _enter(self, method: str, *args: Any) -> Any:
        with self._job():
            ok, value = self._call_entry(method, *args)
            if not ok:
                self._script_error(method, value)
            self._drain()
        return value if ok else None

    def startup(self) -> None:
        """Run the scripts' startup (``system.beforeEvents.startup``) handlers."""
        self._enter("startup")

    def world_load(self) -> None:
        """Run the scripts' ``world.afterEvents.worldLoad`` handlers."""
        self._enter("worldLoad")

    def tick(self, tick: int) -> int | None:
        """Run the jobs due at ``tick``; return the next one-shot job's tick, if any."""
        value = self._enter("tick", tick)
        return int(value) if isinstance(value, int | float) and value >= 0 else None

    def script_event(
        self, event_id: str, message: str, source_type: str, source_player: str | None
    ) -> None:
        """Deliver one ``/scriptevent`` to the scripts' scriptEventReceive handlers."""
        event = {
            "id": event_id,
            "message": message,
            "sourceType": source_type,
            "sourcePlayer": source_player,
        }
        self._enter("scriptEvent", json.dumps(event))

    def after_event(self, signal: str, event: dict[str, Any]) -> None:
        """Fire ``world.afterEvents[signal]`` with the event object ``event`` describes
        (shim.js ``scriptValue``: ``{"$player": name}`` and the like become the API's objects)."""
        self._enter("afterEvent", json.dumps({"signal": signal, "event": event}))

    def custom_command(self, name: str, player: str | None, args: list[Any]) -> dict[str, Any]:
        """Run a custom command a script registered; its result (``status`` 0: success)."""
        raw = self._enter(
            "customCommand", json.dumps({"name": name, "player": player, "args": args})
        )
        result: dict[str, Any] = json.loads(raw) if isinstance(raw, str) else {"status": 1}
        return result

    # --- modules and prototypes (modules.py, modules.js) -----------------------------
    def compile_module(self, label: str, source: str, *, user: bool) -> int:
        """Evaluate a module as a function at its own slot (returned: :meth:`run_module` and
        :meth:`define_prototype` run it); raise :class:`PrototypeError` with the source's
        line for a syntax error."""
        if source.count("\n") >= SLOT_LINES - 2:
            raise PrototypeError(f"{label} is too long: keep it under {SLOT_LINES - 2} lines")
        try:
            wrapped = wrap_module(source)
        except ModuleSyntaxError as exc:
            raise PrototypeError(f"{label}, line {exc.line}: {exc}", exc.line) from None
        slot = self._slots.setdefault(label, len(self._slots) + 1)
        with self._job():
            self._call_entry("label", slot, label, user)
            ok, text = self._call_entry("compile", slot, wrapped.function)
        if ok:
            return slot
        line = _line_of(label, text)
        where = label if line is None else f"{label}, line {line}"
        last = source.count("\n") + 1
        if line is not None and line > last:  # past the end: a brace or bracket too many
            line, where = last, f"{label}, at its end (a brace or bracket too many?)"
        raise PrototypeError(f"{where}: {text.splitlines()[0]}", line)

    def module_imports(self, source: str) -> list[str]:
        """What a module's source imports (its ``import`` lines' specifiers).

        Raises:
            ModuleSyntaxError: an import or export form that cannot be read.
        """
        return wrap_module(source).imports

    def run_module(self, path: str, slot: int, resolved: dict[str, str]) -> None:
        """Run one module of a pack; its relative imports resolve through ``resolved``."""
        self._load_step(path, "run", path, slot, json.dumps(resolved))

    def define_prototype(self, name: str, source: str) -> dict[str, str]:
        """Register a notebook's capability module into the running addon (replacing one of
        that name); return its params; raise :class:`PrototypeError` saying why it was not."""
        slot = self.compile_module(f"cell {name}", source, user=True)
        defined = self._load_step(f"cell {name}", "define", name, slot)
        params: dict[str, str] = json.loads(defined)["params"]
        return params

    def remove_prototype(self, name: str) -> bool:
        """Remove the notebook's capability ``name``; False if there was none."""
        return bool(self._load_step(f"cell {name}", "remove", name))

    def prototype_names(self) -> list[str]:
        """The capabilities defined from notebook cells, by name."""
        names: list[str] = json.loads(self._load_step("the prototypes", "names"))
        return names

    def _load_step(self, label: str, entry: str, *args: Any) -> Any:
        with self._job():
            ok, value = self._call_entry(entry, *args)
            self._drain()
        if ok:
            return value
        line = _line_of(label, value)
        shown = value if line is not None else value.splitlines()[0]  # no frame of its own
        raise PrototypeError(f"{label} failed to load: {shown}", line)
