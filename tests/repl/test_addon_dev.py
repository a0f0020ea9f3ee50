"""mc.addon without a simulated world: where deploy writes (the game's development folder on
this machine, else a message listing where games keep it), and what it says otherwise."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mcbews_repl.exceptions import NotConnected, PackError
from mcbews_repl.repl.addon_dev import AddonDev

GREET = 'export default { name: "greet", description: "", params: {}, run() { return 1; } };'


def addon(sources: dict[str, str] | None = None) -> AddonDev:
    dev = AddonDev(SimpleNamespace(sim=None, capability_names=[]))  # type: ignore[arg-type]
    dev._sources.update(sources or {})
    return dev


def test_without_a_game_folder_deploy_lists_where_games_keep_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("APPDATA", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PackError) as missing:
        addon({"greet": GREET}).deploy()
    text = str(missing.value)
    assert "give one: mc.addon.deploy('PATH') or %mc addon deploy PATH" in text
    assert "Minecraft Bedrock\\Users\\Shared\\games\\com.mojang\\development_behavior_packs" in text
    assert "Microsoft.MinecraftUWP_8wekyb3d8bbwe" in text and "next to bedrock_server" in text


def test_deploy_finds_the_current_launchers_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "Minecraft Bedrock" / "Users" / "Shared" / "games" / "com.mojang"
    (folder / "development_behavior_packs").mkdir(parents=True)
    monkeypatch.setenv("APPDATA", str(tmp_path))
    monkeypatch.delenv("LOCALAPPDATA", raising=False)
    deployed = addon({"greet": GREET}).deploy()
    assert deployed.pack == folder / "development_behavior_packs" / "mcbews_bridge_bp"
    assert not deployed.simulated and "/reload makes the game load it" in str(deployed)
    assert (deployed.pack / "scripts" / "prototypes" / "greet.js").read_text() == GREET


def test_a_dedicated_server_beside_the_notebook(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in ("APPDATA", "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "bedrock_server").write_bytes(b"")
    (tmp_path / "development_behavior_packs").mkdir()
    monkeypatch.chdir(tmp_path)
    assert addon({}).deploy().pack == tmp_path / "development_behavior_packs" / "mcbews_bridge_bp"


def test_defining_needs_the_simulated_world_and_export_names_what_is_missing(
    tmp_path: Path,
) -> None:
    dev: Any = addon({"greet": GREET})
    with pytest.raises(NotConnected, match="start it with %mc sim"):
        dev.define("greet", GREET)
    with pytest.raises(
        PackError, match="no prototype named hello was defined in this session; defined: greet"
    ):
        dev.export(tmp_path, include=["hello"])
    assert dev.prototypes == []
    with pytest.raises(KeyError, match="no prototype 'hello' was defined here"):
        dev.source("hello")
