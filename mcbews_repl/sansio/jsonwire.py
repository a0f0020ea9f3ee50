"""Compact JSON as it travels inside Minecraft command lines.

Two characters are escaped wherever they occur in our JSON: ``@`` (``tell`` would expand
``@a`` into player names) and ``§`` (the game's formatting code). JSON decoders turn the
``\\u0040``/``\\u00a7`` escapes back into the same characters, so payloads round-trip.
Lone surrogates, which cannot be encoded as UTF-8, are written as ``\\uXXXX`` escapes.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = [
    "char_costs",
    "dumps_wire",
    "escape_wire",
    "frame_extra_bytes",
    "has_lone_surrogate",
    "utf8_len",
]

_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(text: str) -> bool:
    """True when ``text`` holds a code point UTF-8 cannot encode."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def _escape_surrogates(text: str) -> str:
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def escape_wire(json_text: str) -> str:
    """Escape ``@``, ``§`` and lone surrogates in already-serialized JSON text."""
    out = json_text
    if "@" in out:
        out = out.replace("@", "\\u0040")
    if "\u00a7" in out:
        out = out.replace("\u00a7", "\\u00a7")
    if not out.isascii() and _SURROGATE.search(out):  # has_lone_surrogate, inlined: hot
        out = _escape_surrogates(out)
    return out


def dumps_wire(value: Any) -> str:
    """Serialize ``value`` as compact, wire-safe JSON (UTF-8 text, ``@``/``§`` escaped)."""
    return escape_wire(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def utf8_len(text: str) -> int:
    """Length of ``text`` in UTF-8 bytes (lone surrogates count as their 6-byte escape)."""
    if text.isascii():  # O(1) in CPython, and then one byte per code point
        return len(text)
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return len(_escape_surrogates(text).encode("utf-8"))


def frame_extra_bytes(wire_text: str) -> int:
    """What ``wire_text`` adds once it sits in a commandRequest frame's JSON string.

    Wire JSON holds no control characters or lone surrogates (they are escaped), so the
    frame escapes only its quotes and backslashes, each one byte longer.
    """
    return wire_text.count("\\") + wire_text.count('"')


_CHAR_COST_CACHE: dict[str, tuple[int, int]] = {}


def char_costs(char: str) -> tuple[int, int]:
    """Bytes one code point costs in a wire JSON string: in the line, and in the frame."""
    costs = _CHAR_COST_CACHE.get(char)
    if costs is None:
        escaped = dumps_wire(char)[1:-1]
        size = utf8_len(escaped)
        costs = (size, size + frame_extra_bytes(escaped))
        if len(_CHAR_COST_CACHE) < 4096:
            _CHAR_COST_CACHE[char] = costs
    return costs
