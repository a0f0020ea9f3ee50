"""The addon's generated addon/src/wire.ts says what mcbews_repl/wire.json says.

Read independently of the generator: every ``export const NAME = <json>`` in wire.ts must
equal the value of the same key in wire.json, and every wire.json value must be there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mcbews_repl.sansio import wire

from .conftest import ADDON_SRC

_CONST = re.compile(r"^export const ([A-Z0-9_]+) = (.+?)(?: as const)?;$", re.MULTILINE)


def _ts_constants() -> dict[str, Any]:
    text = (ADDON_SRC / "src" / "wire.ts").read_text(encoding="utf-8")
    return {name: json.loads(value) for name, value in _CONST.findall(text)}


def _expected() -> dict[str, Any]:
    manifest = wire.load_manifest()
    out: dict[str, Any] = {}
    for key, entry in manifest["names"].items():
        out[key.upper()] = entry["value"]
    for key, entry in manifest["limits"].items():
        out[key.upper()] = entry["value"]
    out["REQUEST_VERSION"] = manifest["request_version"]["value"]
    out["ERROR_CODES"] = manifest["error_codes"]["value"]
    out["TEXT_ROLES"] = manifest["text_roles"]["value"]
    return out


def test_every_wire_value_is_in_the_typescript_constants() -> None:
    assert _ts_constants() == _expected()


def test_python_names_agree() -> None:
    ts = _ts_constants()
    assert ts["BRIDGE_PLAYER"] == wire.BRIDGE_PLAYER
    assert ts["COMMAND_LINE_BUDGET_BYTES"] == wire.COMMAND_LINE_BUDGET_BYTES
    assert tuple(ts["ERROR_CODES"]) == wire.ERROR_CODES


def test_wire_json_is_the_packaged_one() -> None:
    packaged = Path(wire.__file__).parent.parent / "wire.json"
    assert json.loads(packaged.read_text(encoding="utf-8")) == wire.load_manifest()
