"""The agent tool catalogue: every tool's keyword-only parameters, defaults and ranges.

One table serves three readers: :meth:`Tools.describe` (what an agent reads first), the JSON
Schema function definitions an LLM harness registers, and the argument check that runs
before any tool body, so the schema and the behaviour cannot disagree. The catalogue is a
contract (docs/toolkit.md, "Agent tools"), so renaming a field is a breaking change.
"""

from __future__ import annotations

from typing import Any

from ..vocabulary import Capability
from .blocks import DIMENSIONS
from .schema import REQUIRED, Param, ToolSpec
from .validate import (
    COORDINATE_LIMIT,
    DISPLAY_SLOTS,
    ENTITY_LIMIT_MAX,
    INT32_MAX,
    INT32_MIN,
    OPERATORS,
    RADIUS_MAX,
    SORT_ORDERS,
)

__all__ = ["BLOCKS_TOOL_MAX", "BUILD_RUNS_MAX_CHARS", "CATALOGUE", "LIST_LIMIT_MAX", "SHAPES"]

_OBJECTIVE_PATTERN = r"^[A-Za-z0-9_.\-]{1,16}$"
LIST_LIMIT_MAX = 200  # the most rows any tool returns at once; more means narrow the question
# The blocks tool reads one get_blocks request's worth (a 16x16x16 section): its grid and
# numbers are some 12 KiB of JSON, what an agent can read whole.
BLOCKS_TOOL_MAX = 4096
# The set_blocks tool's runs: a 16x16x16 section of varied blocks is some 20,000 characters
# of runs (writes.py); more is a box to build in parts. The guard caps the blocks themselves.
BUILD_RUNS_MAX_CHARS = 32_768
SHAPES = ("sphere", "cylinder", "line")


def _s(name: str, description: str, default: Any = REQUIRED, **more: Any) -> Param:
    return Param(
        name, "string", description, default, max_length=more.pop("max_length", 128), **more
    )


def _i(
    name: str,
    description: str,
    default: Any = REQUIRED,
    low: int = INT32_MIN,
    high: int = INT32_MAX,
) -> Param:
    return Param(name, "integer", description, default, minimum=low, maximum=high)


def _xyz(what: str, default: Any = REQUIRED) -> tuple[Param, ...]:
    return tuple(
        Param(
            a,
            "integer" if default is REQUIRED else "number",
            f"{what} {a}",
            default,
            minimum=-COORDINATE_LIMIT,
            maximum=COORDINATE_LIMIT,
        )
        for a in "xyz"
    )


_PLAYER = _s("player", "exact player name (see the players tool)")
_HOLDER = _s("holder", "a player name or fake player such as #global; no selectors")
_OBJ = _s("objective", "objective name", pattern=_OBJECTIVE_PATTERN, max_length=16)
_LIMIT = _i("limit", "the most rows to return", 20, 1, LIST_LIMIT_MAX)
_DIMENSION = _s("dimension", "the dimension", "overworld", enum=DIMENSIONS)
_BLOCK = _s("block", "block id, e.g. minecraft:stone or red_wool")
_HOLLOW = Param("hollow", "boolean", "only the outside (a box's faces, a shell, a wall)", False)
_CORNERS = tuple(
    _i(f"{a}{n}", f"corner {n} {a}", low=-COORDINATE_LIMIT, high=COORDINATE_LIMIT)
    for n in (1, 2)
    for a in "xyz"
)

