"""The addon's declared module versions are what its code is type-checked against.

Both packs declare ``@minecraft/server`` 2.4.0 and ``@minecraft/server-ui`` 2.0.0; the beta pack
also the gametest beta of ``min_engine_version``. ``npm test`` runs ``tsc`` with
``tsconfig.manifest.json``, which maps each module to the typings of exactly that version
(npm aliases in ``package.json``), and with ``tsconfig.stable.json``, which checks the stable
pack's entry with the beta module mapped to nothing. These tests check the places agree and
that each guard really rejects what it is there to reject.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import ADDON_SRC, REPO

MANIFEST = REPO / "mcbews_repl" / "addon" / "beta" / "manifest.json"
STABLE_MANIFEST = REPO / "mcbews_repl" / "addon" / "stable" / "manifest.json"
# What each alias must be: the npm package at exactly the manifest's version.
ALIASES = {
    "@minecraft/server": "@minecraft/server-2.4.0",
    "@minecraft/server-ui": "@minecraft/server-ui-2.0.0",
    "@minecraft/server-gametest": "@minecraft/server-gametest-1.21.130",
}


def _json(path: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _declared(path: Path = MANIFEST) -> dict[str, str]:
    manifest = _json(path)
    deps = manifest["dependencies"]
    assert isinstance(deps, list)
    return {d["module_name"]: d["version"] for d in deps}


def test_aliases_pin_exactly_the_declared_versions() -> None:
    declared = _declared()
    dev = _json(ADDON_SRC / "package.json")["devDependencies"]
    assert isinstance(dev, dict)
    engine = _json(MANIFEST)["header"]["min_engine_version"]  # type: ignore[index]
    for module, alias in ALIASES.items():
        spec = dev[alias]
        assert spec.startswith(f"npm:{module}@"), spec
        version = spec.rsplit("@", 1)[1]
        if module == "@minecraft/server-gametest":
            # A beta module follows the game: the typings of min_engine_version's release.
            game = ".".join(str(n) for n in engine)
            assert declared[module] == "1.0.0-beta" and version == f"1.0.0-beta.{game}-stable"
        else:
            assert version == declared[module], (module, version, declared[module])


def test_the_stable_pack_declares_the_same_stable_versions_and_nothing_beta() -> None:
    stable, beta = _declared(STABLE_MANIFEST), _declared()
    assert stable == {m: v for m, v in beta.items() if m != "@minecraft/server-gametest"}
    assert _json(STABLE_MANIFEST)["header"]["min_engine_version"] == [1, 21, 130]  # type: ignore[index]


def test_the_guards_map_every_module_and_run_in_npm_test() -> None:
    config = _json(ADDON_SRC / "tsconfig.manifest.json")
    paths = config["compilerOptions"]["paths"]  # type: ignore[index]
    assert paths == {m: [f"./node_modules/{a}"] for m, a in ALIASES.items()}
    stable = _json(ADDON_SRC / "tsconfig.stable.json")
    stable_paths = stable["compilerOptions"]["paths"]  # type: ignore[index]
    assert {m: p for m, p in stable_paths.items() if "gametest" not in m} == {
        m: p for m, p in paths.items() if "gametest" not in m
    }
    assert stable_paths["@minecraft/server-gametest"] == ["./guard/no-beta-module.d.ts"]
    assert stable["files"] == ["src/stable.ts"]
    scripts = _json(ADDON_SRC / "package.json")["scripts"]
    for guard in ("tsconfig.manifest.json", "tsconfig.stable.json"):
        assert f"tsc --noEmit -p {guard}" in scripts["test"]  # type: ignore[index]


def _tsc(project: Path) -> subprocess.CompletedProcess[str]:
    tsc = ADDON_SRC / "node_modules" / "typescript" / "bin" / "tsc"
    return subprocess.run(
        ["node", str(tsc), "--noEmit", "-p", str(project)],
        cwd=ADDON_SRC,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def addon_modules() -> Path:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to type-check the addon")
    if not (ADDON_SRC / "node_modules" / "@minecraft" / "server-2.4.0").is_dir():
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=ADDON_SRC,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
    return ADDON_SRC


def _typecheck_probe(
    addon: Path, folder: str, source: str, projects: tuple[str, ...], key: str
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Type-check ``source`` (a probe module in ``src/<folder>``) under each tsconfig named,
    extending it with the probe as its ``key`` ("include" or "files"); the folder is removed."""
    probe_dir = addon / "src" / folder
    probe_dir.mkdir(exist_ok=True)
    try:
        (probe_dir / "probe.ts").write_text(source, encoding="utf-8")
        done = {}
        for name in projects:
            project = probe_dir / name
            project.write_text(
                json.dumps({"extends": f"../../{name}", key: ["./probe.ts"]}), encoding="utf-8"
            )
            done[name] = _tsc(project)
        return done
    finally:
        shutil.rmtree(probe_dir)


def test_a_newer_api_fails_the_guard_but_not_the_main_check(addon_modules: Path) -> None:
    # BiomeTypes is in @minecraft/server 2.10.0's typings and not in 2.4.0's.
    source = (
        'import { BiomeTypes } from "@minecraft/server";\n'
        "export const probe: unknown = BiomeTypes;\n"
    )
    projects = _typecheck_probe(
        addon_modules,
        "__version_probe__",
        source,
        ("tsconfig.json", "tsconfig.manifest.json"),
        "include",
    )
    assert projects["tsconfig.json"].returncode == 0, projects["tsconfig.json"].stdout
    guard = projects["tsconfig.manifest.json"]
    assert guard.returncode != 0
    assert "has no exported member named 'BiomeTypes'" in guard.stdout, guard.stdout


def test_a_beta_import_fails_the_stable_guard_but_not_the_beta_one(addon_modules: Path) -> None:
    source = (
        'import "../stable.js";\n'
        'import { spawnSimulatedPlayer } from "@minecraft/server-gametest";\n'
        "export const probe: unknown = spawnSimulatedPlayer;\n"
    )
    projects = _typecheck_probe(
        addon_modules,
        "__stable_probe__",
        source,
        ("tsconfig.manifest.json", "tsconfig.stable.json"),
        "files",
    )
    assert projects["tsconfig.manifest.json"].returncode == 0, projects["tsconfig.manifest.json"]
    guard = projects["tsconfig.stable.json"]
    assert guard.returncode != 0
    assert "has no exported member 'spawnSimulatedPlayer'" in guard.stdout, guard.stdout
