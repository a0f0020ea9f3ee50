"""The script host: the addon's sim_bundle.js running in QuickJS on the simulated world.

QuickJS is Bedrock's own script engine. The ``quickjs`` module (PyPI ``quickjs-ng``) has no
module loader, so the addon is built with ``@minecraft/*`` bound to objects that
``shim.js`` installs on ``globalThis``. Every JS -> Python call goes through one callable
taking and returning JSON text (:mod:`.hostapi` answers it); Python -> JS calls go through
``globalThis.__sim_host``. A script error is logged with its JS stack and kept in
:attr:`ScriptHost.errors`; it never hangs the world. (The binding refuses to call into
Python while a time limit is set, so a script stuck in an endless loop is not interrupted;
memory and stack are bounded instead.)
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import quickjs  # type: ignore[import-untyped]  # the binding ships no stubs

from .facts import restricted_execution
from .hostapi import HostApi

__all__ = ["ScriptError", "ScriptHost", "bundled_addon", "declared_dependencies"]

log = logging.getLogger("mcbews_repl.sim")

SCRIPT_MEMORY_LIMIT_BYTES = 256 * 1024 * 1024  # far above the addon's needs; stops a leak
SCRIPT_STACK_LIMIT_BYTES = 4 * 1024 * 1024  # deep enough for JSON, bounded for runaway recursion


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


def _shim_source() -> str:
    return resources.files("mcbews_repl.sim").joinpath("shim.js").read_text(encoding="utf-8")


class ScriptHost:
    def __init__(self, api: HostApi, bundle_source: str) -> None:
        self.api = api
        self.errors: list[ScriptError] = []
        self._ctx = quickjs.Context()
        self._ctx.set_memory_limit(SCRIPT_MEMORY_LIMIT_BYTES)
        self._ctx.set_max_stack_size(SCRIPT_STACK_LIMIT_BYTES)
        self._ctx.add_callable("__sim_call", self._call)
        self._ctx.eval(_shim_source())
        self._fns = {
            name: self._ctx.eval(f"__sim_host.{name}")
            for name in ("startup", "worldLoad", "tick", "scriptEvent", "customCommand")
        }
        self._ctx.eval("__sim_host.configure")(json.dumps(restricted_execution()))
        self._load_module(bundle_source)

    def _load_module(self, source: str) -> None:
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
            while self._ctx.execute_pending_job():
                pass
        except quickjs.JSException as exc:
            self._script_error({"where": "promise job", "message": str(exc), "stack": str(exc)})

    def _enter(self, method: str, *args: Any) -> Any:
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
