"""The pure mcbews v1 protocol core: text in, events and text out. Standard library only.

``__all__`` is the core's API (docs/architecture.md, "The API"): the per-connection state
machines, their events, and the codec functions. Helpers the gateway shares with the core
(``short_id``, ``interpret_bridge_answer``, ``interpret_ui_chat``) are imported from
their modules and are not part of it.
"""

from __future__ import annotations

from .bridge import encode_capability_request
from .chunks import (
    Channel,
    Chunk,
    ChunkError,
    format_chunk,
    parse_chunk,
    reassemble_chunks,
    split_payload,
)
from .connection import BridgeProtocol, CapabilityRequest
from .events import (
    BridgeEvent,
    BufferExpired,
    CapabilityFailed,
    CapabilityResult,
    ChatMessage,
    CommandResponse,
    FrameRejected,
    GameError,
    GameEvent,
    OtherEvent,
    RequestExpired,
    UiChatMessage,
    UnknownFrame,
)
from .frames import (
    check_command_line,
    command_frame_bytes,
    decode_frame,
    encode_command,
    encode_subscribe,
)
from .handshake import EncryptHandshake, State
from .reassembly import Reassembler
from .text import (
    TextFrame,
    TextResponse,
    TextResponseReassembler,
    encode_text_response,
    parse_text_frame,
    split_text,
)

__all__ = [
    "BridgeEvent",
    "BridgeProtocol",
    "BufferExpired",
    "CapabilityFailed",
    "CapabilityRequest",
    "CapabilityResult",
    "Channel",
    "ChatMessage",
    "Chunk",
    "ChunkError",
    "CommandResponse",
    "EncryptHandshake",
    "FrameRejected",
    "GameError",
    "GameEvent",
    "OtherEvent",
    "Reassembler",
    "RequestExpired",
    "State",
    "TextFrame",
    "TextResponse",
    "TextResponseReassembler",
    "UiChatMessage",
    "UnknownFrame",
    "check_command_line",
    "command_frame_bytes",
    "decode_frame",
    "encode_capability_request",
    "encode_command",
    "encode_subscribe",
    "encode_text_response",
    "format_chunk",
    "parse_chunk",
    "parse_text_frame",
    "reassemble_chunks",
    "split_payload",
    "split_text",
]
