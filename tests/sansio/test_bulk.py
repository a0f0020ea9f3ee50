"""``scriptevent mcbews:bulk``: the shared vectors, every part within both ceilings, and any
order or duplication of parts joining back to the text (hostile ones refused)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.exceptions import FrameTooLarge
from mcbews_repl.sansio import BridgeProtocol, encode_pull_request
from mcbews_repl.sansio.bulk import (
    BULK_KINDS,
    BulkPart,
    encode_bulk,
    join_parts,
    parse_bulk_line,
    request_lines,
)
from mcbews_repl.sansio.frames import command_frame_bytes
from mcbews_repl.sansio.jsonwire import dumps_wire, utf8_len
from mcbews_repl.sansio.tags import tags_request_lines
from mcbews_repl.sansio.wire import (
    BULK_EVENT,
    BULK_MAX_PARTS,
    BULK_REQUEST_MAX_BYTES,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
)

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "vectors" / "bulk_v1.json").read_text(encoding="utf-8")
)
ERRORS = {"ValueError": ValueError, "FrameTooLarge": FrameTooLarge}


def _message(line: str) -> str:
    return line.removeprefix(f"scriptevent {BULK_EVENT} ")


@pytest.mark.parametrize("case", VECTORS["encode"], ids=lambda c: c["name"])
def test_encode_vectors(case: dict[str, Any]) -> None:
    lines = encode_bulk(
        case["request_id"],
        case["kind"],
        case["text"],
        budget_bytes=case["budget_bytes"],
        frame_budget_bytes=case["frame_budget_bytes"],
    )
    assert lines == case["lines"]


@pytest.mark.parametrize("case", VECTORS["encode_refused"], ids=lambda c: c["name"])
def test_encode_refuses(case: dict[str, Any]) -> None:
    options = {k: case[k] for k in ("budget_bytes", "max_parts", "max_bytes") if k in case}
    with pytest.raises(ERRORS[case["error"]]):
        encode_bulk(case["request_id"], case["kind"], case["text"], **options)


@pytest.mark.parametrize("case", VECTORS["read"], ids=lambda c: c["name"])
def test_read_vectors(case: dict[str, Any]) -> None:
    part = parse_bulk_line(case["message"])
    want = case["part"]
    if want is None:
        assert part is None
    else:
        assert part == BulkPart(
            want["id"], want["kind"], want["index"], want["total"], want["content"]
        )


def test_the_completed_vectors_join_as_the_addon_joins_them() -> None:
    """Every reassembly vector that completes joins to the same text here, in any order."""
    for case in VECTORS["reassemble"]:
        steps = [s for s in case["steps"] if s.get("outcome") == "complete"]
        for step in steps:
            rid = parse_bulk_line(step["message"])
            assert rid is not None
            parts = [
                p
                for s in case["steps"]
                if "message" in s
                and (p := parse_bulk_line(s["message"])) is not None
                and p.request_id == rid.request_id
            ]
            assert join_parts(parts) == step["text"], case["name"]
            assert BULK_KINDS[rid.kind] == step["event"]


TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=600).map(
    lambda s: dumps_wire({"s": s})
)


@settings(max_examples=150, deadline=None)
@given(TEXT, st.integers(min_value=70, max_value=461), st.randoms(use_true_random=False))
def test_any_text_round_trips_in_any_order_with_duplicates(
    text: str, budget: int, rng: random.Random
) -> None:
    lines = encode_bulk("a1b2c3", "p", text, budget_bytes=budget, max_parts=100_000)
    for line in lines:
        assert utf8_len(line) <= budget
        assert command_frame_bytes(line) <= COMMAND_FRAME_BUDGET_BYTES
    parts = [parse_bulk_line(line) for line in lines]
    assert all(p is not None for p in parts)
    shuffled = [p for p in parts if p is not None] * 2
    rng.shuffle(shuffled)
    assert join_parts(shuffled) == text


@given(TEXT)
def test_a_piece_never_ends_on_a_space_but_the_last(text: str) -> None:
    lines = encode_bulk("r1", "c", text, budget_bytes=60, max_parts=100_000)
    for line in lines[:-1]:
        part = parse_bulk_line(line)
        assert part is not None
        assert part.content == "" or not part.content[-1].isspace() or part.content.isspace()


def test_a_missing_part_or_a_disagreement_joins_nothing() -> None:
    lines = encode_bulk("r1", "c", dumps_wire({"a": "x" * 200}), budget_bytes=80)
    parts = [p for line in lines if (p := parse_bulk_line(line)) is not None]
    assert join_parts(parts[1:]) is None  # missing the first
    changed = BulkPart("r1", "c", 1, parts[0].total, parts[0].content + "!")
    assert join_parts([*parts, changed]) is None  # a duplicate with other content
    other_total = BulkPart("r1", "c", 1, parts[0].total + 1, parts[0].content)
    assert join_parts([other_total, *parts[1:]]) is None
    assert join_parts([]) is None


def test_a_request_over_the_addon_bound_is_refused_before_anything_is_sent() -> None:
    text = dumps_wire({"a": "x" * BULK_REQUEST_MAX_BYTES})
    with pytest.raises(FrameTooLarge, match="split it"):
        encode_bulk("r1", "c", text)


def test_the_default_bounds_carry_a_whole_request() -> None:
    """The most a request may hold fits the most parts a request may have."""
    text = dumps_wire({"a": "x" * (BULK_REQUEST_MAX_BYTES - 20)})
    lines = encode_bulk("a1b2c3d4e5f6", "p", text)
    assert len(lines) <= BULK_MAX_PARTS


def test_a_request_that_fits_one_line_is_one_line() -> None:
    assert request_lines("r1", "c", "{}") == ("scriptevent mcbews:bridge_req {}",)


def test_every_transport_sends_a_large_request_as_parts() -> None:
    payload = {"palette": ["minecraft:stone"] * 100}
    chat = BridgeProtocol().capability_request("set_blocks", payload, now=0.0)
    pull = encode_pull_request("a1b2c3d4e5f6", "set_blocks", payload)
    tags = tags_request_lines("a1b2c3d4e5f6", "set_blocks", payload, to="Steve")
    for lines, kind in ((chat.lines, "c"), (pull.lines, "p"), (tags, "t")):
        assert len(lines) > 1
        parts = [parse_bulk_line(line) for line in lines]
        assert all(p is not None and p.kind == kind for p in parts)
        text = join_parts([p for p in parts if p is not None])
        assert text is not None and json.loads(text)["payload"] == payload
        for line in lines:
            assert utf8_len(line) <= COMMAND_LINE_BUDGET_BYTES
            assert command_frame_bytes(line) <= COMMAND_FRAME_BUDGET_BYTES
    assert not pull.inline
    assert json.loads(join_parts([p for p in map(parse_bulk_line, tags) if p]) or "")["to"] == (
        "Steve"
    )
