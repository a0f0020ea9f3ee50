"""What the simulated players do with their hands and feet, and the events the game sends
for it: break and place blocks, walk, be teleported, get hurt and die, kill mobs, use
items. ``sim.break_block("Steve", 3, 63, 0)`` changes the world and, when Steve is the
connected client's player and the bridge subscribed, sends BlockBroken in the corpus's
shape (game_events.py). Anyone else's doings change the world and send nothing over the
WebSocket (facts.json ``game_events_connected_client_only``). Every player's doings, the
connected client's and everyone else's, fire the Script API's ``world.afterEvents`` signal
the game fires for them (facts.json ``script_events``), which the addon forwards when a
bridge asked for that kind (``subscribe_events``).
"""

from __future__ import annotations

import math
from typing import Any

from .defaults import make_player
from .game_events import body_of, event_frame, item_object, stack_object
from .model import AIR, Entity, ItemStack, Player, Vec3, WorldState

__all__ = ["FOODS", "MONSTERS", "PlayerDoings"]

# Items a player eats (ItemUsed useMethod 1); flint and steel sets on fire (10): the two use
# methods the corpus knows (facts.json game_events.ItemUsed).
FOODS = frozenset({"minecraft:apple", "minecraft:bread", "minecraft:cooked_beef",
                   "minecraft:carrot", "minecraft:baked_potato", "minecraft:cookie"})  # fmt: skip
_USE_METHODS = {"eat": 1, "ignite": 10}
# Mobs whose MobKilled says isMonster true (a slime does in the capture; the rest assumed).
MONSTERS = frozenset({"minecraft:zombie", "minecraft:skeleton", "minecraft:creeper",
                      "minecraft:spider", "minecraft:slime", "minecraft:husk",
                      "minecraft:drowned", "minecraft:enderman", "minecraft:witch"})  # fmt: skip
# PlayerDied causes by name (facts.json game_events.PlayerDied codes).
DEATH_CAUSES = {"entity": 2, "projectile": 3, "fall": 5, "fire": 6, "lava": 8, "drowning": 9,
                "explosion": 11, "void": 12, "kill": 13}  # fmt: skip
# The Script API's EntityDamageCause of each death cause (the 2.4.0 typings' enum).
DAMAGE_CAUSES = {"entity": "entityAttack", "projectile": "projectile", "fall": "fall",
                 "fire": "fire", "lava": "lava", "drowning": "drowning",
                 "explosion": "entityExplosion", "void": "void", "kill": "override"}  # fmt: skip
# A block face as the Script API's Direction names it.
FACES = ("Down", "East", "North", "South", "Up", "West")
# Teleport causes by name (facts.json game_events.PlayerTeleported codes).
TELEPORT_CAUSES = {"projectile": 1, "chorus_fruit": 2, "command": 3}


def _full(type_id: str) -> str:
    return type_id if ":" in type_id else f"minecraft:{type_id}"


