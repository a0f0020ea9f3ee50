"""The pure mcbews v1 protocol core: text in, events and text out. Standard library only."""

from __future__ import annotations

from .bridge import encode_capability_request, interpret_bridge_answer, interpret_ui_chat
from .chunks import (
    Channel,
    Chunk,
    ChunkError,
    format_chunk,
    parse_chunk,
    reassemble_chunks,
    split_payload,
)
from .connection import BridgeProtocol, CapabilityRequest, short_id
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
    "FrameRejected",
    "GameError",
    "GameEvent",
    "OtherEvent",
    "Reassembler",
    "RequestExpired",
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
    "interpret_bridge_answer",
    "interpret_ui_chat",
    "parse_chunk",
    "parse_text_frame",
    "reassemble_chunks",
    "short_id",
    "split_payload",
    "split_text",
]
