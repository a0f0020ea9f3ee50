"""Everything the sans-I/O core reports, as frozen dataclasses and one union alias.

Game-level events come from decoding a frame; bridge-level events come from the
connection object once chunks are reassembled. Remote misbehaviour is an event
(:class:`FrameRejected`), never an exception.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game_events import GameEvent as TypedGameEvent

__all__ = [
    "BridgeEvent",
    "BufferExpired",
    "CapabilityFailed",
    "CapabilityResult",
    "ChatMessage",
    "CommandResponse",
    "ForwardedBatch",
    "FrameRejected",
    "GameError",
    "GameEvent",
    "GameEventReceived",
    "OtherEvent",
    "RequestExpired",
    "UiChatMessage",
    "UnknownFrame",
]


@dataclass(frozen=True, slots=True)
class CommandResponse:
    """``commandResponse``: the game ran (or refused) a command. Negative status = failure."""

    request_id: str
    status_code: int
    status_message: str
    body: dict[str, Any] = field(repr=False)

    @property
    def ok(self) -> bool:
        """True when the game reported success (a status code of 0 or more)."""
        return self.status_code >= 0


@dataclass(frozen=True, slots=True)
class GameError:
    """``error`` frame: a protocol-level refusal (queue full, encryption required ...)."""

    request_id: str
    status_code: int
    status_message: str
    body: dict[str, Any] = field(repr=False)


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A PlayerMessage event. ``is_echo`` marks our own say/tellraw coming back. ``type`` is
    the game's word (a ``ChatType`` when it is one we know, kept as sent when not)."""

    sender: str
    message: str
    type: str
    receiver: str
    is_echo: bool
    legacy_shape: bool
    protocol_version: int | None


@dataclass(frozen=True, slots=True)
class GameEventReceived:
    """A known game event other than PlayerMessage, decoded into its typed event
    (``mcbews_repl.game_events``); the bridge keeps it only if it subscribed to it."""

    event: TypedGameEvent
    protocol_version: int | None = None

    @property
    def event_name(self) -> str:
        """The game's name of the event (``BlockBroken``)."""
        return self.event.name


@dataclass(frozen=True, slots=True)
class OtherEvent:
    """Any other ``event`` frame (an event we did not subscribe to, or a new one)."""

    event_name: str
    body: dict[str, Any] = field(repr=False)
    protocol_version: int | None = None


@dataclass(frozen=True, slots=True)
class UnknownFrame:
    """A well-formed frame with a purpose we do not handle (e.g. ``ws:encrypt``)."""

    purpose: str
    request_id: str | None
    header: dict[str, Any] = field(repr=False)
    body: dict[str, Any] = field(repr=False)


@dataclass(frozen=True, slots=True)
class FrameRejected:
    """Input dropped on purpose; ``reason`` is a stable code, ``detail`` is for humans."""

    reason: str
    detail: str = ""
    message_id: str | None = None


@dataclass(frozen=True, slots=True)
class CapabilityResult:
    """The addon answered a capability request with ``ok: true``; ``result`` is its data."""

    request_id: str
    capability: str
    result: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CapabilityFailed:
    """The addon said ``ok: false`` or its answer could not be understood."""

    request_id: str
    capability: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class UiChatMessage:
    """A player typed into the addon's UI panel."""

    message_id: str
    player: str
    message: str
    conversation_id: str | None = None


@dataclass(frozen=True, slots=True)
class RequestExpired:
    """A capability request passed its deadline without a complete answer."""

    request_id: str
    capability: str
    chunks_received: int


@dataclass(frozen=True, slots=True)
class ForwardedBatch:
    """One tick's events forwarded by the addon (sansio/forwarded.py): the tick, the typed
    events in order, what the addon dropped since its previous batch (kind, count), and how
    many of this batch's events were left out unread (with the first one's reason); ``size``:
    its JSON text's UTF-8 bytes."""

    message_id: str
    tick: int
    events: tuple[TypedGameEvent, ...]
    dropped: tuple[tuple[str, int], ...] = ()
    refused: int = 0
    refused_detail: str = ""
    size: int = 0


@dataclass(frozen=True, slots=True)
class BufferExpired:
    """A partial message was dropped when its buffer outlived the TTL."""

    channel: str
    message_id: str
    received: int
    total: int


GameEvent = (
    CommandResponse
    | GameError
    | ChatMessage
    | GameEventReceived
    | OtherEvent
    | UnknownFrame
    | FrameRejected
)
BridgeEvent = (
    GameEvent
    | CapabilityResult
    | CapabilityFailed
    | UiChatMessage
    | ForwardedBatch
    | RequestExpired
    | BufferExpired
)
