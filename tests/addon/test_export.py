"""export_mcaddon writes a zip the game can import: each pack's manifest.json at its root."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from mcbews_repl.addon import PACKS, PackName, bundle_path, export_mcaddon


def _packs(path: Path) -> dict[str, dict[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        packs: dict[str, dict[str, bytes]] = {}
        for name in archive.namelist():
            folder, _, inner = name.partition("/")
            packs.setdefault(folder, {})[inner] = archive.read(name)
    return packs


@pytest.mark.parametrize("pack", list(PACKS))
def test_default_path_is_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pack: PackName
) -> None:
    monkeypatch.chdir(tmp_path)
    folder, name = PACKS[pack]
    written = export_mcaddon(pack=pack)
    assert written == tmp_path / name
    packs = _packs(written)
    assert list(packs) == [folder]
    files = packs[folder]
    assert sorted(files) == ["manifest.json", "pack_icon.png", "scripts/main.js"]
    for inner, data in files.items():
        assert (bundle_path(pack) / inner).read_bytes() == data


def test_the_default_is_the_stable_pack(tmp_path: Path) -> None:
    written = export_mcaddon(tmp_path)
    assert written.name == "mcbews_bridge.mcaddon"
    assert list(_packs(written)) == ["mcbews_bridge_bp"]


def test_a_directory_means_write_into_it(tmp_path: Path) -> None:
    assert export_mcaddon(tmp_path) == tmp_path / "mcbews_bridge.mcaddon"
    assert export_mcaddon(str(tmp_path), pack="beta") == tmp_path / "mcbews_bridge_beta.mcaddon"


def test_an_explicit_file_path_and_missing_parents(tmp_path: Path) -> None:
    target = tmp_path / "out" / "world.mcaddon"
    assert export_mcaddon(target) == target
    assert "mcbews_bridge_bp" in _packs(target)


def test_an_unknown_pack_says_which_exist(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pack must be one of stable, beta"):
        export_mcaddon(tmp_path, pack="gold")  # type: ignore[arg-type]
