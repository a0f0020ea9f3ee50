"""The checks a behavior pack must pass before it is shipped, exported, deployed or loaded.

The same rules the addon's build and its tests hold the shipped packs to
(``addon/scripts/pack.mjs``, tests/addon): a ``manifest.json`` with a header and one script
module whose entry is a file of the pack, uuids that are uuids and differ, versions of three
numbers; and a module graph that closes: every import of every module reached from the entry
is either a file of the pack (a relative path) or a module the manifest declares.
"""

from __future__ import annotations

import json
import posixpath
import re
import uuid
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..exceptions import PackError

__all__ = ["imports_of", "pack_files", "pack_problems", "require_valid", "script_entry"]

# An import or re-export with a source, or a bare ``import "x"``, at the start of a line: what
# esbuild writes and what a capability module holds.
_FROM = re.compile(r"^(?:import|export)\b[^;\"']*?\bfrom\s*[\"']([^\"']+)[\"']", re.MULTILINE)
_BARE = re.compile(r"^import\s*[\"']([^\"']+)[\"']", re.MULTILINE)


def imports_of(source: str) -> list[str]:
    """The specifiers a module imports, in order of appearance."""
    found = [(m.start(), m.group(1)) for m in _FROM.finditer(source)]
    found += [(m.start(), m.group(1)) for m in _BARE.finditer(source)]
    return [spec for _, spec in sorted(found)]


def pack_files(where: str | Path) -> dict[str, dict[str, bytes]]:
    """The packs in a pack folder, a folder of packs, or a ``.mcaddon``/``.mcpack`` zip:
    pack folder name -> (path inside the pack -> bytes)."""
    path = Path(where)
    if path.is_file():
        packs: dict[str, dict[str, bytes]] = {}
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                if name.endswith("/"):
                    continue
                folder, _, inner = name.partition("/")
                packs.setdefault(folder, {})[inner] = archive.read(name)
        return packs
    if (path / "manifest.json").is_file():
        return {path.name: _read_tree(path)}
    folders = [p for p in sorted(path.iterdir()) if (p / "manifest.json").is_file()]
    return {p.name: _read_tree(p) for p in folders}


def _read_tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def script_entry(manifest: Mapping[str, Any]) -> str | None:
    """The entry file of the manifest's script module, if it has one."""
    for module in manifest.get("modules") or []:
        if isinstance(module, dict) and module.get("type") == "script":
            entry = module.get("entry")
            return entry if isinstance(entry, str) else None
    return None


def _is_uuid(value: object) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return isinstance(value, str)


def _is_version(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(v, int) and v >= 0 for v in value)
    )


def _manifest_problems(manifest: Any) -> list[str]:
    if not isinstance(manifest, dict):
        return ["manifest.json is not a JSON object"]
    problems: list[str] = []
    header = manifest.get("header")
    if manifest.get("format_version") != 2:
        problems.append("manifest.json: format_version must be 2")
    if not isinstance(header, dict):
        return [*problems, "manifest.json has no header"]
    for key in ("name", "description"):
        if not isinstance(header.get(key), str):
            problems.append(f"manifest.json: header.{key} must be a string")
    if not _is_uuid(header.get("uuid")):
        problems.append("manifest.json: header.uuid is not a uuid")
    for key in ("version", "min_engine_version"):
        if not _is_version(header.get(key)):
            problems.append(f"manifest.json: header.{key} must be three numbers like [1, 0, 0]")
    scripts = [m for m in manifest.get("modules") or [] if isinstance(m, dict)]
    scripts = [m for m in scripts if m.get("type") == "script"]
    if len(scripts) != 1:
        return [*problems, "manifest.json must declare exactly one script module"]
    module = scripts[0]
    if module.get("language") != "javascript":
        problems.append("manifest.json: the script module's language must be javascript")
    if not _is_uuid(module.get("uuid")) or module.get("uuid") == header.get("uuid"):
        problems.append("manifest.json: the script module needs a uuid of its own")
    if not _is_version(module.get("version")):
        problems.append("manifest.json: the script module's version must be three numbers")
    for dep in manifest.get("dependencies") or []:
        if not isinstance(dep, dict) or not isinstance(dep.get("module_name"), str):
            problems.append("manifest.json: every dependency needs a module_name")
    return problems


def _declared_modules(manifest: Mapping[str, Any]) -> set[str]:
    deps = manifest.get("dependencies") or []
    return {d["module_name"] for d in deps if isinstance(d, dict) and "module_name" in d}


def _graph_problems(files: Mapping[str, bytes], entry: str, declared: set[str]) -> list[str]:
    problems: list[str] = []
    seen: set[str] = set()
    todo = [entry]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        if path not in files:
            problems.append(f"{path} is imported but is not in the pack")
            continue
        for spec in imports_of(files[path].decode("utf-8", errors="replace")):
            if spec.startswith("."):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(path), spec)))
            elif spec not in declared:
                problems.append(
                    f"{path} imports {spec}, which manifest.json does not declare as a dependency"
                )
    return problems


def pack_problems(files: Mapping[str, bytes]) -> list[str]:
    """Everything wrong with one pack (its files by path inside it); empty when it is fine."""
    if "manifest.json" not in files:
        return ["the pack has no manifest.json"]
    try:
        manifest = json.loads(files["manifest.json"])
    except ValueError as exc:
        return [f"manifest.json is not JSON: {exc}"]
    problems = _manifest_problems(manifest)
    entry = script_entry(manifest) if isinstance(manifest, dict) else None
    if entry is None:
        return problems or ["manifest.json: the script module has no entry"]
    if not entry.startswith("scripts/") or not entry.endswith(".js"):
        problems.append(f"manifest.json: the entry {entry} must be a .js file under scripts/")
    return problems + _graph_problems(files, entry, _declared_modules(manifest))


def require_valid(name: str, files: Mapping[str, bytes]) -> None:
    """Raise :class:`PackError` listing the problems of pack ``name``, if it has any."""
    problems = pack_problems(files)
    if problems:
        raise PackError(f"the pack {name} fails its checks:\n  " + "\n  ".join(problems))
