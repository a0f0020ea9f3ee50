"""mc.addon without a simulated world: where deploy writes (the game's development folder on
this machine, else a message listing where games keep it), and what it says otherwise."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mcbews_repl.addon import export_mcaddon
from mcbews_repl.addon.extend import GAME_FOLDERS
from mcbews_repl.exceptions import NotConnected, PackError
from mcbews_repl.repl.handle._addon_dev import AddonDev

GREET = 'export default { name: "greet", description: "", params: {}, run() { return 1; } };'


def addon(sources: dict[str, str] | None = None) -> AddonDev:
    dev = AddonDev(SimpleNamespace(sim=None, capability_names=[]), print)  # type: ignore[arg-type]
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


@pytest.mark.parametrize(
    ("game", "variable", "parts"), GAME_FOLDERS, ids=[g[0] for g in GAME_FOLDERS]
)
def test_deploy_finds_each_games_folder_under_a_windows_profile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, variable: str,
    parts: tuple[str, ...],
) -> None:  # fmt: skip
    profile = {"APPDATA": tmp_path / "Roaming", "LOCALAPPDATA": tmp_path / "Local"}
    for name, folder in profile.items():
        monkeypatch.setenv(name, str(folder))
    monkeypatch.chdir(tmp_path)
    target = profile[variable].joinpath(*parts, "development_behavior_packs")
    target.mkdir(parents=True)
    deployed = addon({"greet": GREET}).deploy()
    assert deployed.pack == target / "mcbews_bridge_bp"
    assert f"the development folder of {game}" in str(deployed)
    assert (deployed.pack / "scripts" / "prototypes" / "greet.js").is_file()


def test_the_message_lists_education_too(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PackError) as missing:
        addon({"greet": GREET}).deploy()
    text = str(missing.value)
    assert (
        "Minecraft Education (the desktop installer's build): %APPDATA%\\Minecraft "
        "Education Edition\\games\\com.mojang\\development_behavior_packs"
    ) in text
    assert "Microsoft.MinecraftEducationEdition_8wekyb3d8bbwe\\LocalState" in text
    assert f"not found: {tmp_path / 'Roaming' / 'Minecraft Bedrock'}" in text  # fmt: skip


# What Windows says when a program holds a file open (ERROR_SHARING_VIOLATION, WinError 32).
HELD = "The process cannot access the file because it is being used by another process"


def held_open_by_the_game(monkeypatch: pytest.MonkeyPatch, held: Path) -> None:
    """os.replace refuses to move ``held`` (or replace it), as Windows does while the game
    reads the pack: the one part of Windows played here (no game can hold a file open)."""
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        if Path(src) == held or Path(dst) == held:
            raise PermissionError(13, HELD, str(held))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def test_a_pack_the_game_holds_open_says_to_close_the_world(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    dev = addon({"greet": GREET})
    first = dev.deploy(tmp_path)
    before = (first.pack / "manifest.json").read_text(encoding="utf-8")
    held_open_by_the_game(monkeypatch, first.pack)
    with pytest.raises(PackError) as refused:
        dev.deploy(tmp_path)
    text = str(refused.value)
    assert text.startswith(f"cannot replace {first.pack}: {HELD}. Minecraft may hold")
    assert "close the world that uses it (or the game) and try again" in text
    assert (first.pack / "manifest.json").read_text(encoding="utf-8") == before  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mcbews_bridge_bp"]  # no leftovers


def test_an_mcaddon_the_game_is_importing_says_so_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    dev = addon({"greet": GREET})
    written = dev.export(tmp_path)
    held_open_by_the_game(monkeypatch, written)
    with pytest.raises(PackError, match="close the world that uses it"):
        dev.export(tmp_path)
    with pytest.raises(PackError, match="Minecraft may hold the pack's files open"):
        export_mcaddon(written)
    assert sorted(p.name for p in tmp_path.iterdir()) == [written.name]
