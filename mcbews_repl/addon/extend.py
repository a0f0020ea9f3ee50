"""The shipped pack plus a notebook's prototypes, as a pack the game loads; no Node needed.

The shipped bundle exports its prototype registrar (``addon/src/stable.ts``). The pack written
here keeps that bundle byte for byte as ``scripts/bridge.js``, adds each prototype as
``scripts/prototypes/<name>.js`` (the module the cell held), and makes ``scripts/main.js``, the
manifest's entry as before, a short module that imports the bundle and registers the
prototypes. The entry keeps its name so a world running the pack from a development folder
picks the new one up with ``/reload``; the manifest's version goes up by one patch so a game
importing the ``.mcaddon`` takes it as an update. Every pack written passes
:func:`.checks.require_valid` first.

Where the games read development packs: :data:`GAME_FOLDERS` (docs/capabilities.md).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..exceptions import PackError
from .checks import require_valid
from .shipped import PACKS, PackName, _check, _held_open, _replace_file, bundle_path

__all__ = [
    "KnownFolder",
    "development_folders",
    "export_with_prototypes",
    "pack_with_prototypes",
    "where_games_keep_them",
    "write_pack_folder",
]

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")  # as addon/src/prototypes.ts names them
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
DEVELOPMENT_FOLDER = "development_behavior_packs"

ENTRY_HEADER = """\
// The mcbews bridge with prototype capabilities, written by mcbews_repl (mc.addon.export):
// the shipped bundle (bridge.js) and the notebook's modules (prototypes/), registered at load.
import { prototypes } from "./bridge.js";
"""
ENTRY_PICK = (
    "const capability = (m, name) => {\n"
    "  const cap = m.default ??\n"
    '    Object.values(m).find((v) => v !== null && typeof v === "object");\n'
    "  if (cap !== undefined && cap.name === undefined) cap.name = name;\n"
    "  return cap;\n"
    "};\n"
)


@dataclass(frozen=True)
class KnownFolder:
    """A folder a game reads development behaviour packs from, and which game."""

    where: str  # which game keeps its development packs there
    path: Path


# Where each game on Windows reads development packs: the game, the variable its folder is
# under, the folders from there to com.mojang (README, "Connecting a real world" and
# "Minecraft Education, for teachers"; Preview's from the Minecraft Wiki's com.mojang page,
# which puts the shared folder of both launchers under Users\Shared; docs/capabilities.md).
# Most likely first.
GAME_FOLDERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Minecraft for Windows (the current launcher)", "APPDATA",
     ("Minecraft Bedrock", "Users", "Shared", "games", "com.mojang")),
    ("Minecraft Education (the desktop installer's build)", "APPDATA",
     ("Minecraft Education Edition", "games", "com.mojang")),
    ("Minecraft Education (the Microsoft Store build)", "LOCALAPPDATA",
     ("Packages", "Microsoft.MinecraftEducationEdition_8wekyb3d8bbwe", "LocalState", "games",
      "com.mojang")),
    ("Minecraft Preview for Windows", "APPDATA",
     ("Minecraft Bedrock Preview", "Users", "Shared", "games", "com.mojang")),
    ("Minecraft from the Microsoft Store (before the new launcher)", "LOCALAPPDATA",
     ("Packages", "Microsoft.MinecraftUWP_8wekyb3d8bbwe", "LocalState", "games", "com.mojang")),
)  # fmt: skip
SERVER_EXECUTABLES = ("bedrock_server", "bedrock_server.exe")


def development_folders(
    env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> list[KnownFolder]:
    """The development behavior packs folders of the games this machine can have, whether
    they exist or not, most likely first: those under ``%APPDATA%`` and ``%LOCALAPPDATA%``
    (when set), then a Bedrock Dedicated Server's in ``cwd``."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    found = [
        KnownFolder(game, Path(env[variable], *parts, DEVELOPMENT_FOLDER))
        for game, variable, parts in GAME_FOLDERS
        if env.get(variable)
    ]
    if any((cwd / exe).is_file() for exe in SERVER_EXECUTABLES):
        found.append(
            KnownFolder("the Bedrock Dedicated Server in this folder", cwd / DEVELOPMENT_FOLDER)
        )
    return found


def where_games_keep_them() -> str:
    """Every game's development behavior packs folder as Windows writes it, one a line."""
    lines = [
        f"  {game}: %{variable}%\\" + "\\".join((*parts, DEVELOPMENT_FOLDER))
        for game, variable, parts in GAME_FOLDERS
    ]
    lines.append(f"  a Bedrock Dedicated Server: {DEVELOPMENT_FOLDER} next to bedrock_server")
    return "\n".join(lines)


def _bumped(version: list[int]) -> list[int]:
    return [version[0], version[1], version[2] + 1]


