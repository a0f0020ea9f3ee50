"""A game connection's states and its ``ws:encrypt`` negotiation, without sockets or clocks.

Like websockets' ``Protocol``, a connection is in exactly one :class:`State` and every call
checks it: ``ENCRYPTING`` while the key is agreed (nothing else may be sent: a plaintext
frame sent while the game switches its cipher would race the switch on the game's side),
``OPEN`` while frames flow, ``CLOSED`` for good.

:class:`EncryptHandshake` is the negotiation as events and actions. The caller feeds it the
frames that arrive and does what it returns: :class:`KeyNeeded` (make a fresh key pair and
call :meth:`~EncryptHandshake.request`, which gives the :class:`SendRequest` to write),
:class:`Agreed` (finish the key exchange with the game's key) or :class:`HandshakeFailed`
(close the connection, saying why). ``None`` means the frame is not the answer and goes to
the connection's normal handler. The cryptography and the timeout stay with the caller:
the one needs a third-party package, the other a clock (``gateway/negotiate.py``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from .encrypt import (
    HandshakeForm,
    enable_encryption_command,
    encode_encrypt_request,
    read_encrypt_reply,
)
from .frames import decode_frame, encode_command
from .wire import MAX_FRAME_BYTES

__all__ = [
    "Agreed",
    "EncryptHandshake",
    "HandshakeFailed",
    "HandshakeStep",
    "KeyNeeded",
    "SendRequest",
    "State",
    "handshake_forms",
]


class State(enum.Enum):
    """Where one game connection is in its life."""

    ENCRYPTING = "encrypting"  # the ws:encrypt key is being agreed; nothing else goes out
    OPEN = "open"  # frames flow both ways (encrypted or not)
    CLOSED = "closed"  # the socket is gone; every call fails with NotConnected


@dataclass(frozen=True, slots=True)
class KeyNeeded:
    """Action: make a fresh key pair and salt for ``form`` and pass them to ``request``."""

    form: HandshakeForm


@dataclass(frozen=True, slots=True)
class SendRequest:
    """Action: write ``frame`` (the handshake request in ``form``) to the game."""

    form: HandshakeForm
    request_id: str
    frame: str


@dataclass(frozen=True, slots=True)
class Agreed:
    """Event: the game accepted; complete the exchange with its ``public_key``."""

    form: HandshakeForm
    public_key: str  # base64 DER SubjectPublicKeyInfo
    mode: str


@dataclass(frozen=True, slots=True)
class HandshakeFailed:
    """Event: no session key; ``reason`` says why and what to try."""

    reason: str


HandshakeStep = KeyNeeded | Agreed | HandshakeFailed


def handshake_forms(setting: str) -> tuple[HandshakeForm, ...]:
    """The forms to try, in order, for the ``encryption_handshake`` setting.

    ``"auto"``: the message purpose first; a game that refuses it is an old client that
    only knows the ``enableencryption`` command (docs/protocol.md, "Encryption"). Only a
    refusal moves on: a late answer after a timeout would leave the game on a key the
    bridge had given up on.

    Raises:
        ValueError: ``setting`` is not ``"auto"``, ``"ws:encrypt"`` or ``"command"``.
    """
    if setting == "auto":
        return ("ws:encrypt", "command")
    if setting in ("ws:encrypt", "command"):
        return (setting,)  # type: ignore[return-value]  # narrowed by the test above
    raise ValueError(
        f"encryption_handshake must be 'auto', 'ws:encrypt' or 'command', not {setting!r}"
    )


class EncryptHandshake:
    """One connection's key negotiation: try each form until the game agrees or all fail."""

    def __init__(
        self,
        forms: Sequence[HandshakeForm],
        mode: str = "cfb8",
        *,
        max_frame_bytes: int = MAX_FRAME_BYTES,
    ) -> None:
        if not forms:
            raise ValueError("an encryption handshake needs at least one form to try")
        self.mode = mode
        self._forms = list(forms)
        self._max_frame_bytes = max_frame_bytes
        self._request_id: str | None = None  # the request now awaiting its answer
        self._refusals: list[str] = []
        self.done = False

    @property
    def form(self) -> HandshakeForm:
        """The form being tried now."""
        return self._forms[0]

    def start(self) -> KeyNeeded:
        """The first step: a key pair for the first form."""
        return KeyNeeded(self.form)

    def request(self, public_key_b64: str, salt_b64: str, request_id: str) -> SendRequest:
        """The request frame for the current form, carrying our key and salt.

        Raises:
            RuntimeError: the handshake is already over (agreed or refused).
        """
        if self.done:
            raise RuntimeError("the encryption handshake is already over")
        form = self.form
        if form == "ws:encrypt":
            frame = encode_encrypt_request(request_id, self.mode, public_key_b64, salt_b64)
        else:
            line = enable_encryption_command(public_key_b64, salt_b64, self.mode)
            frame = encode_command(request_id, line)
        self._request_id = request_id
        return SendRequest(form, request_id, frame)

    def receive(self, frame: str) -> HandshakeStep | None:
        """What ``frame`` means for the negotiation; None if it is not the answer."""
        if self._request_id is None or self.done:
            return None
        reply = read_encrypt_reply(decode_frame(frame, self._max_frame_bytes), self._request_id)
        if reply is None:
            return None
        form, self._request_id = self.form, None
        if reply.public_key is not None:
            self.done = True
            return Agreed(form, reply.public_key, self.mode)
        if reply.status_code >= 0:  # an answer without a key is broken, not a "no"
            self.done = True
            return HandshakeFailed(f"the game's {form} answer is unusable: {reply.status_message}")
        self._refusals.append(f"{form}: {reply.status_code} {reply.status_message}")
        self._forms.pop(0)
        if self._forms:
            return KeyNeeded(self.form)
        self.done = True
        return HandshakeFailed("the game refused encryption (" + "; ".join(self._refusals) + ")")

    def timed_out(self, seconds: float) -> HandshakeFailed:
        """The caller's clock ran out: the negotiation ends without a key."""
        self.done = True
        return HandshakeFailed(
            f"the game did not answer the encryption handshake within {seconds:g} s; an old "
            "game may need encryption_handshake='command' (or encrypt=False)"
        )
