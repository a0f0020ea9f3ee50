"""Wire names and limits of mcbews v1, read from the package's ``wire.json``.

``wire.json`` is the one source of truth: every value there carries the place it came
from, and the addon's TypeScript constants are generated from the same file. This module
only gives each value a Python name with its unit in the name.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final

__all__ = [
    "ANSWER_PAGE_MARKER",
    "ANSWER_PAGE_PREFIX",
    "ASK_COMMAND",
    "BRIDGE_PLAYER",
    "BRIDGE_PREFIX",
    "BRIDGE_REQUEST_EVENT",
    "BUFFER_TTL_SECONDS",
    "BULK_EVENT",
    "BULK_MAX_PARTS",
    "BULK_MAX_REQUESTS",
    "BULK_REQUEST_MAX_BYTES",
    "BULK_TTL_SECONDS",
    "BULK_WORLD_MAX_BYTES",
    "CANCEL_EVENT",
    "CANCEL_IDS_KEPT",
    "CHAT_ANSWER_MAX_PAGES",
    "COMMAND_FRAME_BUDGET_BYTES",
    "COMMAND_LINE_BUDGET_BYTES",
    "COMMAND_SYNTAX_VERSION",
    "DEFAULT_TIMEOUT_SECONDS",
    "EMPTY_REPLY",
    "ERROR_CODES",
    "FORWARD_BATCH_MAX_BYTES",
    "FORWARD_BATCH_MAX_EVENTS",
    "FORWARD_BATCH_VERSION",
    "FORWARD_BYTES_PER_SECOND_MAX",
    "FORWARD_EVENTS_PER_SECOND_MAX",
    "FORWARD_RATE_MAX_PER_SECOND",
    "MAX_BUFFERS",
    "MAX_CHUNKS_PER_MESSAGE",
    "MAX_FRAME_BYTES",
    "MAX_IN_FLIGHT_COMMANDS",
    "MAX_MESSAGE_BYTES",
    "MAX_MESSAGE_ID_CHARS",
    "MAX_TOTAL_BYTES",
    "NONE_REPLY",
    "POLL_COMMAND",
    "PULL_ANSWER_MAX_BYTES",
    "PULL_COMMAND",
    "PULL_PAGE_BYTES",
    "PULL_REQUEST_EVENT",
    "PULL_TTL_SECONDS",
    "REQUEST_VERSION",
    "ROOT_PREFIX",
    "SCRIPTEVENT_MESSAGE_MAX_CHARS",
    "TAGS_ACK_EVENT",
    "TAGS_POLL_EVENT",
    "TAGS_REQUEST_EVENT",
    "TAGS_WINDOW_PAGES",
    "TAG_ID_MAX_CHARS",
    "TAG_MAX_CHARS",
    "TAG_PAGE_BYTES",
    "TAG_PAGE_PREFIX",
    "TEXT_FRAME_INTERVAL_SECONDS",
    "TEXT_PRELUDE_SECONDS",
    "TEXT_RESPONSE_EVENT",
    "TEXT_ROLES",
    "UI_CHAT_PREFIX",
    "UI_PAGE_PREFIX",
    "UPSTREAM_CHUNK_CODE_POINTS",
    "WAIT_REPLY",
    "load_manifest",
]


def load_manifest() -> dict[str, Any]:
    """Return the parsed ``wire.json`` (names, limits and where each came from)."""
    text = resources.files("mcbews_repl").joinpath("wire.json").read_text(encoding="utf-8")
    manifest: dict[str, Any] = json.loads(text)
    return manifest


_M = load_manifest()


def _name(key: str) -> str:
    return str(_M["names"][key]["value"])


def _limit(key: str) -> Any:
    return _M["limits"][key]["value"]


# Script event ids and chat prefixes (docs/protocol.md, "Names").
BRIDGE_REQUEST_EVENT: Final[str] = _name("bridge_request_event")
TEXT_RESPONSE_EVENT: Final[str] = _name("text_response_event")
ROOT_PREFIX: Final[str] = _name("root_prefix")
BRIDGE_PREFIX: Final[str] = _name("bridge_prefix")
UI_CHAT_PREFIX: Final[str] = _name("ui_chat_prefix")
BRIDGE_PLAYER: Final[str] = _name("bridge_player")
REQUEST_VERSION: Final[int] = int(_M["request_version"]["value"])
# The pull transport (docs/protocol.md): custom commands down, their results up.
ASK_COMMAND: Final[str] = _name("ask_command")
PULL_COMMAND: Final[str] = _name("pull_command")
POLL_COMMAND: Final[str] = _name("poll_command")
PULL_REQUEST_EVENT: Final[str] = _name("pull_request_event")
ANSWER_PAGE_PREFIX: Final[str] = _name("answer_page_prefix")
UI_PAGE_PREFIX: Final[str] = _name("ui_page_prefix")
WAIT_REPLY: Final[str] = _name("wait_reply")
NONE_REPLY: Final[str] = _name("none_reply")
EMPTY_REPLY: Final[str] = _name("empty_reply")
ANSWER_PAGE_MARKER: Final[str] = _name("answer_page_marker")
CANCEL_EVENT: Final[str] = _name("cancel_event")
# The tags transport (docs/protocol.md): requests as script events, answers as page tags.
TAGS_REQUEST_EVENT: Final[str] = _name("tags_request_event")
TAGS_ACK_EVENT: Final[str] = _name("tags_ack_event")
TAGS_POLL_EVENT: Final[str] = _name("tags_poll_event")
TAG_PAGE_PREFIX: Final[str] = _name("tag_page_prefix")
# Requests bigger than one command (docs/protocol.md): parts over a script event of their own.
BULK_EVENT: Final[str] = _name("bulk_event")
ERROR_CODES: Final[tuple[str, ...]] = tuple(_M["error_codes"]["value"])
TEXT_ROLES: Final[tuple[str, ...]] = tuple(_M["text_roles"]["value"])

# Limits; wire.json says where each number came from.
COMMAND_LINE_BUDGET_BYTES: Final[int] = int(_limit("command_line_budget_bytes"))
COMMAND_FRAME_BUDGET_BYTES: Final[int] = int(_limit("command_frame_budget_bytes"))
UPSTREAM_CHUNK_CODE_POINTS: Final[int] = int(_limit("upstream_chunk_code_points"))
SCRIPTEVENT_MESSAGE_MAX_CHARS: Final[int] = int(_limit("scriptevent_message_max_chars"))
BUFFER_TTL_SECONDS: Final[float] = float(_limit("buffer_ttl_seconds"))
MAX_BUFFERS: Final[int] = int(_limit("max_buffers"))
MAX_CHUNKS_PER_MESSAGE: Final[int] = int(_limit("max_chunks_per_message"))
MAX_MESSAGE_BYTES: Final[int] = int(_limit("max_message_bytes"))
MAX_MESSAGE_ID_CHARS: Final[int] = int(_limit("max_message_id_chars"))
MAX_TOTAL_BYTES: Final[int] = int(_limit("max_total_bytes"))
DEFAULT_TIMEOUT_SECONDS: Final[float] = float(_limit("default_timeout_seconds"))
MAX_IN_FLIGHT_COMMANDS: Final[int] = int(_limit("max_in_flight_commands"))
COMMAND_SYNTAX_VERSION: Final[int] = int(_limit("command_syntax_version"))
MAX_FRAME_BYTES: Final[int] = int(_limit("max_frame_bytes"))
TEXT_PRELUDE_SECONDS: Final[float] = float(_limit("text_prelude_seconds"))
TEXT_FRAME_INTERVAL_SECONDS: Final[float] = float(_limit("text_frame_interval_seconds"))
PULL_PAGE_BYTES: Final[int] = int(_limit("pull_page_bytes"))
PULL_ANSWER_MAX_BYTES: Final[int] = int(_limit("pull_answer_max_bytes"))
PULL_TTL_SECONDS: Final[float] = float(_limit("pull_ttl_seconds"))
CHAT_ANSWER_MAX_PAGES: Final[int] = int(_limit("chat_answer_max_pages"))
CANCEL_IDS_KEPT: Final[int] = int(_limit("cancel_ids_kept"))
TAG_MAX_CHARS: Final[int] = int(_limit("tag_max_chars"))
TAG_PAGE_BYTES: Final[int] = int(_limit("tag_page_bytes"))
TAG_ID_MAX_CHARS: Final[int] = int(_limit("tag_id_max_chars"))
TAGS_WINDOW_PAGES: Final[int] = int(_limit("tags_window_pages"))
BULK_REQUEST_MAX_BYTES: Final[int] = int(_limit("bulk_request_max_bytes"))
BULK_WORLD_MAX_BYTES: Final[int] = int(_limit("bulk_world_max_bytes"))
BULK_MAX_PARTS: Final[int] = int(_limit("bulk_max_parts"))
BULK_MAX_REQUESTS: Final[int] = int(_limit("bulk_max_requests"))
BULK_TTL_SECONDS: Final[float] = float(_limit("bulk_ttl_seconds"))
FORWARD_BATCH_VERSION: Final[int] = int(_limit("forward_batch_version"))
FORWARD_BATCH_MAX_BYTES: Final[int] = int(_limit("forward_batch_max_bytes"))
FORWARD_BATCH_MAX_EVENTS: Final[int] = int(_limit("forward_batch_max_events"))
FORWARD_EVENTS_PER_SECOND_MAX: Final[int] = int(_limit("forward_events_per_second_max"))
FORWARD_BYTES_PER_SECOND_MAX: Final[int] = int(_limit("forward_bytes_per_second_max"))
FORWARD_RATE_MAX_PER_SECOND: Final[int] = int(_limit("forward_rate_max_per_second"))
