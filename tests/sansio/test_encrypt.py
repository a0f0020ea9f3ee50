"""The ws:encrypt handshake messages: what we send, and which answers count."""

from __future__ import annotations

import json

from mcbews_repl.sansio import decode_frame
from mcbews_repl.sansio.encrypt import (
    EncryptReply,
    enable_encryption_command,
    encode_encrypt_request,
    read_encrypt_reply,
)

RID = "6f1c1f0e-8f7e-4c7b-9a39-0c9f4b6f2d11"


def frame(purpose: str, body: dict[str, object], request_id: str | None = RID) -> str:
    header: dict[str, object] = {"messagePurpose": purpose, "version": 1}
    if request_id is not None:
        header["requestId"] = request_id
    return json.dumps({"header": header, "body": body})


def test_the_request_carries_key_salt_and_mode() -> None:
    sent = json.loads(encode_encrypt_request(RID, "cfb8", "KEY", "SALT"))
    assert sent["header"] == {"version": 1, "requestId": RID, "messagePurpose": "ws:encrypt"}
    assert sent["body"] == {"mode": "cfb8", "publicKey": "KEY", "salt": "SALT"}


def test_the_legacy_command_names_the_mode_only_when_not_the_default() -> None:
    assert enable_encryption_command("KEY", "SALT") == 'enableencryption "KEY" "SALT"'
    assert enable_encryption_command("KEY", "SALT", "cfb") == 'enableencryption "KEY" "SALT" cfb'


def test_a_ws_encrypt_answer_gives_the_key() -> None:
    event = decode_frame(frame("ws:encrypt", {"publicKey": "GAMEKEY"}))
    assert read_encrypt_reply(event, RID) == EncryptReply(RID, "GAMEKEY", 0, "")
    no_id = decode_frame(frame("ws:encrypt", {"publicKey": "GAMEKEY"}, request_id=None))
    assert read_encrypt_reply(no_id, RID) == EncryptReply(RID, "GAMEKEY", 0, "")


def test_a_legacy_command_response_gives_the_key() -> None:
    body = {"publicKey": "GAMEKEY", "statusCode": 0}
    assert read_encrypt_reply(decode_frame(frame("commandResponse", body)), RID) == EncryptReply(
        RID, "GAMEKEY", 0, ""
    )


def test_refusals_carry_the_status() -> None:
    error = decode_frame(frame("error", {"statusCode": -2147418111, "statusMessage": "no"}))
    assert read_encrypt_reply(error, RID) == EncryptReply(RID, None, -2147418111, "no")
    failed = frame("commandResponse", {"statusCode": -2147483647, "statusMessage": "Unknown"})
    assert read_encrypt_reply(decode_frame(failed), RID) == EncryptReply(
        RID, None, -2147483647, "Unknown"
    )
    keyless = decode_frame(frame("ws:encrypt", {}))
    reply = read_encrypt_reply(keyless, RID)
    assert reply is not None and reply.public_key is None and "no publicKey" in reply.status_message


def test_other_frames_are_not_the_answer() -> None:
    other_id = frame("commandResponse", {"publicKey": "K", "statusCode": 0}, "another")
    chat = frame("event", {"message": "hi", "sender": "Steve", "type": "chat"}, None)
    for raw in (other_id, chat, "not json"):
        assert read_encrypt_reply(decode_frame(raw), RID) is None
