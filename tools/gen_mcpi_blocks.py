"""Generate the mcpi facade's block numbers: mcpi's ids and data values as Bedrock blocks.

mcpi (and RaspberryJuice, which lessons ran against on Java servers) numbers blocks as Java
Edition 1.12 did: an id and a data value (``35, 15`` is black wool). Bedrock names blocks
(``minecraft:black_wool``) with states. PyMCTranslate (the translator of the Amulet editor)
holds the Java 1.12.2 numeric table and the translation of each of its blocks to the
newest Bedrock version it knows; this script walks every id 0-255 and data value 0-15
through it, keeps what comes out as a vanilla Bedrock block (the simulated world's list,
mcbews_repl/sim/evidence/block_types.json), and writes mcbews_repl/mcpi/blockids.json::

    python tools/gen_mcpi_blocks.py   # in an environment with pymctranslate and mcpi

The versions of PyMCTranslate, its Java and Bedrock tables and mcpi are recorded in the
file. mcpi's block.py constants are read from the installed mcpi; each must map.
"""

from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "mcbews_repl" / "mcpi" / "blockids.json"
TYPES = ROOT / "mcbews_repl" / "sim" / "evidence" / "block_types.json"
JAVA = (1, 12, 2)  # the last numbered Java version: RaspberryJuice's
MAX_ID, MAX_DATA = 255, 15
# Oak signs: PyMCTranslate translates a sign only with its block entity (its text), which a
# bare id has not; Java's data is the same number as Bedrock's state (rotation 0-15 for a
# standing sign; 2-5 north, south, west, east for a wall sign, as facing_direction; Java
# 1.12's BlockWallSign.getStateFromMeta reads 0 and 1, up and down, as north).
STANDING_SIGN, WALL_SIGN = 63, 68
SIGNS = {STANDING_SIGN: ("minecraft:standing_sign", "ground_sign_direction"),
         WALL_SIGN: ("minecraft:wall_sign", "facing_direction")}  # fmt: skip
WALL_FACINGS, WALL_UP_DOWN, WALL_NORTH = range(2, 6), range(2), 2


def constants() -> dict[str, list[int]]:
    """Every ``NAME = Block(id[, data])`` of the installed mcpi's block.py (aliases too)."""
    import mcpi.block

    text = Path(mcpi.block.__file__).read_text()
    found: dict[str, list[int]] = {}
    for name, value in re.findall(r"^([A-Z_0-9]+)\s*=\s*(.+)$", text, re.M):
        if m := re.match(r"Block\((\d+)(?:,\s*(\d+))?\)", value.strip()):
            found[name] = [int(m[1]), int(m[2] or 0)]
        elif value.strip() in found:
            found[name] = found[value.strip()]
    return found


def state_value(value: Any, kind: str | None) -> Any:
    """An NBT tag's value as JSON: a byte state the game types boolean as true/false."""
    raw = value.py_data if hasattr(value, "py_data") else value
    if kind == "boolean":
        return bool(raw)
    return raw


def main() -> None:
    import PyMCTranslate

    types = json.loads(TYPES.read_text())
    known: dict[str, list[str]] = types["blocks"]
    state_types: dict[str, str] = types["state_types"]
    manager = PyMCTranslate.new_translation_manager()
    java = manager.get_version("java", JAVA)
    newest = manager.version_numbers("bedrock")[-1]
    bedrock = manager.get_version("bedrock", newest)
    rows: list[list[Any]] = []

    def back(block: Any) -> tuple[int, int] | None:
        """The Java number the Bedrock block translates back to (a read's number)."""
        try:
            universal, entity, _ = bedrock.block.to_universal(block)
            java_block, _, _ = java.block.from_universal(universal, entity)
            return tuple(java.block.block_to_ints(java_block))  # type: ignore[return-value]
        except Exception:  # no way back
            return None

    for block_id in range(MAX_ID + 1):
        for data in range(MAX_DATA + 1):
            try:
                source = java.block.ints_to_block(block_id, data)
                universal, entity, _ = java.block.to_universal(source)
                out, _, _ = bedrock.block.from_universal(universal, entity)
            except Exception:  # an id or data value Java 1.12 had not
                continue
            if block_id in SIGNS:  # the translator needs a sign's text to translate it
                name, state = SIGNS[block_id]
                if block_id == STANDING_SIGN:
                    rows.append([block_id, data, name, {state: data}, True])
                elif data in WALL_FACINGS or data in WALL_UP_DOWN:
                    facing = data if data in WALL_FACINGS else WALL_NORTH
                    rows.append([block_id, data, name, {state: facing}, data in WALL_FACINGS])
                continue
            name = getattr(out, "namespaced_name", None)
            if name not in known:
                continue  # numerical or removed: no vanilla Bedrock block to write
            states = {
                k: state_value(v, state_types.get(k))
                for k, v in sorted(out.properties.items())
                if k in known[name]
            }
            rows.append([block_id, data, name, states, back(out) == (block_id, data)])
    table = {
        "$comment": (
            "mcpi's block ids and data values (Java Edition 1.12.2 numbering, as "
            "RaspberryJuice's) and the Bedrock block and states each is; generated by "
            "tools/gen_mcpi_blocks.py through PyMCTranslate. Rows: [id, data, name, states, "
            "canonical]; canonical: the Bedrock "
            "block translates back to this number (what a read of it answers)."
        ),
        "source": {
            "pymctranslate": importlib.metadata.version("pymctranslate"),
            "java": ".".join(map(str, JAVA)),
            "bedrock": ".".join(map(str, newest)),
            "mcpi": importlib.metadata.version("mcpi"),
            "checked_against": f"block_types.json ({types['source']} {types['version']})",
        },
        "constants": constants(),
        "blocks": rows,
    }

    def compact(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))

    head = json.dumps({k: table[k] for k in ("$comment", "source")}, indent=1)[:-2]
    names = ",\n".join(f"  {compact(k)}:{compact(v)}" for k, v in table["constants"].items())
    lines = ",\n".join(f"  {compact(r)}" for r in rows)
    OUT.write_text(f'{head},\n "constants": {{\n{names}\n }},\n "blocks": [\n{lines}\n ]\n}}\n')
    missing = [n for n, (i, d) in table["constants"].items()
               if not any(r[0] == i and r[1] == d for r in rows)]  # fmt: skip
    print(f"{len(rows)} id/data pairs, {len(table['constants'])} mcpi constants -> {OUT}")
    if missing:
        raise SystemExit(f"mcpi constants without a Bedrock block: {missing}")


if __name__ == "__main__":
    main()
