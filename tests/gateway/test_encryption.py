"""Known answers for ws:encrypt, computed independently with Node's crypto module.

tests/vectors/encryption.json was written once by tests/vectors/make_encryption_vectors.mjs
(never run by the suite). Both halves are checked against it: the gateway's
(``gateway.encryption``) and the simulated game's (``sim.wsencrypt``), which are written
separately, so each is held to Node rather than to the other.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from mcbews_repl.gateway.encryption import (
    EncryptionError,
    KeyExchange,
    derive_key,
    normalize_mode,
    private_key_from_hex,
)
from mcbews_repl.sim.wsencrypt import HandshakeRefused, accept_key_exchange

VECTORS = json.loads(
    (Path(__file__).parent.parent / "vectors" / "encryption.json").read_text(encoding="utf-8")
)
MODES = sorted(VECTORS["modes"])


def server_exchange() -> KeyExchange:
    key = private_key_from_hex(VECTORS["server_private_hex"])
    return KeyExchange(key, base64.b64decode(VECTORS["salt_b64"]))


def game_side(mode: str) -> tuple[str, Any]:
    return accept_key_exchange(
        VECTORS["server_public_key_b64"],
        VECTORS["salt_b64"],
        mode,
        private_key=private_key_from_hex(VECTORS["client_private_hex"]),
    )


def test_vectors_cover_both_modes() -> None:
    assert MODES == ["cfb", "cfb8"]


def test_key_derivation_matches_node() -> None:
    salt = base64.b64decode(VECTORS["salt_b64"])
    key = derive_key(salt, bytes.fromhex(VECTORS["shared_secret_x_hex"]))
    assert key.hex() == VECTORS["key_hex"]
    assert key[:16].hex() == VECTORS["iv_hex"]


def test_server_key_exchange_matches_node() -> None:
    exchange = server_exchange()
    assert exchange.public_key_b64 == VECTORS["server_public_key_b64"]
    assert exchange.salt_b64 == VECTORS["salt_b64"]
    shared = exchange.shared_x(VECTORS["client_public_key_b64"])
    assert shared.hex() == VECTORS["shared_secret_x_hex"]


@pytest.mark.parametrize("mode", MODES)
def test_gateway_streams_match_node(mode: str) -> None:
    cipher = server_exchange().complete(VECTORS["client_public_key_b64"], mode)
    for frame in VECTORS["modes"][mode]["server_to_client"]:  # one stream across frames
        assert cipher.seal(frame["plaintext"]).hex() == frame["ciphertext_hex"]
    for frame in VECTORS["modes"][mode]["client_to_server"]:
        assert cipher.open(bytes.fromhex(frame["ciphertext_hex"])) == frame["plaintext"]


@pytest.mark.parametrize("mode", MODES)
def test_game_side_matches_node(mode: str) -> None:
    answer, cipher = game_side(mode)
    assert answer == VECTORS["client_public_key_b64"]
    for frame in VECTORS["modes"][mode]["client_to_server"]:
        assert cipher.encrypt(frame["plaintext"]).hex() == frame["ciphertext_hex"]
    for frame in VECTORS["modes"][mode]["server_to_client"]:
        assert cipher.decrypt(bytes.fromhex(frame["ciphertext_hex"])) == frame["plaintext"]


def test_cfb128_is_an_alias_of_cfb() -> None:
    assert normalize_mode("cfb128") == "cfb" and normalize_mode("CFB8") == "cfb8"
    with pytest.raises(EncryptionError, match="unknown encryption mode 'ctr'"):
        normalize_mode("ctr")


def test_a_plaintext_frame_racing_the_switch_passes_until_the_first_encrypted_one() -> None:
    cipher = server_exchange().complete(VECTORS["client_public_key_b64"], "cfb8")
    assert cipher.open('{"raced": true}') == '{"raced": true}'
    first = VECTORS["modes"]["cfb8"]["client_to_server"][0]
    assert cipher.open(bytes.fromhex(first["ciphertext_hex"])) == first["plaintext"]
    assert cipher.open('{"late": true}') is None  # after encrypted frames: not a race


def p256_key_b64() -> str:
    der = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    return base64.b64encode(der).decode()


BAD_KEYS = {
    "truncated": (VECTORS["client_public_key_b64"][:100], "truncated or corrupted"),
    "not base64": ("not*base64!", "not valid base64"),
    "missing": (None, "missing"),
    "wrong curve": (p256_key_b64(), "secp256r1, not secp384r1"),
}


@pytest.mark.parametrize("name", sorted(BAD_KEYS))
def test_a_bad_game_key_is_refused_with_a_clear_error(name: str) -> None:
    key, why = BAD_KEYS[name]
    with pytest.raises(EncryptionError, match=why):
        server_exchange().complete(key, "cfb8")


@pytest.mark.parametrize("name", sorted(BAD_KEYS))
def test_the_game_side_refuses_a_bad_server_key(name: str) -> None:
    key, _ = BAD_KEYS[name]
    with pytest.raises(HandshakeRefused, match="publicKey"):
        accept_key_exchange(key, VECTORS["salt_b64"], "cfb8")


def test_unpadded_base64_is_accepted() -> None:
    # An older server implementation sends base64 without padding; the salt then differs.
    answer, _ = game_side("cfb8")
    exchange = server_exchange()
    exchange.complete(answer.rstrip("="), "cfb8")
    accept_key_exchange(VECTORS["server_public_key_b64"], VECTORS["salt_b64"].rstrip("="), "cfb8")
