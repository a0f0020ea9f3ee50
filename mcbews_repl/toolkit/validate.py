"""Local argument checks: every rule runs before a command line is built, so bad input is a
clear :class:`InvalidArgument` and never a half-sent command or a syntax error from the game.

The holder, objective, display-name, integer and operator rules are the scoreboard's
(docs/toolkit.md, "Limits and their sources"); the coordinate bound is the world border.
"""

from __future__ import annotations

import math
import re
import unicodedata

from ..exceptions import InvalidArgument

__all__ = [
    "COORDINATE_LIMIT",
    "DELTA_MAX",
    "DELTA_MIN",
    "DISPLAY_SLOTS",
    "ENTITY_LIMIT_MAX",
    "INT32_MAX",
    "INT32_MIN",
    "NAME_MAX_BYTES",
    "OPERATORS",
    "RADIUS_MAX",
    "SORT_ORDERS",
    "check_block_id",
    "check_coordinate",
    "check_display_name",
    "check_entity_type",
    "check_filter",
    "check_holder",
    "check_int",
    "check_item_id",
    "check_objective",
    "check_operator",
    "check_selector",
    "quote_name",
]

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # scores are signed 32-bit in the game
DELTA_MIN, DELTA_MAX = -(2**31 - 1), 2**31 - 1  # add/remove: a positive int32, either sign
NAME_MAX_BYTES = 128  # holders and display names: 1-128 UTF-8 bytes (docs/toolkit.md)
COORDINATE_LIMIT = 30_000_000  # the world border: no block or entity lies beyond it
RADIUS_MAX = 1024.0  # past any loaded area: only a mistaken radius reaches it
ENTITY_LIMIT_MAX = 64  # entities per query: one page an agent reads whole; total says more
ITEM_DATA_MAX = 32767  # the largest legacy aux value `clear` and `give` accept
SELECTOR_MAX_BYTES = 256  # a selector leaves room for its command in the 461-byte line
OPERATORS = ("=", "+=", "-=", "*=", "/=", "%=", "><", "<", ">")
DISPLAY_SLOTS = ("list", "sidebar", "belowname")
SORT_ORDERS = ("ascending", "descending")

_OBJECTIVE = re.compile(r"[A-Za-z0-9_.\-]{1,16}")
_NAMESPACED = re.compile(r"(?:[a-z0-9_.\-]+:)?[a-z0-9_.\-/]+")
_SELECTOR = re.compile(r"@[aeprs](?:\[[^\[\]]*\])?")
_QUOTE_WHEN = frozenset(" ,=[]!{}")  # characters that end a bare word in a command or selector


def _fail(argument: str, value: object, problem: str, how_to: str) -> InvalidArgument:
    return InvalidArgument(argument, value, problem, how_to)


# Control characters, and the invisible ones that break or reorder a line: line and
# paragraph separators (U+2028, U+2029), format characters (bidi overrides, zero widths).
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def _has_control(text: str) -> bool:
    return any(unicodedata.category(ch) in _CONTROL_CATEGORIES for ch in text)


def _text(argument: str, value: object, *, forbid: str, what: str) -> str:
    """A 1-128 byte string without edge whitespace, control characters or ``forbid``."""
    how = f"{what}: 1-{NAME_MAX_BYTES} UTF-8 bytes, no leading/trailing spaces, no {forbid!r}"
    if not isinstance(value, str):
        raise _fail(argument, value, f"must be a string, not {type(value).__name__}", how)
    size = len(value.encode("utf-8"))
    if not 1 <= size <= NAME_MAX_BYTES:
        raise _fail(argument, value, f"is {size} UTF-8 bytes", how)
    if value != value.strip():
        raise _fail(argument, value, "has leading or trailing whitespace", how)
    if _has_control(value):
        raise _fail(argument, value, "contains a control character", how)
    bad = sorted({ch for ch in value if ch in forbid})
    if bad:
        raise _fail(argument, value, f"contains {''.join(bad)!r}", how)
    return value


def check_holder(value: object, argument: str = "holder") -> str:
    """A player name or fake player (``#global``); never a selector.

    Raises:
        InvalidArgument: ``value`` is not a string, is empty or over 128 UTF-8 bytes, has edge
            whitespace or a control character, or holds ``@ * " \\``.
    """
    return _text(argument, value, forbid='@*"\\', what="a player or fake-player name")


def check_display_name(value: object, argument: str = "display_name") -> str:
    """An objective's display name: 1-128 UTF-8 bytes, no edge spaces, control
    characters, quotes or backslashes.

    Raises:
        InvalidArgument: ``value`` breaks one of those rules (the message says which).
    """
    return _text(argument, value, forbid='"\\', what="a display name")


