from __future__ import annotations

from pathlib import Path

import pytest

from .tools import build_dists


@pytest.fixture(scope="session")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel built from it, once per test run (outside the checkout)."""
    return build_dists(tmp_path_factory.mktemp("dist"))
