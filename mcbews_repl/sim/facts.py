"""The game's facts, read from the simulated world's evidence corpus (``sim/evidence/``).

The corpus records what the real game says, each entry with its source: the game's strings
in every language it ships (``lang.json``, from Mojang's bedrock-samples), published
captures of its frames (``captures.json``), and status codes, limits, event shapes and
behaviours marked captured or assumed (``facts.json``; docs/sim.md lists them). The
simulated world answers from here and never from the bridge's ``wire.json``, so a wrong
number on one side shows up as a failing end-to-end test instead of agreeing with itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any, Final

__all__ = [
    "CLONE_MAX_BLOCKS",
    "COMMAND_LINE_BUDGET_BYTES",
    "COMMAND_NOT_FOUND",
    "CUSTOM_COMMAND_FAILURE",
    "ENCRYPTION_REQUIRED",
    "ENGLISH",
    "EXECUTION_FAIL",
    "EXTERNAL_SENDER",
    "FAILED_TO_PARSE",
    "FILL_MAX_BLOCKS",
    "FRAME_BUDGET_BYTES",
    "HEIGHT_RANGES",
    "LEGACY_EVENT_REQUEST_ID",
    "MALFORMED_REQUEST",
    "MAX_IN_FLIGHT_COMMANDS",
    "MODERN_EVENT_VERSION",
    "NO_TARGET",
    "OLDER_EVENT_VERSION",
    "PREVIOUS_EVENT_VERSION",
    "SCRIPTEVENT_MESSAGE_MAX_CHARS",
    "SCRIPTEVENT_SENT",
    "SCRIPT_ENGINE_SENDER",
    "SIMULATION_DISTANCE_CHUNKS",
    "SUCCESS",
    "TAG_LIST_SEPARATOR",
    "TAG_MAX_CHARS",
    "TOO_MANY_PENDING",
    "UNFIXED_SPAWN_Y",
    "corpus",
    "default_states",
    "item_name",
    "lang",
    "language_of_this_command",
    "languages",
    "name_key",
    "resolve_permutation",
    "restricted_execution",
    "speaking",
    "text",
]


@cache
def corpus(name: str) -> dict[str, Any]:
    """One file of the evidence corpus, parsed: ``sources``, ``lang``, ``captures``, ``facts``."""
    raw = resources.files("mcbews_repl.sim").joinpath("evidence", f"{name}.json")
    data: dict[str, Any] = json.loads(raw.read_text(encoding="utf-8"))
    return data


ENGLISH: Final[str] = "en_US"


def languages() -> tuple[str, ...]:
    """The language codes the game ships (``en_US``, ``zh_CN`` ...), as its files name them."""
    return tuple(corpus("lang")["languages"])


def lang(language: str = ENGLISH) -> dict[str, str]:
    """The game's strings in one language (key -> text with its ``%s``/``%1$d``
    placeholders). A key that language's file lacks is the English string, as in the game.

    Raises:
        ValueError: the game ships no such language.
    """
    return _strings(language)


@cache
def _strings(language: str) -> dict[str, str]:
    files: dict[str, dict[str, str]] = corpus("lang")["languages"]
    if language not in files:
        raise ValueError(
            f"the game has no language {language!r}; it ships {', '.join(sorted(files))}"
        )
    return {**files[ENGLISH], **files[language]}


def name_key(type_id: str) -> str | None:
    """The lang key of an item's or block's name (``minecraft:diamond`` ->
    ``item.diamond.name``), None for one the corpus does not name."""
    keys: dict[str, str] = corpus("lang")["name_keys"]
    return keys.get(type_id if ":" in type_id else f"minecraft:{type_id}")


def _fact(group: str, key: str) -> Any:
    return corpus("facts")[group][key]["value"]


# The language the game is answering in right now: a world sets it around each command it
# runs (speaking), so two worlds of different languages in one process each answer in
# their own; outside any command it is English.
_SPEAKING: ContextVar[str] = ContextVar("mcbews_sim_language", default=ENGLISH)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Answer in ``language`` until the block ends (the world's language while it runs a
    command, reports a chat line or sends an error frame).

    Raises:
        ValueError: the game ships no such language.
    """
    lang(language)  # fail before anything runs
    token = _SPEAKING.set(language)
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def language_of_this_command() -> str:
    """The language the game answers in at this moment (en_US outside a command)."""
    return _SPEAKING.get()


