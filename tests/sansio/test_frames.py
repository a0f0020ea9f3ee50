"""Game frames: what we send and how every inbound frame decodes."""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl import FrameTooLarge
from mcbews_repl.sansio import (
    ChatMessage,
    FrameRejected,
    GameError,
    check_command_line,
    command_frame_bytes,
    decode_frame,
    encode_command,
    silent_drop_hint,
)
from mcbews_repl.sansio.connection import RequestIds
from mcbews_repl.sansio.frames import _command_frame

from ..corpus import exact


def test_command_budget_is_counted_in_bytes() -> None:
    # Plain ASCII: the frame around the line (212 bytes with a UUID) binds before 461.
    longest = "say " + "x" * 445
    assert check_command_line(longest) == longest
    assert len(encode_command(str(uuid.uuid4()), longest).encode()) == 661
    with pytest.raises(FrameTooLarge) as info:
        check_command_line(longest + "x")
    assert (info.value.line_bytes, info.value.frame_bytes, info.value.over_by_bytes) == (
        450,
        662,
        1,
    )
    with pytest.raises(FrameTooLarge) as info:
        check_command_line("say " + "中" * 153)  # 4 + 459 bytes in 157 characters
    assert info.value.line_bytes == 463 and info.value.line_budget_bytes == 461


def test_a_line_of_quotes_is_refused_by_its_frame() -> None:
    line = "say " + '"' * 440  # 444 bytes of line, but every quote doubles in the frame
    with pytest.raises(FrameTooLarge) as info:
        check_command_line(line)
    error = info.value
    assert (error.line_bytes, error.line_budget_bytes) == (444, 461)
    assert (error.frame_bytes, error.frame_budget_bytes) == (1096, 661)
    assert error.frame_bytes == len(
        encode_command(str(uuid.uuid4()), line, frame_budget_bytes=2000)
    )
    message = str(error)
    assert "444 UTF-8 bytes (the limit is 461)" in message
    assert "frame 1096 bytes as sent (the limit is 661" in message


def test_frame_size_is_the_size_sent() -> None:
    for line in ["say hi", 'tellraw @a {"rawtext":[{"text":"\\ §a 中 😀"}]}', "say \t tab"]:
        frame = encode_command(str(uuid.uuid4()), line)
        assert command_frame_bytes(line) == len(frame.encode("utf-8"))
    assert command_frame_bytes("x", syntax_version=1) == command_frame_bytes("x") - 7


def test_command_line_mistakes_are_explained() -> None:
    with pytest.raises(ValueError, match="empty"):
        check_command_line("  /  ")
    with pytest.raises(ValueError, match="line break"):
        check_command_line("say a\nsay b")
    with pytest.raises(ValueError, match="lone surrogate"):
        check_command_line("say \ud800")
    assert json.loads(encode_command("id", "/say hi"))["body"]["commandLine"] == "say hi"


def test_binary_and_oversized_frames_are_rejected() -> None:
    event = decode_frame(b"\x00\x01")
    assert isinstance(event, FrameRejected) and event.reason == "binary_frame"
    event = decode_frame("x" * 2000, max_frame_bytes=1000)
    assert isinstance(event, FrameRejected) and event.reason == "frame_too_large"


def test_deep_nesting_is_rejected_not_raised() -> None:
    event = decode_frame("[" * 100_000 + "]" * 100_000)
    assert isinstance(event, FrameRejected)


def test_echo_is_flagged_in_other_languages() -> None:
    frame = {
        "header": {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360},
        "body": {"message": "hi", "receiver": "", "sender": "外部", "type": "say"},
    }
    event = decode_frame(json.dumps(frame, ensure_ascii=False))
    assert isinstance(event, ChatMessage) and event.is_echo


@given(st.text(max_size=300))
def test_any_text_decodes_without_raising(text: str) -> None:
    decode_frame(text)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    [
                        "header",
                        "body",
                        "messagePurpose",
                        "eventName",
                        "requestId",
                        "message",
                        "properties",
                        "Message",
                        "statusCode",
                        "version",
                        "sender",
                    ]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=12,
    )
)
def test_any_json_shape_decodes_without_raising(value: object) -> None:
    decode_frame(json.dumps(value))


