"""Where the doctor saves its capture when not told: the user's cache folder (this run's,
tests/conftest.py), a new name each time, the newest 50 kept; the system's temporary
folder when the cache cannot be made."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from mcbews_repl.doctor import captures_folder, default_capture_path
from mcbews_repl.limits import DOCTOR_CAPTURES_KEPT


def test_the_cache_folder_not_the_working_folder(
    user_cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = default_capture_path()
    assert path.parent == user_cache / "mcbews-repl" / "doctor" == captures_folder()
    assert path.name.startswith("mcbews-doctor-") and path.suffix == ".jsonl"
    assert list(tmp_path.iterdir()) == []


def test_two_runs_in_one_second_get_two_files(tmp_path: Path) -> None:
    first = default_capture_path(tmp_path)
    first.write_text("{}\n", encoding="utf-8")
    second = default_capture_path(tmp_path)
    assert second != first and second.stem.startswith(first.stem)


def test_only_the_newest_captures_are_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path))
    folder = captures_folder()
    for k in range(DOCTOR_CAPTURES_KEPT + 5):
        old = folder / f"mcbews-doctor-2020-{k:03}.jsonl"
        old.write_text("{}\n", encoding="utf-8")
        os.utime(old, (1_600_000_000 + k, 1_600_000_000 + k))
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    new = default_capture_path()
    new.write_text("{}\n", encoding="utf-8")
    kept = sorted(p.name for p in folder.glob("mcbews-doctor-*.jsonl"))
    assert len(kept) == DOCTOR_CAPTURES_KEPT and new.name in kept
    assert "mcbews-doctor-2020-005.jsonl" not in kept and "mcbews-doctor-2020-006.jsonl" in kept
    assert (folder / "notes.txt").is_file()  # only the doctor's own files


def test_a_cache_that_cannot_be_made_falls_back_to_the_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setenv("LOCALAPPDATA", str(blocker))
    assert default_capture_path().parent == Path(tempfile.gettempdir())