class PlayerDoings:
    """The part of :class:`SimWorld` that plays players' actions (needs ``world``,
    ``client`` and ``event_version``)."""

    world: WorldState
    client: Any
    event_version: int
    host: Any
    clock: Any

    # --- sending ---------------------------------------------------------------------------

    def fire_event(self, name: str, player: str, **values: Any) -> bool:
        """Send the event ``name`` reporting ``player`` (its body keys as the game spells
        them in ``values``); True if it went out: the player is the connected client's and
        the bridge subscribed to ``name``.

        Raises:
            ValueError: no such player, or an event or key the corpus does not record.
        """
        who = self._player(player)
        body = body_of(name, who, **values)
        if who.name != self.world.local_player or self.client is None:
            return False  # another player's doing: the connection hears none of it
        return bool(self.client.report_event(name, event_frame(name, body, self.event_version)))

    def after_event(self, signal: str, **event: Any) -> None:
        """Fire ``world.afterEvents[signal]`` in the addon with the event object ``event``
        describes (``{"$player": name}`` ..., shim.js), whoever did it; nothing without an
        addon."""
        if self.host is None:
            return
        self.host.after_event(signal, event)
        self.clock.request_tick()  # the forwarder sends its batch at the next tick

    def _block_ref(self, who: Player, x: int, y: int, z: int) -> dict[str, Any]:
        """The block at x, y, z of ``who``'s dimension as an event names it (shim.js)."""
        return {"$block": [who.dimension, x, y, z, self.world.block(who.dimension, x, y, z)]}

    def _player(self, name: str) -> Player:
        found = self.world.players.get(name)
        if found is None:
            people = ", ".join(p for p, v in self.world.players.items() if not v.simulated)
            raise ValueError(f"no player {name!r} in the simulated world: {people}")
        return found

    def _in_hand(self, player: Player) -> ItemStack | None:
        return player.inventory[player.selected_slot]

    # --- blocks ----------------------------------------------------------------------------

    def break_block(self, player: str, x: int, y: int, z: int) -> str:
        """``player`` breaks the block at x, y, z by hand (it becomes air); returns what it
        was. Breaking air changes nothing and sends nothing.

        Raises:
            ValueError: no such player, or the position is outside the world's height.
        """
        who = self._player(player)
        self._check_height(who, y)
        broken = self.world.block(who.dimension, x, y, z)
        if broken == AIR:
            return broken
        self.world.set_block(who.dimension, x, y, z, AIR)
        held = self._in_hand(who)
        self.after_event("playerBreakBlock", block=self._block_ref(who, x, y, z),
                         brokenBlockPermutation={"$permutation": broken},
                         dimension={"$dimension": who.dimension},
                         itemStackAfterBreak=_stack(held), itemStackBeforeBreak=_stack(held),
                         player={"$player": who.name})  # fmt: skip
        self.fire_event(
            "BlockBroken",
            player,
            block=item_object(broken),
            count=1,
            destructionMethod=0,
            tool=stack_object(self._in_hand(who)),
            variant=0,
        )
        return broken

    def place_block(self, player: str, x: int, y: int, z: int, block: str) -> None:
        """``player`` places ``block`` at x, y, z by hand (from the stack in hand when it
        holds that block, which loses one). ``/setblock`` and ``/fill`` send no BlockPlaced
        (facts.json ``commands_fire_no_block_placed``): this is the way a player's does.

        Raises:
            ValueError: no such player, or the position is outside the world's height.
        """
        who = self._player(player)
        self._check_height(who, y)
        block = _full(block)
        self.world.set_block(who.dimension, x, y, z, block)
        stack = self._in_hand(who)
        if stack is not None and stack.type_id == block:
            stack.amount -= 1
            if stack.amount <= 0:
                who.inventory[who.selected_slot] = None
        tool = stack if stack is not None and stack.type_id == block else ItemStack(block, 0)
        self.after_event("playerPlaceBlock", block=self._block_ref(who, x, y, z),
                         dimension={"$dimension": who.dimension},
                         player={"$player": who.name})  # fmt: skip
        self.fire_event(
            "BlockPlaced",
            player,
            block=item_object(block),
            count=1,
            placedUnderWater=False,
            placementMethod=0,
            tool=stack_object(tool),
        )

    def _check_height(self, who: Player, y: int) -> None:
        low, high = self.world.height_range(who.dimension)
        if not low <= y < high:
            raise ValueError(f"y {y} is outside the {who.dimension}'s height ({low}..{high - 1})")

    # --- moving ----------------------------------------------------------------------------

    def walk(self, player: str, x: float, y: float, z: float) -> float:
        """``player`` walks to x, y, z; returns the metres walked (PlayerTravelled, then
        PlayerTransform, as the capture shows them in that order)."""
        who = self._player(player)
        start = who.location
        metres = math.dist((start.x, start.y, start.z), (x, y, z))
        if metres > 0:
            who.yaw = math.degrees(math.atan2(-(x - start.x), z - start.z))
        who.location = Vec3(float(x), float(y), float(z))
        self.fire_event("PlayerTravelled", player, isUnderwater=False, metersTravelled=metres,
                        newBiome=0, travelMethod=0)  # fmt: skip
        self.fire_event("PlayerTransform", player)
        return metres

    def teleport(
        self, player: str, x: float, y: float, z: float, *, cause: str = "command"
    ) -> None:
        """``player`` is teleported to x, y, z (cause: command, projectile, chorus_fruit).

        Raises:
            ValueError: no such player, or an unknown cause.
        """
        who = self._player(player)
        if cause not in TELEPORT_CAUSES:
            raise ValueError(f"cause is one of {', '.join(TELEPORT_CAUSES)}, not {cause!r}")
        start = who.location
        metres = math.dist((start.x, start.y, start.z), (x, y, z))
        who.location = Vec3(float(x), float(y), float(z))
        self.fire_event("PlayerTeleported", player, cause=TELEPORT_CAUSES[cause],
                        itemType=1, metersTravelled=metres)  # fmt: skip

    # --- fighting --------------------------------------------------------------------------

    def hurt(self, player: str, damage: float, *, cause: str = "entity") -> bool:
        """``player`` takes ``damage`` (half hearts); at 0 health they die (PlayerDied) and
        respawn at full health. No WebSocket event reports damage short of death. Returns
        whether they died.

        Raises:
            ValueError: no such player, a negative damage or an unknown cause.
        """
        who = self._player(player)
        if cause not in DEATH_CAUSES:
            raise ValueError(f"cause is one of {', '.join(DEATH_CAUSES)}, not {cause!r}")
        if damage < 0:
            raise ValueError(f"damage is a number of half hearts, 0 or more, not {damage}")
        who.health = max(who.health - damage, 0.0)
        if who.health > 0:
            return False
        self.after_event("entityDie", damageSource={"cause": DAMAGE_CAUSES[cause]},
                         deadEntity={"$player": who.name})  # fmt: skip
        killer = {"color": 0, "id": 1, "type": 1, "variant": -1}  # as the captured frame's
        self.fire_event("PlayerDied", player, cause=DEATH_CAUSES[cause], inRaid=False,
                        killer=killer)  # fmt: skip
        who.health = who.max_health
        return True

    def kill_mob(self, player: str, mob: str = "minecraft:zombie") -> Vec3:
        """``player`` kills a ``mob`` with what they hold: the nearest of that type if one
        is in the world (it is removed), else one that stood in front of them. Returns where
        it died (MobKilled)."""
        who = self._player(player)
        mob = _full(mob)
        victim = self._nearest(who, mob)
        where = victim.location if victim else Vec3(who.location.x, who.location.y,
                                                     who.location.z + 1.0)  # fmt: skip
        if victim is not None:
            self.world.remove_entity(victim)
        dead = {"id": victim.id if victim else "-1", "typeId": mob,
                "nameTag": victim.name_tag if victim else "", "location": where.to_dict(),
                "dimension": who.dimension}  # fmt: skip
        self.after_event("entityDie", deadEntity={"$entity": dead},
                         damageSource={"cause": "entityAttack",
                                       "damagingEntity": {"$player": who.name}})  # fmt: skip
        empty = stack_object(None)
        victim_object = {"color": 0, "dimension": 0, "id": -253403070417 - len(mob),
                         "position": where.to_dict(), "type": mob, "variant": 0,
                         "yRot": 0.0}  # fmt: skip
        self.fire_event("MobKilled", player, armorFeet=empty, armorHead=empty, armorLegs=empty,
                        armorTorso=empty, isMonster=mob in MONSTERS, killMethodType=2,
                        playerIsHiddenFrom=False, victim=victim_object,
                        weapon=stack_object(self._in_hand(who)))  # fmt: skip
        return where

    def _nearest(self, who: Player, mob: str) -> Entity | None:
        same = [e for e in self.world.entities if e.type_id == mob and e.dimension == who.dimension]
        return min(same, key=lambda e: e.location.distance2(who.location), default=None)

    # --- items -----------------------------------------------------------------------------

    def use_item(
        self, player: str, item: str | None = None, *, use_method: str | None = None
    ) -> None:
        """``player`` uses ``item`` (default: what they hold): eats food (one is used up) or
        sets a fire with flint and steel (ItemUsed); ``use_method`` ("eat", "ignite") for any
        other item.

        Raises:
            ValueError: no such player, nothing to use, or an item whose use the corpus
                does not know and no ``use_method``.
        """
        who = self._player(player)
        stack = self._in_hand(who)
        type_id = _full(item) if item else (stack.type_id if stack else None)
        if type_id is None:
            raise ValueError(
                f"{player} holds nothing: name the item, use_item({player!r}, 'bread')"
            )
        if use_method is None:
            use_method = (
                "eat"
                if type_id in FOODS
                else "ignite"
                if type_id.endswith("flint_and_steel")
                else None
            )
        if use_method not in _USE_METHODS:
            raise ValueError(
                f"the corpus knows how food is eaten and flint and steel ignites; for {type_id} "
                f"say how: use_method='eat' or 'ignite'"
            )
        used = stack if stack is not None and stack.type_id == type_id else ItemStack(type_id, 1)
        self.after_event("itemUse", itemStack=_stack(used), source={"$player": who.name})
        if use_method == "eat" and stack is not None and stack.type_id == type_id:
            stack.amount -= 1
            if stack.amount <= 0:
                who.inventory[who.selected_slot] = None
        self.fire_event("ItemUsed", player, count=1, item=item_object(type_id),
                        useMethod=_USE_METHODS[use_method])  # fmt: skip

    # --- charging an item, and using one on a block (the addon's events only) --------------
    # A charged use (eating, drawing a bow) fires itemStartUse when it begins, then
    # itemCompleteUse when the charge is full or itemReleaseUse when let go early, and
    # itemStopUse when it stops: each doing below fires one of them, so a notebook plays a
    # use in the order it wants. ``useDuration`` is the ticks left of the charge (the 2.4.0
    # typings), an item stack is what the player holds unless ``item`` names another.

    def _charged(self, who: Player, item: str | None) -> ItemStack | None:
        stack = self._in_hand(who)
        if item is None:
            return stack
        type_id = _full(item)
        return stack if stack is not None and stack.type_id == type_id else ItemStack(type_id, 1)

    def _charge(self, signal: str, player: str, item: str | None, ticks: int, *,
                needs_item: bool) -> None:  # fmt: skip
        who = self._player(player)
        if not isinstance(ticks, int) or ticks < 0:
            raise ValueError(f"a use's ticks are a whole number, 0 or more, not {ticks!r}")
        used = self._charged(who, item)
        if used is None and needs_item:
            raise ValueError(f"{player} holds nothing: name the item, e.g. ({player!r}, 'bread')")
        event: dict[str, Any] = {"source": {"$player": who.name}, "useDuration": ticks}
        if used is not None:
            event["itemStack"] = _stack(used)
        self.after_event(signal, **event)

    def start_use(self, player: str, item: str | None = None, *, duration: int = 32) -> None:
        """``player`` begins to charge ``item`` (default: what they hold), which takes
        ``duration`` ticks (32 for food): the addon's item_start_use.

        Raises:
            ValueError: no such player, nothing to use, or a negative duration.
        """
        self._charge("itemStartUse", player, item, duration, needs_item=True)

    def complete_use(self, player: str, item: str | None = None) -> None:
        """``player``'s charge of ``item`` (default: what they hold) is full: the food is
        eaten (one of the stack in hand is used up) or the potion drunk
        (item_complete_use, 0 ticks left).

        Raises:
            ValueError: no such player, or nothing to use.
        """
        who = self._player(player)
        stack = self._in_hand(who)
        used = self._charged(who, item)
        self._charge("itemCompleteUse", player, item, 0, needs_item=True)
        if used is stack and stack is not None and stack.type_id in FOODS:
            stack.amount -= 1
            if stack.amount <= 0:
                who.inventory[who.selected_slot] = None

    def release_use(self, player: str, item: str | None = None, *, ticks_left: int = 0) -> None:
        """``player`` lets go of a charging ``item`` (a bow shoots) with ``ticks_left`` of
        its charge (item_release_use); an empty hand sends no item.

        Raises:
            ValueError: no such player, or a negative ticks_left.
        """
        self._charge("itemReleaseUse", player, item, ticks_left, needs_item=False)

    def stop_use(self, player: str, item: str | None = None, *, ticks_left: int = 0) -> None:
        """``player`` stops charging ``item`` with ``ticks_left`` of its charge
        (item_stop_use); an empty hand sends no item (as a change of dimension does).

        Raises:
            ValueError: no such player, or a negative ticks_left.
        """
        self._charge("itemStopUse", player, item, ticks_left, needs_item=False)

    def start_use_on(self, player: str, x: int, y: int, z: int, face: str = "Up") -> str:
        """``player`` presses use with what they hold on the block at x, y, z, ``face``
        (item_start_use_on; the empty hand sends no item). Returns the block.

        Raises:
            ValueError: no such player, a position outside the world's height, or no face.
        """
        who = self._player(player)
        self._check_height(who, y)
        if face not in FACES:
            raise ValueError(f"face is one of {', '.join(FACES)}, not {face!r}")
        event: dict[str, Any] = {"block": self._block_ref(who, x, y, z), "blockFace": face,
                                 "source": {"$player": who.name}}  # fmt: skip
        held = _stack(self._in_hand(who))
        if held is not None:
            event["itemStack"] = held
        self.after_event("itemStartUseOn", **event)
        return self.world.block(who.dimension, x, y, z)

    def stop_use_on(self, player: str, x: int, y: int, z: int) -> str:
        """``player`` lets go of use after using what they hold on the block at x, y, z
        (item_stop_use_on). Returns the block.

        Raises:
            ValueError: no such player, or a position outside the world's height.
        """
        who = self._player(player)
        self._check_height(who, y)
        event: dict[str, Any] = {"block": self._block_ref(who, x, y, z),
                                 "source": {"$player": who.name}}  # fmt: skip
        held = _stack(self._in_hand(who))
        if held is not None:
            event["itemStack"] = held
        self.after_event("itemStopUseOn", **event)
        return self.world.block(who.dimension, x, y, z)

    # --- blocks a player uses, and coming and going (the addon's events only) ----------------

    def hit_block(self, player: str, x: int, y: int, z: int, face: str = "Up") -> str:
        """``player`` hits the block at x, y, z on ``face`` (Up, Down, North, South, East,
        West) without breaking it: the addon's entity_hit_block, what mcpi's block hits
        read (the WebSocket has no such event). Returns the block.

        Raises:
            ValueError: no such player, a position outside the world's height, or no face.
        """
        who = self._player(player)
        self._check_height(who, y)
        if face not in FACES:
            raise ValueError(f"face is one of {', '.join(FACES)}, not {face!r}")
        hit = self.world.block(who.dimension, x, y, z)
        self.after_event("entityHitBlock", blockFace=face, damagingEntity={"$player": who.name},
                         hitBlock=self._block_ref(who, x, y, z),
                         hitBlockPermutation={"$permutation": hit})  # fmt: skip
        return hit

    def interact_block(self, player: str, x: int, y: int, z: int, face: str = "Up") -> str:
        """``player`` uses the block at x, y, z (opens a door, a chest) with what they hold:
        the addon's player_interact_with_block. Returns the block.

        Raises:
            ValueError: no such player, a position outside the world's height, or no face.
        """
        who = self._player(player)
        self._check_height(who, y)
        if face not in FACES:
            raise ValueError(f"face is one of {', '.join(FACES)}, not {face!r}")
        held = _stack(self._in_hand(who))
        used = self.world.block(who.dimension, x, y, z)
        self.after_event("playerInteractWithBlock", beforeItemStack=held,
                         block=self._block_ref(who, x, y, z), blockFace=face,
                         faceLocation={"x": 0.5, "y": 0.5, "z": 0.5}, isFirstEvent=True,
                         itemStack=held, player={"$player": who.name})  # fmt: skip
        return used

    def push_button(self, player: str, x: int, y: int, z: int) -> None:
        """``player`` pushes the button at x, y, z (the addon's button_push).

        Raises:
            ValueError: no such player, or a position outside the world's height.
        """
        who = self._player(player)
        self._check_height(who, y)
        self.after_event("buttonPush", block=self._block_ref(who, x, y, z),
                         dimension={"$dimension": who.dimension},
                         source={"$player": who.name})  # fmt: skip

    def flip_lever(self, player: str, x: int, y: int, z: int, *, powered: bool = True) -> None:
        """``player`` flips the lever at x, y, z on (``powered``) or off (lever_action).

        Raises:
            ValueError: no such player, or a position outside the world's height.
        """
        who = self._player(player)
        self._check_height(who, y)
        self.after_event("leverAction", block=self._block_ref(who, x, y, z),
                         dimension={"$dimension": who.dimension}, isPowered=powered,
                         player={"$player": who.name})  # fmt: skip

    def join(self, player: str) -> None:
        """A player called ``player`` joins the world at its spawn (player_spawn, initial).

        Raises:
            ValueError: a player of that name is in the world already.
        """
        if player in self.world.players:
            raise ValueError(f"{player} is in the world already")
        self.world.add_player(make_player(player, Vec3(0.5, 64.0, 0.5)))
        self.after_event("playerSpawn", initialSpawn=True, player={"$player": player})

    def leave(self, player: str) -> None:
        """``player`` leaves the world (player_leave); not the connected client's player.

        Raises:
            ValueError: no such player, or the connected client's own (it would disconnect).
        """
        who = self._player(player)
        if who.name == self.world.local_player:
            raise ValueError(f"{player} is the connected client's player: disconnect instead")
        self.world.remove_entity(who)
        self.after_event("playerLeave", playerId=who.id, playerName=who.name)


def _stack(stack: ItemStack | None) -> dict[str, Any] | None:
    """An item stack as the shim builds it (None: an empty hand)."""
    return None if stack is None or stack.amount <= 0 else {"$item": stack.to_js()}