@pytest.mark.parametrize(
    ("capture_id", "sender", "message", "kind", "receiver", "version", "legacy"),
    [
        ("chat-17104896", "fantong7038", "AI chat hi", "chat", "", 17104896, False),
        ("chat-17039360", "Steve", "hello", "chat", "", 17039360, False),
        ("say-16842752", "Steve", "[Steve] hello", "say", "", 16842752, False),
        ("tellraw-16842752", "Steve", '{"rawtext":[{"text":"test"}]}\n', "tell", "Steve",
         16842752, False),
        ("chat-legacy", "Anand", "alpha", "chat", "", 1, True),
    ],
)  # fmt: skip
def test_captured_player_messages_decode_in_every_shape(
    capture_id: str,
    sender: str,
    message: str,
    kind: str,
    receiver: str,
    version: int,
    legacy: bool,
) -> None:
    """The game's own frames (evidence/captures.json): every header version of the modern
    shape (2026's 17104896, 17039360 and the older 16842752) and the legacy ``properties``
    shape."""
    frame = json.dumps(exact(capture_id), ensure_ascii=False)
    event = decode_frame(frame)
    assert isinstance(event, ChatMessage)
    assert (event.sender, event.message, event.type, event.receiver) == (
        sender,
        message,
        kind,
        receiver,
    )
    assert (event.protocol_version, event.legacy_shape, event.is_echo) == (version, legacy, False)


def test_captured_error_frame_decodes_as_a_game_error() -> None:
    frame = json.dumps(exact("too-many-requests"))
    event = decode_frame(frame)
    assert isinstance(event, GameError) and event.status_code == -2147418109


# --- the hot path's serializer and ids ------------------------------------------------


def _dumped(request_id: str, line: str, version: int) -> str:
    """The commandRequest frame as the general-purpose json.dumps writes it."""
    frame = {
        "header": {
            "version": 1,
            "requestId": request_id,
            "messagePurpose": "commandRequest",
            "messageType": "commandRequest",
        },
        "body": {"version": version, "commandLine": line, "origin": {"type": "player"}},
    }
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


@given(
    line=st.text(),
    request_id=st.text(max_size=40) | st.uuids().map(str),
    version=st.integers(min_value=-(2**40), max_value=2**40),
)
def test_the_command_frame_is_json_dumps_character_for_character(
    line: str, request_id: str, version: int
) -> None:
    # Any text: quotes, backslashes, control characters, CJK, emoji, lone surrogates.
    assert _command_frame(request_id, line, version) == _dumped(request_id, line, version)


@given(line=st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1))
def test_an_encoded_command_parses_back_to_its_line(line: str) -> None:
    request_id = str(uuid.uuid4())
    try:
        frame = encode_command(request_id, line)
    except (ValueError, FrameTooLarge):
        return  # empty after stripping, a line break, or over a budget: refused, not sent
    decoded = json.loads(frame)
    assert decoded == json.loads(_dumped(request_id, check_command_line(line), 17039360))
    assert len(frame.encode()) == command_frame_bytes(decoded["body"]["commandLine"])


def test_request_ids_are_version_4_uuids_that_never_repeat() -> None:
    ids, other = RequestIds(), RequestIds()
    seen = [ids() for _ in range(5000)]
    assert len(set(seen)) == len(seen)
    for text in seen[:50] + seen[-50:]:
        parsed = uuid.UUID(text)
        assert str(parsed) == text and len(text) == 36
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
    assert other() not in set(seen)  # another connection draws its own prefix


def test_request_ids_wrap_within_the_last_group() -> None:
    ids = RequestIds()
    ids._next = (1 << 48) - 1
    last, first = ids(), ids()
    assert last.endswith("ffffffffffff") and first.endswith("000000000000")
    assert last[:24] == first[:24]


def test_a_timeout_blames_the_size_only_past_the_bridges_budget() -> None:
    """silent_drop_hint: nothing for a line the budget takes (the game was seen to take
    frames up to 697 bytes), and past it the sizes and what the game does with such frames."""
    assert silent_drop_hint("say " + "x" * 400) == ""
    assert silent_drop_hint("say " + '"' * 200) == ""  # a 616-byte frame
    widest = "say " + "x" * 445  # 449 bytes of line: a 661-byte frame exactly
    assert command_frame_bytes(widest) == 661 and silent_drop_hint(widest) == ""
    over_frame = silent_drop_hint(widest + "x")
    assert "it was sent in a 662-byte frame with a 450-byte command line" in over_frame
    assert "the game drops a request over its size limit without any answer" in over_frame
    over_line = silent_drop_hint("say " + "é" * 229)  # 462 bytes of line
    assert "with a 462-byte command line, past the bridge's budget (461 bytes of line" in over_line


@given(line=st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=700))
def test_a_checked_line_frames_as_the_unchecked_one_does(line: str) -> None:
    # The gateway checks a line once, before it waits for a slot; its frame, built with
    # checked=True, is the frame encode_command would have built and checked itself.
    request_id = str(uuid.uuid4())
    try:
        expected = encode_command(request_id, line)
    except (ValueError, FrameTooLarge):
        return
    assert encode_command(request_id, check_command_line(line), checked=True) == expected
    long_id = "x" * 400  # the frame itself is still sized, with the id it carries
    with pytest.raises(FrameTooLarge):
        encode_command(long_id, check_command_line("say " + "a" * 440), checked=True)
