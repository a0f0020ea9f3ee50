"""Both ceilings under hostile text: every frame we would send fits 461 + 661 bytes.

The line ceiling (461 UTF-8 bytes of commandLine) and the frame ceiling (661 bytes of the
whole commandRequest frame as sent, JSON escapes counted) are checked here on the frames
themselves: each line is wrapped by ``encode_command`` with a fresh UUID and measured.
"""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcbews_repl import FrameTooLarge
from mcbews_repl.sansio import (
    BridgeProtocol,
    check_command_line,
    command_frame_bytes,
    encode_capability_request,
    encode_command,
    encode_text_response,
    split_text,
)
from mcbews_repl.sansio.wire import (
    BULK_REQUEST_MAX_BYTES,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
)

from .test_text import roundtrip

LINE, FRAME = COMMAND_LINE_BUDGET_BYTES, COMMAND_FRAME_BUDGET_BYTES
# What costs the most in a frame: quotes and backslashes (4 bytes once escaped twice),
# control characters and the escaped @ and § (7), CJK (3), emoji (4), line breaks (3).
HOSTILE_CHARS = list('"\\\n\r\t\x00\x01\x1b\x7f@§中文한😀🎉é ab\u2028')
hostile = st.text(
    alphabet=st.sampled_from(HOSTILE_CHARS) | st.characters(codec="utf-8"), max_size=3000
)
# Texts made of one expensive character only: the worst case for each ceiling.
uniform = st.sampled_from(HOSTILE_CHARS).flatmap(
    lambda ch: st.integers(0, 1500).map(lambda n: ch * n)
)


def sent_size(line: str) -> int:
    """The UTF-8 bytes of the frame the gateway would send for ``line``."""
    return len(encode_command(str(uuid.uuid4()), line).encode("utf-8"))


def assert_fits(lines: list[str], line_budget: int = LINE, frame_budget: int = FRAME) -> None:
    for line in lines:
        assert len(line.encode("utf-8")) <= line_budget
        frame = encode_command(str(uuid.uuid4()), line, frame_budget_bytes=10_000)
        assert len(frame.encode("utf-8")) == command_frame_bytes(line) <= frame_budget
        assert json.loads(frame)["body"]["commandLine"] == line


@given(text=hostile | uniform, player=st.sampled_from(["Steve", 'Q"u\\o@te', "玩家§a"]))
@settings(max_examples=300)
def test_every_text_response_frame_fits_both_ceilings(text: str, player: str) -> None:
    lines = encode_text_response(player, text, response_id="r1", max_frames=None)
    assert_fits(lines)
    assert roundtrip(lines) == text


@given(
    text=hostile,
    line_budget=st.integers(200, 461),
    frame_budget=st.integers(300, 661),
    title=st.none() | st.text(max_size=12),
)
@settings(max_examples=200)
def test_any_pair_of_ceilings_is_respected(
    text: str, line_budget: int, frame_budget: int, title: str | None
) -> None:
    try:
        lines = encode_text_response(
            "Steve",
            text,
            response_id="r2",
            title=title,
            budget_bytes=line_budget,
            frame_budget_bytes=frame_budget,
            max_frames=None,
        )
    except FrameTooLarge as error:  # the fixed fields alone leave no room for a code point
        assert error.line_bytes > line_budget or error.frame_bytes > frame_budget
        return
    assert_fits(lines, line_budget, frame_budget)
    assert roundtrip(lines) == text


@given(text=hostile)
@settings(max_examples=50)
def test_split_text_parts_fit_too(text: str) -> None:
    parts = split_text("Steve", text * 4, max_frames=8)
    assert "".join(parts) == text * 4
    for part in parts:
        lines = encode_text_response("Steve", part, response_id="0" * 12)
        assert len(lines) <= 8
        assert_fits(lines)


def test_the_reported_case_now_fits() -> None:
    # Quotes, backslashes, newlines and CJK: before, 44 of 46 frames were over 661 bytes.
    text = ('He said "no" \\ then\n"yes" 中文 ' * 60)[:1500]
    lines = encode_text_response("Steve", text, response_id="abc123def456")
    assert max(sent_size(line) for line in lines) <= FRAME
    assert roundtrip(lines) == text


@given(payload=st.dictionaries(st.text(max_size=8), hostile.map(lambda s: s[:200]), max_size=4))
@settings(max_examples=200)
def test_capability_requests_fit_or_are_refused_with_both_sizes(payload: dict[str, str]) -> None:
    try:
        line = encode_capability_request("0123456789ab", "get_player_snapshot", payload)
    except FrameTooLarge as error:
        body = {
            "v": 2,
            "request_id": "0123456789ab",
            "capability": "get_player_snapshot",
            "payload": payload,
        }
        raw = "scriptevent mcbews:bridge_req " + json.dumps(
            body, ensure_ascii=False, separators=(",", ":")
        )
        # The refused request really was over one of the ceilings.
        assert error.line_bytes > LINE or error.frame_bytes > FRAME
        assert error.line_bytes >= len(raw.encode("utf-8", "surrogatepass"))
        return
    assert_fits([line])
    assert json.loads(line.split(" ", 2)[2])["payload"] == payload


@given(line=st.text(alphabet=st.sampled_from(HOSTILE_CHARS) | st.characters(), max_size=700))
@settings(max_examples=300)
def test_user_commands_fit_or_are_refused_before_sending(line: str) -> None:
    try:
        checked = check_command_line(line)
    except FrameTooLarge as error:
        stripped = line.strip().removeprefix("/").lstrip()
        assert error.line_bytes == len(stripped.encode("utf-8"))
        assert error.frame_bytes == sent_size_unchecked(stripped)
        assert error.line_bytes > LINE or error.frame_bytes > FRAME
        assert f"(the limit is {LINE})" in str(error) and f"(the limit is {FRAME}," in str(error)
        return
    except ValueError:
        return  # empty, a line break or a lone surrogate: explained, nothing sent
    assert_fits([checked])
    assert check_command_line(checked) == checked  # what is sent checks as itself


@example(line="/ 0")  # a slash, then a space: once sized as " 0" but sent as "0"
@given(line=hostile)
def test_a_checked_line_is_what_is_sent(line: str) -> None:
    try:
        checked = check_command_line(line)
    except ValueError:
        return
    assert check_command_line(checked) == checked
    frame = encode_command(str(uuid.uuid4()), line, frame_budget_bytes=10_000)
    assert len(frame.encode("utf-8")) == command_frame_bytes(checked)


def sent_size_unchecked(line: str) -> int:
    """The frame size with the checks lifted: what would have gone out."""
    frame = encode_command(str(uuid.uuid4()), line, budget_bytes=10_000, frame_budget_bytes=10_000)
    return len(frame.encode("utf-8"))


def test_the_protocol_object_refuses_before_registering() -> None:
    proto = BridgeProtocol()
    with pytest.raises(FrameTooLarge):
        proto.command_frame("say " + '"' * 300)
    # A request over one line goes as bulk parts (test_bulk.py); over the addon's bulk bound
    # it is refused before anything is registered.
    with pytest.raises(FrameTooLarge):
        proto.capability_request("cap", {"q": '"' * BULK_REQUEST_MAX_BYTES}, now=0)
    assert proto.pending_requests == 0
    assert len(proto.capability_request("cap", {"q": '"' * 300}, now=0).lines) > 1
    roomy = BridgeProtocol(frame_budget_bytes=2000)
    assert roomy.command_frame("say " + '"' * 300)[1]
