"""The committed pack is exactly what a fresh build produces, and the build is deterministic."""

from __future__ import annotations

import io
import json
import re
import subprocess
import uuid
import zipfile
from pathlib import Path

from mcbews_repl.addon import PACK_FOLDER, bundle_path, sim_bundle_path

from .conftest import ADDON_SRC


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_committed_pack_equals_a_fresh_build(fresh_build: Path) -> None:
    fresh = _tree(fresh_build / "package" / "behavior_pack")
    committed = _tree(bundle_path())
    expected = ["manifest.json", "pack_icon.png", "scripts/main.js"]
    assert sorted(fresh) == sorted(committed) == expected
    for name, data in fresh.items():
        assert committed[name] == data, f"{name} is stale: run `npm run build` in addon/"


def test_committed_sim_bundle_equals_a_fresh_build(fresh_build: Path) -> None:
    fresh = (fresh_build / "package" / "sim_bundle.js").read_bytes()
    assert sim_bundle_path().read_bytes() == fresh, "sim_bundle.js is stale: run `npm run build`"


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


def test_node_mcaddon_is_a_zip_of_the_pack(fresh_build: Path) -> None:
    data = (fresh_build / "dist" / "mcbews_bridge.mcaddon").read_bytes()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        names = archive.namelist()
        assert names == sorted(names)
        assert f"{PACK_FOLDER}/manifest.json" in names
        for info in archive.infolist():
            assert info.date_time == (1980, 1, 1, 0, 0, 0)
            inner = info.filename.removeprefix(f"{PACK_FOLDER}/")
            assert archive.read(info) == (bundle_path() / inner).read_bytes()


def test_manifest_declares_a_script_pack_with_the_beta_gametest_module() -> None:
    manifest = json.loads((bundle_path() / "manifest.json").read_text(encoding="utf-8"))
    header, (module,) = manifest["header"], manifest["modules"]
    assert uuid.UUID(header["uuid"]) != uuid.UUID(module["uuid"])
    assert header["min_engine_version"] == [1, 21, 130]
    assert module["type"] == "script"
    assert module["entry"] == "scripts/main.js"
    deps = {d["module_name"]: d["version"] for d in manifest["dependencies"]}
    assert set(deps) == {"@minecraft/server", "@minecraft/server-ui", "@minecraft/server-gametest"}
    assert deps["@minecraft/server-gametest"] == "1.0.0-beta"
    assert (bundle_path() / "pack_icon.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


_IMPORT = re.compile(r"^\s*(import|export)\b", re.MULTILINE)


def test_sim_bundle_has_no_imports_and_names_its_globals() -> None:
    text = sim_bundle_path().read_text(encoding="utf-8")
    assert _IMPORT.search(text) is None
    assert "@minecraft/" not in text.replace("mcbews-sim:@minecraft/", "")
    for name in ("__mc_server", "__mc_server_ui", "__mc_server_gametest"):
        assert f"globalThis.{name}" in text


def test_pack_bundle_imports_only_minecraft_modules() -> None:
    text = (bundle_path() / "scripts" / "main.js").read_text(encoding="utf-8")
    sources = re.findall(r'from\s+"([^"]+)"', text)
    assert sources
    assert all(s.startswith("@minecraft/") for s in sources)


def test_bundles_avoid_apis_quickjs_lacks() -> None:
    for path in (sim_bundle_path(), bundle_path() / "scripts" / "main.js"):
        text = path.read_text(encoding="utf-8")
        for name in ("TextEncoder", "Buffer", "setTimeout", "require"):
            assert re.search(rf"\b{name}\b", text) is None, f"{path.name} uses {name}"
