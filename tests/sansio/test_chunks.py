"""Chunk grammar and the upstream splitter, with properties over any text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.sansio import Channel, Chunk, format_chunk, parse_chunk, reassemble_chunks
from mcbews_repl.sansio.chunks import (
    TELL_WRAPPER,
    ChunkError,
    ChunkFields,
    _parse_checked,
    parse_chunk_fields,
    split_payload,
)

ids = st.text(
    st.characters(blacklist_characters="|", blacklist_categories=("Cs",)), min_size=1, max_size=16
).filter(str.strip)


@given(
    payload=st.text(),
    message_id=ids,
    max_cp=st.integers(1, 256),
    channel=st.sampled_from([Channel.BRIDGE, Channel.UI_CHAT]),
)
@settings(max_examples=300)
def test_split_fits_and_rejoins(
    payload: str, message_id: str, max_cp: int, channel: Channel
) -> None:
    try:
        chunks = split_payload(channel, message_id, payload, max_code_points=max_cp)
    except ValueError as exc:  # only a payload that needs more than 128 chunks is refused
        assert "more than 128" in str(exc)
        return
    for chunk in chunks:
        assert len(chunk.content) <= max_cp
        line = TELL_WRAPPER + format_chunk(chunk)
        assert len(line.encode("utf-8")) <= 461
        assert parse_chunk(format_chunk(chunk)) == chunk
    assert {c.total for c in chunks} == {len(chunks)}
    assert reassemble_chunks(chunks) == payload


@given(
    payload=st.text(min_size=1, max_size=3000),
    budget=st.integers(60, 461),
    seed=st.integers(0, 2**32),
    dup=st.integers(0, 5),
)
@settings(max_examples=200)
def test_any_order_and_duplication_reassembles(
    payload: str, budget: int, seed: int, dup: int
) -> None:
    try:
        chunks = split_payload(Channel.BRIDGE, "req", payload, budget_bytes=budget)
    except ValueError:
        return
    rng = random.Random(seed)
    shuffled = chunks + [rng.choice(chunks) for _ in range(dup)]
    rng.shuffle(shuffled)
    assert reassemble_chunks(shuffled) == payload
    assert all(len((TELL_WRAPPER + format_chunk(c)).encode()) <= budget for c in chunks)


def test_budget_too_small_for_any_content_is_refused() -> None:
    with pytest.raises(ValueError, match="no room"):
        split_payload(Channel.BRIDGE, "x" * 40, "abc", budget_bytes=50)


def test_id_with_pipe_is_refused() -> None:
    with pytest.raises(ValueError, match="'\\|'"):
        split_payload(Channel.BRIDGE, "a|b", "{}")


def test_totals_are_sized_with_their_final_digit_count() -> None:
    # 10+ chunks: every header must carry the two-digit total and still fit.
    payload = "x" * 5000
    chunks = split_payload(Channel.UI_CHAT, "m", payload, max_code_points=256)
    assert len(chunks) >= 10
    assert all(c.total == len(chunks) for c in chunks)
    assert max(len(c.content) for c in chunks) == 256


def test_multibyte_content_is_cut_on_code_points_by_bytes() -> None:
    payload = "😀" * 300  # 4 bytes each: the byte budget binds before 256 code points
    chunks = split_payload(Channel.BRIDGE, "r", payload)
    assert all(len((TELL_WRAPPER + format_chunk(c)).encode()) <= 461 for c in chunks)
    assert all(len(c.content) < 256 for c in chunks)
    assert "".join(c.content for c in chunks) == payload


# Lines near the grammar's edges, to hold the regex fast path of parse_chunk_fields to the
# field-by-field checks of _parse_checked: they must accept the same lines with the same
# fields and reject the rest with the same reason.
_prefixes = st.sampled_from(["MCBEWS|BRIDGE|", "MCBEWS|UI_CHAT|", "MCBEWS|BRIDGE", "MCBEWS|X|", ""])
_numbers = st.one_of(
    st.integers(0, 200).map(str),
    st.sampled_from(["", "007", "0128", "1234567", "+1", " 1", "\u0661", "1.0", "-1"]),
)
_names = st.one_of(
    st.sampled_from(["0123456789ab", "", " ", "\u3000", "a b", "a|b", "\n"]),
    st.text(max_size=6),
)
_contents = st.one_of(st.sampled_from(["", "|", '{"ok":true}', "a|b|c", "\n|\n"]), st.text())


@given(
    prefix=_prefixes,
    name=_names,
    index=_numbers,
    total=_numbers,
    slash=st.sampled_from(["/", "|", ""]),
    content=_contents,
)
@settings(max_examples=1000)
def test_fast_parse_agrees_with_the_checks(
    prefix: str, name: str, index: str, total: str, slash: str, content: str
) -> None:
    line = f"{prefix}{name}|{index}{slash}{total}|{content}"
    try:
        checked: ChunkFields | str = _parse_checked(line)
    except ChunkError as exc:
        checked = exc.reason
    try:
        fast: ChunkFields | str = parse_chunk_fields(line)
    except ChunkError as exc:
        fast = exc.reason
    assert fast == checked
    if not isinstance(fast, str):
        assert parse_chunk(line) == Chunk(*fast)


@given(
    words=st.lists(st.text(alphabet="ab \u3000\u00a0", min_size=1, max_size=40), max_size=60),
    max_cp=st.integers(2, 64),
)
@settings(max_examples=200)
def test_no_chunk_but_the_last_ends_with_a_space_the_game_may_trim(
    words: list[str], max_cp: int
) -> None:
    payload = "".join(words)
    chunks = split_payload(Channel.BRIDGE, "r", payload, max_code_points=max_cp)
    assert reassemble_chunks(chunks) == payload
    for chunk in chunks[:-1]:
        ends_in_space = chunk.content[-1:].isspace()
        assert not ends_in_space or chunk.content.isspace(), chunk
