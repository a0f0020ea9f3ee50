"""Forwarded batches: the addon's world.afterEvents of one tick, carried as a UI chat payload.

A batch is the JSON object (docs/protocol.md, "Forwarded events")::

    {"fwd": 1, "t": 1234, "k": ["player_break_block"],
     "ev": [[0, {"p": "Alex", "x": 3, "y": 63, "z": 0, "d": 0, "b": "minecraft:stone"}]],
     "drop": {"player_break_block": 3}}

``fwd`` is the format's version, ``t`` the game tick the events happened in, ``k`` the
kind names the batch uses, ``ev`` its events in the order they happened, each the index of
its kind in ``k`` and its fields by their short keys (the vocabulary's field paths,
mcbews_repl/game_events.py), and ``drop`` (optional) what the addon dropped since its last
batch, by kind. :func:`decode_forwarded` turns the text into a :class:`ForwardedBatch` of
typed events, or refuses it as a :class:`FrameRejected`: a batch past
``FORWARD_BATCH_MAX_BYTES`` or ``FORWARD_BATCH_MAX_EVENTS``, or one whose frame is not this
shape. One event the vocabulary cannot read (an unknown kind, a field of the wrong type) is
left out and counted in ``refused``: the rest of its batch still counts. Never raises.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game_events import ADDON_EVENTS, GameEvent
from .events import ForwardedBatch, FrameRejected
from .game_events import EVENT_TEXT_CHARS, decode_game_event
from .jsonwire import dumps_wire, utf8_len
from .wire import FORWARD_BATCH_MAX_BYTES, FORWARD_BATCH_MAX_EVENTS, FORWARD_BATCH_VERSION

__all__ = [
    "FORWARD_MARKER",
    "ForwardedBatch",
    "decode_forwarded",
    "encode_forwarded",
    "is_forwarded",
]

# The key that tells a batch from a panel message ({"player", "message"}).
FORWARD_MARKER = "fwd"
# At most this many kinds in one batch's "k" and "drop" (more than the vocabulary has).
_KINDS_MAX = 64
# The most a drop count may say (a larger one is a peer's, not the addon's).
_DROP_MAX = 1 << 31


def is_forwarded(data: Mapping[str, Any]) -> bool:
    """True when a UI chat payload's object is a forwarded batch."""
    return FORWARD_MARKER in data


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kinds(value: object) -> list[str] | str:
    if not isinstance(value, list) or len(value) > _KINDS_MAX:
        return f"k is not a list of at most {_KINDS_MAX} kind names"
    if not all(isinstance(k, str) for k in value):
        return "k holds something other than kind names"
    return [k[:EVENT_TEXT_CHARS] for k in value]


def _dropped(value: object) -> tuple[tuple[str, int], ...] | str:
    if value is None:
        return ()
    if not isinstance(value, dict) or len(value) > _KINDS_MAX:
        return f"drop is not an object of at most {_KINDS_MAX} counts"
    out = []
    for kind, count in value.items():
        if not _whole(count) or not 0 <= count < _DROP_MAX:
            return f"drop of {kind[:40]!r} is not a count"
        if count:
            out.append((kind[:EVENT_TEXT_CHARS], count))
    return tuple(out)


def _event(item: object, kinds: list[str]) -> GameEvent | str:
    """One event of ``ev``, or why it is left out."""
    if not isinstance(item, list) or len(item) != 2:
        return "an event is not [kind, fields]"
    index, body = item
    if not _whole(index) or not 0 <= index < len(kinds):
        return f"an event's kind {str(index)[:20]} is not an index of k"
    name = kinds[index]
    kind = ADDON_EVENTS.get(name)
    if kind is None:
        return f"unknown kind {name[:40]!r}"
    if not isinstance(body, dict):
        return f"{name}: its fields are {type(body).__name__}, not an object"
    decoded = decode_game_event(kind, body)
    return decoded.detail if isinstance(decoded, FrameRejected) else decoded


def decode_forwarded(
    message_id: str, data: Mapping[str, Any], text_bytes: int
) -> ForwardedBatch | FrameRejected:
    """The batch of a UI chat payload's object (``text_bytes``: its JSON text's size), or
    why it is refused."""

    def refuse(detail: str) -> FrameRejected:
        return FrameRejected("forwarded_malformed", detail, message_id)

    if text_bytes > FORWARD_BATCH_MAX_BYTES:
        return FrameRejected(
            "forwarded_too_large",
            f"{text_bytes:,} bytes, more than a batch's {FORWARD_BATCH_MAX_BYTES:,}",
            message_id,
        )
    version = data.get(FORWARD_MARKER)
    if not _whole(version) or version != FORWARD_BATCH_VERSION:
        return refuse(f"fwd is {str(data.get(FORWARD_MARKER))[:20]}, not {FORWARD_BATCH_VERSION}")
    tick, events = data.get("t"), data.get("ev")
    if not isinstance(tick, int) or isinstance(tick, bool) or tick < 0:
        return refuse("t is not a tick")
    kinds = _kinds(data.get("k", []))
    if isinstance(kinds, str):
        return refuse(kinds)
    dropped = _dropped(data.get("drop"))
    if isinstance(dropped, str):
        return refuse(dropped)
    if not isinstance(events, list):
        return refuse("ev is not a list")
    if len(events) > FORWARD_BATCH_MAX_EVENTS:
        return FrameRejected(
            "forwarded_too_large",
            f"{len(events)} events, more than a batch's {FORWARD_BATCH_MAX_EVENTS}",
            message_id,
        )
    good: list[GameEvent] = []
    refused, first = 0, ""
    for item in events:
        event = _event(item, kinds)
        if isinstance(event, str):
            refused += 1
            first = first or event[:200]
        else:
            good.append(event)
    return ForwardedBatch(message_id, tick, tuple(good), dropped, refused, first, text_bytes)


def encode_forwarded(
    tick: int,
    events: Sequence[tuple[str, Mapping[str, Any]]],
    dropped: Mapping[str, int] | None = None,
) -> str:
    """A batch's JSON text (the addon writes these; tests and captures use this one):
    ``events`` as (kind, short-key fields) in order.

    Raises:
        ValueError: more events or bytes than a batch may hold.
    """
    if len(events) > FORWARD_BATCH_MAX_EVENTS:
        raise ValueError(f"a batch holds at most {FORWARD_BATCH_MAX_EVENTS} events")
    kinds: list[str] = []
    out = []
    for name, body in events:
        if name not in kinds:
            kinds.append(name)
        out.append([kinds.index(name), dict(body)])
    batch: dict[str, Any] = {FORWARD_MARKER: FORWARD_BATCH_VERSION, "t": tick, "k": kinds,
                             "ev": out}  # fmt: skip
    if dropped:
        batch["drop"] = dict(dropped)
    text = dumps_wire(batch)
    if utf8_len(text) > FORWARD_BATCH_MAX_BYTES:
        raise ValueError(f"a batch holds at most {FORWARD_BATCH_MAX_BYTES} bytes")
    return text
