"""The game's events, each defined once: its name, where it comes from, who it covers, its
fields and how the game spells them, and the small frozen dataclass a user receives.

One name space holds the events of both sources (``Source``): the game's own WebSocket
events, named as the game names them (``BlockBroken``, PascalCase), and the events the
addon forwards from the Script API's ``world.afterEvents``, named after them in snake case
(``player_break_block`` for ``playerBreakBlock``), so no name of one source can be taken
for the other.
``mc.on(name, fn)`` looks the name up here and the event's source decides how it is
subscribed to. The two sources differ in who they cover (``Coverage``): a WebSocket event
is the connected client's own (bedrockws-deno's schemas: BlockBroken "only emits when the
connected client triggers it"), so in a classroom where students join the teacher's world
the teacher's connection hears only the teacher; the addon's cover every player.

Every kind lists its fields as :class:`Field` s: the Python name, the path of the value in
the event's body (``("block", "id")``) and its type. An ``id`` field reads a ``{id,
namespace}`` object and gives two columns, the short id (``grass``) and the full one
(``grass_id``: ``minecraft:grass``); a ``type_id`` field does the same from one
``minecraft:slime`` string. The wire names and their status (captured in a published frame,
or assumed from a peer's types) come from the simulated world's evidence corpus
(``sim/evidence/facts.json`` ``game_events``, docs/sim.md); tests check the two agree. An
addon kind's fields are the short keys of a forwarded batch (docs/protocol.md, "Forwarded
events"), read from the Script API's event objects whose shapes the @minecraft/server
2.4.0 type definitions document (facts.json ``script_events``).

Standard library only: the protocol core decodes events with these definitions.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum, unique
from typing import Any, ClassVar, Literal

__all__ = [
    "ADDON_EVENTS",
    "ADDON_PLAYER_FIELDS",
    "GAME_EVENTS",
    "PLAYER_FIELDS",
    "BlockBroken",
    "BlockPlaced",
    "ButtonPushEvent",
    "Coverage",
    "EntityDieEvent",
    "EntityHitBlockEvent",
    "Field",
    "GameEvent",
    "GameEventKind",
    "ItemAcquired",
    "ItemCompleteUseEvent",
    "ItemCrafted",
    "ItemDropped",
    "ItemEquipped",
    "ItemInteracted",
    "ItemReleaseUseEvent",
    "ItemSmelted",
    "ItemStartUseEvent",
    "ItemStartUseOnEvent",
    "ItemStopUseEvent",
    "ItemStopUseOnEvent",
    "ItemTraded",
    "ItemUseEvent",
    "ItemUsed",
    "JukeboxUsed",
    "LeverActionEvent",
    "MobInteracted",
    "MobKilled",
    "OtherGameEvent",
    "PlayerBounced",
    "PlayerBreakBlockEvent",
    "PlayerDied",
    "PlayerInteractWithBlockEvent",
    "PlayerLeaveEvent",
    "PlayerMessage",
    "PlayerPlaceBlockEvent",
    "PlayerSpawnEvent",
    "PlayerTeleported",
    "PlayerTransform",
    "PlayerTravelled",
    "PortalBuilt",
    "PortalUsed",
    "PotionBrewed",
    "Source",
    "Status",
    "TargetBlockHit",
    "event_kind",
    "unknown_event_message",
]


@unique
class Source(StrEnum):
    """Where an event comes from."""

    WEBSOCKET = "websocket"  # the game's own event frames, once subscribed
    ADDON = "addon"  # the addon's forwarded world.afterEvents (subscribe_events)


@unique
class Status(StrEnum):
    """How sure the corpus is of an event's shape."""

    CAPTURED = "captured"  # a published frame of it shows its fields
    ASSUMED = "assumed"  # a peer's types or schema name them; no frame seen
    DOCUMENTED = "documented"  # the Script API's type definitions give its shape


@unique
class Coverage(StrEnum):
    """Whose doings an event reports."""

    CONNECTED_CLIENT = "the connected client only"
    EVERY_PLAYER = "every player"


