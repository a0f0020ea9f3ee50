"""The wheel and the sdist hold every file a user is sent to (the notebooks, the docs, the
addon's README, the licence), and the wheel's metadata says what the package is and where it
runs. Built with ``python -m build`` (the wheel from the sdist), read from the archives."""

from __future__ import annotations

import email
import email.message
import re
import tarfile
import zipfile
from pathlib import Path

import pytest

from .tools import REPO

# Building takes a while (an isolated build environment, twice).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

BUNDLE = "mcbews_repl/_bundled/"


def sent_to() -> set[str]:
    """What the README, the docs and the commands' messages send a user to, in the
    repository's layout (listed here independently of mcbews_repl/bundled.py)."""
    files = {"README.md", "LICENSE", "addon/README.md"}
    for pattern in ("notebooks/*.ipynb", "docs/*.md", "docs/images/*.png", "magics/*.ipy"):
        files |= {p.relative_to(REPO).as_posix() for p in REPO.glob(pattern)}
    return files


def wheel_names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        [name] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        return email.message_from_bytes(archive.read(name))


def test_the_wheel_holds_every_file_a_user_is_sent_to(dists: tuple[Path, Path]) -> None:
    names = wheel_names(dists[1])
    assert "notebooks/01_getting_started.ipynb" in sent_to()
    missing = sorted(f for f in sent_to() if BUNDLE + f not in names)
    assert missing == []
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_the_bundled_files_are_those_of_the_checkout(dists: tuple[Path, Path]) -> None:
    with zipfile.ZipFile(dists[1]) as archive:
        for name in sent_to():
            assert archive.read(BUNDLE + name) == (REPO / name).read_bytes(), name
        extra = {n[len(BUNDLE) :] for n in archive.namelist() if n.startswith(BUNDLE)}
    assert extra == sent_to()  # nothing else (no checkpoints, no caches)


def test_the_sdist_holds_them_and_the_build_hook(dists: tuple[Path, Path]) -> None:
    with tarfile.open(dists[0]) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert sorted(sent_to() - names) == []
    assert {"pyproject.toml", "build_hooks.py", "PACKAGE.md", "mcbews_repl/bundled.py"} <= names


def test_the_metadata_says_what_and_where(dists: tuple[Path, Path]) -> None:
    meta = metadata(dists[1])
    classifiers = set(meta.get_all("Classifier") or [])
    assert {
        "Operating System :: OS Independent",
        "Framework :: Jupyter",
        "Framework :: Jupyter :: JupyterLab",
        "Framework :: IPython",
        "Programming Language :: Python :: 3.11",
        "Programming Language :: Python :: 3.12",
        "Programming Language :: Python :: 3.13",
    } <= classifiers
    assert meta["License-Expression"] == "MIT" and meta["License-File"] == "LICENSE"
    assert meta["Requires-Python"] == ">=3.11"
    # The long description is PACKAGE.md: no link into the repository (there is none for
    # a reader of the package index), and it names the command that opens the notebooks.
    description = meta.get_payload()
    assert isinstance(description, str)
    assert description.strip() == (REPO / "PACKAGE.md").read_text(encoding="utf-8").strip()
    assert re.findall(r"\]\((?!https://)[^)]*\)", description) == []
    assert "mcbews-repl lab" in description


def test_the_lab_extra_is_spelt_out_not_a_reference_to_the_package(
    dists: tuple[Path, Path],
) -> None:
    requires = metadata(dists[1]).get_all("Requires-Dist") or []
    assert not [r for r in requires if r.startswith("mcbews-repl")]
