"""A pack with prototypes, written without Node: it passes the addon's own checks (manifest,
module graph), keeps the shipped bundle byte for byte, bumps the version, and loads in the
simulated world, where its prototypes answer."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

import mcbews_repl
from mcbews_repl.addon import bundle_path
from mcbews_repl.addon.checks import pack_files, pack_problems
from mcbews_repl.addon.extend import (
    development_folders,
    export_with_prototypes,
    pack_with_prototypes,
    write_pack_folder,
)
from mcbews_repl.exceptions import PackError
from mcbews_repl.sim import SimWorld

COUNT = """import { world } from "@minecraft/server";
export const countPlayers = {
  description: "How many players are online",
  params: {},
  run() {
    return { ok: true, result: { players: world.getAllPlayers().length } };
  },
};
"""


def _version(files: dict[str, bytes]) -> list[int]:
    version: list[int] = json.loads(files["manifest.json"])["header"]["version"]
    return version


def test_the_pack_passes_the_checks_and_keeps_the_shipped_bundle() -> None:
    files = pack_with_prototypes({"count_players": COUNT})
    assert pack_problems(files) == []
    shipped = bundle_path("stable")
    assert files["scripts/bridge.js"] == (shipped / "scripts" / "main.js").read_bytes()
    assert files["scripts/prototypes/count_players.js"] == COUNT.encode()
    manifest = json.loads(files["manifest.json"])
    assert manifest["modules"][0]["entry"] == "scripts/main.js"
    before = json.loads((shipped / "manifest.json").read_text())
    assert manifest["header"]["uuid"] == before["header"]["uuid"]  # an update of that pack
    assert _version(files) == [*before["header"]["version"][:2], before["header"]["version"][2] + 1]
    assert manifest["modules"][0]["version"] == _version(files)


def test_the_shipped_packs_pass_the_same_checks() -> None:
    for pack in ("stable", "beta"):
        (files,) = pack_files(bundle_path(pack)).values()
        assert pack_problems(files) == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda f: f.pop("scripts/prototypes/count_players.js"), "is imported but is not in"),
        (lambda f: f.update({"scripts/prototypes/count_players.js": b'import "@minecraft/x";'}),
         "imports @minecraft/x, which manifest.json does not declare"),
        (lambda f: f.update({"manifest.json": b"{"}), "manifest.json is not JSON"),
        (lambda f: f.update({"manifest.json": f["manifest.json"].replace(b'": "7', b'": "x')}),
         "the script module needs a uuid of its own"),
    ],
)  # fmt: skip
def test_the_checks_find_a_broken_graph_or_manifest(change: object, problem: str) -> None:
    files = pack_with_prototypes({"count_players": COUNT})
    change(files)  # type: ignore[operator]
    assert any(problem in p for p in pack_problems(files)), pack_problems(files)


def test_a_bad_name_is_refused() -> None:
    with pytest.raises(PackError, match="not a capability name"):
        pack_with_prototypes({"Count Players": COUNT})


def test_exporting_again_bumps_past_the_last_export(tmp_path: Path) -> None:
    first = export_with_prototypes(tmp_path, {"count_players": COUNT})
    assert first == tmp_path / "mcbews_bridge.mcaddon"
    (files,) = pack_files(first).values()
    second = export_with_prototypes(first, {"count_players": COUNT})
    (again,) = pack_files(second).values()
    assert _version(again)[2] == _version(files)[2] + 1
    with zipfile.ZipFile(second) as archive:
        assert archive.testzip() is None
        assert sorted(archive.namelist()) == [
            "mcbews_bridge_bp/manifest.json",
            "mcbews_bridge_bp/pack_icon.png",
            "mcbews_bridge_bp/scripts/bridge.js",
            "mcbews_bridge_bp/scripts/main.js",
            "mcbews_bridge_bp/scripts/prototypes/count_players.js",
        ]


async def test_the_exported_pack_loads_in_the_simulated_world(tmp_path: Path) -> None:
    written = export_with_prototypes(tmp_path / "out.mcaddon", {"count_players": COUNT})
    with zipfile.ZipFile(written) as archive:
        archive.extractall(tmp_path / "unpacked")
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True, addon=tmp_path / "unpacked" / "mcbews_bridge_bp") as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        assert await mc.call("count_players") == {"players": 2}  # Steve and Alex
        listed = (await mc.call("list_capabilities"))["capabilities"]
        assert [c["name"] for c in listed if c.get("prototype")] == ["count_players"]
        assert sim.script_errors == []


def test_writing_into_a_development_folder_replaces_the_earlier_pack(tmp_path: Path) -> None:
    target = write_pack_folder(tmp_path, {"count_players": COUNT})
    assert target == tmp_path / "mcbews_bridge_bp"
    first = _version(pack_files(target)[target.name])
    target = write_pack_folder(tmp_path, {})
    files = pack_files(target)[target.name]
    assert _version(files) == [*first[:2], first[2] + 1]
    assert "scripts/prototypes/count_players.js" not in files
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcbews_bridge_bp"]
    with pytest.raises(PackError, match="is not a folder"):
        write_pack_folder(tmp_path / "missing", {})


def test_the_known_development_folders(tmp_path: Path) -> None:
    env = {"APPDATA": r"C:\Users\a\AppData\Roaming", "LOCALAPPDATA": r"C:\Users\a\AppData\Local"}
    (tmp_path / "bedrock_server").write_bytes(b"")
    found = development_folders(env, cwd=tmp_path)
    paths = [str(f.path).replace("\\", "/") for f in found]
    tail = "games/com.mojang/development_behavior_packs"
    assert paths == [
        f"C:/Users/a/AppData/Roaming/Minecraft Bedrock/Users/Shared/{tail}",
        f"C:/Users/a/AppData/Roaming/Minecraft Education Edition/{tail}",
        "C:/Users/a/AppData/Local/Packages/Microsoft.MinecraftEducationEdition_8wekyb3d8bbwe/"
        f"LocalState/{tail}",
        f"C:/Users/a/AppData/Roaming/Minecraft Bedrock Preview/Users/Shared/{tail}",
        f"C:/Users/a/AppData/Local/Packages/Microsoft.MinecraftUWP_8wekyb3d8bbwe/LocalState/{tail}",
        str(tmp_path / "development_behavior_packs"),
    ]
    assert [f.where for f in found][1:3] == [
        "Minecraft Education (the desktop installer's build)",
        "Minecraft Education (the Microsoft Store build)",
    ]
    assert development_folders({}, cwd=tmp_path / "elsewhere") == []
    assert development_folders({"APPDATA": ""}, cwd=tmp_path / "elsewhere") == []
