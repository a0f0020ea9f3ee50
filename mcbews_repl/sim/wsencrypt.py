"""The game's half of ``ws:encrypt``: answer the server's key, then encrypt the session.

Written from docs/encryption.md, "What happens on the wire", and the npm package mcpews
4.0.1 (its client strips a fixed 23-byte DER prefix to reach the raw P-384 point and adds it
back to send its own), not from the gateway's module, so a misreading on one side shows up
as a failing test instead of agreeing with itself. Both handshake forms end here: the
``ws:encrypt`` purpose and the legacy ``enableencryption "<key>" "<salt>" [mode]``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers import Cipher, CipherContext, algorithms
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from ..exceptions import McbewsError
from .facts import ENCRYPTION_REQUIRED, text

try:  # where cryptography >= 48 keeps the CFB modes; older releases only have the old path
    from cryptography.hazmat.decrepit.ciphers.modes import CFB, CFB8
except ImportError:
    from cryptography.hazmat.primitives.ciphers.modes import CFB, CFB8  # type: ignore[no-redef,unused-ignore]

__all__ = [
    "ENCRYPTION_REQUIRED",
    "ENCRYPTION_REQUIRED_MESSAGE",
    "GameCipher",
    "HandshakeRefused",
    "accept_key_exchange",
    "parse_enable_encryption",
]

# "Require Encrypted Websockets": the game's text (commands.generic.encryption.required) with
# the EncryptionRequired code; their use in the error frame is assumed (facts.json).
ENCRYPTION_REQUIRED_MESSAGE = text("commands.generic.encryption.required")
# DER SubjectPublicKeyInfo header for an uncompressed secp384r1 point (mcpews encrypt.ts).
_SPKI_PREFIX = bytes.fromhex("3076301006072a8648ce3d020106052b81040022036200")
_POINT_BYTES = 97  # 0x04 ‖ x (48 bytes) ‖ y (48 bytes)
_MODES: dict[str, type[CFB] | type[CFB8]] = {
    "cfb8": CFB8,
    "cfb": CFB,
    "cfb128": CFB,
}  # mcpews: "cfb128" is an alias of "cfb"
_COMMAND = re.compile(r'enableencryption\s+"([^"]*)"\s+"([^"]*)"(?:\s+(\S+))?\s*')


class HandshakeRefused(McbewsError, ValueError):
    """The server's half of the handshake is unusable; the game answers with an error."""


@dataclass
class GameCipher:
    """One cipher stream each way, continuous for the whole session."""

    sender: CipherContext
    receiver: CipherContext

    def encrypt(self, text: str) -> bytes:
        """``text`` as the next bytes of the outgoing stream."""
        return self.sender.update(text.encode("utf-8"))

    def decrypt(self, data: bytes) -> str:
        """The next bytes of the incoming stream as text (bad UTF-8 replaced)."""
        return self.receiver.update(data).decode("utf-8", "replace")


def _unb64(value: object, what: str) -> bytes:
    if not isinstance(value, str):
        raise HandshakeRefused(f"{what} is missing")
    try:
        return base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise HandshakeRefused(f"{what} is not base64") from exc


def _server_point(value: object) -> ec.EllipticCurvePublicKey:
    raw = _unb64(value, "publicKey")
    if len(raw) != len(_SPKI_PREFIX) + _POINT_BYTES or not raw.startswith(_SPKI_PREFIX):
        raise HandshakeRefused(f"publicKey is {len(raw)} bytes, not a P-384 SPKI key")
    try:
        return ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP384R1(), raw[len(_SPKI_PREFIX) :]
        )
    except ValueError as exc:
        raise HandshakeRefused("publicKey is not a point on P-384") from exc


def accept_key_exchange(
    public_key: object,
    salt: object,
    mode: object,
    *,
    private_key: ec.EllipticCurvePrivateKey | None = None,
) -> tuple[str, GameCipher]:
    """Our base64 SPKI public key to answer with, and the session's cipher streams.

    A fresh key pair per handshake, as the game makes; ``private_key`` is for
    known-answer tests.

    Raises:
        HandshakeRefused: the mode is not one the game supports, or the salt or the
            bridge's public key is not valid.
    """
    feedback = _MODES.get(mode if isinstance(mode, str) else "")
    if feedback is None:
        raise HandshakeRefused(f"unsupported encryption mode {mode!r}")
    salt_bytes = _unb64(salt, "salt")
    server = _server_point(public_key)
    ours = private_key or ec.generate_private_key(ec.SECP384R1())
    digest = hashlib.sha256()
    digest.update(salt_bytes)
    digest.update(ours.exchange(ec.ECDH(), server))
    key = digest.digest()
    aes = Cipher(algorithms.AES(key), feedback(key[:16]))
    point = ours.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    answer = base64.b64encode(_SPKI_PREFIX + point).decode("ascii")
    return answer, GameCipher(aes.encryptor(), aes.decryptor())


def parse_enable_encryption(line: str) -> tuple[str, str, str] | None:
    """``(public_key, salt, mode)`` of a legacy ``enableencryption`` line, else None."""
    found = _COMMAND.fullmatch(line.strip())
    if found is None:
        return None
    return found[1], found[2], found[3] or "cfb8"
