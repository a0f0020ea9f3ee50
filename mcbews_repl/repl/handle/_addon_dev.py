"""``mc.addon``: prototype a capability in the notebook, then take it to a real world.

``mc.addon.define(name, source)`` (and the ``%%mc capability NAME`` cell) registers a
JavaScript module in the capability shape into the addon already running in the simulated
world: no restart, the world kept, callable at once with ``mc.call``. ``export`` writes a
``.mcaddon`` of the shipped pack with the prototypes as extra modules, ``deploy`` writes it
into a development behavior packs folder and ``reload`` sends ``/reload``. None of it needs
Node; ``ts=True`` compiles TypeScript first when Node and the addon's toolchain are there
(docs/capabilities.md).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...addon import (
    PackName,
    development_folders,
    export_with_prototypes,
    where_games_keep_them,
    write_pack_folder,
)
from ...exceptions import NotConnected, PackError, PrototypeError

if TYPE_CHECKING:
    from ...gateway import CommandResult
    from ..runtime import Pending
    from ._core import Core

__all__ = ["AddonDev", "Deployed", "Prototype", "compile_typescript"]

# The addon's own toolchain, in a clone of the repository (addon/, after npm ci).
ADDON_DIR = Path(__file__).resolve().parents[3] / "addon"
ESBUILD = ADDON_DIR / "node_modules" / "esbuild" / "package.json"
# esbuild's transform through its JavaScript API: the cell on stdin, the module on stdout.
_TRANSFORM = (
    "const { transformSync } = require(process.argv[1]); let s = '';"
    "process.stdin.on('data', (d) => (s += d)).on('end', () => { try {"
    " process.stdout.write(transformSync(s, { loader: 'ts', format: 'esm', target: 'es2022',"
    " sourcefile: process.argv[2] }).code); } catch (e) { process.stderr.write(e.message);"
    " process.exit(1); } });"
)
TS_COMPILE_SECONDS = 60
NO_TYPESCRIPT = (
    "--ts needs Node.js and the addon's toolchain (in a clone of mcbews_repl: cd addon && "
    "npm ci), which this machine does not have{why}. JavaScript needs nothing installed: drop "
    "--ts and write the cell in JavaScript (the capability shape is the same)."
)


def compile_typescript(source: str, name: str) -> str:
    """The JavaScript esbuild makes of a TypeScript capability module (types stripped; the
    line numbers of errors are then those of ``mc.addon.source(name)``)."""
    node = shutil.which("node")
    if node is None or not ESBUILD.is_file():
        why = ": no node on PATH" if node is None else f": {ESBUILD} is missing"
        raise PrototypeError(NO_TYPESCRIPT.format(why=why))
    done = subprocess.run(
        [node, "-e", _TRANSFORM, str(ESBUILD.parent), f"cell {name}"],
        input=source, capture_output=True, encoding="utf-8", timeout=TS_COMPILE_SECONDS,
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise PrototypeError(f"cell {name} does not compile:\n{done.stderr.strip()}")
    return done.stdout


@dataclass(frozen=True)
class Prototype:
    """What defining a prototype shows: where it runs and how to call it."""

    name: str
    params: dict[str, str]

    def __str__(self) -> str:
        example = " ".join(f"{k}=…" for k in self.params)
        return (
            f"✔ {self.name} is registered in the simulated world's addon (a prototype); call it: "
            f"await mc.call({self.name!r}, …) or %mc call {self.name} {example}".rstrip()
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))


@dataclass(frozen=True)
class Deployed:
    """Where ``deploy`` wrote the pack, and what comes next."""

    pack: Path
    prototypes: list[str]
    simulated: bool
    game: str = ""  # which game's folder it found, when it looked for one

    def __str__(self) -> str:
        names = ", ".join(self.prototypes) or "no prototypes"
        world = "the simulated world" if self.simulated else "the game"
        found = f"\n  the development folder of {self.game}" if self.game else ""
        return (
            f"✔ wrote the pack with {names} to {self.pack}{found}\n"
            f"  /reload makes {world} load it (scripts start over; the world stays): "
            "await mc.addon.reload()  or  %mc /reload"
        )

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))


class AddonDev:
    """``mc.addon``: prototypes in the simulated world, and the pack that carries them."""

    def __init__(self, core: Core, command: Callable[[str], Pending[CommandResult]]) -> None:
        self._core = core
        self._command = command
        self._sources: dict[str, str] = {}  # name -> the JavaScript module registered

    def _sim(self, doing: str) -> Any:
        sim = self._core.sim
        if sim is None:
            raise NotConnected(
                f"{doing} needs the simulated world, where prototypes run: start it with "
                "%mc sim. To put a capability into a real world, define it in the simulated "
                "world, then mc.addon.deploy() or mc.addon.export()"
            )
        if sim.raw.host is None:
            raise NotConnected(f"{doing}: the simulated world runs no addon "
                               f"({sim.addon_refused or 'it did not load'})")  # fmt: skip
        return sim

    def define(self, name: str, source: str, *, ts: bool = False, first_line: int = 1) -> Prototype:
        """Register ``source`` (a module exporting ``{name, description, params, run}``)
        as capability ``name`` in the running addon, replacing an earlier one; raise
        :class:`PrototypeError` with the line when it does not load. ``first_line``: the
        line number of the source's first line (2 in a ``%%mc capability`` cell, whose first
        line is the magic), so errors name the lines the notebook shows."""
        sim = self._sim(f"defining {name}")
        code = compile_typescript(source, name) if ts else source
        shifted = "\n" * (max(first_line, 1) - 1) + code
        params = sim.on_loop(sim.raw.host.define_prototype, name, shifted)
        self._sources[name] = code
        if name not in self._core.capability_names:  # Tab completion offers it
            self._core.capability_names.append(name)
        return Prototype(name, dict(params))

    @property
    def prototypes(self) -> list[str]:
        """The prototypes the running addon holds (those defined here, after a ``/reload``
        those the deployed pack brought)."""
        sim = self._core.sim
        if sim is None or sim.raw.host is None:
            return []
        names: list[str] = sim.on_loop(sim.raw.host.prototype_names)
        return names

    def remove(self, name: str) -> bool:
        """Take prototype ``name`` out of the running addon; False if it had none."""
        sim = self._sim(f"removing {name}")
        removed: bool = sim.on_loop(sim.raw.host.remove_prototype, name)
        self._sources.pop(name, None)
        return removed

    def source(self, name: str) -> str:
        """The JavaScript registered as ``name`` (compiled, for a ``--ts`` cell)."""
        if name not in self._sources:
            raise KeyError(f"no prototype {name!r} was defined here; defined: {self._names()}")
        return self._sources[name]

    def _names(self) -> str:
        return ", ".join(self._sources) or "none"

    def _chosen(self, include: list[str] | None) -> dict[str, str]:
        names = list(self._sources) if include is None else list(include)
        unknown = [n for n in names if n not in self._sources]
        if unknown:
            raise PackError(f"no prototype named {', '.join(unknown)} was defined in this "
                            f"session; defined: {self._names()}")  # fmt: skip
        return {n: self._sources[n] for n in names}

    def export(
        self, path: str | Path | None = None, include: list[str] | None = None,
        pack: PackName = "stable",
    ) -> Path:  # fmt: skip
        """Write a ``.mcaddon``: the shipped pack plus the prototypes named in ``include``
        (default: every one defined here), its version bumped; return its path."""
        return export_with_prototypes(path, self._chosen(include), pack)

    def deploy(
        self, folder: str | Path | None = None, include: list[str] | None = None,
        pack: PackName = "stable",
    ) -> Deployed:  # fmt: skip
        """Write the pack into a development behavior packs folder: ``folder``, else the
        simulated world's, else the first game's found on this machine (docs/capabilities.md).

        Raises:
            PackError: no such folder, or the earlier pack there cannot be replaced
                (Minecraft holds its files open: close the world that uses it).
        """
        chosen = self._chosen(include)
        target, simulated, game = self._development_folder(folder)
        written = write_pack_folder(target, chosen, pack)
        return Deployed(written, sorted(chosen), simulated, game)

    def _development_folder(self, folder: str | Path | None) -> tuple[Path, bool, str]:
        sim = self._core.sim
        if folder is not None:
            path = Path(folder).expanduser()
            return path, sim is not None and sim.raw.behavior_packs == path, ""
        if sim is not None:  # its own folder, or a temporary one removed when it closes
            return sim.packs_folder(), True, ""
        known = development_folders()
        for found in known:
            if found.path.is_dir():
                return found.path, False, found.where
        seen = "".join(f"\n  not found: {k.path}" for k in known)
        raise PackError(
            "no development behavior packs folder found on this machine; give one: "
            "mc.addon.deploy('PATH') or %mc addon deploy PATH. Where games keep it:\n"
            f"{where_games_keep_them()}{seen}"
        )

    def reload(self) -> Pending[CommandResult]:
        """Send ``/reload`` to the connected world: its scripts start over from its packs."""
        return self._command("reload")

    def __repr__(self) -> str:
        return f"<mc.addon: prototypes {self.prototypes or 'none'}>"
