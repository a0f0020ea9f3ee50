"""export_mcaddon writes a zip the game can import: each pack's manifest.json at its root."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from mcbews_repl.addon import MCADDON_NAME, PACK_FOLDER, bundle_path, export_mcaddon


def _packs(path: Path) -> dict[str, dict[str, bytes]]:
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None
        packs: dict[str, dict[str, bytes]] = {}
        for name in archive.namelist():
            folder, _, inner = name.partition("/")
            packs.setdefault(folder, {})[inner] = archive.read(name)
    return packs


def test_default_path_is_in_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    written = export_mcaddon()
    assert written == tmp_path / MCADDON_NAME
    packs = _packs(written)
    assert list(packs) == [PACK_FOLDER]
    for files in packs.values():
        assert "manifest.json" in files
    pack = packs[PACK_FOLDER]
    assert sorted(pack) == ["manifest.json", "pack_icon.png", "scripts/main.js"]
    for inner, data in pack.items():
        assert (bundle_path() / inner).read_bytes() == data


def test_a_directory_means_write_into_it(tmp_path: Path) -> None:
    assert export_mcaddon(tmp_path) == tmp_path / MCADDON_NAME
    assert export_mcaddon(str(tmp_path)).is_file()


def test_an_explicit_file_path_and_missing_parents(tmp_path: Path) -> None:
    target = tmp_path / "out" / "world.mcaddon"
    assert export_mcaddon(target) == target
    assert PACK_FOLDER in _packs(target)
    assert not list(target.parent.glob("*.tmp"))


def test_exports_are_byte_identical(tmp_path: Path) -> None:
    first = export_mcaddon(tmp_path / "a.mcaddon").read_bytes()
    second = export_mcaddon(tmp_path / "b.mcaddon").read_bytes()
    assert first == second
