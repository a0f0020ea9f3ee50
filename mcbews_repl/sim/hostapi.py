"""What the addon's scripts may ask of the simulated world: one small method per operation.

``shim.js`` calls ``__sim_call(op, json)``; :meth:`HostApi.handle` dispatches to ``op_<op>``
with the decoded arguments and returns a JSON-ready value. Raising is fine here: the host
turns the exception into a JS ``Error`` thrown at the call site, as the game's API would.
"""

from __future__ import annotations

import json
import logging
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .commands import COMMAND_NOT_FOUND, FAILED_TO_PARSE, CommandOutcome
from .custom import CustomCommandSpec
from .defaults import make_player
from .facts import (
    SCRIPT_ENGINE_SENDER,  # the chat name of commands a dimension runs
    TAG_MAX_CHARS,
    default_states,
    resolve_permutation,
    text,
)
from .model import ItemStack, Player, Vec3, WorldState
from .parse import CommandSyntaxError
from .selectors import CommandOrigin

__all__ = ["SCRIPT_ENGINE_SENDER", "HostApi", "HostOptions"]

log = logging.getLogger("mcbews_repl.sim")

_ENTITY_ID = re.compile(r"-?\d{1,20}")
_GAME_MODES = {"Survival": "survival", "Creative": "creative", "Adventure": "adventure",
               "Spectator": "spectator"}  # fmt: skip

RunCommand = Callable[[str, CommandOrigin], CommandOutcome]


@dataclass
class HostOptions:
    # Without Beta APIs a pack that declares a beta module does not load at all (SimWorld);
    # this flag is what spawnSimulatedPlayer checks should a script call it anyway.
    """What the script host's world offers the scripts: Beta APIs or not, the spawn point."""

    beta_apis: bool = True
    # What world.getDefaultSpawnLocation() answers: the middle of the flat ground around
    # (0, 0) with its height, as /setworldspawn 0 64 0 leaves it (players there stand at y 64
    # on y 63). A y of facts.UNFIXED_SPAWN_Y plays a world whose spawn height is not fixed.
    spawn: Vec3 = field(default_factory=lambda: Vec3(0.0, 64.0, 0.0))