FieldType = Literal["str", "int", "float", "bool", "id", "type_id"]


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event: its Python name, where its value is in the event's body, its
    type. An ``id`` or ``type_id`` field makes two columns: ``name`` and ``name_id``."""

    name: str
    path: tuple[str, ...]
    type: FieldType

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns it makes: its name, and ``name_id`` for an id's full form."""
        return (self.name, f"{self.name}_id") if self.type in ("id", "type_id") else (self.name,)


def _f(name: str, path: str, kind: FieldType) -> Field:
    return Field(name, tuple(path.split(".")), kind)


# Who did it, where: the ``player`` object every player's event carries (its name,
# position, dimension 0/1/2 and yRot; captured in every event frame of waveplayz's README).
PLAYER_FIELDS: tuple[Field, ...] = (
    _f("player", "player.name", "str"),
    _f("x", "player.position.x", "float"),
    _f("y", "player.position.y", "float"),
    _f("z", "player.position.z", "float"),
    _f("dimension", "player.dimension", "int"),
    _f("yaw", "player.yRot", "float"),
)


# --- the typed events: what a callback receives, one row of mc.events(kind=...) ---------------
# Every field may be None: a game version that leaves one out still delivers the event.


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEvent:
    """The fields every player's event has: who, and where they stood."""

    name: ClassVar[str] = ""

    player: str | None = None
    x: float | None = None
    y: float | None = None
    z: float | None = None
    dimension: int | None = None
    yaw: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockBroken(GameEvent):
    """The connected player broke a block (by hand: destructionMethod 0)."""

    name: ClassVar[str] = "BlockBroken"
    block: str | None = None
    block_id: str | None = None
    aux: int | None = None
    count: int | None = None
    destruction_method: int | None = None
    tool: str | None = None
    tool_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class BlockPlaced(GameEvent):
    """The connected player placed a block by hand (not /setblock or /fill)."""

    name: ClassVar[str] = "BlockPlaced"
    block: str | None = None
    block_id: str | None = None
    aux: int | None = None
    count: int | None = None
    placement_method: int | None = None
    placed_underwater: bool | None = None
    tool: str | None = None
    tool_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTravelled(GameEvent):
    """The connected player moved (travelMethod: 0 walk, 1 swim, 2 fall, 5 fly, 6 ride)."""

    name: ClassVar[str] = "PlayerTravelled"
    meters_travelled: float | None = None
    travel_method: int | None = None
    new_biome: int | None = None
    is_underwater: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTransform(GameEvent):
    """The connected player's position or rotation changed (the player object alone)."""

    name: ClassVar[str] = "PlayerTransform"


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTeleported(GameEvent):
    """The connected player was teleported (cause: 1 projectile, 2 chorus fruit, 3 command)."""

    name: ClassVar[str] = "PlayerTeleported"
    cause: int | None = None
    meters_travelled: float | None = None
    item_type: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerDied(GameEvent):
    """The connected player died (cause: the game's damage cause number)."""

    name: ClassVar[str] = "PlayerDied"
    cause: int | None = None
    killer_type: int | None = None
    killer_variant: int | None = None
    in_raid: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MobKilled(GameEvent):
    """The connected player killed a mob; ``victim`` is its type, ``victim_x`` ... where."""

    name: ClassVar[str] = "MobKilled"
    victim: str | None = None
    victim_id: str | None = None
    victim_x: float | None = None
    victim_y: float | None = None
    victim_z: float | None = None
    weapon: str | None = None
    weapon_id: str | None = None
    kill_method_type: int | None = None
    is_monster: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemUsed(GameEvent):
    """The connected player used an item (useMethod: 1 eat, 10 set on fire ...)."""

    name: ClassVar[str] = "ItemUsed"
    item: str | None = None
    item_id: str | None = None
    aux: int | None = None
    count: int | None = None
    use_method: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemAcquired(GameEvent):
    """The connected player got an item (acquisitionMethodId: 1 picked up, 2 crafted ...)."""

    name: ClassVar[str] = "ItemAcquired"
    item: str | None = None
    item_id: str | None = None
    aux: int | None = None
    count: int | None = None
    acquisition_method: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemCrafted(GameEvent):
    """The connected player crafted an item."""

    name: ClassVar[str] = "ItemCrafted"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None
    used_crafting_table: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemDropped(GameEvent):
    """The connected player dropped an item."""

    name: ClassVar[str] = "ItemDropped"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemEquipped(GameEvent):
    """The connected player equipped an item (slot: 1 offhand, 2 head ... 5 feet)."""

    name: ClassVar[str] = "ItemEquipped"
    item: str | None = None
    item_id: str | None = None
    slot: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemInteracted(GameEvent):
    """The connected player used or placed an item (method: 0 use, 1 place)."""

    name: ClassVar[str] = "ItemInteracted"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None
    method: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemSmelted(GameEvent):
    """The connected player took a smelted item from a furnace."""

    name: ClassVar[str] = "ItemSmelted"
    item: str | None = None
    item_id: str | None = None
    fuel: str | None = None
    fuel_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemTraded(GameEvent):
    """The connected player traded with a villager; the item is what they got."""

    name: ClassVar[str] = "ItemTraded"
    item: str | None = None
    item_id: str | None = None
    emeralds: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MobInteracted(GameEvent):
    """The connected player interacted with a mob (interactionType: 1 breed, 2 tame ...)."""

    name: ClassVar[str] = "MobInteracted"
    mob_type: int | None = None
    interaction_type: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerBounced(GameEvent):
    """The connected player bounced on a block (a slime block, a bed)."""

    name: ClassVar[str] = "PlayerBounced"
    block: str | None = None
    block_id: str | None = None
    bounce_height: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TargetBlockHit(GameEvent):
    """The connected player hit a target block (with the redstone level it gave)."""

    name: ClassVar[str] = "TargetBlockHit"
    redstone_level: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class JukeboxUsed(GameEvent):
    """Listed by the game; its fields are unknown and it is reported not to fire."""

    name: ClassVar[str] = "JukeboxUsed"


