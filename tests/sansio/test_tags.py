"""The tags transport's codec: the shared vectors, then properties over any input."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.exceptions import FrameTooLarge
from mcbews_repl.sansio import command_frame_bytes
from mcbews_repl.sansio.tags import (
    READ_MAX_PAGES,
    TAG_LIST_COMMAND,
    TAG_MAX_PAGES,
    TagMessage,
    TagPage,
    encode_page_tags,
    encode_tags_acks,
    encode_tags_poll,
    encode_tags_request,
    format_page_tag,
    read_tag_list,
)
from mcbews_repl.sansio.wire import (
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    TAG_MAX_CHARS,
    TAG_PAGE_BYTES,
)

VECTORS = json.loads(
    (Path(__file__).parents[1] / "vectors" / "tags_v1.json").read_text(encoding="utf-8")
)
TAG_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")


def test_the_vectors_limits_are_the_wires() -> None:
    assert VECTORS["page_bytes"] == TAG_PAGE_BYTES
    assert VECTORS["tag_max_chars"] == TAG_MAX_CHARS
    assert VECTORS["poll"] == encode_tags_poll()
    assert VECTORS["list"] == TAG_LIST_COMMAND


@pytest.mark.parametrize("case", VECTORS["requests"], ids=lambda c: c["name"])
def test_request_vectors(case: dict[str, Any]) -> None:
    line = encode_tags_request(
        case["request_id"], case["capability"], case["payload"], to=case.get("to")
    )
    assert line == case["line"]


@pytest.mark.parametrize("case", VECTORS["encode"], ids=lambda c: c["name"])
def test_encode_vectors(case: dict[str, Any]) -> None:
    tags = encode_page_tags(case["kind"], case["id"], case["text"], case["page_bytes"])
    assert tags == case["tags"]
    # ...and the list of them reads back to the same text.
    message = TagMessage(case["kind"], case["id"])
    for page in read_tag_list(", ".join(f"\u00a7a{t}\u00a7r" for t in tags)).pages:
        assert message.add(page) is None
    assert message.text() == case["text"]


@pytest.mark.parametrize("case", VECTORS["reads"], ids=lambda c: c["name"])
def test_read_vectors(case: dict[str, Any]) -> None:
    read = read_tag_list(case["text"])
    got = [
        {"kind": p.kind, "id": p.message_id, "index": p.index, "total": p.total}
        | {"text": p.payload.decode()}
        for p in read.pages
    ]
    assert got == case["pages"]


@pytest.mark.parametrize("case", VECTORS["ignored"], ids=lambda c: c["name"])
def test_ignored_vectors(case: dict[str, Any]) -> None:
    assert read_tag_list(case["text"]).pages == ()


@pytest.mark.parametrize("case", VECTORS["acks"], ids=lambda c: c["name"])
def test_ack_vectors(case: dict[str, Any]) -> None:
    assert encode_tags_acks([tuple(a) for a in case["acks"]]) == case["lines"]


def test_the_longest_page_tag_is_what_addtag_takes() -> None:
    tags = encode_page_tags("answer", "A" * 24, "\u00ff" * 1_048_576)
    assert max(len(t) for t in tags) == TAG_MAX_CHARS
    assert int(tags[0].split(".")[4]) <= TAG_MAX_PAGES


def test_ids_are_checked() -> None:
    with pytest.raises(ValueError, match="1-24 letters"):
        encode_page_tags("answer", "a.b", "x")
    with pytest.raises(ValueError, match="1-24 letters"):
        encode_tags_request("x" * 25, "list_capabilities")
    with pytest.raises(ValueError, match="not an ack"):
        encode_tags_acks([("ok", 0)])


def test_a_request_too_large_says_so() -> None:
    with pytest.raises(FrameTooLarge):
        encode_tags_request("r1", "run_world_command", {"command": "say " + "x" * 600})


def test_acks_split_to_fit_the_ceilings() -> None:
    acks = [(f"{i:012x}", 13444) for i in range(200)]
    lines = encode_tags_acks(acks)
    assert len(lines) > 1
    for line in lines:
        assert len(line.encode()) <= COMMAND_LINE_BUDGET_BYTES
        assert command_frame_bytes(line) <= COMMAND_FRAME_BUDGET_BYTES
    words = [w for line in lines for w in line.split()[2:]]
    assert words == [f"{i:012x}:13444" for i in range(200)]


def test_one_read_hands_on_a_bounded_number_of_pages() -> None:
    tags = encode_page_tags("answer", "big", "x" * (TAG_PAGE_BYTES * (READ_MAX_PAGES + 10)))
    read = read_tag_list(", ".join(tags))
    assert len(read.pages) == READ_MAX_PAGES
    assert read.skipped == 10


def test_a_message_refuses_what_does_not_belong() -> None:
    message = TagMessage("ui", "u1t1")
    assert message.add(TagPage("answer", "u1t1", 1, 1, b"")) == "foreign_page"
    assert message.add(TagPage("ui", "u1t1", 1, 2, b"ab")) is None
    assert message.add(TagPage("ui", "u1t1", 1, 2, b"ab")) is None  # the same again
    assert message.add(TagPage("ui", "u1t1", 1, 2, b"xy")) == "conflicting_duplicate"
    assert message.add(TagPage("ui", "u1t1", 2, 3, b"c")) == "total_changed"
    assert message.next_page == 2 and not message.complete
    with pytest.raises(ValueError, match="missing"):
        message.text()
    assert TagMessage("ui", "u2").add(TagPage("ui", "u2", 1, 10_000, b"")) == "too_many_pages"


def test_bytes_that_are_not_utf8_are_no_text() -> None:
    message = TagMessage("answer", "k")
    assert message.add(TagPage("answer", "k", 1, 1, b"\xff")) is None
    assert message.text() is None


def test_a_message_stops_at_its_byte_bound() -> None:
    message = TagMessage("answer", "k", max_bytes=300)
    assert message.add(TagPage("answer", "k", 1, 2, b"x" * 156)) is None
    assert message.add(TagPage("answer", "k", 2, 2, b"x" * 156)) == "message_too_large"


# --- properties ----------------------------------------------------------------------------

ids = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=24
)


@settings(max_examples=200, deadline=None)
@given(
    kind=st.sampled_from(["answer", "ui"]),
    message_id=ids,
    text=st.text(max_size=2000),
    page_bytes=st.integers(1, TAG_PAGE_BYTES),
    order=st.randoms(use_true_random=False),
)
def test_round_trip_in_any_order(
    kind: Any, message_id: str, text: str, page_bytes: int, order: random.Random
) -> None:
    text = text[: READ_MAX_PAGES * page_bytes // 4]  # pages one read hands on (tested above)
    tags = encode_page_tags(kind, message_id, text, page_bytes)
    assert all(len(t) <= TAG_MAX_CHARS and set(t) <= TAG_CHARS for t in tags)
    order.shuffle(tags)
    listed = f"Steve has {len(tags)} tags: " + ", ".join(f"\u00a7a{t}\u00a7r" for t in tags)
    message = TagMessage(kind, message_id)
    for page in read_tag_list(listed, page_bytes).pages:
        assert message.add(page) is None
    assert message.complete and message.text() == text


@settings(max_examples=200, deadline=None)
@given(payload=st.binary(max_size=TAG_PAGE_BYTES), message_id=ids)
def test_any_payload_bytes_come_back(payload: bytes, message_id: str) -> None:
    page = TagPage("answer", message_id, 1, 1, payload)
    read = read_tag_list(f"x has 1 tags: \u00a7a{format_page_tag(page)}\u00a7r")
    assert read.pages == (page,)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=600))
def test_any_text_reads_without_raising(text: str) -> None:
    read = read_tag_list(text)
    assert len(read.pages) <= READ_MAX_PAGES
    for page in read.pages:
        assert len(page.payload) <= TAG_PAGE_BYTES and 1 <= page.index <= page.total


@settings(max_examples=200, deadline=None)
@given(
    garbage=st.lists(
        st.text("abcmews.-_0123456789AZ\u00a7, ", max_size=40).filter(lambda g: "mcbews." not in g),
        max_size=20,
    ),
    message_id=ids,
    text=st.text(max_size=300),
)
def test_garbage_tags_beside_pages_are_ignored(
    garbage: list[str], message_id: str, text: str
) -> None:
    tags = encode_page_tags("answer", message_id, text)
    listed = ", ".join(garbage + tags)
    found = [p for p in read_tag_list(listed).pages if p.message_id == message_id]
    message = TagMessage("answer", message_id)
    for page in found:
        message.add(page)
    assert message.complete and message.text() == text