class HostApi:
    """The Python side of the Script API shim: each ``op_<name>`` answers one call the
    scripts make into the world (``handle`` dispatches); a raised error becomes a JS exception
    in the script, as the game's API throws.
    """

    def __init__(self, world: WorldState, run_command: RunCommand, options: HostOptions) -> None:
        self.world = world
        self.run_command = run_command
        self.options = options
        self.dynamic_properties: dict[str, Any] = {}
        self.custom_commands: dict[str, CustomCommandSpec] = {}
        self.bare_names: dict[str, str] = {}  # "chat" -> "mcbews:chat"
        self.form_answers: dict[str, deque[list[Any] | None]] = {}
        self.forms_shown: list[dict[str, Any]] = []
        self.warnings: list[str] = []

    def handle(self, op: str, args: dict[str, Any]) -> Any:
        """Answer the shim's call ``op`` with ``args``.

        Raises:
            ValueError: the simulator does not implement ``op`` (or the op refuses its args).
        """
        method = getattr(self, f"op_{op}", None)
        if method is None:
            raise ValueError(f"the simulator does not implement {op!r}")
        return method(args)

    # --- reads ----------------------------------------------------------------------
    def op_player(self, args: dict[str, Any]) -> dict[str, Any] | None:
        """The state of the player called ``name`` (what the shim builds a Player from);
        None if no such player is in the world."""
        player = self.world.players.get(str(args["name"]))
        return None if player is None else _player_state(player)

    def op_players(self, args: dict[str, Any]) -> list[str]:
        """The names of the players online (only ``name``, when given)."""
        wanted = args.get("name")
        return [n for n in self.world.players if wanted is None or n == wanted]

    def op_entity(self, args: dict[str, Any]) -> dict[str, Any] | None:
        """``world.getEntity(id)``: the entity with that id, None if there is none.

        The game throws on a string that is not an entity id (its typings: "Throws if the
        given entity id is invalid"); ids are signed 64-bit integers written in decimal.
        """
        wanted = str(args["id"])
        if not _ENTITY_ID.fullmatch(wanted):
            raise ValueError(f"invalid entity id {wanted!r}")
        for entity in self.world.all_entities():
            if entity.id == wanted:
                player = entity.name if entity.is_player else None
                tag = player if player is not None else entity.name_tag
                return {"typeId": entity.type_id, "nameTag": tag, "player": player}
        return None

    def op_spawn(self, args: dict[str, Any]) -> dict[str, float]:
        """``world.getDefaultSpawnLocation()``."""
        return self.options.spawn.to_dict()

    def op_height_range(self, args: dict[str, Any]) -> dict[str, int]:
        """``Dimension.heightRange``: ``{min, max}``."""
        low, high = self.world.height_range(str(args["dimension"]))
        return {"min": low, "max": high}

    def op_blocks_version(self, args: dict[str, Any]) -> str:
        """What a script's cache of sections is checked against
        (:meth:`WorldState.blocks_version`).
        """
        return self.world.blocks_version()

    def op_chunk_loaded(self, args: dict[str, Any]) -> bool:
        """Whether chunk ``cx``, ``cz`` of the dimension is loaded."""
        chunk = (int(args["cx"]), int(args["cz"]))
        return chunk in self.world.loaded_chunks(str(args["dimension"]))

    def op_block_section(self, args: dict[str, Any]) -> dict[str, Any]:
        """One 16x16x16 section for ``Dimension.getBlock``: a palette of {typeId, states}
        and 4096 indices (x fastest, then z, then y); ``loaded`` False for an unloaded chunk.
        Coarse on purpose: a script reading a box makes one call per section, not per block."""
        dimension, cx, sy, cz = (str(args["dimension"]), int(args["cx"]), int(args["sy"]),
                                 int(args["cz"]))  # fmt: skip
        if (cx, cz) not in self.world.loaded_chunks(dimension):
            return {"loaded": False}
        types = self.world.section_blocks(dimension, cx, sy, cz)
        placed = {((y & 15) * 16 + (z & 15)) * 16 + (x & 15): states
                  for (d, x, y, z), states in self.world.block_states.items()
                  if d == dimension and (x >> 4, y >> 4, z >> 4) == (cx, sy, cz)}  # fmt: skip
        # Blocks placed with states of their own get palette entries of their own.
        keys = [(t, json.dumps(placed[i], sort_keys=True) if i in placed else "")
                for i, t in enumerate(types)] if placed else [(t, "") for t in types]  # fmt: skip
        index = {key: n for n, key in enumerate(dict.fromkeys(keys))}
        ids = [index[key] for key in keys]
        palette = [
            {"typeId": type_id, "states": json.loads(given) if given else default_states(type_id)}
            for type_id, given in index
        ]
        return {"loaded": True, "palette": palette, "ids": ids}

    def op_resolve_block(self, args: dict[str, Any]) -> dict[str, Any]:
        """``BlockPermutation.resolve(name, states)``: ``{typeId, states}``, or ``{error}``
        with the text the shim throws for a block type or state the game does not know."""
        states = args.get("states")
        try:
            return resolve_permutation(
                str(args["name"]), states if isinstance(states, dict) else None
            )
        except ValueError as exc:
            return {"error": str(exc)}

    # --- writes ---------------------------------------------------------------------
    def op_set_blocks(self, args: dict[str, Any]) -> int:
        """The blocks a script set since its last call (``Block.setPermutation``), in order:
        ``[[x, y, z, typeId, states], ...]`` in one dimension. The shim checked each position
        (loaded, inside the height range) as the game does; one that is not any more is
        skipped. Returns how many were set."""
        dimension = str(args["dimension"])
        loaded = self.world.loaded_chunks(dimension)
        done = 0
        for x, y, z, type_id, states in args["writes"]:
            x, y, z = int(x), int(y), int(z)
            if not self.world.in_height_range(dimension, y) or (x >> 4, z >> 4) not in loaded:
                continue
            self.world.set_block(dimension, x, y, z, str(type_id), dict(states or {}))
            done += 1
        return done

    def op_dyn_get(self, args: dict[str, Any]) -> dict[str, Any]:
        """``world.getDynamicProperty(key)`` as ``{value}``."""
        return {"value": self.dynamic_properties.get(str(args["key"]))}

    # --- writes ---------------------------------------------------------------------
    def op_dyn_set(self, args: dict[str, Any]) -> None:
        """``world.setDynamicProperty(key, value)``."""
        self.dynamic_properties[str(args["key"])] = args.get("value")

    def op_run_command(self, args: dict[str, Any]) -> dict[str, int]:
        """``runCommand`` as a player or the script engine: ``{successCount}``.

        Raises:
            RuntimeError: the command does not parse or does not exist (the game's runCommand
                throws then, a command that does not exist with the syntax error at its name:
                facts.json script_unknown_command).
        """
        origin_spec = args["origin"]
        name = origin_spec.get("player")
        entity = self.world.players.get(name) if name else None
        # the script origin's chat name, in the language the world answers in
        origin = CommandOrigin(name or text("commands.origin.script"), entity)
        line = str(args["command"])
        result = self.run_command(line, origin)
        if result.status_code == COMMAND_NOT_FOUND:
            raise RuntimeError(str(_unknown_command_syntax_error(line)))
        if result.status_code == FAILED_TO_PARSE:
            raise RuntimeError(result.status_message)  # runCommand throws CommandError here
        return {"successCount": result.success_count if result.status_code == 0 else 0}

    def op_add_tag(self, args: dict[str, Any]) -> bool:
        """``Entity.addTag``: False when the player has it already.

        Raises:
            ValueError: the tag is longer than the game takes (facts.json ``tag_max_chars``;
                the game throws ArgumentOutOfBoundsError), or no such player.
        """
        tags = self._player(args).tags
        tag = str(args["tag"])
        if len(tag) > TAG_MAX_CHARS:
            raise ValueError(
                f"ArgumentOutOfBoundsError: a tag of {len(tag)} characters (at most "
                f"{TAG_MAX_CHARS})"
            )
        if tag in tags:
            return False
        tags.add(tag)
        return True

    def op_remove_tag(self, args: dict[str, Any]) -> bool:
        """``Entity.removeTag``: whether the player had it."""
        tags = self._player(args).tags
        had = str(args["tag"]) in tags
        tags.discard(str(args["tag"]))
        return had

    def _player(self, args: dict[str, Any]) -> Player:
        player = self.world.players.get(str(args["name"]))
        if player is None:
            raise ValueError(f"player {args['name']} is no longer in the world")
        return player

    def op_send_message(self, args: dict[str, Any]) -> None:
        """``sendMessage``: to one player's screen, or every player's."""
        name = args.get("name")
        receivers = self.world.players.values() if name is None else [self.world.players[name]]
        for player in receivers:
            player.inbox.append(str(args["message"]))

    def op_spawn_simulated_player(self, args: dict[str, Any]) -> None:
        """``spawnSimulatedPlayer``: a player made by a script (the bridge
        player).

        Raises:
            RuntimeError: the world runs without the Beta APIs experiment.
        """
        if not self.options.beta_apis:
            raise RuntimeError("spawnSimulatedPlayer needs the Beta APIs experiment")
        name = str(args["name"])
        location = Vec3(float(args["x"]), float(args["y"]), float(args["z"]))
        mode = _GAME_MODES.get(str(args.get("gameMode")), "survival")
        player = make_player(name, location, game_mode=mode, simulated=True)
        player.dimension = str(args.get("dimension", "overworld"))
        self.world.add_player(player)

    def op_register_command(self, args: dict[str, Any]) -> None:
        """``customCommandRegistry.registerCommand``.

        Raises:
            ValueError: a command of that name is already registered (the game's
                ``AlreadyRegistered``).
        """
        spec = CustomCommandSpec.from_js(args)
        if spec.name in self.custom_commands:
            # The game's CustomCommandErrorReason.AlreadyRegistered (two packs, one name).
            raise ValueError(f"AlreadyRegistered: {spec.name} is already registered")
        self.custom_commands[spec.name] = spec
        # The game registers the bare name too (/chat beside /mcbews:chat), for chat: the
        # first command to claim a bare name keeps it (facts.json custom_command_bare_alias).
        _, colon, bare = spec.name.partition(":")
        if colon and bare not in self.custom_commands and bare not in self.bare_names:
            self.bare_names[bare] = spec.name

    def custom_command(self, name: str) -> CustomCommandSpec | None:
        """The custom command a typed name runs: its full name, or its bare one."""
        return self.custom_commands.get(name) or self.custom_commands.get(
            self.bare_names.get(name, "")
        )

    def op_form(self, args: dict[str, Any]) -> dict[str, Any]:
        """Answer a form with the next queued answer for that player, else as closed."""
        self.forms_shown.append(args)
        queue = self.form_answers.get(str(args["player"]))
        values = queue.popleft() if queue else None
        if values is None:
            return {"canceled": True, "cancelationReason": "UserClosed"}
        return {"canceled": False, "formValues": values}

    def op_log(self, args: dict[str, Any]) -> None:
        """``console.log`` / ``warn`` / ``error``: to the ``mcbews_repl.sim`` logger."""
        level = {"warning": logging.WARNING, "error": logging.ERROR}.get(
            args["level"], logging.INFO
        )
        message = str(args["message"])
        if level >= logging.WARNING:
            self.warnings.append(message)
        log.log(level, "addon: %s", message)


def _unknown_command_syntax_error(line: str) -> CommandSyntaxError:
    """What a script's runCommand of a command that does not exist throws: the syntax error
    at the command's name (``Syntax error: Unexpected "version": at ">>version<<"``)."""
    text = line.strip()
    text = text[1:] if text.startswith("/") else text
    start = len(text) - len(text.lstrip())
    name = text[start:].split(" ", 1)[0]
    return CommandSyntaxError(text, start, name)


def _item(stack: ItemStack | None) -> dict[str, Any] | None:
    return None if stack is None or stack.amount <= 0 else stack.to_js()


def _player_state(p: Player) -> dict[str, Any]:
    return {
        "id": p.id,
        "location": p.location.to_dict(),
        "dimension": p.dimension,
        "pitch": p.pitch,
        "yaw": p.yaw,
        "health": p.health,
        "maxHealth": p.max_health,
        "gameMode": p.game_mode.title(),
        "tags": sorted(p.tags),
        "level": p.xp_level,
        "xpPoints": p.xp_points,
        "selectedSlot": p.selected_slot,
        "inventory": [_item(s) for s in p.inventory],
        "equipment": {slot: _item(s) for slot, s in p.equipment.items()},
    }
