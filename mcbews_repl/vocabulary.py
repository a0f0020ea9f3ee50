"""The words every layer shares, each defined once: event kinds, capabilities, chat types.

* :class:`EventKind`: what an event-log entry records (``LogEntry.kind``), with where it
  comes from, what it means and the fields its ``data`` holds. docs/gateway.md's table of
  kinds is checked against it (``tests/test_vocabulary.py``). A new kind is one member:
  its value, origin, meaning and fields, nothing else to change in the code.
* :class:`Capability`: the capabilities the shipped addon answers, in the order its
  ``list_capabilities`` reports them (``addon/src/capabilities/index.ts``, checked).
* :class:`ChatType`: the ``type`` of a game's ``PlayerMessage`` event (docs/protocol.md).

The game's own events (BlockBroken, PlayerTravelled ...: their names, sources, fields and
typed dataclasses) are a vocabulary of their own, in :mod:`mcbews_repl.game_events`; each
one the bridge keeps is logged as an entry of kind :attr:`EventKind.GAME_EVENT`.

Every word is a :class:`enum.StrEnum` member, so it is equal to its string, is written to
JSON and to captures as that string, and a string read back from a capture compares equal
to it. Its ``repr`` is the string's own, so an entry reads ``kind='chat'`` wherever it is
shown. Standard library only: the protocol core may import it.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Self

__all__ = [
    "CALL_KINDS",
    "CHAT_KINDS",
    "SPOKEN_CHAT_TYPES",
    "Capability",
    "ChatType",
    "EventKind",
    "Origin",
]


class _Word(StrEnum):
    """A shared word: the string itself, and a one-line meaning for docs and completion."""

    meaning: str

    def __new__(cls, value: str, meaning: str = "") -> Self:
        word = str.__new__(cls, value)
        word._value_ = value
        word.meaning = meaning
        return word

    def __repr__(self) -> str:
        return repr(self._value_)  # shown as the word it is: kind='chat', not the class


@unique
class Origin(_Word):
    """Where an event-log entry comes from."""

    BRIDGE = "bridge", "the bridge itself: its server, its callbacks"
    CONNECTION = "connection", "a game connection's own doing: its life and its calls"
    GAME = "game", "an event the game sent"
    ADDON = "addon", "a message the addon sent"


@unique
class EventKind(_Word):
    """What an event-log entry records: ``LogEntry.kind``.

    Each kind carries its ``origin``, its ``meaning`` (one line) and the ``fields`` its
    entries' ``data`` may hold (besides ``truncated``, which any entry may gain). A member
    is written ``value, origin, meaning, "field field ..."``.
    """

    origin: Origin
    fields: tuple[str, ...]

    def __new__(
        cls, value: str, origin: Origin = Origin.CONNECTION, meaning: str = "", fields: str = ""
    ) -> Self:
        kind = str.__new__(cls, value)
        kind._value_ = value
        kind.origin = origin
        kind.meaning = meaning
        kind.fields = tuple(fields.split())
        return kind

    CONNECTED = "connected", Origin.BRIDGE, "a game connected", "peer subprotocol"
    DISCONNECTED = (
        "disconnected",
        Origin.CONNECTION,
        "a game went away; what was pending failed",
        "peer failed_pending cause",
    )
    ENCRYPTED = "encrypted", Origin.CONNECTION, "ws:encrypt was agreed", "form mode"
    ENCRYPTION_FAILED = (
        "encryption_failed",
        Origin.CONNECTION,
        "the encryption handshake failed; the connection closed",
        "error",
    )
    REFUSED = (
        "refused",
        Origin.BRIDGE,
        "a connection was refused (or a run of refusals, summed up)",
        "reason peer limit count addresses",
    )
    CHAT = (
        "chat",
        Origin.GAME,
        "a chat line the game reported (PlayerMessage; is_echo: our own say or tellraw;"
        " `type` `title` for a /title shown, not said)",
        "sender message type is_echo",
    )
    GAME_EVENT = (
        "game_event",
        Origin.GAME,
        "a game event subscribed to (BlockBroken ...: mcbews_repl/game_events.py), its fields",
        "event properties",
    )
    UI_CHAT = (
        "ui_chat",
        Origin.ADDON,
        "a player wrote in the addon's panel",
        "player message conversation_id",
    )
    COMMAND = (
        "command",
        Origin.CONNECTION,
        "a command() ended: the game's status, or the error (calls and texts add none)",
        "command status_code status_message error elapsed",
    )
    CAPABILITY = (
        "capability",
        Origin.CONNECTION,
        "a call ended: ok, failed (with the addon's code and message), timeout, cancelled, error",
        "capability request_id outcome elapsed transport code message",
    )
    TRANSPORT = (
        "transport",
        Origin.CONNECTION,
        "the way answers travel was chosen, with what each probe showed",
        "transport verdicts",
    )
    TEXT = (
        "text",
        Origin.CONNECTION,
        "a text was sent to a player's panel",
        "player role frames chars elapsed",
    )
    REJECTED = (
        "rejected",
        Origin.CONNECTION,
        "input from the game was dropped: why, and how large it was",
        "reason detail message_id frame_bytes",
    )
    EXPIRED = (
        "expired",
        Origin.CONNECTION,
        "a partial message was dropped at its deadline",
        "channel message_id received total",
    )
    CALLBACK_ERROR = (
        "callback_error",
        Origin.BRIDGE,
        "a UI chat callback raised",
        "callback error traceback",
    )


# The kinds that hold what players wrote (chat relays, context, webhooks listen to these).
CHAT_KINDS: tuple[EventKind, ...] = (EventKind.CHAT, EventKind.UI_CHAT)
# The kinds of a connection's call outcomes, as observers see them (gateway/observer.py):
# the three calls, and a UI chat message handed to the callbacks.
CALL_KINDS: tuple[EventKind, ...] = (
    EventKind.COMMAND,
    EventKind.CAPABILITY,
    EventKind.TEXT,
    EventKind.UI_CHAT,
)


@unique
class Capability(_Word):
    """The capabilities the shipped addon answers, in ``list_capabilities``' order."""

    GET_PLAYER_SNAPSHOT = "get_player_snapshot", "players' position, health, game mode, tags"
    GET_INVENTORY_SNAPSHOT = "get_inventory_snapshot", "players' inventory slots and equipment"
    RUN_WORLD_COMMAND = "run_world_command", "one command run inside the world, within policy"
    DESCRIBE_ENTITIES = "describe_entities", "type id and name tag of entities by id"
    GET_BLOCKS = "get_blocks", "the blocks of a box, as a palette and runs"
    SET_BLOCKS = "set_blocks", "write a box of blocks given as a palette and runs"
    SUBSCRIBE_EVENTS = (
        "subscribe_events",
        "which world.afterEvents the addon forwards for every player, each with its rate",
    )
    GET_WORLD_SPAWN = "get_world_spawn", "the world's default spawn, whether its height is fixed"
    LIST_CAPABILITIES = "list_capabilities", "every capability the addon holds, with its params"


@unique
class ChatType(_Word):
    """The ``type`` of a ``PlayerMessage`` event (docs/protocol.md, the game's frames)."""

    CHAT = "chat", "a line a player typed in chat (also the type when a frame names none)"
    TELL = "tell", "a whisper (tell, msg, w) or a tellraw's raw JSON"
    SAY = "say", "a /say announcement"
    ME = "me", "a /me action"
    TITLE = "title", "a /title text"
    WHISPER = "whisper", "a whisper by this name: in no capture, kept should a game send it"


# Chat types whose text a person wrote: a capture's redaction replaces it (capture/redact.py).
SPOKEN_CHAT_TYPES = frozenset(
    {ChatType.CHAT, ChatType.TELL, ChatType.WHISPER, ChatType.ME, ChatType.SAY}
)
