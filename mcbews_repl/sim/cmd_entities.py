"""Commands on players and entities: give, clear, tp, gamemode, tag, testfor, querytarget,
list, summon, kill.

Messages are the game's strings (``facts.text``) and the body fields are those of the
published captures (give's ``itemAmount``/``itemName``/``playerName``, clear's
``playerTest``, tp's ``destination``/``victim``, evidence/captures.json).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import partial

from .cmdtypes import CommandError, CommandOutcome, Context, Handler
from .facts import TAG_LIST_SEPARATOR, item_name, text
from .model import EQUIPMENT_SLOTS, Entity, ItemStack, Player, Vec3
from .parse import Reader
from .selectors import players_only

__all__ = ["HANDLERS", "give_item"]

_GAME_MODES = {
    "survival": "survival", "s": "survival", "0": "survival",
    "creative": "creative", "c": "creative", "1": "creative",
    "adventure": "adventure", "a": "adventure", "2": "adventure",
    "spectator": "spectator", "6": "spectator",
}  # fmt: skip
_DIMENSION_NUMBERS = {"overworld": 0, "nether": 1, "the_end": 2}


def _item_id(r: Reader) -> str:
    token = r.word().lower()
    if not token.replace(":", "").replace("_", "").isalnum():
        raise r.fail(token)
    return token if ":" in token else f"minecraft:{token}"


def give_item(player: Player, item: ItemStack) -> int:
    """Merge ``item`` into matching stacks, then empty slots; return how many fit."""
    left = item.amount
    for stack in player.inventory:
        if left and stack and _stackable(stack, item):
            moved = min(left, stack.max_amount - stack.amount)
            stack.amount += moved
            left -= moved
    for slot, stack in enumerate(player.inventory):
        if left and stack is None:
            moved = min(left, item.max_amount)
            player.inventory[slot] = ItemStack(item.type_id, moved, data=item.data,
                                               max_amount=item.max_amount)  # fmt: skip
            left -= moved
    return item.amount - left


def _stackable(stack: ItemStack, item: ItemStack) -> bool:
    return (stack.type_id, stack.data, stack.name_tag, stack.enchantments) == (
        item.type_id, item.data, None, []
    ) and not stack.lore  # fmt: skip


_MAX_GIVE = 32767  # the game's cap on a /give amount


def give(ctx: Context, r: Reader) -> CommandOutcome:
    """``/give <player> <item> [amount] [data]``: into matching stacks, then empty slots.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no player matched, or the amount is out of range (a negative status code).
    """
    players = players_only(ctx.targets(r.target(), players=True))
    type_id = _item_id(r)
    amount = r.integer(optional=True) or 1
    data = r.integer(optional=True) or 0
    if amount > _MAX_GIVE:
        raise CommandError(text("commands.generic.num.tooBig", amount, _MAX_GIVE))
    if amount < 1:
        raise CommandError(text("commands.generic.num.tooSmall", amount, 1))
    max_amount = 1 if any(w in type_id for w in ("sword", "pickaxe", "helmet", "bow")) else 64
    for player in players:
        give_item(player, ItemStack(type_id, amount, data=data, max_amount=max_amount))
    names = [p.name for p in players]
    item = item_name(type_id)  # the game translates it (itemName, statusMessage)
    return CommandOutcome(
        status_message=text("commands.give.success", item, amount, ", ".join(names)),
        fields={"itemAmount": amount, "itemName": item, "playerName": names},
    )


def _matching(
    player: Player, type_id: str | None, data: int
) -> Iterator[tuple[ItemStack, Callable[[], None]]]:
    """Each matching stack with a function that empties its slot."""
    for slot, stack in enumerate(player.inventory):
        if stack and _item_matches(stack, type_id, data):
            yield stack, partial(player.inventory.__setitem__, slot, None)
    for name in EQUIPMENT_SLOTS:
        stack = player.equipment[name]
        if stack and _item_matches(stack, type_id, data):
            yield stack, partial(player.equipment.__setitem__, name, None)


def _item_matches(stack: ItemStack, type_id: str | None, data: int) -> bool:
    return (type_id is None or stack.type_id == type_id) and data in (-1, stack.data)


def _clear_one(player: Player, type_id: str | None, data: int, max_count: int) -> int:
    """Remove up to ``max_count`` matching items (-1: all; 0: only count them)."""
    total = 0
    for stack, empty in list(_matching(player, type_id, data)):
        if max_count == 0:
            total += stack.amount
            continue
        take = stack.amount if max_count < 0 else min(stack.amount, max_count - total)
        stack.amount -= take
        total += take
        if stack.amount == 0:
            empty()
    return total


def clear(ctx: Context, r: Reader) -> CommandOutcome:
    """``/clear [player] [item] [data] [max count]``: remove items (max count 0 counts only).

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no player matched, or the player has no such item (a negative status code).
    """
    selector = r.target() if not r.at_end() else None
    players = players_only(ctx.targets(selector, players=True)) if selector else []
    if selector is None:
        players = players_only([ctx.origin.entity] if ctx.origin.entity else [])
    type_id = _item_id(r) if not r.at_end() else None
    data = r.integer(optional=True)
    max_count = r.integer(optional=True)
    r.end()
    data = -1 if data is None else data
    max_count = -1 if max_count is None else max_count
    counts = {p.name: _clear_one(p, type_id, data, max_count) for p in players}
    names = ", ".join(counts)
    total = sum(counts.values())
    removed = {"itemsRemoved": [str(n) for n in counts.values()], "player": list(counts)}
    if total == 0:
        raise CommandError(text("commands.clear.failure.no.items", names), fields=removed)
    if max_count == 0:  # only count: the game reports each player as "<name> (<count>)"
        return CommandOutcome(
            status_message=text("commands.clear.testing", names, total),
            fields={"playerTest": [f"{name} ({n})" for name, n in counts.items()]},
        )
    return CommandOutcome(
        status_message=text("commands.clear.success", names, total), fields=removed
    )


def _looks_like_coord(token: str | None) -> bool:
    if not token:
        return False
    body = token.lstrip("~^")
    return token[0] in "~^" or body.replace(".", "", 1).lstrip("-").isdigit()


def tp(ctx: Context, r: Reader) -> CommandOutcome:
    """``/tp [movers] <x y z | destination>`` (``/teleport``).

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no entity matched the target (a negative status code).
    """
    movers: list[Entity] = [ctx.origin.entity] if ctx.origin.entity else []
    if not _looks_like_coord(r.peek()):
        first = ctx.targets(r.target())
        if r.at_end():  # tp <destination>
            return _teleport_to_entity(movers, first[0])
        movers = first
        if not _looks_like_coord(r.peek()):
            return _teleport_to_entity(movers, ctx.targets(r.target())[0])
    x, y, z = r.position()
    yaw = r.number() if not r.at_end() else None
    pitch = r.number() if not r.at_end() else None  # xRot after yRot (facts: tp_pitch)
    r.end()
    for mover in movers:
        base = mover.location
        mover.location = Vec3(
            x.resolve_centred(base.x), y.resolve(base.y), z.resolve_centred(base.z)
        )
        mover.yaw = mover.yaw if yaw is None else yaw
        mover.pitch = mover.pitch if pitch is None else pitch
    where = movers[0].location if movers else Vec3(0, 0, 0)
    names = [m.name for m in movers]
    shown = (f"{v:.2f}" for v in (where.x, where.y, where.z))
    return CommandOutcome(
        status_message=text("commands.tp.success.coordinates", ", ".join(names), *shown),
        fields={"destination": _json_vec(where), "victim": names},
    )


def _json_vec(v: Vec3) -> dict[str, float]:
    """A position as the game writes it: whole numbers without a fraction (``4``, ``0.5``)."""
    return {k: int(n) if float(n).is_integer() else n for k, n in v.to_dict().items()}


def _teleport_to_entity(movers: list[Entity], dest: Entity) -> CommandOutcome:
    for mover in movers:
        mover.location = Vec3(dest.location.x, dest.location.y, dest.location.z)
        mover.dimension = dest.dimension
    names = [m.name for m in movers]
    return CommandOutcome(
        status_message=text("commands.tp.success", ", ".join(names), dest.name),
        fields={"destination": _json_vec(dest.location), "victim": names},
    )


def gamemode(ctx: Context, r: Reader) -> CommandOutcome:
    """``/gamemode <mode> [player]``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no player matched the target (a negative status code).
    """
    mode = _GAME_MODES[r.choice(*_GAME_MODES)]
    players = players_only(ctx.targets(r.target(), players=True)) if not r.at_end() else []
    if not players and isinstance(ctx.origin.entity, Player):
        players = [ctx.origin.entity]
    r.end()
    for player in players:
        player.game_mode = mode
    if players == [ctx.origin.entity]:
        return CommandOutcome(status_message=text("commands.gamemode.success.self", mode.title()))
    names = ", ".join(p.name for p in players)
    return CommandOutcome(
        status_message=text("commands.gamemode.success.other", mode.title(), names)
    )


def tag(ctx: Context, r: Reader) -> CommandOutcome:
    """``/tag <target> add|remove|list [name]``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no entity matched the target, or the tag is already there (or not there) (a
            negative status code).
    """
    targets = ctx.targets(r.target())
    action = r.choice("add", "remove", "list")
    if action == "list":
        r.end()
        return CommandOutcome(status_message=_tag_list(targets))
    name = r.word()
    r.end()
    changed = [e for e in targets if (name not in e.tags) == (action == "add")]
    if not changed:
        raise CommandError(text(f"commands.tag.{action}.failed"))
    for entity in changed:
        entity.tags.add(name) if action == "add" else entity.tags.discard(name)
    if len(changed) == 1:
        return CommandOutcome(
            status_message=text(f"commands.tag.{action}.success.single", name, changed[0].name)
        )
    return CommandOutcome(
        status_message=text(f"commands.tag.{action}.success.multiple", name, len(changed))
    )


def _tag_list(targets: list[Entity]) -> str:
    """One line for one entity, a combined line for several; each tag shown ``§a<tag>§r``."""

    def listed(tags: list[str]) -> str:
        return TAG_LIST_SEPARATOR.join(f"\u00a7a{t}\u00a7r" for t in tags)

    if len(targets) == 1:
        e = targets[0]
        if not e.tags:
            return text("commands.tag.list.single.empty", e.name)
        tags = sorted(e.tags)
        return text("commands.tag.list.single.success", e.name, len(tags), listed(tags))
    every = sorted({t for e in targets for t in e.tags})
    if not every:
        return text("commands.tag.list.multiple.empty", len(targets))
    return text("commands.tag.list.multiple.success", len(targets), len(every), listed(every))


def testfor(ctx: Context, r: Reader) -> CommandOutcome:
    """``/testfor <target>``: who matches, as ``victim`` names.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no entity matched the target (a negative status code).
    """
    found = ctx.targets(r.target())
    r.end()
    names = [e.name for e in found]
    return CommandOutcome(
        status_message=text("commands.testfor.success", ", ".join(names)),
        fields={"victim": names},
    )


def querytarget(ctx: Context, r: Reader) -> CommandOutcome:
    """``/querytarget <target>``: each match's id, dimension, position and yaw as JSON.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no entity matched the target (a negative status code).
    """
    found = ctx.targets(r.target())
    r.end()
    details = [
        {
            "dimension": _DIMENSION_NUMBERS.get(e.dimension, 0),
            "position": e.location.to_dict(),
            "uniqueId": e.id,
            "yRot": e.yaw,
        }
        for e in found
    ]
    # The game sends details as a JSON *string* inside the JSON body; what fills the
    # message's placeholder is not captured (facts.json, assumed: the same string).
    shown = json.dumps(details)
    return CommandOutcome(
        status_message=text("commands.querytarget.success", shown), fields={"details": shown}
    )


def list_players(ctx: Context, r: Reader) -> CommandOutcome:
    """``/list``: how many players are online, of the maximum, and their names.

    Raises:
        CommandSyntaxError: anything follows the command.
    """
    r.end()
    names = ", ".join(ctx.world.players)
    count, cap = len(ctx.world.players), ctx.world.max_players
    heading = text("commands.players.list", count, cap)
    return CommandOutcome(
        status_message=f"{heading}\n{text('commands.players.list.names', names)}",
        fields={"currentPlayerCount": count, "maxPlayerCount": cap, "players": names},
    )


def summon(ctx: Context, r: Reader) -> CommandOutcome:
    """``/summon <entity> [x y z] [name]``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: the entity is a player or not summonable (a negative status code).
    """
    type_id = _item_id(r)
    if type_id == "minecraft:player":
        raise CommandError("Failed to summon: player is not a summonable entity")
    base = ctx.origin.location
    where = Vec3(base.x, base.y, base.z)
    if _looks_like_coord(r.peek()):
        x, y, z = r.position()
        where = Vec3(x.resolve(base.x), y.resolve(base.y), z.resolve(base.z))
    name = r.rest().strip().strip('"')
    ctx.world.entities.append(Entity(type_id, where, ctx.origin.dimension, name_tag=name))
    return CommandOutcome(status_message=text("commands.summon.success"))


def kill(ctx: Context, r: Reader) -> CommandOutcome:
    """``/kill [target]``: remove each match (a player is left in the world, as respawned).

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no entity matched the target (a negative status code).
    """
    if r.at_end():
        victims = [ctx.origin.entity] if ctx.origin.entity else []
    else:
        victims = ctx.targets(r.target())
    r.end()
    if not victims:
        raise CommandError(text("commands.generic.noTargetMatch"))
    for victim in victims:
        if isinstance(victim, Player):  # players respawn at full health
            victim.health = victim.max_health
        else:
            ctx.world.remove_entity(victim)
    return CommandOutcome(
        status_message=text("commands.kill.successful", ", ".join(v.name for v in victims))
    )


HANDLERS: dict[str, Handler] = {
    "give": give,
    "clear": clear,
    "tp": tp,
    "teleport": tp,
    "gamemode": gamemode,
    "tag": tag,
    "testfor": testfor,
    "querytarget": querytarget,
    "list": list_players,
    "summon": summon,
    "kill": kill,
}
