"""Which game events each connection subscribes to, kept so a reconnect gets them again.

The book holds the names wanted everywhere (every connection, now and later) and the
names wanted by one world, under the world's key: its host player and address, the two
things a reconnect of the same world shares (the REPL's roster matches worlds the same
way). A connection wants PlayerMessage (always: it carries chat and the addon's chat
answers), the names wanted everywhere, and its world's. The book only records; the
connection brings the events to it, each the way its source takes (:func:`by_source`): a
WebSocket event with the game's subscribe and unsubscribe frames (its rate kept by the
gateway, rates.py), an addon event with the addon's ``subscribe_events`` capability (its
rate kept by the addon). Rates are per subscription (:meth:`SubscriptionBook.rates`).

Names are checked against the one vocabulary (mcbews_repl/game_events.py): an unknown one
raises :class:`UnknownEvent` unless asked for with ``unknown_ok=True``, which also lets the
bridge keep that name's events (as ``OtherGameEvent``) when they come.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..exceptions import UnknownEvent, wrong_type
from ..game_events import ADDON_EVENTS, GAME_EVENTS, event_kind, unknown_event_message
from ..limits import EVENT_NAME_MAX_CHARS, EVENT_SUBSCRIPTIONS_MAX
from ..sansio import FORWARD_RATE_MAX_PER_SECOND

__all__ = [
    "ALWAYS_SUBSCRIBED",
    "SubscriptionBook",
    "by_source",
    "check_event_name",
    "check_rate",
    "world_key",
]

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


def by_source(names: Iterable[str]) -> tuple[set[str], set[str]]:
    """``names`` split by how each is subscribed to: the game's WebSocket events (and
    unknown_ok names), and the addon's forwarded ones."""
    chosen = set(names)
    addon = {n for n in chosen if n in ADDON_EVENTS}
    return chosen - addon, addon


def check_rate(name: str, rate: object) -> int:
    """``rate`` if it is one ``name`` can have: a whole number of events a second per player
    (1 to FORWARD_RATE_MAX_PER_SECOND; 0 or None for none, given as 0). The addon keeps an
    addon event's rate, the gateway a WebSocket event's (rates.py); PlayerMessage has none.

    Raises:
        TypeError: ``rate`` is not a whole number.
        ValueError: a rate for PlayerMessage, or out of range.
    """
    if rate is None:
        return 0
    if isinstance(rate, bool) or not isinstance(rate, int):
        raise wrong_type("a rate is a whole number of events a second per player", rate)
    if not 0 <= rate <= FORWARD_RATE_MAX_PER_SECOND:
        raise ValueError(
            f"a rate is 0 (none) to {FORWARD_RATE_MAX_PER_SECOND} events a second per player, "
            f"not {rate}"
        )
    if rate and name in ALWAYS_SUBSCRIBED:
        raise ValueError(f"{name} has no rate: it carries chat and the addon's chat answers")
    return rate


class SubscriptionBook:
    """The event names wanted everywhere and by each world, each with its subscription's
    rate: at most that many a second per player, 0 for none (at most
    ``EVENT_SUBSCRIPTIONS_MAX`` names in each).

    A rate belongs to the subscription it was given with: ``mc.world("Ana").subscribe(
    "item_use", rate=5)`` and ``mc.world("Ben").subscribe("item_use", rate=1)`` keep 5 in
    Ana's world and 1 in Ben's. Subscribing again sets it again, with no rate as none. A
    world's own subscription's rate comes before the one wanted everywhere."""

    def __init__(self) -> None:
        self.everywhere: dict[str, int] = {}
        self.by_world: dict[str, dict[str, int]] = {}
        # Names outside the vocabulary someone asked for: their events are kept.
        self.unknown_ok: set[str] = set()

    def wanted(self, key: str | None, own: Iterable[str] = ()) -> set[str]:
        """What a connection of world ``key`` wants (``own``: names wanted by that one
        connection before its world was known)."""
        chosen = set(ALWAYS_SUBSCRIBED) | set(self.everywhere) | set(own)
        if key is not None:
            chosen |= set(self.by_world.get(key, {}))
        return chosen

    def rates(self, key: str | None, own: Mapping[str, int] | None = None) -> dict[str, int]:
        """The rate of each name a connection of world ``key`` wants that has one (``own``:
        that connection's own subscriptions and their rates, before its world was known)."""
        chosen = {n: r for n, r in self.everywhere.items() if r}
        world = self.by_world.get(key, {}) if key is not None else {}
        for mine in (own or {}, world):
            for name, rate in mine.items():
                if rate:
                    chosen[name] = rate
                else:
                    chosen.pop(name, None)
        return chosen

    def add(
        self,
        name: str,
        key: str | None,
        *,
        everywhere: bool,
        unknown_ok: bool,
        rate: int = 0,
    ) -> None:
        """Want ``name`` everywhere, or in world ``key``'s connections, at most ``rate``
        events a second per player (0: no rate)."""
        if unknown_ok and event_kind(name) is None:
            self.unknown_ok.add(name)
        if everywhere:
            _bounded_add(self.everywhere, name, rate)
        elif key is not None:
            _bounded_add(self.by_world.setdefault(key, {}), name, rate)

    def remove(self, name: str, key: str | None, *, everywhere: bool) -> None:
        """Stop wanting ``name`` everywhere (and in every world), or in world ``key``."""
        if everywhere:
            self.everywhere.pop(name, None)
            for names in self.by_world.values():
                names.pop(name, None)
        elif key is not None:
            self.by_world.get(key, {}).pop(name, None)


def _bounded_add(names: dict[str, int], name: str, rate: int) -> None:
    if name not in names and len(names) >= EVENT_SUBSCRIPTIONS_MAX:
        raise ValueError(
            f"at most {EVENT_SUBSCRIPTIONS_MAX} events can be subscribed to at once; "
            "unsubscribe from one first"
        )
    names[name] = rate
