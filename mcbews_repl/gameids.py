"""Game ids in tables: the short name to read, the full id in a column of its own.

Every table this package makes names dimensions, entity types, items and blocks one way:
the column ``dimension`` (``type``, ``item``, ``block``) holds the short name
(``overworld``, ``zombie``, ``diamond_sword``, ``stone``) and the column of the same name
with ``Id`` after it (``dimensionId``, ``typeId``, ``itemId``, ``blockId``) the full id
(``minecraft:overworld`` ...). Only the ``minecraft:`` namespace is left out of a short
name; another keeps it (``mypack:ruby`` in both columns), so two ids never share a short
name. So any two tables join on what they show:
``players.merge(entities, on=["name", "dimension"])``.

The addon and the game answer with either form (the player snapshot says
``minecraft:overworld``, ``querytarget`` a number that the toolkit reads as ``overworld``),
which is why the tables do not pass them on as they came. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

__all__ = ["MINECRAFT", "full_id", "id_column", "id_columns", "short_id", "with_ids"]

MINECRAFT = "minecraft:"


def _missing(value: object) -> bool:
    """None, NaN, an empty string, or pandas' NA (without importing pandas)."""
    if value is None or value == "":
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return type(value).__name__ in {"NAType", "NaTType"}


def short_id(value: object) -> str:
    """``minecraft:diamond_sword`` → ``diamond_sword``; other namespaces stay; a missing
    value is ``""``."""
    return "" if _missing(value) else str(value).removeprefix(MINECRAFT)


def full_id(value: object) -> str | None:
    """``diamond_sword`` or ``minecraft:diamond_sword`` → ``minecraft:diamond_sword``; an
    id with a namespace, or one the game marks itself (``<unloaded>``), stays; a missing
    value is None."""
    if _missing(value):
        return None
    text = str(value)
    return text if ":" in text or text.startswith("<") else MINECRAFT + text


def id_column(column: str) -> str:
    """The column holding the full id of what ``column`` names: ``type`` → ``typeId``."""
    return f"{column}Id"


def with_ids(row: dict[str, Any], *columns: str) -> dict[str, Any]:
    """``row`` with each of ``columns`` as its short name, and its full id right after it."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key in columns:
            out[key] = short_id(value) or None
            out[id_column(key)] = full_id(value)
        else:
            out[key] = value
    return out


def id_columns(columns: Iterable[str], *named: str) -> list[str]:
    """``columns`` with the id column after each of ``named``: the frame's column order."""
    return [c for column in columns for c in ([column, id_column(column)]
                                               if column in named else [column])]  # fmt: skip
