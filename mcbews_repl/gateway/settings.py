"""The gateway's tunable numbers, in one frozen object checked when it is made.

Defaults come from the wire manifest (``sansio.wire``) where the game or the addon sets the
number, and from ``mcbews_repl.limits`` (each bound with its reason) for our own choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .. import limits
from ..sansio import (
    DEFAULT_TIMEOUT_SECONDS,
    MAX_FRAME_BYTES,
    MAX_IN_FLIGHT_COMMANDS,
    TEXT_FRAME_INTERVAL_SECONDS,
    TEXT_PRELUDE_SECONDS,
)

__all__ = ["EncryptPolicy", "Settings", "TransportMode"]

# serve(encrypt=...): "auto" encrypts whenever the game offers the wsencrypt subprotocol,
# True refuses games that cannot, False never encrypts (docs/encryption.md).
EncryptPolicy = bool | Literal["auto"]
_ENCRYPTION_MODES = ("cfb8", "cfb")  # mcpews 4.0.1's modes; "cfb8" is what the game asks for
_HANDSHAKE_FORMS = ("auto", "ws:encrypt", "command")
# serve(transport=...): "auto" probes the ways answers can travel and prefers pull
# (docs/protocol.md); "pull", "chat" or "tags" skips the probe and uses that one.
TransportMode = Literal["auto", "pull", "chat", "tags"]
_TRANSPORTS = ("auto", "pull", "chat", "tags")

# Buffers live 30 s (wire.json); sweeping once a second keeps them within 3 % of that.
_EXPIRE_INTERVAL_SECONDS = 1.0
# Long enough to hold the truncation marker with text on both sides of it.
_MIN_LOG_TEXT_CHARS = 256
_AT_LEAST_ONE = (
    "log_capacity",
    "log_max_bytes",
    "log_connection_max_bytes",
    "max_connections",
    "ui_chat_in_flight",
    "handshake_failure_burst",
    "handshake_failure_burst_all",
    "max_connections_per_address",
    "max_half_open",
    "max_half_open_per_address",
)
_POSITIVE = (
    "command_timeout",
    "call_timeout",
    "handshake_timeout",
    "expire_interval",
    "handshake_max_delay",
    "handshake_failures_per_second",
    "handshake_failures_per_second_all",
    "request_timeout",
    "probe_timeout",
    "poll_interval",
)


@dataclass(frozen=True, slots=True)
class Settings:
    """Options of :func:`mcbews_repl.serve`; pass any of them as keyword arguments."""

    max_in_flight: int = MAX_IN_FLIGHT_COMMANDS
    queue_limit: int = limits.QUEUE_LIMIT
    command_timeout: float = limits.COMMAND_TIMEOUT_SECONDS
    call_timeout: float = DEFAULT_TIMEOUT_SECONDS
    handshake_timeout: float = limits.HANDSHAKE_TIMEOUT_SECONDS
    text_prelude: float = TEXT_PRELUDE_SECONDS
    text_interval: float = TEXT_FRAME_INTERVAL_SECONDS
    log_capacity: int = limits.LOG_CAPACITY_ENTRIES
    log_max_bytes: int = limits.LOG_MAX_BYTES
    log_connection_max_bytes: int = limits.LOG_CONNECTION_MAX_BYTES
    log_text_chars: int = limits.LOG_TEXT_CHARS
    expire_interval: float = _EXPIRE_INTERVAL_SECONDS
    max_frame_bytes: int = MAX_FRAME_BYTES
    max_connections: int = limits.MAX_CONNECTIONS
    ui_chat_in_flight: int = limits.UI_CHAT_IN_FLIGHT
    ui_chat_backlog: int = limits.UI_CHAT_BACKLOG
    ui_chat_backlog_bytes: int = limits.UI_CHAT_BACKLOG_BYTES
    handshake_failure_burst: int = limits.HANDSHAKE_FAILURE_BURST
    handshake_failures_per_second: float = limits.HANDSHAKE_FAILURES_PER_SECOND
    handshake_max_delay: float = limits.HANDSHAKE_MAX_DELAY_SECONDS
    handshake_failure_burst_all: int = limits.HANDSHAKE_FAILURE_BURST_ALL
    handshake_failures_per_second_all: float = limits.HANDSHAKE_FAILURES_PER_SECOND_ALL
    proven_address_ttl: float = limits.PROVEN_ADDRESS_TTL_SECONDS
    max_connections_per_address: int = limits.MAX_CONNECTIONS_PER_ADDRESS
    max_half_open: int = limits.MAX_HALF_OPEN
    max_half_open_per_address: int = limits.MAX_HALF_OPEN_PER_ADDRESS
    request_timeout: float = limits.REQUEST_TIMEOUT_SECONDS
    encrypt: EncryptPolicy = "auto"
    encryption_mode: Literal["cfb8", "cfb"] = "cfb8"
    encryption_handshake: Literal["auto", "ws:encrypt", "command"] = "auto"
    transport: TransportMode = "auto"
    probe_timeout: float = limits.PROBE_TIMEOUT_SECONDS
    poll_interval: float = limits.POLL_INTERVAL_SECONDS

    def __post_init__(self) -> None:
        if not 1 <= self.max_in_flight <= MAX_IN_FLIGHT_COMMANDS:
            raise ValueError(
                f"max_in_flight must be 1..{MAX_IN_FLIGHT_COMMANDS} (the game refuses the "
                f"{MAX_IN_FLIGHT_COMMANDS + 1}st command in flight), not {self.max_in_flight}"
            )
        if min(self.queue_limit, self.ui_chat_backlog, self.ui_chat_backlog_bytes) < 0:
            raise ValueError("queue_limit, ui_chat_backlog and ui_chat_backlog_bytes must be >= 0")
        for name in _AT_LEAST_ONE:
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, not {getattr(self, name)}")
        for name in _POSITIVE:
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number, not {getattr(self, name)}")
        if self.text_prelude < 0 or self.text_interval < 0:
            raise ValueError("text_prelude and text_interval must be >= 0 seconds")
        if self.proven_address_ttl < 0:
            raise ValueError("proven_address_ttl must be >= 0 seconds (0: remember none)")
        if self.max_frame_bytes < 1024:
            raise ValueError("max_frame_bytes below 1 KiB would drop ordinary game frames")
        self._check_log()
        self._check_encryption()
        if self.transport not in _TRANSPORTS:
            raise ValueError(f"transport must be one of {_TRANSPORTS}, not {self.transport!r}")

    def _check_log(self) -> None:
        if self.log_text_chars < _MIN_LOG_TEXT_CHARS:
            raise ValueError(
                f"log_text_chars must be at least {_MIN_LOG_TEXT_CHARS} (room for the "
                "truncation marker and some text)"
            )
        if self.log_connection_max_bytes > self.log_max_bytes:
            raise ValueError("log_connection_max_bytes cannot exceed log_max_bytes")

    def _check_encryption(self) -> None:
        if self.encrypt not in (True, False, "auto"):
            raise ValueError(f"encrypt must be True, False or 'auto', not {self.encrypt!r}")
        if self.encryption_mode not in _ENCRYPTION_MODES:
            raise ValueError(f"encryption_mode must be one of {_ENCRYPTION_MODES}")
        if self.encryption_handshake not in _HANDSHAKE_FORMS:
            raise ValueError(f"encryption_handshake must be one of {_HANDSHAKE_FORMS}")
