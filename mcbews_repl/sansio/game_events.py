"""Decode a game event's body into its typed event (``mcbews_repl.game_events``).

A value is read at its field's path and checked against its type: a missing one is None (a
game version may leave a field out), a wrong one rejects the frame (a peer that sends a
string for a count is not the game). Strings are cut to ``EVENT_TEXT_CHARS`` and an
unknown event's body is kept as compact JSON cut to ``EVENT_PROPERTIES_CHARS``, so no
event holds more than a bounded amount whatever the peer sent. Never raises.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..game_events import PLAYER_FIELDS, Field, GameEvent, GameEventKind, OtherGameEvent
from .events import FrameRejected

__all__ = ["EVENT_PROPERTIES_CHARS", "EVENT_TEXT_CHARS", "decode_game_event", "decode_other_event"]

# A player name is at most 16 characters and an id well under 100: 256 is generous for any
# string field; a longer one is cut, not refused (what a mod's long custom name could be).
EVENT_TEXT_CHARS = 256
# An unknown event's body, kept as JSON for the user to read: a few kilobytes at most.
EVENT_PROPERTIES_CHARS = 2000

_MISSING = object()


class _Bad(Exception):
    """A field of the wrong type (internal: becomes a FrameRejected)."""


def _at(body: dict[str, Any], path: tuple[str, ...]) -> Any:
    """The value at ``path``; _MISSING when a key is absent. A value on the way that is not
    an object (``"player": "Steve"``) is no game's: the frame is refused."""
    value: Any = body
    for depth, key in enumerate(path):
        if not isinstance(value, dict):
            where = ".".join(path[:depth])
            raise _Bad(f"{where} is {type(value).__name__}, not an object")
        value = value.get(key, _MISSING)
        if value is _MISSING or value is None:
            return _MISSING
    return value


def _short_and_full(namespace: str, ident: str) -> tuple[str | None, str | None]:
    if not ident:
        return None, None  # an empty slot: no tool, no weapon
    if ":" in ident:
        namespace, _, ident = ident.partition(":")
    full = f"{namespace}:{ident}" if namespace else ident
    return ident[:EVENT_TEXT_CHARS], full[:EVENT_TEXT_CHARS]


def _read(spec: Field, body: dict[str, Any], out: dict[str, Any]) -> None:
    value = _at(body, spec.path)
    if value is _MISSING or value is None:
        return
    where = ".".join(spec.path)
    match spec.type:
        case "str":
            if not isinstance(value, str):
                raise _Bad(f"{where} is {type(value).__name__}, not a string")
            out[spec.name] = value[:EVENT_TEXT_CHARS]
        case "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise _Bad(f"{where} is {type(value).__name__}, not a whole number")
            out[spec.name] = value
        case "float":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise _Bad(f"{where} is {type(value).__name__}, not a number")
            if not math.isfinite(value):
                raise _Bad(f"{where} is not a finite number")
            out[spec.name] = float(value)
        case "bool":
            if not isinstance(value, bool):
                raise _Bad(f"{where} is {type(value).__name__}, not true or false")
            out[spec.name] = value
        case "id":
            if not isinstance(value, dict):
                raise _Bad(f"{where} is {type(value).__name__}, not an object")
            ident, namespace = value.get("id", ""), value.get("namespace", "")
            if not isinstance(ident, str) or not isinstance(namespace, str):
                raise _Bad(f"{where}.id and .namespace must be strings")
            out[spec.name], out[f"{spec.name}_id"] = _short_and_full(namespace, ident)
        case "type_id":
            if not isinstance(value, str):
                raise _Bad(f"{where} is {type(value).__name__}, not a type id")
            out[spec.name], out[f"{spec.name}_id"] = _short_and_full("", value)


def _values(specs: tuple[Field, ...], body: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in specs:
        _read(spec, body, out)
    return out


def decode_game_event(kind: GameEventKind, body: dict[str, Any]) -> GameEvent | FrameRejected:
    """The typed event of ``body``, or why the frame is refused."""
    try:
        return kind.cls(**_values(kind.fields, body))
    except _Bad as exc:
        return FrameRejected("bad_game_event", f"{kind.name}: {exc}")


def decode_other_event(name: str, body: dict[str, Any]) -> OtherGameEvent | FrameRejected:
    """An event the corpus does not know: the player's fields if it has them, and its body."""
    try:
        player = _values(PLAYER_FIELDS, body)
    except _Bad:
        player = {}  # not ours to judge: the shape is unknown
    try:
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)
    except (ValueError, RecursionError):
        text = ""
    return OtherGameEvent(
        event=name[:EVENT_TEXT_CHARS], properties=text[:EVENT_PROPERTIES_CHARS], **player
    )
