from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

VECTORS_PATH = Path(__file__).parent / "vectors" / "mcbews_v1.json"


@pytest.fixture(scope="session")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
    return data
