"""The game's WebSocket events other than chat, as the simulated world sends them.

Written from the evidence corpus, not from the bridge's codec: a captured event's body is
its published frame (``captures.json``, ``<Name>-16842752``) with the simulated player's
object and the world's facts of the moment in place of the captured ones; an assumed
event's body has the keys ``facts.json`` ``game_events`` lists. Which player an event may
report is a game fact too: a WebSocket event is the connected client's own (facts.json
``game_events_connected_client_only``), so the world sends none for anyone else.
"""

from __future__ import annotations

import copy
import math
import zlib
from typing import Any

from .facts import corpus
from .model import ItemStack, Player

__all__ = [
    "DIMENSION_NUMBERS",
    "body_of",
    "captured_body",
    "event_facts",
    "event_frame",
    "item_object",
    "player_object",
    "stack_object",
]

# The player object's dimension numbers (facts.json game_events.player_keys).
DIMENSION_NUMBERS = {"overworld": 0, "nether": 1, "the_end": 2}
# An empty slot's stack, as MobKilled's empty armour slots are sent (captured).
_EMPTY_STACK = {"aux": 0, "enchantments": [], "freeStackSize": 255, "id": "",
                "maxStackSize": 255, "namespace": "", "stackSize": 0}  # fmt: skip


def event_facts() -> dict[str, Any]:
    """facts.json ``game_events``: each event's body keys and codes, and its status."""
    facts: dict[str, Any] = corpus("facts")["game_events"]
    return facts


def captured_body(name: str) -> dict[str, Any] | None:
    """A copy of the body of ``name``'s published frame, or None (no frame of it)."""
    for capture in corpus("captures")["captures"]:
        if capture["id"] == f"{name}-16842752":
            body: dict[str, Any] = copy.deepcopy(capture["exact"]["body"])
            return body
    return None


def _split(type_id: str) -> tuple[str, str]:
    namespace, _, short = type_id.rpartition(":")
    return namespace or "minecraft", short


def _colour(name: str) -> str:
    """A player's map marker colour (the capture's ``ff5454ff`` form: RGBA hex)."""
    return f"{zlib.crc32(name.encode()) & 0xFFFFFF:06x}ff"


def player_object(player: Player) -> dict[str, Any]:
    """The ``player`` object of an event: the captured keys, the player's own values."""
    where = player.location
    return {
        "color": _colour(player.name),
        "dimension": DIMENSION_NUMBERS.get(player.dimension, 0),
        "id": int(player.id) if player.id.lstrip("-").isdigit() else zlib.crc32(player.id.encode()),
        "name": player.name,
        "position": {"x": where.x, "y": where.y, "z": where.z},
        "type": "minecraft:player",
        "variant": 0,
        "yRot": player.yaw,
    }


def item_object(type_id: str, aux: int = 0) -> dict[str, Any]:
    """A block or item as events name them: ``{aux, id, namespace}`` (captured)."""
    namespace, short = _split(type_id)
    return {"aux": aux, "id": short, "namespace": namespace}


def stack_object(stack: ItemStack | None) -> dict[str, Any]:
    """An item stack as events send a tool or weapon (captured); an empty slot's when None."""
    if stack is None:
        return dict(_EMPTY_STACK, enchantments=[])
    namespace, short = _split(stack.type_id)
    return {
        "aux": stack.data,
        "enchantments": [
            {"level": e.level, "name": f"{e.type_id.title()} {e.level}", "type": 0}
            for e in stack.enchantments
        ],
        "freeStackSize": max(stack.max_amount - stack.amount, 0),
        "id": short,
        "maxStackSize": stack.max_amount,
        "namespace": namespace,
        "stackSize": stack.amount,
    }


def _finite(value: float) -> float:
    return value if math.isfinite(value) else 0.0


def event_frame(name: str, body: dict[str, Any], version: int) -> dict[str, Any]:
    """A whole event frame (the captured key order: body, then header)."""
    header = {"eventName": name, "messagePurpose": "event", "version": version}
    return {"body": body, "header": header}


def body_of(name: str, player: Player, **values: Any) -> dict[str, Any]:
    """The body of ``name`` reporting ``player``: the captured frame's body (or, for an
    assumed event, its listed keys) with the player's object and ``values`` (body keys as the
    game spells them) in place.

    Raises:
        ValueError: the corpus knows no such event, or it is one the game does not send.
    """
    facts = event_facts()
    fact = facts.get(name)
    if fact is None or name.startswith(("$", "player_keys", "not_firing")):
        raise ValueError(f"the corpus records no WebSocket event {name!r}")
    body = captured_body(name)
    if body is None:  # assumed: the keys facts.json lists, each an empty value of its kind
        body = {key: _blank(key) for key in fact["value"]["body"]}
    unknown = set(values) - set(body)
    if unknown:
        raise ValueError(f"{name} has no {', '.join(sorted(unknown))} (it has {sorted(body)})")
    body.update(values)
    if "player" in body:
        body["player"] = player_object(player)
    return {key: _finite(v) if isinstance(v, float) else v for key, v in body.items()}


def _blank(key: str) -> Any:
    """An assumed body key's value before the event fills it."""
    if key in ("item", "block", "fuelSource", "itemA", "itemB"):
        return item_object("minecraft:air")
    if key == "result":  # a stack (SocketBE's ItemTradedPacket) that names an item, as the
        # other assumed events' items do: an empty slot's "" id would decode as no item
        return dict(stack_object(None), id="air", namespace="minecraft")
    if key == "trader":
        return {"dimension": 0, "id": 0, "position": {"x": 0.0, "y": 0.0, "z": 0.0},
                "trader": {"name": "", "tier": 0}, "type": "minecraft:villager_v2",
                "variant": 0, "yRot": 0.0}  # fmt: skip
    return 0