def check_filter(value: object, argument: str) -> str:
    """A name= or tag= value inside a selector.

    Raises:
        InvalidArgument: ``value`` is not a string, is empty or over 128 UTF-8 bytes, has edge
            whitespace or a control character, or holds ``" \\ [ ]``.
    """
    return _text(argument, value, forbid='"\\[]', what="a selector value")


def check_objective(value: object, argument: str = "objective") -> str:
    """An objective name: 1-16 characters of ``A-Z a-z 0-9 _ . -``.

    Raises:
        InvalidArgument: ``value`` is not one.
    """
    if not isinstance(value, str) or not _OBJECTIVE.fullmatch(value):
        raise _fail(
            argument, value, "is not an objective name", "1-16 characters of A-Z a-z 0-9 _ . -"
        )
    return value


def check_int(value: object, argument: str, low: int, high: int) -> int:
    """A whole number (not a bool) in ``low..high``.

    Raises:
        InvalidArgument: ``value`` is not an int, or is out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(argument, value, "must be an integer", f"a whole number in {low}..{high}")
    if not low <= value <= high:
        raise _fail(argument, value, "is out of range", f"a whole number in {low}..{high}")
    return value


def check_operator(value: object, argument: str = "operator") -> str:
    """A scoreboard operator: one of :data:`OPERATORS`.

    Raises:
        InvalidArgument: ``value`` is not one.
    """
    if value not in OPERATORS:
        raise _fail(
            argument, value, "is not a scoreboard operator", f"one of {' '.join(OPERATORS)}"
        )
    return str(value)


def _namespaced(value: object, argument: str, what: str) -> str:
    how = f"{what} such as minecraft:stone (lower case; the namespace is optional)"
    if not isinstance(value, str) or len(value) > NAME_MAX_BYTES:
        raise _fail(argument, value, f"is not {what}", how)
    if not _NAMESPACED.fullmatch(value):
        raise _fail(argument, value, f"is not {what}", how)
    return value if ":" in value else f"minecraft:{value}"


def check_item_id(value: object, argument: str = "item") -> str:
    """An item id, namespaced (``diamond`` -> ``minecraft:diamond``).

    Raises:
        InvalidArgument: ``value`` is not a lower-case id of at most 128 characters.
    """
    return _namespaced(value, argument, "an item id")


def check_block_id(value: object, argument: str = "block") -> str:
    """A block id, namespaced (``stone`` -> ``minecraft:stone``).

    Raises:
        InvalidArgument: ``value`` is not a lower-case id of at most 128 characters.
    """
    return _namespaced(value, argument, "a block id")


def check_entity_type(value: object, argument: str = "entity_type") -> str:
    """An entity type, namespaced (``cow`` -> ``minecraft:cow``).

    Raises:
        InvalidArgument: ``value`` is not a lower-case id of at most 128 characters.
    """
    return _namespaced(value, argument, "an entity type")


def check_coordinate(value: object, argument: str, *, integer: bool = False) -> float:
    """A coordinate within the world border (a whole number when ``integer``).

    Raises:
        InvalidArgument: ``value`` is not a number (or not whole), or is beyond the border.
    """
    kind = "a whole number" if integer else "a number"
    how = f"{kind} within ±{COORDINATE_LIMIT:,}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(argument, value, f"must be {kind}", how)
    if integer and not isinstance(value, int):
        raise _fail(argument, value, f"must be {kind}", how)
    if not math.isfinite(value) or abs(value) > COORDINATE_LIMIT:
        raise _fail(argument, value, "is beyond the world border", how)
    return value


def check_selector(value: object, argument: str = "selector") -> str:
    """``@a``, ``@e[type=cow,c=3]`` or a player name (quoted in the command if needed).

    Raises:
        InvalidArgument: ``value`` is empty, too long, holds a line break, or is neither a
            selector nor a usable name.
    """
    how = "a selector such as @a or @e[type=cow,r=10], or a player name"
    if not isinstance(value, str) or not value:
        raise _fail(argument, value, "must be a non-empty string", how)
    if len(value.encode("utf-8")) > SELECTOR_MAX_BYTES or _has_control(value):
        raise _fail(argument, value, f"is over {SELECTOR_MAX_BYTES} bytes or has a line break", how)
    if value.startswith("@"):
        if not _SELECTOR.fullmatch(value):
            raise _fail(argument, value, "is not a selector", how)
        return value
    return quote_name(check_holder(value, argument))


def quote_name(name: str) -> str:
    """A checked name as one command argument: quoted when it holds a space or separator."""
    return f'"{name}"' if any(ch in _QUOTE_WHEN for ch in name) else name
