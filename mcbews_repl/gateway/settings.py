"""The gateway's tunable numbers, in one frozen object checked when it is made.

Defaults come from the wire manifest (``sansio.wire``) where the game or the addon sets the
number, and are our own choices (said so beside them) everywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..sansio.wire import (
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
# serve(transport=...): "auto" probes both ways answers can travel and prefers pull
# (docs/protocol.md); "pull" or "chat" skips the probe and uses that one.
TransportMode = Literal["auto", "pull", "chat"]
_TRANSPORTS = ("auto", "pull", "chat")

# Our choice: a command the game has not answered in 10 s is lost (real answers take ms).
_COMMAND_TIMEOUT_SECONDS = 10.0
# Our choice: enough queued commands for any script; beyond this a caller is misbehaving.
_QUEUE_LIMIT = 10_000
# Issue 3: "a bounded ring buffer (e.g. 10,000)" of event log entries.
_LOG_CAPACITY = 10_000
# Buffers live 30 s (wire.json); sweeping once a second keeps them within 3 % of that.
_EXPIRE_INTERVAL_SECONDS = 1.0
# Our choice: the handshake's getlocalplayername must not hold wait_connected() for long.
_HANDSHAKE_TIMEOUT_SECONDS = 5.0
# Our choice: a transport probe (list_capabilities) answers within a few ticks when its way
# works; 3 s is generous, and it is what a world without the addon adds to wait_connected().
_PROBE_TIMEOUT_SECONDS = 3.0
# Our choice: UI chat polls four times a second while a connection pulls (4 commands/s at
# idle); a message waits at most a quarter second plus a tick for its first page.
_POLL_INTERVAL_SECONDS = 0.25


@dataclass(frozen=True, slots=True)
class Settings:
    """Options of :func:`mcbews_repl.serve`; pass any of them as keyword arguments."""

    max_in_flight: int = MAX_IN_FLIGHT_COMMANDS
    queue_limit: int = _QUEUE_LIMIT
    command_timeout: float = _COMMAND_TIMEOUT_SECONDS
    call_timeout: float = DEFAULT_TIMEOUT_SECONDS
    handshake_timeout: float = _HANDSHAKE_TIMEOUT_SECONDS
    text_prelude: float = TEXT_PRELUDE_SECONDS
    text_interval: float = TEXT_FRAME_INTERVAL_SECONDS
    log_capacity: int = _LOG_CAPACITY
    expire_interval: float = _EXPIRE_INTERVAL_SECONDS
    max_frame_bytes: int = MAX_FRAME_BYTES
    encrypt: EncryptPolicy = "auto"
    encryption_mode: Literal["cfb8", "cfb"] = "cfb8"
    encryption_handshake: Literal["auto", "ws:encrypt", "command"] = "auto"
    transport: TransportMode = "auto"
    probe_timeout: float = _PROBE_TIMEOUT_SECONDS
    poll_interval: float = _POLL_INTERVAL_SECONDS

    def __post_init__(self) -> None:
        if not 1 <= self.max_in_flight <= MAX_IN_FLIGHT_COMMANDS:
            raise ValueError(
                f"max_in_flight must be 1..{MAX_IN_FLIGHT_COMMANDS} (the game refuses the "
                f"{MAX_IN_FLIGHT_COMMANDS + 1}st command in flight), not {self.max_in_flight}"
            )
        if self.queue_limit < 0 or self.log_capacity < 1:
            raise ValueError("queue_limit must be >= 0 and log_capacity >= 1")
        timeouts = ("command_timeout", "call_timeout", "handshake_timeout", "expire_interval")
        for name in (*timeouts, "probe_timeout", "poll_interval"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be a positive number of seconds")
        if self.text_prelude < 0 or self.text_interval < 0:
            raise ValueError("text_prelude and text_interval must be >= 0 seconds")
        if self.max_frame_bytes < 1024:
            raise ValueError("max_frame_bytes below 1 KiB would drop ordinary game frames")
        self._check_encryption()
        if self.transport not in _TRANSPORTS:
            raise ValueError(f"transport must be one of {_TRANSPORTS}, not {self.transport!r}")

    def _check_encryption(self) -> None:
        if self.encrypt not in (True, False, "auto"):
            raise ValueError(f"encrypt must be True, False or 'auto', not {self.encrypt!r}")
        if self.encryption_mode not in _ENCRYPTION_MODES:
            raise ValueError(f"encryption_mode must be one of {_ENCRYPTION_MODES}")
        if self.encryption_handshake not in _HANDSHAKE_FORMS:
            raise ValueError(f"encryption_handshake must be one of {_HANDSHAKE_FORMS}")