@dataclass(frozen=True, slots=True, kw_only=True)
class PortalBuilt(GameEvent):
    """Listed by the game; its fields are unknown and it is reported not to fire."""

    name: ClassVar[str] = "PortalBuilt"


@dataclass(frozen=True, slots=True, kw_only=True)
class PortalUsed(GameEvent):
    """Listed by the game; its fields are unknown and it is reported not to fire."""

    name: ClassVar[str] = "PortalUsed"


@dataclass(frozen=True, slots=True, kw_only=True)
class PotionBrewed(GameEvent):
    """Listed by the game; its fields are unknown and it is reported not to fire."""

    name: ClassVar[str] = "PotionBrewed"


# --- the addon's events: every player's, forwarded from world.afterEvents ----------------------
# ``x``, ``y``, ``z`` are the block's position for a block's event (whole numbers), else where
# the player or entity stood; ``dimension`` is 0 overworld, 1 nether, 2 the end, as the
# WebSocket events number it (another dimension leaves it None).


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerBreakBlockEvent(GameEvent):
    """Any player broke a block (x, y, z: the block); tool: what they held."""

    name: ClassVar[str] = "player_break_block"
    block: str | None = None
    block_id: str | None = None
    tool: str | None = None
    tool_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerPlaceBlockEvent(GameEvent):
    """Any player placed a block (x, y, z: the block)."""

    name: ClassVar[str] = "player_place_block"
    block: str | None = None
    block_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityHitBlockEvent(GameEvent):
    """A player or mob hit a block (x, y, z and face: the block's, as mcpi's block hits)."""

    name: ClassVar[str] = "entity_hit_block"
    block: str | None = None
    block_id: str | None = None
    face: str | None = None
    entity: str | None = None
    entity_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityDieEvent(GameEvent):
    """A player or mob died; player: the player who killed it, if one did."""

    name: ClassVar[str] = "entity_die"
    victim: str | None = None
    victim_id: str | None = None
    victim_name: str | None = None
    cause: str | None = None
    killer: str | None = None
    killer_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSpawnEvent(GameEvent):
    """Any player spawned: joined (initial_spawn) or respawned."""

    name: ClassVar[str] = "player_spawn"
    initial_spawn: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerLeaveEvent(GameEvent):
    """Any player left the world (its name only)."""

    name: ClassVar[str] = "player_leave"


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemUseEvent(GameEvent):
    """Any player used an item (eat, throw, ...; x, y, z: where they stood)."""

    name: ClassVar[str] = "item_use"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemStartUseEvent(GameEvent):
    """Any player began to charge an item (eat, draw a bow; use_duration: ticks it takes)."""

    name: ClassVar[str] = "item_start_use"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None
    use_duration: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemCompleteUseEvent(GameEvent):
    """Any player finished charging an item (the food eaten, the potion drunk)."""

    name: ClassVar[str] = "item_complete_use"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None
    use_duration: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemReleaseUseEvent(GameEvent):
    """Any player released a charging item (a bow shot; use_duration: ticks it had left)."""

    name: ClassVar[str] = "item_release_use"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None
    use_duration: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemStopUseEvent(GameEvent):
    """Any player stopped charging an item (use_duration: ticks it had left)."""

    name: ClassVar[str] = "item_stop_use"
    item: str | None = None
    item_id: str | None = None
    count: int | None = None
    use_duration: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemStartUseOnEvent(GameEvent):
    """Any player began to use an item on a block (x, y, z and face: the block's)."""

    name: ClassVar[str] = "item_start_use_on"
    block: str | None = None
    block_id: str | None = None
    face: str | None = None
    item: str | None = None
    item_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ItemStopUseOnEvent(GameEvent):
    """Any player let go of the use button after using an item on a block (x, y, z: it)."""

    name: ClassVar[str] = "item_stop_use_on"
    block: str | None = None
    block_id: str | None = None
    item: str | None = None
    item_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerInteractWithBlockEvent(GameEvent):
    """Any player used a block (a door, a chest; x, y, z and face: the block's)."""

    name: ClassVar[str] = "player_interact_with_block"
    block: str | None = None
    block_id: str | None = None
    face: str | None = None
    item: str | None = None
    item_id: str | None = None
    first: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPushEvent(GameEvent):
    """A player or mob pushed a button (x, y, z: the button)."""

    name: ClassVar[str] = "button_push"
    block: str | None = None
    block_id: str | None = None
    entity: str | None = None
    entity_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LeverActionEvent(GameEvent):
    """Any player flipped a lever (x, y, z: the lever; powered: on after it)."""

    name: ClassVar[str] = "lever_action"
    block: str | None = None
    block_id: str | None = None
    powered: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerMessage(GameEvent):
    """A chat line (the bridge's own subscription: its log kind is chat)."""

    name: ClassVar[str] = "PlayerMessage"
    message: str | None = None
    type: str | None = None
    receiver: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OtherGameEvent(GameEvent):
    """An event the corpus does not know, subscribed with ``unknown_ok=True``: its name and
    its body as compact JSON (cut to a bound), and the player's fields when it has them."""

    event: str = ""
    properties: str = ""


