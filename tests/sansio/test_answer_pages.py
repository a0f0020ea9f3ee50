"""Paged answers on the chat transport: the shared vectors, the bounds, any order of pages."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.sansio import (
    BridgeProtocol,
    BufferExpired,
    CapabilityFailed,
    CapabilityResult,
    RequestExpired,
)
from mcbews_repl.sansio import connection as connection_module
from mcbews_repl.sansio.answer_pages import AnswerPages, PageId, format_page_id, parse_page_id

from .helpers import bridge_chunks, chat_frame

BRIDGE = "MCBEWS_BRIDGE"
VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "vectors" / "answer_pages_v1.json").read_text("utf-8")
)


def proto_with(request_id: str) -> BridgeProtocol:
    """A connection whose next request gets ``request_id``, that request already sent."""
    proto = BridgeProtocol(new_id=lambda: request_id)
    proto.capability_request("get_inventory_snapshot", {}, now=0.0, timeout=60.0)
    return proto


def feed(proto: BridgeProtocol, lines: list[str], now: float = 1.0) -> list[Any]:
    events: list[Any] = []
    for line in lines:
        events += proto.receive_text(chat_frame(BRIDGE, line), now)
    return events


def paged_lines(request_id: str, pages: list[str], size: int = 5) -> list[str]:
    """Each page text cut into chunk lines under its page id (the addon's job)."""
    total = len(pages)
    return [
        line
        for k, text in enumerate(pages, start=1)
        for line in bridge_chunks("BRIDGE", format_page_id(request_id, k, total), text, size)
    ]


@pytest.mark.parametrize("case", VECTORS["answers"], ids=lambda c: c["name"])
def test_vector_lines_make_the_answer_in_any_order(case: dict[str, Any]) -> None:
    expected = json.loads(case["text"])
    lines = list(case["lines"])
    for seed in range(4):
        proto = proto_with(case["request_id"])
        random.Random(seed).shuffle(lines)
        events = feed(proto, lines)
        assert len(events) == 1 and isinstance(events[0], CapabilityResult)
        assert {"ok": True, "result": events[0].result} == {"result": {}, **expected}
        assert proto.pending_requests == 0
        assert proto._reassembler.buffer_count == 0


@pytest.mark.parametrize("case", VECTORS["page_ids"], ids=lambda c: c["id"])
def test_page_ids_parse_and_format(case: dict[str, Any]) -> None:
    page = PageId(case["request_id"], case["index"], case["total"])
    assert parse_page_id(case["id"]) == page
    assert format_page_id(page.request_id, page.index, page.total) == case["id"]


@pytest.mark.parametrize("case", VECTORS["not_page_ids"], ids=lambda c: c["why"])
def test_not_page_ids(case: dict[str, Any]) -> None:
    assert parse_page_id(case["id"]) is None


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(min_size=1, max_size=300),
    cuts=st.lists(st.integers(min_value=1, max_value=299), max_size=6),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_any_text_cut_into_any_pages_arrives_whole(text: str, cuts: list[int], seed: int) -> None:
    answer = json.dumps({"ok": True, "result": {"s": text}}, ensure_ascii=False)
    bounds = sorted({c for c in cuts if c < len(answer)})
    pages = [answer[a:b] for a, b in zip([0, *bounds], [*bounds, len(answer)], strict=True)]
    lines = paged_lines("abc123", pages)
    random.Random(seed).shuffle(lines)
    events = feed(proto_with("abc123"), lines)
    assert len(events) == 1 and isinstance(events[0], CapabilityResult)
    assert events[0].result == {"s": text}


def test_pages_disagreeing_on_the_total_fail_the_call() -> None:
    proto = proto_with("r9")
    one = bridge_chunks("BRIDGE", format_page_id("r9", 1, 2), '{"ok":true,', 4)
    other = bridge_chunks("BRIDGE", format_page_id("r9", 2, 3), '"result":{}}', 4)
    events = feed(proto, one + other)
    assert len(events) == 1 and isinstance(events[0], CapabilityFailed)
    assert "3 pages" in events[0].message
    assert proto.pending_requests == 0 and proto._reassembler.buffer_count == 0


def test_pages_over_the_byte_bound_fail_the_answer() -> None:
    pages = AnswerPages(total=3, max_bytes=10)
    assert pages.add(PageId("r", 1, 3), "12345") is None
    assert pages.add(PageId("r", 1, 3), "12345") is None  # a harmless repeat
    assert pages.add(PageId("r", 1, 3), "xxxxx") == "page 1 changed"
    assert "10 bytes" in (pages.add(PageId("r", 2, 3), "123456") or "")
    assert not pages.complete


def test_all_paged_answers_together_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection_module, "PAGED_ANSWERS_MAX_BYTES", 60)
    ids = iter(["p1", "p2"])
    proto = BridgeProtocol(new_id=lambda: next(ids))
    for _ in range(2):
        proto.capability_request("get_inventory_snapshot", {}, now=0.0)
    first = paged_lines("p1", ['{"ok":true,"result":{"s":"' + "a" * 20, '"}}'])
    second = paged_lines("p2", ['{"ok":true,"result":{"s":"' + "b" * 20, '"}}'])
    assert feed(proto, first[:-1]) == []  # p1's first page is held: 46 bytes of 60
    failed = feed(proto, second[:-1])  # p2's would make 92
    assert len(failed) == 1 and isinstance(failed[0], CapabilityFailed)
    assert failed[0].request_id == "p2" and "more than 60 bytes" in failed[0].message
    done = feed(proto, first[-1:])  # p1 still completes, and its bytes are released
    assert isinstance(done[0], CapabilityResult) and done[0].result == {"s": "a" * 20}
    assert proto._paged_bytes == 0


def test_forgetting_a_request_drops_its_page_buffers_and_pages() -> None:
    proto = proto_with("r5")
    lines = paged_lines("r5", ['{"ok":true,"result":', '{"s":"x"}}', "  "])
    assert feed(proto, lines[:-2]) == []  # page 1 complete, page 2 started
    assert proto._reassembler.buffer_count == 1 and proto._paged_bytes > 0
    assert proto.forget("r5")
    assert proto._reassembler.buffer_count == 0 and proto._paged_bytes == 0
    assert feed(proto, lines[-2:])[0].reason == "unknown_request_id"


def test_an_expired_page_buffer_expires_its_request() -> None:
    proto = proto_with("r6")
    lines = paged_lines("r6", ['{"ok":true,"result":', '{"s":"x"}}'])
    assert feed(proto, lines[:-1], now=1.0) == []
    events = proto.expire(now=40.0)  # the buffer TTL (30 s) passes before the call (60 s)
    assert any(isinstance(e, BufferExpired) for e in events)
    assert not any(isinstance(e, RequestExpired) for e in events)
    assert proto.pending_requests == 0 and proto._paged_bytes == 0


def test_a_page_of_nobody_is_rejected_as_unknown() -> None:
    proto = proto_with("r7")
    events = feed(proto, paged_lines("zz", ['{"ok":true,', '"result":{}}']))
    assert {e.reason for e in events} == {"unknown_request_id"}
    assert proto.pending_requests == 1
