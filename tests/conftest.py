from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Property tests judge what the code does, not how fast: on a busy 2-core CI machine one
# example can take longer than hypothesis's 200 ms deadline, or its data longer to draw, and
# such a run would fail on the machine's load alone. Each test's own settings still apply.
settings.register_profile("load-proof", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("load-proof")

VECTORS_PATH = Path(__file__).parent / "vectors" / "mcbews_v1.json"


@pytest.fixture(scope="session")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="session", autouse=True)
def user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The per-user cache folder (the doctor's captures), for this run only: no test writes
    into the cache of the person running them; kernels and commands started by tests
    inherit it (mcbews_repl/userdirs.py)."""
    folder = tmp_path_factory.mktemp("user-cache")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("XDG_CACHE_HOME", str(folder))
        if os.name == "nt":
            env.setenv("LOCALAPPDATA", str(folder))
        yield folder
