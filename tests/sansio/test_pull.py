"""The pull transport's codec: the shared vectors, then properties over any input."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.exceptions import FrameTooLarge
from mcbews_repl.sansio import command_frame_bytes
from mcbews_repl.sansio.bridge import UI_CHAT_MAX_BYTES
from mcbews_repl.sansio.bulk import join_parts, parse_bulk_line
from mcbews_repl.sansio.pull import (
    MAX_PAGES,
    UI_MAX_PAGES,
    Empty,
    NotKept,
    Page,
    PageSet,
    ReplyRejected,
    Wait,
    decode_reply,
    encode_ask,
    encode_poll,
    encode_pull,
    encode_pull_request,
    format_page,
    max_pages,
    request_text,
    split_pages,
)
from mcbews_repl.sansio.wire import MAX_MESSAGE_BYTES, PULL_PAGE_BYTES

VECTORS = json.loads(
    (Path(__file__).parents[1] / "vectors" / "pull_v1.json").read_text(encoding="utf-8")
)


def by_name(section: str) -> Any:
    return pytest.mark.parametrize("case", VECTORS[section], ids=lambda c: c["name"])


# --- the vectors ---------------------------------------------------------------------------


@by_name("asks")
def test_asks_encode_exactly(case: dict[str, Any]) -> None:
    args = (case["request_id"], case["capability"], case["payload"])
    assert request_text(*args) == case["json"]
    assert encode_ask(*args) == case["line"]
    request = encode_pull_request(*args)
    assert request.inline and request.command_line == case["line"]


@by_name("commands")
def test_pull_and_poll_lines(case: dict[str, Any]) -> None:
    line = encode_pull(case["id"], case["page"]) if "id" in case else encode_poll()
    assert line == case["line"]


@by_name("pages")
def test_pages_split_exactly(case: dict[str, Any]) -> None:
    assert split_pages(case["text"], case["page_bytes"]) == case["pages"]


@by_name("replies")
def test_replies_decode(case: dict[str, Any]) -> None:
    reply = decode_reply(case["line"])
    match case["type"]:
        case "page":
            expected = Page(case["kind"], case["id"], case["index"], case["total"], case["content"])
            assert reply == expected
            assert format_page(expected) == case["line"]
        case "wait":
            assert reply == Wait(case["id"])
        case "none":
            assert reply == NotKept(case["id"], case["reason"])
        case "empty":
            assert reply == Empty()


@by_name("bad_replies")
def test_bad_replies_are_rejected_with_a_reason(case: dict[str, Any]) -> None:
    reply = decode_reply(case["line"])
    assert isinstance(reply, ReplyRejected)
    assert reply.reason == case["reason"]


# --- requests ------------------------------------------------------------------------------

payloads = st.dictionaries(
    st.text(max_size=8),
    st.one_of(st.text(max_size=80), st.integers(), st.lists(st.text(max_size=12), max_size=30)),
    max_size=4,
)


@given(payload=payloads, request_id=st.from_regex(r"[A-Za-z0-9]{1,16}", fullmatch=True))
@settings(max_examples=300)
def test_a_request_fits_both_ceilings_or_is_refused(
    payload: dict[str, Any], request_id: str
) -> None:
    try:
        request = encode_pull_request(request_id, "run_world_command", payload)
    except FrameTooLarge as exc:
        assert exc.over_by_bytes > 0
        assert encode_ask(request_id, "run_world_command", payload) is None
        return
    line = request.command_line
    for each in request.lines:
        assert len(each.encode()) <= 461 and command_frame_bytes(each) <= 661
    if len(request.lines) > 1:  # too large for one line: bulk parts (test_bulk.py)
        assert encode_ask(request_id, "run_world_command", payload) is None
        joined = join_parts([p for p in map(parse_bulk_line, request.lines) if p is not None])
        body = json.loads(joined or "")
    elif request.inline:
        word = line.removeprefix("mcbews:ask ")
        assert " " not in word and set(word) <= set("0123456789abcdef")
        body = json.loads(bytes.fromhex(word).decode("ascii"))
    else:
        assert encode_ask(request_id, "run_world_command", payload) is None
        body = json.loads(line.split(" ", 2)[2])
    assert body == {
        "v": 2,
        "request_id": request_id,
        "capability": "run_world_command",
        "payload": payload,
    }


def test_bad_ids_and_capability_names_are_refused_before_anything_is_sent() -> None:
    with pytest.raises(ValueError, match="letters and digits"):
        encode_pull_request("r-1", "list_capabilities")
    with pytest.raises(ValueError, match="without spaces"):
        encode_pull_request("r1", "list capabilities")
    with pytest.raises(ValueError, match="page must be"):
        encode_pull("r1", 0)
    with pytest.raises(TypeError, match="JSON-serializable"):
        encode_pull_request("r1", "x", {"a": object()})


# --- pages ---------------------------------------------------------------------------------


@given(text=st.text(max_size=3000), page_bytes=st.integers(4, 300))
@settings(max_examples=300)
def test_pages_rejoin_fit_and_are_as_full_as_they_can_be(text: str, page_bytes: int) -> None:
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    pages = split_pages(text, page_bytes)
    assert "".join(pages) == text
    for page, following in itertools.pairwise(pages):
        size = len(page.encode())
        assert size <= page_bytes
        assert size + len(following[0].encode()) > page_bytes  # the next code point did not fit
    assert len(pages[-1].encode()) <= page_bytes


ids = st.from_regex(r"[A-Za-z0-9]{1,64}", fullmatch=True)


@given(
    text=st.text(min_size=1, max_size=4000),
    message_id=ids,
    kind=st.sampled_from(["answer", "ui"]),
    seed=st.integers(0, 2**32),
    dup=st.integers(0, 5),
)
@settings(max_examples=200)
def test_pages_through_the_wire_in_any_order_and_duplication_rejoin(
    text: str, message_id: str, kind: Any, seed: int, dup: int
) -> None:
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    contents = split_pages(text, 64)
    lines = [
        format_page(Page(kind, message_id, i, len(contents), c))
        for i, c in enumerate(contents, start=1)
    ]
    rng = random.Random(seed)
    lines += [rng.choice(lines) for _ in range(dup)]
    rng.shuffle(lines)
    pages = PageSet(kind, message_id, page_bytes=64)
    for line in lines:
        page = decode_reply(line, page_bytes=64)
        assert isinstance(page, Page)
        assert pages.add(page) is None
    assert pages.complete and pages.missing() == []
    assert pages.text() == text


def test_a_page_set_refuses_what_does_not_belong() -> None:
    pages = PageSet("answer", "r1", max_bytes=10, page_bytes=4)
    assert pages.missing() == [1] and not pages.complete
    assert pages.add(Page("answer", "r1", 1, 3, "abcd")) is None
    assert pages.missing() == [2, 3]
    assert pages.add(Page("answer", "r2", 2, 3, "x")) == "foreign_page"
    assert pages.add(Page("ui", "r1", 2, 3, "x")) == "foreign_page"
    assert pages.add(Page("answer", "r1", 2, 4, "x")) == "total_changed"
    assert pages.add(Page("answer", "r1", 1, 3, "abcX")) == "conflicting_duplicate"
    assert pages.add(Page("answer", "r1", 1, 3, "abcd")) is None  # an identical duplicate
    assert pages.add(Page("answer", "r1", 2, 3, "efghijk")) == "message_too_large"
    with pytest.raises(ValueError, match="missing"):
        pages.text()


def test_a_first_page_saying_more_pages_than_the_bound_allows_is_refused() -> None:
    assert (MAX_PAGES, UI_MAX_PAGES) == (2055, 65)  # 2 MiB and 64 KiB of 1 KiB pages
    ui = PageSet("ui", "u1")
    assert ui.max_bytes == UI_CHAT_MAX_BYTES == MAX_MESSAGE_BYTES
    assert ui.add(Page("ui", "u1", 1, UI_MAX_PAGES + 1, "x")) == "too_many_pages"
    assert ui.missing() == [1]  # nothing kept, nothing to pull
    assert ui.add(Page("ui", "u1", 1, UI_MAX_PAGES, "x")) is None
    answer = PageSet("answer", "r1")
    assert answer.add(Page("answer", "r1", 1, UI_MAX_PAGES + 1, "x")) is None


@given(text=st.text(max_size=600), page_bytes=st.integers(4, 64), spare=st.integers(0, 100))
def test_no_text_within_a_bound_takes_more_pages_than_its_bound_allows(
    text: str, page_bytes: int, spare: int
) -> None:
    text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    size = len(text.encode())
    pages = split_pages(text, page_bytes)
    assert len(pages) <= max_pages(size + spare, page_bytes) or size == 0


@given(st.text(max_size=300))
@settings(max_examples=500)
def test_decoding_never_raises(text: str) -> None:
    reply = decode_reply(text)
    assert isinstance(reply, Page | Wait | NotKept | Empty | ReplyRejected)


@given(prefix=st.sampled_from(["MCBEWS|ANSWER|", "MCBEWS|UI|", "MCBEWS|WAIT|", "MCBEWS|NONE|"]),
       rest=st.text(max_size=80))  # fmt: skip
@settings(max_examples=500)
def test_near_misses_never_raise(prefix: str, rest: str) -> None:
    reply = decode_reply(prefix + rest)
    if isinstance(reply, Page):
        assert 1 <= reply.index <= reply.total <= MAX_PAGES
        assert len(reply.content.encode("utf-8", "surrogatepass")) <= PULL_PAGE_BYTES


def test_a_page_over_the_page_size_is_rejected() -> None:
    line = format_page(Page("answer", "r1", 1, 1, "x" * (PULL_PAGE_BYTES + 1)))
    assert decode_reply(line) == ReplyRejected(
        "page_too_large", f"{PULL_PAGE_BYTES + 1} bytes > {PULL_PAGE_BYTES}"
    )