# The game's placeholders: %s, %d, %.2f in order; %1$s, %2$d by position; and, as its own
# files also write them (en_US world_recovery.error.insufficient_space "%1", translators'
# "%2d", "%2$"), a position with no type, or no "$" (facts.json behaviours.lang_placeholders,
# assumed). %% is a percent sign.
_PLACEHOLDER = re.compile(r"%%|%(\d+)\$?(?:\.(\d+))?([sdf]?)|%(?:\.(\d+))?([sdf])")


def text(key: str, *args: object, language: str | None = None) -> str:
    """The game's string ``key`` with its placeholders filled from ``args``, in order or by
    position (``%2$s`` is the second argument), in ``language`` (default: the language of
    the command running now, see :func:`speaking`)."""
    template = lang(language or _SPEAKING.get())[key]
    next_index = iter(range(len(args)))

    def fill(match: re.Match[str]) -> str:
        if match.group(0) == "%%":
            return "%"
        position, precision, kind, in_order_precision, in_order_kind = match.groups()
        if position is None:
            precision, kind = in_order_precision, in_order_kind
        index = int(position) - 1 if position else next(next_index, len(args))
        if not 0 <= index < len(args):
            return match.group(0)  # a placeholder with no argument shows as written
        value = args[index]
        if kind == "d":
            return str(int(value))  # type: ignore[call-overload]
        if kind == "f":
            return f"{float(value):.{int(precision or 6)}f}"  # type: ignore[arg-type]
        return str(value)

    return _PLACEHOLDER.sub(fill, template)


def item_name(type_id: str) -> str:
    """An item's or block's name as the game shows it in the language of the command running
    now (``minecraft:diamond`` -> ``Diamond``, ``钻石``); an id the corpus does not name is
    title-cased from the id, as the English names mostly are."""
    key = name_key(type_id)
    if key is not None:
        return text(key)
    return type_id.split(":")[-1].replace("_", " ").title()


# Signed 32-bit status codes (facts.json "status_codes").
SUCCESS: Final[int] = _fact("status_codes", "success")
EXECUTION_FAIL: Final[int] = _fact("status_codes", "execution_fail")
NO_TARGET: Final[int] = _fact("status_codes", "no_target")
FAILED_TO_PARSE: Final[int] = _fact("status_codes", "syntax_error")
COMMAND_NOT_FOUND: Final[int] = _fact("status_codes", "command_not_found")
TOO_MANY_PENDING: Final[int] = _fact("status_codes", "too_many_requests")
MALFORMED_REQUEST: Final[int] = _fact("status_codes", "malformed_request")
ENCRYPTION_REQUIRED: Final[int] = _fact("status_codes", "encryption_required")

# The game's limits (facts.json "limits"): its own copy, not the bridge's.
COMMAND_LINE_BUDGET_BYTES: Final[int] = _fact("limits", "command_line_bytes")
FRAME_BUDGET_BYTES: Final[int] = _fact("limits", "frame_bytes")
MAX_IN_FLIGHT_COMMANDS: Final[int] = _fact("limits", "max_in_flight_commands")
SCRIPTEVENT_MESSAGE_MAX_CHARS: Final[int] = _fact("limits", "scriptevent_message_chars")
# Tags (facts.json): the longest addTag takes, and how /tag list joins several names.
TAG_MAX_CHARS: Final[int] = _fact("limits", "tag_max_chars")
TAG_LIST_SEPARATOR: Final[str] = _fact("behaviours", "tag_list_separator")