# --- the kinds ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameEventKind:
    """One event kind: its name, source, status and coverage, what it means (one line),
    its fields (the player's first), and the dataclass its events become. ``always``: the
    bridge subscribes to it on every connection by itself (PlayerMessage carries chat and
    the addon's chat answers). ``fires``: False for an event the game lists but is reported
    not to send."""

    name: str
    source: Source
    status: Status
    covers: Coverage
    meaning: str
    fields: tuple[Field, ...]
    cls: type[GameEvent]
    always: bool = False
    fires: bool = True
    # An addon kind's Script API signal (``world.afterEvents.playerBreakBlock``).
    signal: str = ""

    @property
    def columns(self) -> tuple[str, ...]:
        """The event's own columns, in order (every field's, an id's two)."""
        return tuple(c for f in self.fields for c in f.columns)

    def make(self, values: Mapping[str, Any]) -> GameEvent:
        """The typed event of these column values (a log entry's data); others are ignored."""
        known = {f.name for f in fields(self.cls)}
        return self.cls(**{k: v for k, v in values.items() if k in known})


def _meaning(cls: type[GameEvent]) -> str:
    """The first line of its docstring, as a person reads it: no ``literal`` markup."""
    return (cls.__doc__ or "").strip().splitlines()[0].replace("``", "")


def _ws(
    cls: type[GameEvent],
    status: Status,
    own: tuple[Field, ...],
    *,
    always: bool = False,
    fires: bool = True,
) -> GameEventKind:
    meaning = _meaning(cls)
    return GameEventKind(cls.name, Source.WEBSOCKET, status, Coverage.CONNECTED_CLIENT, meaning,
                         PLAYER_FIELDS + own, cls, always, fires)  # fmt: skip


