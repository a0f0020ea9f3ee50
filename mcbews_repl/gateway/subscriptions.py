"""Which game events each connection subscribes to, kept so a reconnect gets them again.

The book holds the names wanted everywhere (every connection, now and later) and the
names wanted by one world, under the world's key: its host player and address, the two
things a reconnect of the same world shares (the REPL's roster matches worlds the same
way). A connection wants PlayerMessage (always: it carries chat and the addon's chat
answers), the names wanted everywhere, and its world's. The book only records; the
connection sends the subscribe and unsubscribe frames that bring the game to it.

Names are checked against the one vocabulary (mcbews_repl/game_events.py): an unknown one
raises :class:`UnknownEvent` unless asked for with ``unknown_ok=True``, which also lets the
bridge keep that name's events (as ``OtherGameEvent``) when they come.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..exceptions import UnknownEvent, wrong_type
from ..game_events import GAME_EVENTS, event_kind, unknown_event_message
from ..limits import EVENT_NAME_MAX_CHARS, EVENT_SUBSCRIPTIONS_MAX

__all__ = ["ALWAYS_SUBSCRIBED", "SubscriptionBook", "check_event_name", "world_key"]

# What every connection subscribes to by itself (the kinds marked ``always``).
ALWAYS_SUBSCRIBED: frozenset[str] = frozenset(n for n, k in GAME_EVENTS.items() if k.always)


def world_key(host: str | None, peer: str) -> str | None:
    """The key of a connection's world (its host player, its address without the port), or
    None while its host is not known yet."""
    if not host:
        return None
    address, _, _port = peer.rpartition(":")
    return f"{host}@{address or peer}"


def check_event_name(name: object, *, unknown_ok: bool = False) -> str:
    """``name`` if it names a known event, or any well-formed name with ``unknown_ok``.

    Raises:
        TypeError: ``name`` is not a string.
        UnknownEvent: no event is called so (the message lists the known ones).
        ValueError: an ``unknown_ok`` name that cannot be an event name (empty, too long,
            not letters and digits).
    """
    if not isinstance(name, str):
        raise wrong_type("an event is named by a string such as 'BlockBroken'", name)
    if event_kind(name) is not None:
        return name
    if not unknown_ok:
        raise UnknownEvent(unknown_event_message(name))
    if not name or len(name) > EVENT_NAME_MAX_CHARS or not name.isascii() or not name.isalnum():
        raise ValueError(
            f"an event name is 1-{EVENT_NAME_MAX_CHARS} ASCII letters and digits, as the "
            f"game's are (BlockBroken), not {name!r}"
        )
    return name


class SubscriptionBook:
    """The event names wanted everywhere and by each world (at most
    ``EVENT_SUBSCRIPTIONS_MAX`` names in each set)."""

    def __init__(self) -> None:
        self.everywhere: set[str] = set()
        self.by_world: dict[str, set[str]] = {}
        # Names outside the vocabulary someone asked for: their events are kept.
        self.unknown_ok: set[str] = set()

    def wanted(self, key: str | None, own: Iterable[str] = ()) -> set[str]:
        """What a connection of world ``key`` wants (``own``: names wanted by that one
        connection before its world was known)."""
        chosen = set(ALWAYS_SUBSCRIBED) | self.everywhere | set(own)
        if key is not None:
            chosen |= self.by_world.get(key, set())
        return chosen

    def add(self, name: str, key: str | None, *, everywhere: bool, unknown_ok: bool) -> None:
        """Want ``name`` everywhere, or in world ``key``'s connections."""
        if unknown_ok and event_kind(name) is None:
            self.unknown_ok.add(name)
        if everywhere:
            _bounded_add(self.everywhere, name)
        elif key is not None:
            _bounded_add(self.by_world.setdefault(key, set()), name)

    def remove(self, name: str, key: str | None, *, everywhere: bool) -> None:
        """Stop wanting ``name`` everywhere (and in every world), or in world ``key``."""
        if everywhere:
            self.everywhere.discard(name)
            for names in self.by_world.values():
                names.discard(name)
        elif key is not None:
            self.by_world.get(key, set()).discard(name)


def _bounded_add(names: set[str], name: str) -> None:
    if name not in names and len(names) >= EVENT_SUBSCRIPTIONS_MAX:
        raise ValueError(
            f"at most {EVENT_SUBSCRIPTIONS_MAX} events can be subscribed to at once; "
            "unsubscribe from one first"
        )
    names.add(name)
