"""The committed packs are exactly what a fresh build produces, and the build is deterministic."""

from __future__ import annotations

import io
import json
import re
import subprocess
import uuid
import zipfile
from pathlib import Path

import pytest

from mcbews_repl.addon import PACKS, PackName, bundle_path, sim_bundle_path

from .conftest import ADDON_SRC

both = pytest.mark.parametrize("pack", list(PACKS))


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def _manifest(pack: PackName) -> dict[str, object]:
    data: dict[str, object] = json.loads((bundle_path(pack) / "manifest.json").read_text("utf-8"))
    return data


@both
def test_committed_pack_equals_a_fresh_build(fresh_build: Path, pack: PackName) -> None:
    fresh = _tree(fresh_build / "package" / pack)
    committed = _tree(bundle_path(pack))
    expected = ["manifest.json", "pack_icon.png", "scripts/main.js"]
    assert sorted(fresh) == sorted(committed) == expected
    for name, data in fresh.items():
        assert committed[name] == data, f"{pack}/{name} is stale: run `npm run build` in addon/"


@both
def test_committed_sim_bundle_equals_a_fresh_build(fresh_build: Path, pack: PackName) -> None:
    fresh = (fresh_build / "package" / sim_bundle_path(pack).name).read_bytes()
    assert sim_bundle_path(pack).read_bytes() == fresh, "stale: run `npm run build` in addon/"


def test_the_package_holds_exactly_the_two_packs(fresh_build: Path) -> None:
    names = {p.name for p in (fresh_build / "package").iterdir()}
    assert names == {"stable", "beta", "sim_stable.js", "sim_beta.js"}
    assert {p.name for p in (fresh_build / "dist").iterdir()} == {
        *(spec.folder for spec in PACKS.values()),
        *(spec.mcaddon for spec in PACKS.values()),
    }


def test_the_build_is_deterministic(fresh_build: Path, tmp_path: Path) -> None:
    args = ["--dist", str(tmp_path / "d"), "--package", str(tmp_path / "p")]
    subprocess.run(
        ["node", "scripts/build.mjs", *args],
        cwd=ADDON_SRC,
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert _tree(tmp_path / "d") == _tree(fresh_build / "dist")
    assert _tree(tmp_path / "p") == _tree(fresh_build / "package")


@both
def test_node_mcaddon_is_a_zip_of_the_pack(fresh_build: Path, pack: PackName) -> None:
    folder, mcaddon = PACKS[pack]
    data = (fresh_build / "dist" / mcaddon).read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        names = archive.namelist()
        assert names == sorted(names)
        assert f"{folder}/manifest.json" in names
        for info in archive.infolist():
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
            inner = info.filename.removeprefix(f"{folder}/")
            assert archive.read(info) == (bundle_path(pack) / inner).read_bytes()


def test_the_stable_pack_declares_no_beta_module_and_the_beta_pack_the_gametest_one() -> None:
    deps = {
        pack: {d["module_name"]: d["version"] for d in _manifest(pack)["dependencies"]}  # type: ignore[attr-defined]
        for pack in PACKS
    }
    assert deps["stable"] == {"@minecraft/server": "2.4.0", "@minecraft/server-ui": "2.0.0"}
    assert deps["beta"] == {**deps["stable"], "@minecraft/server-gametest": "1.0.0-beta"}
    assert not any("beta" in version for version in deps["stable"].values())


@both
def test_manifest_declares_a_script_pack(pack: PackName) -> None:
    manifest = _manifest(pack)
    header, (module,) = manifest["header"], manifest["modules"]  # type: ignore[misc]
    assert uuid.UUID(header["uuid"]) != uuid.UUID(module["uuid"])
    assert header["min_engine_version"] == [1, 21, 130]
    assert module["type"] == "script"
    assert module["entry"] == "scripts/main.js"
    assert (bundle_path(pack) / "pack_icon.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_the_two_packs_are_different_packs() -> None:
    ids = [
        {_manifest(p)["header"]["uuid"], _manifest(p)["modules"][0]["uuid"]}  # type: ignore[index]
        for p in PACKS
    ]
    assert not ids[0] & ids[1]  # both may be imported into one game


_IMPORT = re.compile(r"^\s*(import|export)\b", re.MULTILINE)


@both
def test_sim_bundle_has_no_imports_names_its_globals_and_declares_its_dependencies(
    pack: PackName,
) -> None:
    text = sim_bundle_path(pack).read_text(encoding="utf-8")
    assert _IMPORT.search(text) is None
    assert "@minecraft/" not in text.replace("mcbews-sim:@minecraft/", "").split("\n", 2)[2]
    for name in ("__mc_server", "__mc_server_ui"):
        assert f"globalThis.{name}" in text
    assert ("globalThis.__mc_server_gametest" in text) == (pack == "beta")
    declared = json.loads(text.splitlines()[1].removeprefix("// dependencies: "))
    assert declared == _manifest(pack)["dependencies"]


@both
def test_pack_bundle_imports_only_its_declared_modules(pack: PackName) -> None:
    text = (bundle_path(pack) / "scripts" / "main.js").read_text(encoding="utf-8")
    sources = set(re.findall(r'from\s+"([^"]+)"', text))
    declared = {d["module_name"] for d in _manifest(pack)["dependencies"]}  # type: ignore[attr-defined]
    assert sources == declared


@both
def test_bundles_avoid_apis_quickjs_lacks(pack: PackName) -> None:
    for path in (sim_bundle_path(pack), bundle_path(pack) / "scripts" / "main.js"):
        text = path.read_text(encoding="utf-8")
        for name in ("TextEncoder", "TextDecoder", "Buffer", "setTimeout", "require"):
            assert re.search(rf"\b{name}\b", text) is None, f"{path.name} uses {name}"


def test_pack_names_agree_with_the_build_script() -> None:
    source = (ADDON_SRC / "scripts" / "pack.mjs").read_text(encoding="utf-8")
    for spec in PACKS.values():
        assert f'folder: "{spec.folder}"' in source
        assert f'mcaddon: "{spec.mcaddon}"' in source