FILL_MAX_BLOCKS: Final[int] = _fact("limits", "fill_max_blocks")
CLONE_MAX_BLOCKS: Final[int] = _fact("limits", "clone_max_blocks")
SIMULATION_DISTANCE_CHUNKS: Final[int] = _fact("limits", "simulation_distance_chunks")
# Each dimension's height range as Dimension.heightRange gives it: [min, max), max exclusive.
HEIGHT_RANGES: Final[dict[str, tuple[int, int]]] = {
    dimension: (low, high) for dimension, (low, high) in _fact("limits", "height_ranges").items()
}


def default_states(type_id: str) -> dict[str, Any]:
    """The block states a block of this type has when the world makes it (blocks.json)."""
    states: dict[str, Any] = corpus("blocks")["default_states"].get(type_id, {})
    return dict(states)


@cache
def _block_types() -> dict[str, Any]:
    return corpus("block_types")


_STATE_TYPES = {"boolean": bool, "number": int, "string": str}


def resolve_permutation(name: str, states: dict[str, Any] | None) -> dict[str, Any]:
    """What ``BlockPermutation.resolve(name, states)`` gives: ``{typeId, states}``, the block's
    default states (blocks.json) overlaid with ``states``.

    Raises:
        ValueError: the game has no such block type, or the type no such state, or the value
            is of the wrong type (the texts of facts.json ``block_permutation_resolve``).
    """
    errors: dict[str, str] = _fact("behaviours", "block_permutation_resolve")
    types = _block_types()
    type_id = name if ":" in name else f"minecraft:{name}"
    known = types["blocks"].get(type_id)
    if known is None:
        raise ValueError(errors["unknown_type"] % type_id)
    given = dict(states or {})
    for key, value in given.items():
        if key not in known:
            raise ValueError(errors["unknown_state"] % (type_id, key))
        kind = types["state_types"][key]
        if isinstance(value, bool) != (kind == "boolean") or not isinstance(
            value, _STATE_TYPES[kind]
        ):
            raise ValueError(errors["state_type"] % (key, type_id, kind))
    return {"typeId": type_id, "states": {**default_states(type_id), **given}}


# PlayerMessage event shapes (facts.json "events").
MODERN_EVENT_VERSION: Final[int] = _fact("events", "modern_header_version")  # 2026
PREVIOUS_EVENT_VERSION: Final[int] = _fact("events", "previous_header_version")
OLDER_EVENT_VERSION: Final[int] = _fact("events", "older_header_version")
LEGACY_EVENT_REQUEST_ID: Final[str] = _fact("events", "legacy_shape")["request_id"]

# Chat names of command origins in English: what WebSocket commands and scripts' commands
# run as (a world in another language names them in its own: text("commands.origin.*")).
EXTERNAL_SENDER: Final[str] = text("commands.origin.external", language=ENGLISH)
SCRIPT_ENGINE_SENDER: Final[str] = text("commands.origin.script", language=ENGLISH)

# What /scriptevent answers: English in every language, the language files have no string
# for it (facts.json "behaviours"); %s is the event id.
SCRIPTEVENT_SENT: Final[str] = _fact("behaviours", "scriptevent_success_message")

# The y World.getDefaultSpawnLocation answers for a spawn whose height is not fixed.
UNFIXED_SPAWN_Y: Final[int] = _fact("behaviours", "default_spawn_location")["unfixed_y"]

# Custom commands (facts.json "behaviours"): how a failing one answers, what it may not do.
CUSTOM_COMMAND_FAILURE: Final[int] = _fact("behaviours", "custom_command_failure_code")


def restricted_execution() -> dict[str, Any]:
    """The functions a custom command's callback may not call, and the error they throw."""
    fact: dict[str, Any] = _fact("behaviours", "custom_command_restricted_execution")
    return {"refused": list(fact["refused"]), "error": str(fact["error"])}