def _entry(names: list[str]) -> str:
    imports = "".join(f'import * as module_{n} from "./prototypes/{n}.js";\n' for n in names)
    defines = "".join(f'prototypes.define(capability(module_{n}, "{n}"));\n' for n in names)
    return ENTRY_HEADER + imports + "\n" + ENTRY_PICK + defines


def pack_with_prototypes(
    prototypes: Mapping[str, str], pack: PackName = "stable", after: list[int] | None = None
) -> dict[str, bytes]:
    """The files of the shipped ``pack`` with ``prototypes`` (name -> JavaScript module)
    added; its version one patch above ``after`` (default: the shipped pack's)."""
    root = bundle_path(_check(pack))
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    for name in prototypes:
        if not _NAME.match(name):
            raise PackError(f"{name!r} is not a capability name: lower-case words joined by _")
    version = _bumped(max(manifest["header"]["version"], after or [0, 0, 0]))
    manifest["header"]["version"] = version
    for module in manifest["modules"]:
        module["version"] = version
    files = {
        "manifest.json": (json.dumps(manifest, indent=2) + "\n").encode(),
        "pack_icon.png": (root / "pack_icon.png").read_bytes(),
        "scripts/bridge.js": (root / "scripts" / "main.js").read_bytes(),
        "scripts/main.js": _entry(sorted(prototypes)).encode(),
    }
    for name, source in prototypes.items():
        files[f"scripts/prototypes/{name}.js"] = source.encode()
    require_valid(PACKS[pack].folder, files)
    return files


def _version_in(files: Mapping[str, bytes]) -> list[int] | None:
    try:
        version = json.loads(files["manifest.json"])["header"]["version"]
    except (KeyError, ValueError, TypeError):
        return None
    return version if isinstance(version, list) else None


def _zip_version(path: Path, folder: str) -> list[int] | None:
    if not path.is_file():
        return None
    try:
        with zipfile.ZipFile(path) as archive:
            return _version_in({"manifest.json": archive.read(f"{folder}/manifest.json")})
    except (KeyError, zipfile.BadZipFile, OSError):
        return None


def export_with_prototypes(
    path: str | os.PathLike[str] | None, prototypes: Mapping[str, str], pack: PackName = "stable"
) -> Path:
    """Write a ``.mcaddon`` of the pack with ``prototypes``; return its path. A directory means
    "into it"; the default is the pack's file name in the current directory. Writing over an
    earlier export bumps past that one's version."""
    spec = PACKS[_check(pack)]
    target = Path.cwd() / spec.mcaddon if path is None else Path(path)
    if target.is_dir():
        target = target / spec.mcaddon
    files = pack_with_prototypes(prototypes, pack, after=_zip_version(target, spec.folder))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(f"{spec.folder}/{name}", date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    _replace_file(tmp, target)
    return target


def write_pack_folder(
    folder: Path, prototypes: Mapping[str, str], pack: PackName = "stable"
) -> Path:
    """Write the pack into ``folder`` (a development behavior packs folder) as its own
    folder, replacing an earlier one of that name; return the pack's folder.

    Raises:
        PackError: ``folder`` is not a folder, the pack fails its checks, or the earlier
            pack cannot be replaced (Minecraft holds its files open: close the world).
    """
    if not folder.is_dir():
        raise PackError(f"{folder} is not a folder: create it, or give the game's development "
                        "behavior packs folder")  # fmt: skip
    spec = PACKS[_check(pack)]
    target = folder / spec.folder
    earlier = _version_in({"manifest.json": (target / "manifest.json").read_bytes()}) if (
        target / "manifest.json").is_file() else None  # fmt: skip
    files = pack_with_prototypes(prototypes, pack, after=earlier)
    staging = folder / f".{spec.folder}.new"
    shutil.rmtree(staging, ignore_errors=True)
    try:
        for name, data in files.items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    except PermissionError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise _held_open(folder, exc) from exc
    _swap_folder(staging, target)
    return target


def _swap_folder(staging: Path, target: Path) -> None:
    """Put the folder ``staging`` in place of ``target``: the old one is moved aside first,
    whole, so a pack the game holds open (Windows refuses to move a folder with an open
    file) stays as it was, never half deleted."""
    aside = target.with_name(f".{target.name}.old")
    shutil.rmtree(aside, ignore_errors=True)
    moved = False
    try:
        if target.exists():
            os.replace(target, aside)
            moved = True
        os.replace(staging, target)
    except PermissionError as exc:
        if moved and not target.exists():
            os.replace(aside, target)  # the old pack back where it was
        shutil.rmtree(staging, ignore_errors=True)
        raise _held_open(target, exc) from exc
    shutil.rmtree(aside, ignore_errors=True)