# The short keys of a forwarded event (docs/protocol.md, "Forwarded events"): who, where.
ADDON_PLAYER_FIELDS: tuple[Field, ...] = (
    _f("player", "p", "str"),
    _f("x", "x", "float"),
    _f("y", "y", "float"),
    _f("z", "z", "float"),
    _f("dimension", "d", "int"),
)


def _addon(cls: type[GameEvent], signal: str, own: tuple[Field, ...]) -> GameEventKind:
    meaning = _meaning(cls)
    return GameEventKind(cls.name, Source.ADDON, Status.DOCUMENTED, Coverage.EVERY_PLAYER,
                         meaning, ADDON_PLAYER_FIELDS + own, cls,
                         signal=f"world.afterEvents.{signal}")  # fmt: skip


_C, _A = Status.CAPTURED, Status.ASSUMED
# A charged item's use (itemStartUse, itemCompleteUse ...): the item, its count, and the
# ticks left of its charge (useDuration).
_CHARGE = (_f("item", "i", "type_id"), _f("count", "n", "int"),
           _f("use_duration", "ud", "int"))  # fmt: skip
_KINDS = (
    _ws(BlockBroken, _C, (_f("block", "block", "id"), _f("aux", "block.aux", "int"),
        _f("count", "count", "int"), _f("destruction_method", "destructionMethod", "int"),
        _f("tool", "tool", "id"))),
    _ws(BlockPlaced, _C, (_f("block", "block", "id"), _f("aux", "block.aux", "int"),
        _f("count", "count", "int"), _f("placement_method", "placementMethod", "int"),
        _f("placed_underwater", "placedUnderWater", "bool"), _f("tool", "tool", "id"))),
    _ws(PlayerTravelled, _C, (_f("meters_travelled", "metersTravelled", "float"),
        _f("travel_method", "travelMethod", "int"), _f("new_biome", "newBiome", "int"),
        _f("is_underwater", "isUnderwater", "bool"))),
    _ws(PlayerTransform, _C, ()),
    _ws(PlayerTeleported, _C, (_f("cause", "cause", "int"),
        _f("meters_travelled", "metersTravelled", "float"), _f("item_type", "itemType", "int"))),
    _ws(PlayerDied, _C, (_f("cause", "cause", "int"), _f("killer_type", "killer.type", "int"),
        _f("killer_variant", "killer.variant", "int"), _f("in_raid", "inRaid", "bool"))),
    _ws(MobKilled, _C, (_f("victim", "victim.type", "type_id"),
        _f("victim_x", "victim.position.x", "float"), _f("victim_y", "victim.position.y", "float"),
        _f("victim_z", "victim.position.z", "float"), _f("weapon", "weapon", "id"),
        _f("kill_method_type", "killMethodType", "int"), _f("is_monster", "isMonster", "bool"))),
    _ws(ItemUsed, _C, (_f("item", "item", "id"), _f("aux", "item.aux", "int"),
        _f("count", "count", "int"), _f("use_method", "useMethod", "int"))),
    _ws(ItemAcquired, _C, (_f("item", "item", "id"), _f("aux", "item.aux", "int"),
        _f("count", "count", "int"), _f("acquisition_method", "acquisitionMethodId", "int"))),
    _ws(ItemCrafted, _C, (_f("item", "item", "id"), _f("count", "count", "int"),
        _f("used_crafting_table", "usedCraftingTable", "bool"))),
    _ws(ItemDropped, _C, (_f("item", "item", "id"), _f("count", "count", "int"))),
    _ws(MobInteracted, _C, (_f("mob_type", "mob.type", "int"),
        _f("interaction_type", "interactionType", "int"))),
    _ws(ItemEquipped, _A, (_f("item", "item", "id"), _f("slot", "slot", "int"))),
    _ws(ItemInteracted, _A, (_f("item", "item", "id"), _f("count", "count", "int"),
        _f("method", "method", "int"))),
    _ws(ItemSmelted, _A, (_f("item", "item", "id"), _f("fuel", "fuelSource", "id"))),
    _ws(ItemTraded, _A, (_f("item", "result", "id"),
        _f("emeralds", "playerEmeraldCount", "int"))),
    _ws(PlayerBounced, _A, (_f("block", "block", "id"),
        _f("bounce_height", "bounceHeight", "float"))),
    _ws(TargetBlockHit, _A, (_f("redstone_level", "redstoneLevel", "int"),)),
    _ws(JukeboxUsed, _A, (), fires=False),
    _ws(PortalBuilt, _A, (), fires=False),
    _ws(PortalUsed, _A, (), fires=False),
    _ws(PotionBrewed, _A, (), fires=False),
    _ws(PlayerMessage, _C, (_f("message", "message", "str"), _f("type", "type", "str"),
        _f("receiver", "receiver", "str")), always=True),
    _addon(PlayerBreakBlockEvent, "playerBreakBlock", (_f("block", "b", "type_id"),
           _f("tool", "i", "type_id"))),
    _addon(PlayerPlaceBlockEvent, "playerPlaceBlock", (_f("block", "b", "type_id"),)),
    _addon(EntityHitBlockEvent, "entityHitBlock", (_f("block", "b", "type_id"),
           _f("face", "f", "str"), _f("entity", "e", "type_id"))),
    _addon(EntityDieEvent, "entityDie", (_f("victim", "v", "type_id"),
           _f("victim_name", "vn", "str"), _f("cause", "c", "str"),
           _f("killer", "e", "type_id"))),
    _addon(PlayerSpawnEvent, "playerSpawn", (_f("initial_spawn", "s", "bool"),)),
    _addon(PlayerLeaveEvent, "playerLeave", ()),
    _addon(ItemUseEvent, "itemUse", (_f("item", "i", "type_id"), _f("count", "n", "int"))),
    _addon(ItemStartUseEvent, "itemStartUse", _CHARGE),
    _addon(ItemCompleteUseEvent, "itemCompleteUse", _CHARGE),
    _addon(ItemReleaseUseEvent, "itemReleaseUse", _CHARGE),
    _addon(ItemStopUseEvent, "itemStopUse", _CHARGE),
    _addon(ItemStartUseOnEvent, "itemStartUseOn", (_f("block", "b", "type_id"),
           _f("face", "f", "str"), _f("item", "i", "type_id"))),
    _addon(ItemStopUseOnEvent, "itemStopUseOn", (_f("block", "b", "type_id"),
           _f("item", "i", "type_id"))),
    _addon(PlayerInteractWithBlockEvent, "playerInteractWithBlock",
           (_f("block", "b", "type_id"), _f("face", "f", "str"), _f("item", "i", "type_id"),
            _f("first", "ff", "bool"))),
    _addon(ButtonPushEvent, "buttonPush", (_f("block", "b", "type_id"),
           _f("entity", "e", "type_id"))),
    _addon(LeverActionEvent, "leverAction", (_f("block", "b", "type_id"),
           _f("powered", "o", "bool"))),
)  # fmt: skip

# Every known event kind by name, in the order above (docs and completion list them so).
GAME_EVENTS: dict[str, GameEventKind] = {k.name: k for k in _KINDS}
# The kinds the addon forwards (subscribe_events), by name.
ADDON_EVENTS: dict[str, GameEventKind] = {
    n: k for n, k in GAME_EVENTS.items() if k.source is Source.ADDON
}


def event_kind(name: str) -> GameEventKind | None:
    """The kind called ``name`` (exactly as the game spells it), or None."""
    return GAME_EVENTS.get(name)


def unknown_event_message(name: object) -> str:
    """What to tell someone who named an event the corpus does not know."""
    ws = ", ".join(k for k, kind in GAME_EVENTS.items() if kind.fires and k not in ADDON_EVENTS)
    addon = ", ".join(ADDON_EVENTS)
    close = difflib.get_close_matches(str(name), list(GAME_EVENTS), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]!r}? " if close else ""
    return (
        f"no game event is called {name!r}; {hint}the known ones: the game's own (the "
        f"connected client's doings) {ws}; the addon's (every player's) {addon}. "
        f"For a name the game may send and the bridge does not know, say so: "
        f"subscribe({name!r}, unknown_ok=True) (its events arrive as OtherGameEvent)."
    )
