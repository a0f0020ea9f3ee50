"""Resolving target selectors (@a @p @s @e @r and player names) against the world.

Only the arguments scripts commonly use are modelled: name=, tag=, type= (each may be
negated with ``!``), c=, r= and rm= (measured from x=, y=, z= when given). Anything else is
accepted and ignored, which is kinder to a test than a false syntax error.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .model import Entity, Player, Vec3, WorldState
from .parse import Selector

__all__ = ["CommandOrigin", "players_only", "resolve"]


@dataclass
class CommandOrigin:
    """Who runs a command: its chat name, the entity behind @s (if any), where it stands."""

    name: str
    entity: Entity | None = None

    @property
    def location(self) -> Vec3:
        """Where the command runs from: the entity's position, else 0, 64, 0."""
        return self.entity.location if self.entity else Vec3(0.0, 64.0, 0.0)

    @property
    def dimension(self) -> str:
        """The entity's dimension, else the overworld."""
        return self.entity.dimension if self.entity else "overworld"


def resolve(
    world: WorldState, selector: Selector, origin: CommandOrigin, rng: random.Random
) -> list[Entity]:
    """Every entity the selector names, in the game's order (nearest first for @p/@e c=)."""
    if selector.quoted_non_ascii:
        return []  # the game matches no one by a quoted non-ASCII name (facts.json)
    if selector.kind == "":
        player = world.find_player(selector.name)
        return [player] if player else []
    if selector.kind == "s":
        candidates: list[Entity] = [origin.entity] if origin.entity else []
    elif selector.kind == "e":
        candidates = world.all_entities()
    else:
        candidates = list(world.players.values())
    found = [e for e in candidates if _matches(e, selector, origin)]
    return _limit(found, selector, origin, rng)


def _matches(entity: Entity, selector: Selector, origin: CommandOrigin) -> bool:
    for wanted in selector.arg("name"):
        if not _test(wanted, lambda v: entity.name.lower() == v.lower()):
            return False
    for wanted in selector.arg("tag"):
        if not _test(wanted, lambda v: (v in entity.tags) if v else not entity.tags):
            return False
    for wanted in selector.arg("type"):
        if not _test(wanted, lambda v: entity.type_id == _namespaced(v)):
            return False
    return _in_radius(entity, selector, origin)


def _test(wanted: str, predicate: object) -> bool:
    assert callable(predicate)
    if wanted.startswith("!"):
        return not predicate(wanted[1:])
    return bool(predicate(wanted))


def _namespaced(type_id: str) -> str:
    return type_id if ":" in type_id else f"minecraft:{type_id}"


def _centre(selector: Selector, origin: CommandOrigin) -> Vec3:
    """x=, y=, z= move the point r=, rm= and c= measure from (default: the origin)."""
    base = origin.location
    x, y, z = (selector.arg(axis) for axis in "xyz")
    return Vec3(
        float(x[0]) if x else base.x, float(y[0]) if y else base.y, float(z[0]) if z else base.z
    )


def _in_radius(entity: Entity, selector: Selector, origin: CommandOrigin) -> bool:
    d2 = entity.location.distance2(_centre(selector, origin))
    for r in selector.arg("r"):
        if d2 > float(r) ** 2 or entity.dimension != origin.dimension:
            return False
    return all(d2 >= float(rm) ** 2 for rm in selector.arg("rm"))


def _limit(
    found: list[Entity], selector: Selector, origin: CommandOrigin, rng: random.Random
) -> list[Entity]:
    counts = selector.arg("c")
    count = int(counts[0]) if counts else 0
    if selector.kind == "r":
        rng.shuffle(found)
        return found[: abs(count) or 1]
    if selector.kind == "p" or counts:
        centre = _centre(selector, origin)
        found.sort(key=lambda e: e.location.distance2(centre), reverse=count < 0)
        limit = abs(count) or 1
        return found[:limit]
    return found


def players_only(entities: list[Entity]) -> list[Player]:
    """The players among ``entities``, in order."""
    return [e for e in entities if isinstance(e, Player)]
