"""Text response encoding: full lines, never over budget, exact round trip."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl import FrameTooLarge
from mcbews_repl.sansio import (
    TextResponseReassembler,
    command_frame_bytes,
    encode_text_response,
    parse_text_frame,
)
from mcbews_repl.sansio.reassembly import Failed

PREFIX = "scriptevent mcbews:text_resp "
tricky = st.text(
    alphabet=st.sampled_from(list('ab \\"@§\n\t中文😀é\x01')) | st.characters(), max_size=4000
)


def roundtrip(lines: list[str], seed: int = 0) -> str:
    shuffled = lines[:]
    random.Random(seed).shuffle(shuffled)
    r = TextResponseReassembler()
    done = [out for line in shuffled if (out := r.feed(parse_text_frame(line), 0.0))]
    assert len(done) == 1 and not isinstance(done[0], Failed)
    return done[0].text


@given(text=tricky, budget=st.integers(120, 461), seed=st.integers(0, 99))
@settings(max_examples=300)
def test_any_text_fits_and_rejoins(text: str, budget: int, seed: int) -> None:
    lines = encode_text_response(
        "Steve", text, response_id="r1", budget_bytes=budget, max_frames=None
    )
    assert all(len(line.encode("utf-8")) <= budget for line in lines)
    assert all(line.startswith(PREFIX) for line in lines)
    frames = [json.loads(line[len(PREFIX) :]) for line in lines]
    assert [f["i"] for f in frames] == list(range(1, len(lines) + 1))
    assert {f["n"] for f in frames} == {len(lines)}
    assert roundtrip(lines, seed) == text


@given(text=tricky, title=st.text(max_size=20), cid=st.text(max_size=12))
@settings(max_examples=100)
def test_optional_fields(text: str, title: str, cid: str) -> None:
    usage = {"i": 12, "o": 345}
    lines = encode_text_response(
        "Alex",
        text,
        response_id="r2",
        role="approval",
        title=title,
        conversation_id=cid,
        usage=usage,
        max_frames=None,
    )
    frames = [json.loads(line[len(PREFIX) :]) for line in lines]
    assert all(f["t"] == title and f["cid"] == cid for f in frames)
    assert frames[-1]["u"] == usage
    assert all("u" not in f for f in frames[:-1])
    assert all(len(line.encode()) <= 461 for line in lines)
    assert roundtrip(lines) == text


def test_empty_text_is_one_frame() -> None:
    lines = encode_text_response("Steve", "", response_id="e")
    assert len(lines) == 1
    assert json.loads(lines[0][len(PREFIX) :])["c"] == ""


def test_lines_are_filled_to_the_tighter_ceiling() -> None:
    # Plain text: the frame (line + 212 bytes of envelope + the header's escaped quotes)
    # binds first, so every full frame is exactly 661 bytes.
    lines = encode_text_response("Steve", "word " * 2000, response_id="f")
    assert all(command_frame_bytes(line) == 661 for line in lines[:-1])
    assert all(len(line.encode()) < 461 for line in lines)
    cjk = encode_text_response("Steve", "中文" * 3000, response_id="g", max_frames=None)
    assert all(659 <= command_frame_bytes(line) <= 661 for line in cjk[:-1])  # 3-byte steps
    # With a roomier frame ceiling the line's 461 bytes bind instead.
    roomy = encode_text_response("Steve", "word " * 2000, response_id="h", frame_budget_bytes=900)
    assert all(len(line.encode()) == 461 for line in roomy[:-1])


def test_at_and_section_sign_are_escaped_on_the_wire() -> None:
    (line,) = encode_text_response("Steve", "hi @a §cred", response_id="x")
    assert "@" not in line and "§" not in line
    assert "\\u0040a" in line and "\\u00a7c" in line


def test_bad_arguments_say_what_to_fix() -> None:
    with pytest.raises(ValueError, match="role must be one of"):
        encode_text_response("Steve", "x", response_id="r", role="bot")
    with pytest.raises(ValueError, match="player"):
        encode_text_response(" ", "x", response_id="r")
    with pytest.raises(ValueError, match="usage"):
        encode_text_response("Steve", "x", response_id="r", usage={"i": "3"})  # type: ignore[dict-item]
    with pytest.raises(FrameTooLarge) as info:
        encode_text_response("Steve", "x", response_id="r", title="T" * 500)
    assert info.value.over_by_bytes > 0
    with pytest.raises(ValueError, match="split"):
        encode_text_response("Steve", "x" * 100_000, response_id="r")


def test_ttl_and_caps_apply_to_text_reassembly() -> None:
    lines = encode_text_response("Steve", "z" * 2000, response_id="t")
    r = TextResponseReassembler()
    assert r.feed(parse_text_frame(lines[0]), 0.0) is None
    assert [e.message_id for e in r.expire(30.0)] == ["t"]
