"""Behavior packs from a folder, as the game loads them, and the ``/reload`` command.

A development behavior packs folder holds one folder per pack (docs/capabilities.md). The
simulated world loads the script pack it finds there: it checks the pack (manifest and module
graph, :mod:`mcbews_repl.addon.checks`), then runs its modules from the manifest's entry, each
module's imports first, ``@minecraft/*`` bound to the simulator's own modules. ``/reload``
makes the world do it again with what the folder holds now: the script context starts over
(prototypes defined live are gone, as everything a script kept in memory), the world and its
dynamic properties stay. Modules under ``scripts/prototypes/`` are the user's: their stack
frames are the ones an error shows.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..addon import imports_of, pack_files, pack_problems, script_entry
from ..exceptions import PackError
from .cmdtypes import CommandOutcome, Context, Handler
from .facts import EXECUTION_FAIL, text
from .host import ScriptHost, Watchdog
from .hostapi import HostApi
from .parse import Reader

__all__ = ["LoadedPack", "find_script_pack", "load_pack", "reload_handler"]

USER_MODULES = "scripts/prototypes/"


@dataclass(frozen=True)
class LoadedPack:
    """A behaviour pack read from a folder: its name, manifest and files."""

    name: str  # the pack's folder
    manifest: dict[str, Any]
    files: dict[str, bytes]

    @property
    def dependencies(self) -> list[dict[str, Any]]:
        """The manifest's dependencies (the script modules and versions it needs)."""
        deps = self.manifest.get("dependencies") or []
        return [d for d in deps if isinstance(d, dict)]


def find_script_pack(where: Path) -> LoadedPack | None:
    """The one script pack in a pack folder or a folder of packs; None when there is none.
    More than one is refused: the simulated world runs one script pack."""
    found = []
    for name, files in pack_files(where).items():
        try:
            manifest = json.loads(files.get("manifest.json", b"null"))
        except ValueError:
            manifest = None
        if isinstance(manifest, dict) and script_entry(manifest) is not None:
            found.append(LoadedPack(name, manifest, files))
    if len(found) > 1:
        names = ", ".join(p.name for p in found)
        raise PackError(f"{where} holds several script packs ({names}); the simulated world "
                        "runs one: keep one of them there")  # fmt: skip
    return found[0] if found else None


def _link_order(pack: LoadedPack, entry: str) -> list[tuple[str, dict[str, str]]]:
    """Every module reached from the entry, imports before importers, each with the pack
    paths its relative specifiers resolve to."""
    order: list[tuple[str, dict[str, str]]] = []
    done: set[str] = set()

    def visit(path: str, trail: tuple[str, ...]) -> None:
        if path in done:
            return
        if path in trail:
            raise PackError(f"{pack.name}: {' -> '.join((*trail, path))} is an import cycle")
        source = pack.files[path].decode("utf-8")
        resolved = {
            spec: posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            for spec in imports_of(source)
            if spec.startswith(".")
        }
        for target in resolved.values():
            visit(target, (*trail, path))
        done.add(path)
        order.append((path, resolved))

    visit(entry, ())
    return order


def load_pack(
    api: HostApi, pack: LoadedPack, *, hang_threshold_ms: int, watchdog: Watchdog = "engine"
) -> ScriptHost:
    """A script host running ``pack`` (checked first); raise :class:`PackError` if it fails
    its checks or a module does not load (the game's content log would show the error)."""
    problems = pack_problems(pack.files)
    if problems:
        raise PackError(f"the pack {pack.name} fails its checks:\n  " + "\n  ".join(problems))
    entry = script_entry(pack.manifest)
    assert entry is not None  # pack_problems checked it
    host = ScriptHost(api, None, hang_threshold_ms=hang_threshold_ms, watchdog=watchdog)
    try:
        for path, resolved in _link_order(pack, entry):
            source = pack.files[path].decode("utf-8")
            slot = host.compile_module(path, source, user=path.startswith(USER_MODULES))
            host.run_module(path, slot, resolved)
        if host.errors:
            first = host.errors[0]
            raise PackError(f"the pack {pack.name} failed to load: {first.message}\n{first.stack}")
    except BaseException:
        host.close()  # its watchdog thread ends with it
        raise
    return host


def reload_handler(reload: Callable[[], str | None]) -> Handler:
    """``/reload`` and ``/reload all``: ``reload()`` starts the scripts over and returns why
    it could not, or None (the game's success message then)."""

    def handle(ctx: Context, r: Reader) -> CommandOutcome:
        if r.peek() is not None:
            r.choice("all")  # the world itself stays here: see docs/sim.md
        r.end()
        problem = reload()
        if problem is not None:
            return CommandOutcome(EXECUTION_FAIL, problem, success_count=0)
        return CommandOutcome(status_message=text("commands.reload.success"))

    return handle
