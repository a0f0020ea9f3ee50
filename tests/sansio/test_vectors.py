"""The shared wire vectors (also read by the addon's TypeScript tests)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcbews_repl.sansio import (
    CapabilityFailed,
    CapabilityResult,
    ChatMessage,
    ChunkError,
    CommandResponse,
    FrameRejected,
    GameError,
    GameEventReceived,
    OtherEvent,
    TextResponseReassembler,
    UiChatMessage,
    UnknownFrame,
    decode_frame,
    encode_capability_request,
    encode_command,
    encode_subscribe,
    format_chunk,
    parse_chunk,
    parse_text_frame,
    reassemble_chunks,
)
from mcbews_repl.sansio.bridge import interpret_bridge_answer, interpret_ui_chat
from mcbews_repl.sansio.reassembly import Failed


def test_bridge_requests_encode_exactly(vectors: dict[str, Any]) -> None:
    for case in vectors["bridge_requests"]:
        line = encode_capability_request(case["request_id"], case["capability"], case["payload"])
        assert line == case["line"], case["name"]
        body = json.loads(line.split(" ", 2)[2])
        assert body["payload"] == case["payload"]


def test_valid_chunks_parse_and_format_back(vectors: dict[str, Any]) -> None:
    for case in vectors["chunks"]:
        chunk = parse_chunk(case["line"])
        assert chunk.channel.name.lower() == case["channel"], case["name"]
        assert (chunk.message_id, chunk.index, chunk.total) == (
            case["message_id"],
            case["index"],
            case["total"],
        )
        assert chunk.content == case["content"]
        assert format_chunk(chunk) == case["line"]


def test_bad_chunks_raise_with_reason(vectors: dict[str, Any]) -> None:
    for case in vectors["bad_chunks"]:
        with pytest.raises(ChunkError) as info:
            parse_chunk(case["line"])
        assert info.value.reason == case["reason"], case["line"]


def test_reassembly_cases(vectors: dict[str, Any]) -> None:
    for case in vectors["reassembly"]:
        chunks = [parse_chunk(line) for line in case["lines"]]
        if "error" in case:
            with pytest.raises(ChunkError) as info:
                reassemble_chunks(chunks)
            assert info.value.reason == case["error"], case["name"]
        else:
            assert reassemble_chunks(chunks) == case["text"], case["name"]


def test_bridge_answers(vectors: dict[str, Any]) -> None:
    for case in vectors["bridge_answers"]:
        event = interpret_bridge_answer("r", "cap", case["text"])
        if case["ok"]:
            assert isinstance(event, CapabilityResult), case["name"]
            assert event.result == case["result"]
        else:
            assert isinstance(event, CapabilityFailed), case["name"]
            assert event.code == case["code"]
            if "message" in case:
                assert event.message == case["message"]


def test_ui_chat_payloads(vectors: dict[str, Any]) -> None:
    for case in vectors["ui_chat"]:
        event = interpret_ui_chat("m", case["text"])
        if case["ok"]:
            assert isinstance(event, UiChatMessage), case["name"]
            assert (event.player, event.message, event.conversation_id) == (
                case["player"],
                case["message"],
                case["cid"],
            )
        else:
            assert isinstance(event, FrameRejected), case["name"]
            assert event.reason == "ui_chat_malformed"


def test_text_frames(vectors: dict[str, Any]) -> None:
    for case in vectors["text_frames"]:
        frame = parse_text_frame(case["line"])
        assert (frame.response_id, frame.index, frame.total) == (case["id"], case["i"], case["n"])
        assert (frame.player, frame.role, frame.content) == (case["p"], case["r"], case["c"])
        assert frame.conversation_id == case.get("cid")
        assert frame.title == case.get("t")
        assert frame.usage == case.get("u")
    for case in vectors["bad_text_frames"]:
        with pytest.raises(ChunkError) as info:
            parse_text_frame(case["message"])
        assert info.value.reason == case["reason"], case["message"]


def test_text_reassembly(vectors: dict[str, Any]) -> None:
    for case in vectors["text_reassembly"]:
        reassembler = TextResponseReassembler()
        outcomes = [reassembler.feed(parse_text_frame(line), 0.0) for line in case["lines"]]
        final = [o for o in outcomes if o is not None][-1]
        if "error" in case:
            assert isinstance(final, Failed), case["name"]
            assert final.reason == case["error"]
        else:
            assert not isinstance(final, Failed)
            assert (final.text, final.player, final.role) == (
                case["text"],
                case["player"],
                case["role"],
            )


_KINDS = {
    "chat": ChatMessage,
    "command_response": CommandResponse,
    "error": GameError,
    "game_event": GameEventReceived,
    "other_event": OtherEvent,
    "unknown": UnknownFrame,
}


def test_game_frames_decode(vectors: dict[str, Any]) -> None:
    for case in vectors["game_frames"]:
        event = decode_frame(json.dumps(case["frame"]))
        assert isinstance(event, _KINDS[case["kind"]]), case["name"]
        for key in ("sender", "message", "type", "is_echo", "request_id", "status_code"):
            if key in case:
                assert getattr(event, key) == case[key], (case["name"], key)
        if "status_message" in case:
            assert event.status_message == case["status_message"]  # type: ignore[union-attr]
        if isinstance(event, CommandResponse | GameError):
            assert event.body == case["frame"]["body"]
    for case in vectors["bad_game_frames"]:
        event = decode_frame(case["text"])
        assert isinstance(event, FrameRejected)
        assert event.reason == case["reason"], case["text"]


def test_outbound_game_frames(vectors: dict[str, Any]) -> None:
    for case in vectors["commands"]:
        assert json.loads(encode_command(case["request_id"], case["line"])) == case["frame"]
    sub = vectors["subscribe"]
    assert json.loads(encode_subscribe(sub["request_id"])) == sub["frame"]
