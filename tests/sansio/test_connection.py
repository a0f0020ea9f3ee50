"""The sans-I/O connection object: requests out, frames in, events out."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl import FrameTooLarge
from mcbews_repl.sansio import (
    BridgeProtocol,
    BufferExpired,
    CapabilityFailed,
    CapabilityResult,
    ChatMessage,
    CommandResponse,
    FrameRejected,
    RequestExpired,
    UiChatMessage,
)
from mcbews_repl.sansio.wire import BULK_REQUEST_MAX_BYTES

from .helpers import bridge_chunks, chat_frame

BRIDGE = "MCBEWS_BRIDGE"


def answer_frames(
    request_id: str, answer: object, size: int = 7, legacy: bool = False
) -> list[str]:
    payload = json.dumps(answer, ensure_ascii=False).replace("@", "\\u0040")
    return [
        chat_frame(BRIDGE, line, legacy=legacy)
        for line in bridge_chunks("BRIDGE", request_id, payload, size)
    ]


def test_request_line_carries_the_request() -> None:
    proto = BridgeProtocol(new_id=lambda: "req-1")
    request = proto.capability_request("get_player_snapshot", {"target": "@s"}, now=0)
    assert request.request_id == "req-1"
    assert request.command_line.startswith("scriptevent mcbews:bridge_req {")
    assert proto.pending_requests == 1


@pytest.mark.parametrize("legacy", [False, True])
def test_capability_round_trip_any_order(legacy: bool) -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("get_player_snapshot", {}, now=0).request_id
    frames = answer_frames(
        rid, {"ok": True, "result": {"name": "Steve", "sel": "@a"}}, legacy=legacy
    )
    random.Random(3).shuffle(frames)
    events = [e for f in frames + frames[:1] for e in proto.receive_text(f, 1.0)]
    results = [e for e in events if isinstance(e, CapabilityResult)]
    assert results == [CapabilityResult(rid, "get_player_snapshot", {"name": "Steve", "sel": "@a"})]
    assert not any(isinstance(e, ChatMessage) for e in events)  # bridge chat is intercepted
    assert proto.pending_requests == 0
    assert proto.counters["unknown_request_id"] == 1  # the late duplicate


def test_error_answer_becomes_capability_failed() -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("fly", {}, now=0).request_id
    answer = {"ok": False, "error": {"code": "UNSUPPORTED_CAPABILITY", "message": "no fly"}}
    events = [e for f in answer_frames(rid, answer) for e in proto.receive_text(f, 0)]
    assert events == [CapabilityFailed(rid, "fly", "UNSUPPORTED_CAPABILITY", "no fly")]


def test_conflicting_answer_fails_the_request_at_once() -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("cap", {}, now=0).request_id
    proto.receive_text(chat_frame(BRIDGE, f'MCBEWS|BRIDGE|{rid}|1/2|{{"ok"'), 0)
    (event,) = proto.receive_text(chat_frame(BRIDGE, f'MCBEWS|BRIDGE|{rid}|1/2|{{"no"'), 0)
    assert isinstance(event, CapabilityFailed) and event.code == "MALFORMED_RESPONSE"
    assert "conflicting_duplicate" in event.message
    assert proto.pending_requests == 0


def test_chunks_for_unknown_requests_are_ignored_and_counted() -> None:
    proto = BridgeProtocol()
    (event,) = proto.receive_text(chat_frame(BRIDGE, "MCBEWS|BRIDGE|nobody|1/1|{}"), 0)
    assert isinstance(event, FrameRejected) and event.reason == "unknown_request_id"
    assert proto.counters["unknown_request_id"] == 1


def test_prefix_from_another_sender_is_diagnosed_not_bridged() -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("cap", {}, now=0).request_id
    events = proto.receive_text(chat_frame("Steve", f'MCBEWS|BRIDGE|{rid}|1/1|{{"ok":true}}'), 0)
    assert isinstance(events[0], ChatMessage)
    assert isinstance(events[1], FrameRejected)
    assert events[1].reason == "bridge_prefix_not_matched"
    assert proto.pending_requests == 1
    (_, other) = proto.receive_text(chat_frame(BRIDGE, "MCBEWS|OTHER|x|1/1|{}"), 0)
    assert isinstance(other, FrameRejected) and other.reason == "bridge_prefix_not_matched"
    assert proto.counters["bridge_prefix_not_matched"] == 2


def test_ui_chat_reassembles_and_validates() -> None:
    proto = BridgeProtocol()
    payload = json.dumps({"player": "Steve", "message": "你好世界 @a"}, ensure_ascii=False)
    lines = bridge_chunks("UI_CHAT", "ui-1", payload, 5)
    events = [
        e for line in reversed(lines) for e in proto.receive_text(chat_frame(BRIDGE, line), 0)
    ]
    assert events == [UiChatMessage("ui-1", "Steve", "你好世界 @a")]
    (bad,) = proto.receive_text(
        chat_frame(BRIDGE, 'MCBEWS|UI_CHAT|ui-2|1/1|{"player":"Steve","message":""}'), 0
    )
    assert isinstance(bad, FrameRejected) and bad.reason == "ui_chat_malformed"


def test_duplicates_are_counted_and_broken_ui_chat_is_rejected() -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("cap", {}, now=0).request_id
    first = chat_frame(BRIDGE, f'MCBEWS|BRIDGE|{rid}|1/2|{{"ok":')
    assert proto.receive_text(first, 0) == []
    assert proto.receive_text(first, 0) == []  # the same chunk again is harmless
    assert proto.counters["duplicate_chunks"] == 1
    (done,) = proto.receive_text(chat_frame(BRIDGE, f"MCBEWS|BRIDGE|{rid}|2/2|true}}"), 0)
    assert done == CapabilityResult(rid, "cap", {})
    proto.receive_text(chat_frame(BRIDGE, "MCBEWS|UI_CHAT|u|1/2|{"), 0)
    (bad,) = proto.receive_text(chat_frame(BRIDGE, "MCBEWS|UI_CHAT|u|1/3|{"), 0)
    assert bad == FrameRejected("total_changed", "total 3 after 2", "u")
    assert proto.counters["rejected:total_changed"] == 1


def test_plain_chat_and_command_responses_pass_through() -> None:
    proto = BridgeProtocol()
    (chat,) = proto.receive_text(chat_frame("Steve", "hello", type_="chat"), 0)
    assert isinstance(chat, ChatMessage) and chat.message == "hello"
    assert proto.protocol_version == 17039360
    frame = json.dumps(
        {
            "header": {"requestId": "abc", "messagePurpose": "commandResponse"},
            "body": {"statusCode": 0, "statusMessage": "ok"},
        }
    )
    (resp,) = proto.receive_text(frame, 0)
    assert isinstance(resp, CommandResponse) and resp.ok


def test_deadlines_and_ttl_expire() -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("cap", {}, now=10.0, timeout=5.0).request_id
    proto.receive_text(chat_frame(BRIDGE, f"MCBEWS|BRIDGE|{rid}|1/3|{{"), 11.0)
    assert proto.expire(14.9) == []
    assert proto.expire(15.0) == [RequestExpired(rid, "cap", 1)]
    assert proto.pending_requests == 0
    ui = chat_frame(BRIDGE, "MCBEWS|UI_CHAT|u|1/2|{")
    proto.receive_text(ui, 20.0)
    assert proto.expire(50.0) == [BufferExpired("ui_chat", "u", 1, 2)]


def test_forget_drops_request_and_buffer() -> None:
    proto = BridgeProtocol()
    rid = proto.capability_request("cap", {}, now=0).request_id
    proto.receive_text(chat_frame(BRIDGE, f"MCBEWS|BRIDGE|{rid}|1/2|{{"), 0)
    assert proto.chunks_received(rid) == 1
    assert proto.forget(rid) is True
    (late,) = proto.receive_text(chat_frame(BRIDGE, f"MCBEWS|BRIDGE|{rid}|2/2|}}"), 0)
    assert isinstance(late, FrameRejected) and late.reason == "unknown_request_id"


def test_request_over_one_line_goes_as_parts_and_over_the_bulk_bound_is_refused() -> None:
    proto = BridgeProtocol()
    request = proto.capability_request("cap", {"text": "x" * 500}, now=0)
    assert len(request.lines) == 2 and request.command_line == request.lines[-1]
    assert all(line.startswith("scriptevent mcbews:bulk ") for line in request.lines)
    proto.forget(request.request_id)
    with pytest.raises(FrameTooLarge, match="split it") as info:
        proto.capability_request("cap", {"text": "x" * BULK_REQUEST_MAX_BYTES}, now=0)
    assert info.value.over_by_bytes > 0
    assert proto.pending_requests == 0
    with pytest.raises(ValueError, match="capability must be a name"):
        proto.capability_request("two words", {}, now=0)
    with pytest.raises(TypeError, match="JSON-serializable"):
        proto.capability_request("cap", {"x": object()}, now=0)


junk_lines = st.one_of(
    st.text(max_size=200),
    st.builds(
        lambda a, b, c, d: f"MCBEWS|{a}|{b}|{c}|{d}",
        st.sampled_from(["BRIDGE", "UI_CHAT", "X", ""]),
        st.text(max_size=6),
        st.text(alphabet="0123456789/-", max_size=6),
        st.text(max_size=40),
    ),
)


@given(
    lines=st.lists(junk_lines, max_size=40),
    sender=st.sampled_from([BRIDGE, "Steve", ""]),
    raw=st.lists(st.text(max_size=80), max_size=5),
)
@settings(max_examples=200)
def test_malformed_input_never_raises(lines: list[str], sender: str, raw: list[str]) -> None:
    proto = BridgeProtocol(new_id=lambda: "1")
    proto.capability_request("cap", {}, now=0, timeout=5.0)
    for k, line in enumerate(lines):
        proto.receive_text(chat_frame(sender, line), float(k))
    for text in raw:
        proto.receive_text(text, 0.0)
    proto.expire(1000.0)
    assert proto.pending_requests == 0
    # Counters are keyed by our own reason codes, never by what the peer sent: junk of any
    # variety cannot grow them into a store of remote strings.
    for key in proto.counters:
        assert re.fullmatch(r"[a-z_]+(:[a-z_]+)?", key) and len(key) <= 48, key


def _flood_frames(count: int, total: int = 128, size: int = 200) -> list[str]:
    """Partial UI chat streams that never complete: the first chunk of each."""
    return [
        chat_frame(BRIDGE, f"MCBEWS|UI_CHAT|flood{k}|1/{total}|" + "z" * size) for k in range(count)
    ]


def test_a_chunk_flood_cannot_block_answers_to_our_requests() -> None:
    proto = BridgeProtocol()
    for frame in _flood_frames(300):
        proto.receive_text(frame, 1.0)
    # Unsolicited streams stop at their share: the rest is kept for answers.
    assert proto.counters["rejected:too_many_buffers"] == 300 - 32
    rids = [proto.capability_request("get_inventory_snapshot", {}, now=2.0).request_id]
    rids += [proto.capability_request("list_capabilities", {}, now=2.0).request_id]
    answers = {rid: {"ok": True, "result": {"rows": ["x" * 300] * 20}} for rid in rids}
    frames = [f for rid in rids for f in answer_frames(rid, answers[rid], size=250)]
    random.Random(5).shuffle(frames)  # two multi-chunk answers, interleaved
    events = [e for f in frames for e in proto.receive_text(f, 3.0)]
    assert sorted(e.request_id for e in events if isinstance(e, CapabilityResult)) == sorted(rids)
    assert proto.pending_requests == 0
    # The flood's buffers are still held until their TTL (30 s), then expire.
    assert len([e for e in proto.expire(31.0) if isinstance(e, BufferExpired)]) == 32


def test_a_byte_flood_of_few_streams_cannot_exhaust_the_answer_share() -> None:
    proto = BridgeProtocol()
    # Long unsolicited streams (each within the 64 KiB message cap) fill bytes, not buffers.
    for k in range(6):
        lines = bridge_chunks("UI_CHAT", f"big{k}", "q" * 250 * 128, 250)[:127]
        for line in lines:
            proto.receive_text(chat_frame(BRIDGE, line), 1.0)
    assert proto.counters["rejected:buffer_space_exhausted"] >= 1
    rid = proto.capability_request("get_inventory_snapshot", {}, now=2.0).request_id
    big = {"ok": True, "result": {"rows": ["y" * 250] * 120}}  # ~30 KB in 123 chunks
    frames = answer_frames(rid, big, size=250)
    events = [e for f in frames for e in proto.receive_text(f, 3.0)]
    assert [type(e) for e in events] == [CapabilityResult]


def test_ui_chat_with_huge_ids_is_refused_and_holds_nothing() -> None:
    import tracemalloc

    proto = BridgeProtocol()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for i in range(300):  # each frame half a megabyte, all of it the message id
            line = f"MCBEWS|UI_CHAT|{i}-{'i' * 500_000}|1/1|{{}}"
            (event,) = proto.receive_text(chat_frame(BRIDGE, line), 0)
            assert isinstance(event, FrameRejected) and event.reason == "bad_id"
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 1 << 20, f"{held:,} bytes held after 300 refused messages"
    assert proto.counters["rejected:bad_id"] == 300
    assert len(event.message_id or "") == 64 and "500,00" in event.detail


def test_closing_drops_partial_messages() -> None:
    proto = BridgeProtocol()
    proto.receive_text(chat_frame(BRIDGE, "MCBEWS|UI_CHAT|u|1/2|" + "x" * 200), 0)
    assert proto.buffered_bytes == 200
    proto.drop_buffers()
    assert proto.buffered_bytes == 0
    (event,) = proto.receive_text(chat_frame(BRIDGE, 'MCBEWS|UI_CHAT|u|1/1|{"player":"S"}'), 0)
    assert isinstance(event, FrameRejected) and event.reason == "ui_chat_malformed"
