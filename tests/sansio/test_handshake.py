"""The ws:encrypt negotiation as events and actions: every path, no socket, no clock."""

from __future__ import annotations

import json

import pytest

from mcbews_repl.sansio.encrypt import ENCRYPTION_REQUIRED
from mcbews_repl.sansio.handshake import (
    Agreed,
    EncryptHandshake,
    HandshakeFailed,
    KeyNeeded,
    SendRequest,
    State,
    handshake_forms,
)


def reply(purpose: str, body: dict[str, object], request_id: str | None) -> str:
    header: dict[str, object] = {"messagePurpose": purpose, "version": 1}
    if request_id is not None:
        header["requestId"] = request_id
    return json.dumps({"header": header, "body": body})


def test_auto_tries_the_message_purpose_then_the_legacy_command() -> None:
    assert handshake_forms("auto") == ("ws:encrypt", "command")
    assert handshake_forms("command") == ("command",)
    with pytest.raises(ValueError, match="encryption_handshake must be"):
        handshake_forms("tls")


def test_the_ws_encrypt_form_agrees_on_the_games_key() -> None:
    machine = EncryptHandshake(handshake_forms("auto"), "cfb8")
    assert machine.start() == KeyNeeded("ws:encrypt")
    sent = machine.request("OURKEY", "SALT", "r1")
    assert isinstance(sent, SendRequest) and sent.form == "ws:encrypt"
    assert json.loads(sent.frame)["body"] == {"mode": "cfb8", "publicKey": "OURKEY", "salt": "SALT"}
    assert machine.receive(reply("ws:encrypt", {"publicKey": "GAMEKEY"}, "r1")) == Agreed(
        "ws:encrypt", "GAMEKEY", "cfb8"
    )
    assert machine.done


def test_other_frames_meanwhile_are_not_the_answer() -> None:
    machine = EncryptHandshake(["ws:encrypt"])
    assert machine.receive(reply("ws:encrypt", {"publicKey": "K"}, "r1")) is None  # none asked
    machine.request("K", "S", "r1")
    event = reply("event", {"eventName": "PlayerMessage"}, None)
    assert machine.receive(event) is None
    assert machine.receive("not json at all") is None
    assert machine.receive(reply("commandResponse", {"statusCode": 0}, "other")) is None
    assert machine.receive(reply("ws:encrypt", {"publicKey": "K2"}, "r1")) == Agreed(
        "ws:encrypt", "K2", "cfb8"
    )


def test_a_refusal_moves_on_to_the_next_form_with_a_fresh_key() -> None:
    machine = EncryptHandshake(handshake_forms("auto"), "cfb")
    machine.request("K1", "S1", "r1")
    refused = {"statusCode": -2147418111, "statusMessage": "unknown purpose"}
    assert machine.receive(reply("error", refused, "r1")) == KeyNeeded("command")
    assert not machine.done
    sent = machine.request("K2", "S2", "r2")
    line = json.loads(sent.frame)["body"]["commandLine"]
    assert line == 'enableencryption "K2" "S2" cfb'
    answer = {"statusCode": 0, "publicKey": "GAMEKEY"}
    assert machine.receive(reply("commandResponse", answer, "r2")) == Agreed(
        "command", "GAMEKEY", "cfb"
    )


def test_refused_by_every_form_fails_naming_each_refusal() -> None:
    machine = EncryptHandshake(handshake_forms("auto"))
    machine.request("K1", "S1", "r1")
    machine.receive(reply("error", {"statusCode": -1, "statusMessage": "no"}, "r1"))
    machine.request("K2", "S2", "r2")
    failed = machine.receive(
        reply("commandResponse", {"statusCode": ENCRYPTION_REQUIRED, "statusMessage": "x"}, "r2")
    )
    assert isinstance(failed, HandshakeFailed) and machine.done
    assert failed.reason == (
        f"the game refused encryption (ws:encrypt: -1 no; command: {ENCRYPTION_REQUIRED} x)"
    )
    with pytest.raises(RuntimeError, match="already over"):
        machine.request("K3", "S3", "r3")


def test_an_answer_without_a_key_is_broken_not_a_refusal() -> None:
    machine = EncryptHandshake(handshake_forms("auto"))
    machine.request("K", "S", "r1")
    failed = machine.receive(reply("ws:encrypt", {}, "r1"))
    assert isinstance(failed, HandshakeFailed)
    assert "ws:encrypt answer is unusable" in failed.reason


def test_a_timeout_ends_it_saying_what_to_try() -> None:
    machine = EncryptHandshake(["ws:encrypt"])
    machine.request("K", "S", "r1")
    failed = machine.timed_out(2.5)
    assert "within 2.5 s" in failed.reason and "encryption_handshake='command'" in failed.reason
    assert machine.receive(reply("ws:encrypt", {"publicKey": "LATE"}, "r1")) is None


def test_a_handshake_needs_a_form() -> None:
    with pytest.raises(ValueError, match="at least one form"):
        EncryptHandshake([])


def test_a_connection_has_three_states() -> None:
    assert [s.value for s in State] == ["encrypting", "open", "closed"]
