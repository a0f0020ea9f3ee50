"""Fixtures for the addon tests: a fresh build of the pack in a temporary folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ADDON_SRC = REPO / "addon"


def _run(args: list[str]) -> None:
    done = subprocess.run(args, cwd=ADDON_SRC, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="session")
def fresh_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build both bundles into a temporary folder: ``<tmp>/dist`` and ``<tmp>/package``."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed to rebuild the addon")
    if not (ADDON_SRC / "node_modules" / "esbuild").is_dir():
        _run(["npm", "ci", "--no-audit", "--no-fund"])
    out = tmp_path_factory.mktemp("addon-build")
    _run(
        [
            "node",
            "scripts/build.mjs",
            "--dist",
            str(out / "dist"),
            "--package",
            str(out / "package"),
        ]
    )
    return out
