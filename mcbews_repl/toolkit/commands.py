"""Command-line builders: check every argument, then build the one line the game runs.

Builders are pure (no I/O): they return a string or raise :class:`InvalidArgument`, so a
mistake never reaches the game. The matching parsers live in :mod:`.parsers`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..exceptions import InvalidArgument
from .validate import (
    DELTA_MAX,
    DELTA_MIN,
    DISPLAY_SLOTS,
    ENTITY_LIMIT_MAX,
    INT32_MAX,
    INT32_MIN,
    ITEM_DATA_MAX,
    RADIUS_MAX,
    SORT_ORDERS,
    check_block_id,
    check_coordinate,
    check_display_name,
    check_entity_type,
    check_filter,
    check_holder,
    check_int,
    check_item_id,
    check_objective,
    check_operator,
    check_selector,
    quote_name,
)

__all__ = [
    "entity_selector",
    "item_count",
    "objective_add",
    "objective_remove",
    "objective_setdisplay",
    "objectives_list",
    "score_add",
    "score_operation",
    "score_reset",
    "score_set",
    "scores_of",
    "tags_of",
    "testfor",
    "testforblock",
    "tracked_holders",
]

Position = Sequence[float]


def item_count(player: str, item: str, data: int = -1) -> str:
    """``clear <player> <item> <data> 0``: max count 0 counts without removing anything.

    Raises:
        InvalidArgument: ``player``, ``item`` or ``data`` is malformed.
    """
    name = quote_name(check_holder(player, "player"))
    item_id = check_item_id(item)
    aux = check_int(data, "data", -1, ITEM_DATA_MAX)
    return f"clear {name} {item_id} {aux} 0"


def tags_of(player: str) -> str:
    """``tag <player> list``: the player's tags.

    Raises:
        InvalidArgument: ``player`` is not a usable name.
    """
    return f"tag {quote_name(check_holder(player, 'player'))} list"


def scores_of(holder: str) -> str:
    """``scoreboard players list <holder>``: every score of one holder.

    Raises:
        InvalidArgument: ``holder`` is not a usable name.
    """
    return f"scoreboard players list {quote_name(check_holder(holder))}"


def tracked_holders() -> str:
    """``scoreboard players list``: every holder the scoreboard tracks."""
    return "scoreboard players list"


def testfor(selector: str) -> str:
    """``testfor <selector>``: who the selector matches.

    Raises:
        InvalidArgument: ``selector`` is not a selector or a usable name.
    """
    return f"testfor {check_selector(selector)}"


def testforblock(x: int, y: int, z: int, block: str) -> str:
    """``testforblock x y z <block>``: whether the block is there.

    Raises:
        InvalidArgument: a coordinate is not a whole number within the border, or
            ``block`` is not an id.
    """
    coords = [
        int(check_coordinate(v, axis, integer=True)) for v, axis in ((x, "x"), (y, "y"), (z, "z"))
    ]
    return f"testforblock {coords[0]} {coords[1]} {coords[2]} {check_block_id(block)}"


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _origin(origin: Position | None, radius: float | None) -> list[str]:
    if radius is not None and origin is None:
        raise InvalidArgument("radius", radius, "needs an origin", "pass origin=(x, y, z) too")
    if origin is None:
        return []
    if isinstance(origin, str | bytes) or len(origin) != 3:
        raise InvalidArgument("origin", origin, "is not three numbers", "origin=(x, y, z)")
    xyz = [check_coordinate(v, f"origin.{a}") for v, a in zip(origin, "xyz", strict=True)]
    parts = [f"{a}={_number(v)}" for a, v in zip("xyz", xyz, strict=True)]
    if radius is not None:
        if isinstance(radius, bool) or not isinstance(radius, int | float):
            raise InvalidArgument("radius", radius, "must be a number", f"0..{RADIUS_MAX:g}")
        if not 0 <= radius <= RADIUS_MAX:
            raise InvalidArgument("radius", radius, "is out of range", f"0..{RADIUS_MAX:g}")
        parts.append(f"r={_number(radius)}")
    return parts


def entity_selector(
    *,
    target: str = "entities",
    name: str | None = None,
    entity_type: str | None = None,
    tag: str | None = None,
    origin: Position | None = None,
    radius: float | None = None,
    limit: int = ENTITY_LIMIT_MAX,
) -> str:
    """A selector for ``querytarget``; asks for ``limit + 1`` so a cut-off is visible.

    Raises:
        InvalidArgument: ``target`` is not a target kind, ``limit`` is out of range, a filter is
            malformed, or ``radius`` is given without ``origin`` or out of range.
    """
    if target not in ("players", "entities"):
        raise InvalidArgument("target", target, "is not a target kind", "'players' or 'entities'")
    count = check_int(limit, "limit", 1, ENTITY_LIMIT_MAX)
    parts = _origin(origin, radius)
    if name is not None:
        parts.append(f"name={quote_name(check_filter(name, 'name'))}")
    if entity_type is not None:
        parts.append(f"type={check_entity_type(entity_type)}")
    if tag is not None:
        parts.append(f"tag={quote_name(check_filter(tag, 'tag'))}")
    parts.append(f"c={count + 1}")
    return f"@{'a' if target == 'players' else 'e'}[{','.join(parts)}]"


# --- scoreboard -------------------------------------------------------------------------


def objectives_list() -> str:
    """``scoreboard objectives list``: every objective."""
    return "scoreboard objectives list"


def objective_add(objective: str, display_name: str | None = None) -> str:
    """``scoreboard objectives add <objective> dummy ["display name"]``.

    Raises:
        InvalidArgument: ``objective`` or ``display_name`` is malformed.
    """
    line = f"scoreboard objectives add {check_objective(objective)} dummy"
    if display_name is not None:
        line += f' "{check_display_name(display_name)}"'
    return line


def objective_remove(objective: str) -> str:
    """``scoreboard objectives remove <objective>``.

    Raises:
        InvalidArgument: ``objective`` is not an objective name.
    """
    return f"scoreboard objectives remove {check_objective(objective)}"


def objective_setdisplay(
    slot: str, objective: str | None = None, sort_order: str | None = None
) -> str:
    """Show ``objective`` in ``slot``; no objective clears the slot.

    Raises:
        InvalidArgument: ``slot`` or ``sort_order`` is not one the game knows, or
            ``objective`` is malformed.
    """
    if slot not in DISPLAY_SLOTS:
        raise InvalidArgument("slot", slot, "is not a display slot", " / ".join(DISPLAY_SLOTS))
    line = f"scoreboard objectives setdisplay {slot}"
    if sort_order is not None:
        if sort_order not in SORT_ORDERS:
            raise InvalidArgument(
                "sort_order", sort_order, "is not a sort order", "ascending or descending"
            )
        if objective is None or slot == "belowname":
            raise InvalidArgument(
                "sort_order",
                sort_order,
                "needs an objective and a list or sidebar slot",
                "drop sort_order, or name an objective for list/sidebar",
            )
    if objective is not None:
        line += f" {check_objective(objective)}"
    return line + (f" {sort_order}" if sort_order else "")


def _holder_objective(holder: str, objective: str) -> str:
    return f"{quote_name(check_holder(holder))} {check_objective(objective)}"


def score_set(holder: str, objective: str, value: int) -> str:
    """``scoreboard players set <holder> <objective> <value>``.

    Raises:
        InvalidArgument: a malformed holder or objective, or ``value`` outside 32 bits.
    """
    amount = check_int(value, "value", INT32_MIN, INT32_MAX)
    return f"scoreboard players set {_holder_objective(holder, objective)} {amount}"


def score_add(holder: str, objective: str, delta: int) -> str:
    """Add ``delta`` (negative subtracts; 0 is allowed and reports the score).

    Raises:
        InvalidArgument: a malformed holder or objective, or ``delta`` out of range.
    """
    amount = check_int(delta, "delta", DELTA_MIN, DELTA_MAX)
    return f"scoreboard players add {_holder_objective(holder, objective)} {amount}"


def score_reset(holder: str, objective: str) -> str:
    """Remove ``holder`` from this one objective only (never every objective).

    Raises:
        InvalidArgument: ``holder`` or ``objective`` is malformed.
    """
    return f"scoreboard players reset {_holder_objective(holder, objective)}"


def score_operation(
    holder: str, objective: str, operator: str, source_holder: str, source_objective: str
) -> str:
    """``scoreboard players operation <holder> <objective> <op> <source_holder>
    <source_objective>``.

    Raises:
        InvalidArgument: an unknown operator, or a malformed holder or objective.
    """
    op = check_operator(operator)
    target = _holder_objective(holder, objective)
    source = (
        f"{quote_name(check_holder(source_holder, 'source_holder'))} "
        f"{check_objective(source_objective, 'source_objective')}"
    )
    return f"scoreboard players operation {target} {op} {source}"
