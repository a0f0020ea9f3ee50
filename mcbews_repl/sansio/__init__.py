"""The pure mcbews v1 protocol core: text in, events and text out. Standard library only.

``__all__`` is the core's API (docs/architecture.md, "The API"): the per-connection state
machines, their events and the codec functions; the pull codec, the ws:encrypt negotiation
and the cancel frame the gateway drives; the wire's names and limits (``wire.json``) the
layers above read. Every other package reaches the core through this face, never a module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from .bridge import (
    MALFORMED_RESPONSE,
    UI_CHAT_MAX_BYTES,
    encode_capability_request,
    interpret_bridge_answer,
    interpret_ui_chat,
)
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
from .encrypt import ENCRYPT_SUBPROTOCOL, HandshakeForm
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
from .handshake import (
    EncryptHandshake,
    HandshakeFailed,
    HandshakeStep,
    KeyNeeded,
    State,
    handshake_forms,
)
from .jsonwire import dumps_wire, utf8_len
from .reassembly import Reassembler
from .text import (
    TextFrame,
    TextResponse,
    TextResponseReassembler,
    encode_text_response,
    parse_text_frame,
    split_text,
)
from .wire import (
    ASK_COMMAND,
    BRIDGE_PLAYER,
    BRIDGE_REQUEST_EVENT,
    BUFFER_TTL_SECONDS,
    CANCEL_EVENT,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    DEFAULT_TIMEOUT_SECONDS,
    EMPTY_REPLY,
    MAX_CHUNKS_PER_MESSAGE,
    MAX_FRAME_BYTES,
    MAX_IN_FLIGHT_COMMANDS,
    MAX_MESSAGE_BYTES,
    NONE_REPLY,
    POLL_COMMAND,
    PULL_COMMAND,
    PULL_PAGE_BYTES,
    PULL_REQUEST_EVENT,
    TEXT_FRAME_INTERVAL_SECONDS,
    TEXT_PRELUDE_SECONDS,
    TEXT_RESPONSE_EVENT,
    UPSTREAM_CHUNK_CODE_POINTS,
)

if TYPE_CHECKING:
    from .cancel import CANCEL_ID, encode_cancel
    from .pull import (
        UI_MAX_PAGES,
        Empty,
        NotKept,
        Page,
        PageKind,
        PageSet,
        PullReply,
        PullRequest,
        ReplyRejected,
        Wait,
        decode_reply,
        encode_poll,
        encode_pull,
        encode_pull_request,
        format_page,
        split_pages,
    )

# The pull codec and the cancel frame serve only the gateway's pull transport: they load when
# first named, so importing the core does not pay for them (the pull codec alone takes ~7 ms).
_LAZY = {
    "UI_MAX_PAGES": ".pull",
    "Empty": ".pull",
    "NotKept": ".pull",
    "Page": ".pull",
    "PageKind": ".pull",
    "PageSet": ".pull",
    "PullReply": ".pull",
    "PullRequest": ".pull",
    "ReplyRejected": ".pull",
    "Wait": ".pull",
    "decode_reply": ".pull",
    "encode_poll": ".pull",
    "encode_pull": ".pull",
    "encode_pull_request": ".pull",
    "format_page": ".pull",
    "split_pages": ".pull",
    "CANCEL_ID": ".cancel",
    "encode_cancel": ".cancel",
}

__all__ = [
    "ASK_COMMAND",
    "BRIDGE_PLAYER",
    "BRIDGE_REQUEST_EVENT",
    "BUFFER_TTL_SECONDS",
    "CANCEL_EVENT",
    "CANCEL_ID",
    "COMMAND_FRAME_BUDGET_BYTES",
    "COMMAND_LINE_BUDGET_BYTES",
    "DEFAULT_TIMEOUT_SECONDS",
    "EMPTY_REPLY",
    "ENCRYPT_SUBPROTOCOL",
    "MALFORMED_RESPONSE",
    "MAX_CHUNKS_PER_MESSAGE",
    "MAX_FRAME_BYTES",
    "MAX_IN_FLIGHT_COMMANDS",
    "MAX_MESSAGE_BYTES",
    "NONE_REPLY",
    "POLL_COMMAND",
    "PULL_COMMAND",
    "PULL_PAGE_BYTES",
    "PULL_REQUEST_EVENT",
    "TEXT_FRAME_INTERVAL_SECONDS",
    "TEXT_PRELUDE_SECONDS",
    "TEXT_RESPONSE_EVENT",
    "UI_CHAT_MAX_BYTES",
    "UI_MAX_PAGES",
    "UPSTREAM_CHUNK_CODE_POINTS",
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
    "Empty",
    "EncryptHandshake",
    "FrameRejected",
    "GameError",
    "GameEvent",
    "HandshakeFailed",
    "HandshakeForm",
    "HandshakeStep",
    "KeyNeeded",
    "NotKept",
    "OtherEvent",
    "Page",
    "PageKind",
    "PageSet",
    "PullReply",
    "PullRequest",
    "Reassembler",
    "ReplyRejected",
    "RequestExpired",
    "State",
    "TextFrame",
    "TextResponse",
    "TextResponseReassembler",
    "UiChatMessage",
    "UnknownFrame",
    "Wait",
    "check_command_line",
    "command_frame_bytes",
    "decode_frame",
    "decode_reply",
    "dumps_wire",
    "encode_cancel",
    "encode_capability_request",
    "encode_command",
    "encode_poll",
    "encode_pull",
    "encode_pull_request",
    "encode_subscribe",
    "encode_text_response",
    "format_chunk",
    "format_page",
    "handshake_forms",
    "interpret_bridge_answer",
    "interpret_ui_chat",
    "parse_chunk",
    "parse_text_frame",
    "reassemble_chunks",
    "short_id",
    "split_pages",
    "split_payload",
    "split_text",
    "utf8_len",
]

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
