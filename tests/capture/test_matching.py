"""How a replayed game tells which recorded answer a live request takes (matching.py) and
which request each of the game's own frames waits for (script.py)."""

from __future__ import annotations

import json

from mcbews_repl.capture import Capture, FrameRecord, Header
from mcbews_repl.capture.matching import key_of, key_of_line
from mcbews_repl.capture.script import game_script
from mcbews_repl.sansio import encode_bulk, encode_capability_request, encode_text_response


def test_a_capability_request_matches_whatever_id_the_bridge_made() -> None:
    first = key_of_line(encode_capability_request("aaaaaaaaaaaa", "get_x", {"target": "Steve"}))
    again = key_of_line(encode_capability_request("bbbbbbbbbbbb", "get_x", {"target": "Steve"}))
    other = key_of_line(encode_capability_request("cccccccccccc", "get_x", {"target": "Alex"}))
    assert first.key == again.key != other.key
    assert (first.ids, again.ids) == (("aaaaaaaaaaaa",), ("bbbbbbbbbbbb",))
    assert "<id>" in first.key and "aaaaaaaaaaaa" not in first.key


def test_the_parts_of_a_large_request_match_whatever_id_the_bridge_made() -> None:
    text = json.dumps({"v": 2, "request_id": "<ID>", "capability": "set_blocks",
                       "payload": {"palette": ["stone"] * 60}})  # fmt: skip
    first = encode_bulk("aaaaaaaaaaaa", "p", text.replace("<ID>", "aaaaaaaaaaaa"))
    again = encode_bulk("bbbbbbbbbbbb", "p", text.replace("<ID>", "bbbbbbbbbbbb"))
    assert len(first) > 1
    keys = [key_of_line(line) for line in first]
    assert [k.key for k in keys] == [key_of_line(line).key for line in again]
    assert all(k.ids == ("aaaaaaaaaaaa",) and "aaaaaaaaaaaa" not in k.key for k in keys)


def test_text_frames_match_by_kind_and_commands_by_their_line() -> None:
    one = encode_text_response("Steve", "hello", response_id="r1")[0]
    two = encode_text_response("Alex", "something else entirely", response_id="r2")[0]
    assert key_of_line(one) == key_of_line(two)
    assert key_of_line("say hi").key == "say hi" != key_of_line("say  hi").key


def test_subscriptions_match_by_event_and_the_encryption_handshake_is_not_matched() -> None:
    def frame(purpose: str, body: dict[str, object]) -> dict[str, object]:
        return {"header": {"messagePurpose": purpose, "requestId": "x"}, "body": body}

    sub = key_of(frame("subscribe", {"eventName": "PlayerMessage"}))
    assert sub is not None and sub.key == "subscribe PlayerMessage"
    assert key_of(frame("ws:encrypt", {"publicKey": "k", "salt": "s"})) is None
    assert key_of(frame("commandRequest", {"commandLine": 'enableencryption "k" "s"'})) is None
    assert key_of({"header": "junk"}) is None


def _frames(*frames: tuple[float, str, dict[str, object]]) -> Capture:
    records = [FrameRecord(t, 1, d, json.dumps(f)) for t, d, f in frames]  # type: ignore[arg-type]
    return Capture(Header("p", 0.0), list(records))


def _request(rid: str, line: str) -> dict[str, object]:
    return {"header": {"requestId": rid, "messagePurpose": "commandRequest"},
            "body": {"commandLine": line}}  # fmt: skip


def _response(rid: str) -> dict[str, object]:
    return {"header": {"requestId": rid, "messagePurpose": "commandResponse"},
            "body": {"statusCode": 0}}  # fmt: skip


def _chat(message: str) -> dict[str, object]:
    return {"header": {"messagePurpose": "event"}, "body": {"message": message, "sender": "X"}}


def test_an_answer_chunk_waits_for_the_request_whose_id_it_carries() -> None:
    ask = encode_capability_request("a1b2c3d4e5f6", "list_capabilities")
    capture = _frames(
        (1.0, "out", _request("r1", ask)),
        (1.1, "in", _response("r1")),
        (1.2, "out", _request("r2", "list")),  # sent while the addon was still answering
        (1.3, "in", _chat("MCBEWS|BRIDGE|a1b2c3d4e5f6|1/1|{}")),
        (1.4, "in", _chat("someone said hi")),
        (1.5, "in", _response("r2")),
    )
    script = game_script(capture, 1)
    assert [r.key.key for r in script.requests][1] == "list"
    assert abs(script.requests[0].answers[0][0] - 0.1) < 1e-9  # the answer's delay
    chunk, chat = script.followers
    assert (chunk.anchor, chunk.ids) == (0, ("a1b2c3d4e5f6",))
    assert abs(chunk.delay - 0.3) < 1e-9
    assert (chat.anchor, chat.ids) == (1, ())  # the last request before it