CATALOGUE: tuple[ToolSpec, ...] = (
    ToolSpec(
        "status",
        "Bridge health: connected games, pending requests, counters.",
        "observe",
        returns="connections, pending, contexts, forwarder",
    ),
    ToolSpec(
        "capabilities",
        "What the world's addon offers (name, description, params).",
        "observe",
        (_LIMIT,),
        "capabilities, total, truncated",
    ),
    ToolSpec(
        "players",
        "Every online player: position, dimension, rotation, health, mode.",
        "observe",
        (_LIMIT,),
        "players, total, truncated",
    ),
    ToolSpec(
        "inventory",
        "One player's occupied slots and equipment.",
        "observe",
        (_PLAYER, _i("limit", "the most slots to return", 36, 1, LIST_LIMIT_MAX)),
        "slots, equipment, total, truncated",
    ),
    ToolSpec(
        "item_count",
        "How many of an item a player holds (removes nothing).",
        "observe",
        (
            _PLAYER,
            _s("item", "item id, e.g. minecraft:diamond"),
            _i("data", "legacy data value; -1 matches any", -1, -1, 32767),
        ),
        "value (never guessed: known=false when unreadable)",
    ),
    ToolSpec(
        "tags",
        "A player's tags as the game counts and shows them.",
        "observe",
        (_PLAYER,),
        "count, text, tags (exact list or null)",
    ),
    ToolSpec(
        "scores",
        "Every score of one holder.",
        "observe",
        (_HOLDER,),
        "scores [{objective, display_name, value}]",
    ),
    ToolSpec(
        "score", "One holder's score in one objective.", "observe", (_HOLDER, _OBJ), "found, value"
    ),
    ToolSpec(
        "objectives",
        "Every scoreboard objective.",
        "observe",
        (_LIMIT,),
        "objectives [{name, display_name, criteria}], total, truncated",
    ),
    ToolSpec(
        "objective_scores",
        "Every tracked holder's score in one objective.",
        "observe",
        (_OBJ, _i("limit", "the most holders to read", 64, 1, 256)),
        "scores [{holder, value}], total, truncated, unknown",
    ),
    ToolSpec(
        "testfor",
        "Whether a selector or name matches anything.",
        "observe",
        (_s("selector", "e.g. @e[type=cow,r=10] or a player name", max_length=256),),
        "matched, names (display text, not identities)",
    ),
    ToolSpec(
        "entities",
        "Entities near a point or by name/type/tag, nearest first.",
        "observe",
        (
            _s("target", "players or entities", "entities", enum=("players", "entities")),
            _s("name", "exact name filter", None),
            _s("entity_type", "e.g. minecraft:zombie", None),
            _s("tag", "tag filter", None),
            *_xyz("search centre", None),
            Param("radius", "number", "blocks around x, y, z", None, minimum=0, maximum=RADIUS_MAX),
            _i("limit", "the most entities", 16, 1, ENTITY_LIMIT_MAX),
        ),
        "entities [{id, dimension, x, y, z, yaw}], total, truncated",
    ),
    ToolSpec(
        "block",
        "Whether a block is at a position (connected player's dimension).",
        "observe",
        (*_xyz("block"), _s("block", "block id, e.g. minecraft:stone")),
        "matches, actual (the game's display name when different)",
    ),
    ToolSpec(
        "region",
        "Where a block is within a small box (testforblock per position).",
        "observe",
        (
            *_xyz("lowest corner"),
            _i("dx", "size along x", 1, 1, 16),
            _i("dy", "size along y", 1, 1, 16),
            _i("dz", "size along z", 1, 1, 16),
            _s("block", "block id"),
            _LIMIT,
        ),
        "matched, unknown, positions [...], total, truncated",
    ),
    ToolSpec(
        "blocks",
        f"Every block of a box, both corners inside (at most {BLOCKS_TOOL_MAX} blocks): "
        "a palette, each layer as a text grid, and the same as numbers.",
        "observe",
        (*_CORNERS, _s("dimension", "the dimension", "overworld", enum=DIMENSIONS)),
        "palette [{key, block, count}], layers [{y, rows}] (rows along z, one key per x), "
        "ids [y][z][x] (palette indices), unknown",
    ),
    ToolSpec(
        "events",
        "The bridge's event log after a cursor (chat, commands, ...).",
        "observe",
        (
            _i("since", "cursor of the last entry already seen", 0, 0),
            _LIMIT,
            _s("kind", "only this kind, e.g. chat", None),
        ),
        "events, next_since, total, truncated",
    ),
    ToolSpec(
        "game_events",
        "Game events after a cursor (blocks broken and placed, deaths, items used ...), "
        "subscribing first to the kinds named; the addon's snake_case kinds "
        "(player_break_block ...) cover every player, the game's own (BlockBroken ...) only "
        "the connected client.",
        "observe",
        (
            _s(
                "subscribe",
                "kinds to hear from now on, comma-separated, e.g. player_break_block,entity_die",
                None,
                max_length=512,
            ),
            _i(
                "rate",
                "for the addon's kinds: at most this many a second per player (0: all)",
                0,
                0,
                20,
            ),
            _i(
                "since", "cursor of the last event already seen (next_since of the last call)", 0, 0
            ),
            _LIMIT,
            _s("kind", "only this kind, e.g. player_break_block", None, max_length=64),
        ),
        "events [{cursor, event, player, x, y, z, ...the kind's own fields}], next_since, "
        "subscribed, total, truncated, missed (entries the log let go since the cursor)",
    ),
    ToolSpec(
        "chat_context",
        "A player's captured state at the moment they chatted.",
        "observe",
        (
            _s("context_id", "the id from a chat event"),
            _s("player", "only answer if the context belongs to this player", None),
        ),
        "player, dimension, location, held ...",
    ),
    ToolSpec(
        "command",
        "Run one command as the connected player.",
        "act",
        (_s("command", "the command line, no leading slash needed", max_length=461),),
        "status_code, message",
    ),
    ToolSpec(
        "send_text",
        "Show text in a player's addon chat panel.",
        "act",
        (_PLAYER, _s("text", "the text", max_length=20000)),
        "frames",
    ),
    ToolSpec(
        "score_set",
        "Set a holder's score.",
        "act",
        (_HOLDER, _OBJ, _i("value", "the new score")),
        "value",
    ),
    ToolSpec(
        "score_add",
        "Add to a holder's score (negative subtracts).",
        "act",
        (_HOLDER, _OBJ, _i("delta", "amount to add", low=-INT32_MAX)),
        "value",
    ),
    ToolSpec(
        "score_reset", "Remove a holder from one objective.", "act", (_HOLDER, _OBJ), "acknowledged"
    ),
    ToolSpec(
        "score_operation",
        "holder objective <operator> source_holder source_objective.",
        "act",
        (
            _HOLDER,
            _OBJ,
            _s("operator", "the operation", enum=OPERATORS),
            _s("source_holder", "source holder"),
            _s("source_objective", "source objective", pattern=_OBJECTIVE_PATTERN, max_length=16),
        ),
        "value (null when the game does not report it)",
    ),
    ToolSpec(
        "objective_add",
        "Create a dummy objective.",
        "act",
        (_OBJ, _s("display_name", "shown name", None)),
        "acknowledged",
    ),
    ToolSpec(
        "objective_remove",
        "Delete an objective and all its scores.",
        "act",
        (_OBJ,),
        "acknowledged",
    ),
    ToolSpec(
        "fill",
        "Set every block of a box (both corners inside, any size the guard allows) to one "
        "block; what it replaced is kept for the undo tool.",
        "act",
        (*_CORNERS, _BLOCK, _HOLLOW, _DIMENSION),
        "written, already, not_written {unloaded, out_of_world}, notes",
    ),
    ToolSpec(
        "shape",
        "Build a sphere (centre x, y, z and radius), an upright cylinder (base centre, radius, "
        "height) or a line (x, y, z to x2, y2, z2) of one block; undo takes it back.",
        "act",
        (
            _s("shape", "what to build", enum=SHAPES),
            *_xyz("centre, base or start"),
            _BLOCK,
            _i("radius", "sphere or cylinder radius", 3, 0, 64),
            _i("height", "cylinder height", 1, 1, 384),
            *(
                Param(
                    f"{a}2",
                    "integer",
                    f"line end {a}",
                    None,
                    minimum=-COORDINATE_LIMIT,
                    maximum=COORDINATE_LIMIT,
                )
                for a in "xyz"
            ),
            _HOLLOW,
            _DIMENSION,
        ),
        "written, already, not_written {unloaded, out_of_world}, origin, size, notes",
    ),
    ToolSpec(
        Capability.SET_BLOCKS.value,  # the tool is named after the capability it writes with
        "Write a box of mixed blocks from its lowest corner: a palette and runs over it, "
        "x fastest, then z, then y (the blocks tool's order); <keep> leaves a position.",
        "act",
        (
            *_xyz("lowest corner"),
            _i("dx", "size along x", low=1, high=256),
            _i("dy", "size along y", low=1, high=384),
            _i("dz", "size along z", low=1, high=256),
            _s("palette", "block ids separated by commas, e.g. air,stone,<keep>", max_length=4096),
            _s(
                "runs",
                "palette indices in runs: 0*12,1,2*3 (index*count)",
                max_length=BUILD_RUNS_MAX_CHARS,
            ),
            _DIMENSION,
        ),
        "written, already, kept, not_written {unloaded, out_of_world}, notes",
    ),
    ToolSpec(
        "undo",
        "Take back this world's newest fill, shape or set_blocks (what it replaced is "
        "written back); again for the one before.",
        "act",
        (),
        "undid, written, notes",
    ),
    ToolSpec(
        "objective_setdisplay",
        "Show an objective in a slot; no objective clears it.",
        "act",
        (
            _s("slot", "display slot", enum=DISPLAY_SLOTS),
            _s("objective", "objective name", None, pattern=_OBJECTIVE_PATTERN, max_length=16),
            _s("sort_order", "list/sidebar only", None, enum=SORT_ORDERS),
        ),
        "acknowledged",
    ),
)
