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
    "SCRIPTEVENT_MESSAGE_MAX_CHARS",
    "SCRIPT_ENGINE_SENDER",
    "SIMULATION_DISTANCE_CHUNKS",
    "SUCCESS",
    "TAG_LIST_SEPARATOR",
    "TAG_MAX_CHARS",
    "TOO_MANY_PENDING",
    "corpus",
    "default_states",
    "lang",
    "languages",
    "name_key",
    "restricted_execution",
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


# %s, %d, %1$s, %2$d, %.2f: the game's printf-style placeholders; %% is a percent sign.
_PLACEHOLDER = re.compile(r"%%|%(?:(\d+)\$)?(?:\.(\d+))?([sdf])")


def text(key: str, *args: object, language: str = ENGLISH) -> str:
    """The game's string ``key`` in ``language`` with its placeholders filled from ``args``,
    in order or by position (``%2$s`` is the second argument)."""
    template = lang(language)[key]
    next_index = iter(range(len(args)))

    def fill(match: re.Match[str]) -> str:
        if match.group(0) == "%%":
            return "%"
        position, precision, kind = match.groups()
        value = args[int(position) - 1 if position else next(next_index)]
        if kind == "d":
            return str(int(value))  # type: ignore[call-overload]
        if kind == "f":
            return f"{float(value):.{int(precision or 6)}f}"  # type: ignore[arg-type]
        return str(value)

    return _PLACEHOLDER.sub(fill, template)


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


# PlayerMessage event shapes (facts.json "events").
MODERN_EVENT_VERSION: Final[int] = _fact("events", "modern_header_version")
OLDER_EVENT_VERSION: Final[int] = _fact("events", "older_header_version")
LEGACY_EVENT_REQUEST_ID: Final[str] = _fact("events", "legacy_shape")["request_id"]

# Chat names of command origins: what WebSocket commands and scripts' commands run as.
EXTERNAL_SENDER: Final[str] = text("commands.origin.external")
SCRIPT_ENGINE_SENDER: Final[str] = text("commands.origin.script")

# Custom commands (facts.json "behaviours"): how a failing one answers, what it may not do.
CUSTOM_COMMAND_FAILURE: Final[int] = _fact("behaviours", "custom_command_failure_code")


def restricted_execution() -> dict[str, Any]:
    """The functions a custom command's callback may not call, and the error they throw."""
    fact: dict[str, Any] = _fact("behaviours", "custom_command_restricted_execution")
    return {"refused": list(fact["refused"]), "error": str(fact["error"])}
