"""Watching game connections: every frame both ways, and how every call ended.

A recorder (``mcbews_repl.capture``) or a test registers an :class:`Observer` with
``Bridge.observe()``; each game connection then reports to it, synchronously, on the
bridge's event loop: every frame it sends (before the session cipher seals it) and every
frame it receives (after the cipher opened it), the encryption handshake's included, and
the outcome of each ``command``, ``call`` and ``send_text`` and each UI chat message
delivered. An observer must be quick and must not block; one that raises is logged and
never disturbs the connection. With no observer registered the hooks cost one check.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from ..exceptions import CapabilityError, McbewsError
from ..sansio import UiChatMessage
from ..vocabulary import EventKind
from .results import CommandResult

# The GameConnection a frame or an outcome belongs to. Observers are handed it and only
# pass it on or read it, so this module names it without importing connection.py, which
# imports this one (tests/test_architecture.py forbids circles, type-only ones too).
Watched = Any

__all__ = [
    "Direction",
    "Observer",
    "Observers",
    "Outcome",
    "command_reply",
    "failure",
    "ui_chat_outcome",
    "watched",
]

_T = TypeVar("_T")

_log = logging.getLogger("mcbews_repl.gateway")

Direction = Literal["in", "out"]  # "in": from the game; "out": to the game
# The kinds of CALL_KINDS (vocabulary.py), as a type.
OutcomeKind = Literal[EventKind.COMMAND, EventKind.CAPABILITY, EventKind.TEXT, EventKind.UI_CHAT]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one call ended: what was asked, what came back (``{"error": ...}`` if it failed).

    ``started`` is the wall-clock time the call began (``time.time()``); ``elapsed`` its
    duration in seconds. A UI chat message has an empty ``request``: nothing asked for it.
    """

    kind: OutcomeKind
    request: dict[str, Any]
    result: dict[str, Any]
    started: float
    elapsed: float


class Observer(Protocol):
    """What a connection reports to; both methods run on the bridge's event loop."""

    def frame(self, connection: Watched, direction: Direction, data: str | bytes) -> None:
        """One frame, as plaintext (bytes only when it was binary and not encrypted)."""

    def outcome(self, connection: Watched, outcome: Outcome) -> None:
        """One call finished (or one UI chat message was delivered)."""


def failure(exc: BaseException) -> dict[str, Any]:
    """An error as an outcome's result: its type, message and, for the addon's, its code."""
    result: dict[str, Any] = {"error": type(exc).__name__, "message": str(exc)}
    if isinstance(exc, CapabilityError):
        result["code"] = exc.code
        result["message"] = exc.message
    return result


class Observers:
    """A bridge's observers, shared by its connections; a failing observer is logged.

    ``active`` says whether any is registered: an attribute, so the check every frame and
    every call makes costs no call of its own."""

    def __init__(self) -> None:
        self._items: list[Observer] = []
        self.active = False

    def __bool__(self) -> bool:
        return self.active

    def __len__(self) -> int:
        return len(self._items)

    def add(self, observer: Observer) -> None:
        """Report to ``observer`` from now on (once, however often it is added)."""
        if observer not in self._items:
            self._items.append(observer)
        self.active = True

    def remove(self, observer: Observer) -> None:
        """Stop reporting to ``observer`` (no error if it was not registered)."""
        if observer in self._items:
            self._items.remove(observer)
        self.active = bool(self._items)

    def frame(self, connection: Watched, direction: Direction, data: str | bytes) -> None:
        """Report one frame to every observer; one that raises is logged and skipped."""
        for observer in list(self._items):
            try:
                observer.frame(connection, direction, data)
            except Exception:  # an observer's bug must not cost the game its connection
                _log.exception("observer %r failed on a frame", observer)

    def outcome(self, connection: Watched, outcome: Outcome) -> None:
        """Report one finished call to every observer; one that raises is logged."""
        for observer in list(self._items):
            try:
                observer.outcome(connection, outcome)
            except Exception:
                _log.exception("observer %r failed on an outcome", observer)


def command_reply(result: CommandResult) -> dict[str, Any]:
    """A command's outcome: the game's status and body (not the time it took)."""
    return {
        "status_code": result.status_code,
        "status_message": result.status_message,
        "body": result.body,
    }


def ui_chat_outcome(event: UiChatMessage) -> Outcome:
    """A UI chat message as an outcome for the observers (a capture records it)."""
    message = {
        "player": event.player,
        "message": event.message,
        "conversation_id": event.conversation_id,
        "message_id": event.message_id,
    }
    return Outcome(EventKind.UI_CHAT, {}, message, time.time(), 0.0)


async def watched(
    observers: Observers,
    connection: Watched,
    kind: OutcomeKind,
    request: dict[str, Any],
    work: Awaitable[_T],
    describe: Callable[[_T], dict[str, Any]],
) -> _T:
    """Await ``work`` and tell ``observers`` how it ended, our own errors included (a
    caller's misuse, such as a bad argument, is not an outcome: nothing was sent)."""
    if not observers.active:
        return await work
    started, start = time.time(), time.monotonic()
    try:
        value = await work
    except McbewsError as exc:
        ended = Outcome(kind, request, failure(exc), started, time.monotonic() - start)
        observers.outcome(connection, ended)
        raise
    ended = Outcome(kind, request, describe(value), started, time.monotonic() - start)
    observers.outcome(connection, ended)
    return value
