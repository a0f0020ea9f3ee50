"""The bridge's half of ``ws:encrypt``: key exchange and the session's cipher streams.

docs/encryption.md, "What happens on the wire": ECDH on P-384 (secp384r1) with an ephemeral
key pair per connection, a random 16-byte salt, key = SHA-256(salt ‖ shared secret x), IV =
key[0:16], and AES-256 in CFB8 (or full-block CFB when asked) with *one continuous stream
per direction* for the whole session. Public keys travel as base64 DER SubjectPublicKeyInfo.

No I/O here: :mod:`.negotiate` runs the exchange over the socket. The game's side lives in
``mcbews_repl.sim.wsencrypt``, written separately so one misreading cannot hide another.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from typing import Any, Literal

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, CipherContext, algorithms

from ..exceptions import EncryptionError

try:  # cryptography >= 48 keeps CFB modes here and drops the old path in a later release
    from cryptography.hazmat.decrepit.ciphers import modes as _cfb_modes
except ImportError:  # older releases: only the original location exists
    from cryptography.hazmat.primitives.ciphers import modes as _cfb_modes  # type: ignore[no-redef]

__all__ = [
    "ENCRYPTION_MODES",
    "SALT_BYTES",
    "EncryptionError",
    "EncryptionMode",
    "KeyExchange",
    "SessionCipher",
    "derive_key",
    "load_peer_key",
    "normalize_mode",
    "private_key_from_hex",
]

EncryptionMode = Literal["cfb8", "cfb"]
# mcpews 4.0.1 (protocol.ts EncryptionMode): "cfb8" = aes-256-cfb8, "cfb" = aes-256-cfb
# (128-bit feedback), and "cfb128" is a deprecated alias of "cfb".
ENCRYPTION_MODES: dict[str, EncryptionMode] = {"cfb8": "cfb8", "cfb": "cfb", "cfb128": "cfb"}
SALT_BYTES = 16  # docs/encryption.md: "a random 16-byte salt"; also the AES block size
_IV_BYTES = 16  # IV = key[0:16], one AES block
_CURVE = ec.SECP384R1()


def normalize_mode(mode: str) -> EncryptionMode:
    """``"cfb8"`` or ``"cfb"`` (``"cfb128"`` accepted as its alias); raise otherwise."""
    try:
        return ENCRYPTION_MODES[mode.lower()]
    except (KeyError, AttributeError):
        raise EncryptionError(
            f"unknown encryption mode {mode!r}; expected one of {sorted(ENCRYPTION_MODES)}"
        ) from None


def derive_key(salt: bytes, shared_x: bytes) -> bytes:
    """The session key: SHA-256(salt ‖ x), where x is the ECDH shared point's x coordinate."""
    return hashlib.sha256(salt + shared_x).digest()


def _b64decode(text: Any, what: str) -> bytes:
    if not isinstance(text, str) or not text:
        raise EncryptionError(f"the {what} is missing or not a string")
    padded = text + "=" * (-len(text) % 4)  # some peers send unpadded base64
    try:
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise EncryptionError(f"the {what} is not valid base64 ({exc})") from exc


def load_peer_key(text: Any) -> ec.EllipticCurvePublicKey:
    """The peer's public key from base64 DER SPKI; a clear EncryptionError if unusable."""
    raw = _b64decode(text, "peer's public key")
    try:
        key = serialization.load_der_public_key(raw)
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise EncryptionError(
            f"the peer's public key ({len(raw)} bytes) is not a DER SubjectPublicKeyInfo: "
            "truncated or corrupted"
        ) from exc
    if not isinstance(key, ec.EllipticCurvePublicKey) or key.curve.name != _CURVE.name:
        curve = getattr(getattr(key, "curve", None), "name", type(key).__name__)
        raise EncryptionError(f"the peer's public key is {curve}, not secp384r1 (P-384)")
    return key


class SessionCipher:
    """The two cipher streams of one encrypted session: ``seal`` out, ``open`` in.

    Each direction is one cipher context for the whole session; a frame continues the
    stream where the last one stopped (the game never restarts it per frame).
    """

    def __init__(self, key: bytes, mode: EncryptionMode = "cfb8") -> None:
        self.mode = mode
        self._out = self._stream(key, mode, encrypt=True)
        self._in = self._stream(key, mode, encrypt=False)
        self._opened_any = False  # an encrypted frame came in: plaintext no longer races

    @staticmethod
    def _stream(key: bytes, mode: EncryptionMode, *, encrypt: bool) -> CipherContext:
        iv = key[:_IV_BYTES]
        feedback = _cfb_modes.CFB8(iv) if mode == "cfb8" else _cfb_modes.CFB(iv)
        cipher = Cipher(algorithms.AES(key), feedback)
        return cipher.encryptor() if encrypt else cipher.decryptor()

    def seal(self, text: str) -> bytes:
        """Encrypt one outgoing frame (UTF-8) as the next bytes of the outbound stream."""
        return self._out.update(text.encode("utf-8"))

    def open(self, frame: str | bytes) -> str | None:
        """Decrypt one incoming frame, or None if it must be dropped.

        Encrypted frames are binary. A text frame before the first binary one is a
        plaintext frame the game sent before it switched (it raced our switch): it passes
        as is. A text frame after encrypted ones is not a race but a peer that breaks the
        protocol: None. Undecodable bytes become U+FFFD, so a garbled frame fails JSON
        decoding downstream instead of raising here.
        """
        if isinstance(frame, str):
            return None if self._opened_any else frame
        self._opened_any = True
        return self._in.update(frame).decode("utf-8", "replace")


class KeyExchange:
    """Our ephemeral key pair and salt for one connection, then the session it yields.

    ``private_key`` and ``salt`` are for known-answer tests; leave them out otherwise.
    """

    def __init__(
        self, private_key: ec.EllipticCurvePrivateKey | None = None, salt: bytes | None = None
    ) -> None:
        self._private = private_key or ec.generate_private_key(_CURVE)
        self.salt = os.urandom(SALT_BYTES) if salt is None else salt
        if len(self.salt) != SALT_BYTES:
            raise ValueError(f"the salt must be {SALT_BYTES} bytes, not {len(self.salt)}")
        der = self._private.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        self.public_key_b64 = base64.b64encode(der).decode("ascii")
        self.salt_b64 = base64.b64encode(self.salt).decode("ascii")

    def shared_x(self, peer_public_key_b64: Any) -> bytes:
        """The ECDH shared secret (the x coordinate) with the peer's base64 SPKI key."""
        peer = load_peer_key(peer_public_key_b64)
        try:
            return self._private.exchange(ec.ECDH(), peer)
        except ValueError as exc:  # e.g. a point not on the curve
            raise EncryptionError(f"the peer's public key is unusable: {exc}") from exc

    def complete(self, peer_public_key_b64: Any, mode: str = "cfb8") -> SessionCipher:
        """Finish the exchange with the peer's key; return the session's cipher streams."""
        chosen = normalize_mode(mode)
        return SessionCipher(derive_key(self.salt, self.shared_x(peer_public_key_b64)), chosen)


def private_key_from_hex(scalar_hex: str) -> ec.EllipticCurvePrivateKey:
    """A P-384 private key from its scalar in hex (known-answer tests)."""
    return ec.derive_private_key(int(scalar_hex, 16), _CURVE)
