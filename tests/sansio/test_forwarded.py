"""Forwarded batches: the shared vectors (the addon's vitest suite reads the same file), the
bounds, a round trip of any events the vocabulary knows, and junk that never raises."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.game_events import ADDON_EVENTS, Field
from mcbews_repl.sansio import (
    FORWARD_BATCH_MAX_BYTES,
    FORWARD_BATCH_MAX_EVENTS,
    ForwardedBatch,
    FrameRejected,
    UiChatMessage,
    encode_forwarded,
    interpret_ui_chat,
)
from mcbews_repl.sansio.jsonwire import utf8_len

VECTORS = json.loads(
    (Path(__file__).parents[1] / "vectors" / "forwarded_v1.json").read_text(encoding="utf-8")
)


def values(event: Any) -> dict[str, Any]:
    return {f.name: v for f in fields(event) if (v := getattr(event, f.name)) is not None}


@pytest.mark.parametrize("case", VECTORS["batches"], ids=lambda c: c["name"])
def test_a_vector_batch_decodes_to_its_events(case: dict[str, Any]) -> None:
    batch = interpret_ui_chat("fw-1-1", case["text"])
    assert isinstance(batch, ForwardedBatch)
    assert batch.tick == case["tick"] and batch.refused == 0
    assert [{"event": type(e).name, **values(e)} for e in batch.events] == case["decoded"]
    assert [list(d) for d in batch.dropped] == case.get("dropped", [])
    assert batch.size == utf8_len(case["text"])


@pytest.mark.parametrize("case", VECTORS["batches"], ids=lambda c: c["name"])
def test_the_bridges_encoder_writes_the_vector_text(case: dict[str, Any]) -> None:
    events = [(kind, fields) for kind, fields in case["events"]]
    assert encode_forwarded(case["tick"], events, case.get("drop")) == case["text"]


@pytest.mark.parametrize("case", VECTORS["left_out"], ids=lambda c: c["name"])
def test_an_unreadable_event_is_left_out_and_counted(case: dict[str, Any]) -> None:
    batch = interpret_ui_chat("fw-1-1", case["text"])
    assert isinstance(batch, ForwardedBatch)
    assert (len(batch.events), batch.refused) == (case["kept"], case["refused"])
    assert batch.refused_detail


@pytest.mark.parametrize("case", VECTORS["refused"], ids=lambda c: c["name"])
def test_a_malformed_batch_is_refused(case: dict[str, Any]) -> None:
    refused = interpret_ui_chat("fw-1-1", case["text"])
    assert isinstance(refused, FrameRejected)
    assert (refused.reason, refused.message_id) == (case["reason"], "fw-1-1")


def test_the_vectors_read_every_addon_kind_with_the_vocabularys_keys() -> None:
    """The addon's reader (vectors "read") writes only keys the vocabulary reads."""
    assert {c["kind"] for c in VECTORS["read"]} == set(ADDON_EVENTS)
    for case in VECTORS["read"]:
        keys = {f.path[0] for f in ADDON_EVENTS[case["kind"]].fields}
        assert set(case["fields"]) <= keys, case["name"]


def test_a_batch_past_its_bounds_is_refused() -> None:
    many = [("player_leave", {"p": "Alex"})] * (FORWARD_BATCH_MAX_EVENTS + 1)
    with pytest.raises(ValueError):
        encode_forwarded(1, many)
    text = encode_forwarded(1, many[:-1])[:-2] + ',[0,{"p":"Kai"}]]}'
    refused = interpret_ui_chat("m", text)
    assert isinstance(refused, FrameRejected) and refused.reason == "forwarded_too_large"
    padded = encode_forwarded(1, [])[:-1] + ',"pad":"' + "x" * FORWARD_BATCH_MAX_BYTES + '"}'
    refused = interpret_ui_chat("m", padded)
    assert isinstance(refused, FrameRejected) and "16,384" in refused.detail


def test_a_panel_message_is_still_a_panel_message() -> None:
    said = interpret_ui_chat("ui-1-1", '{"player":"Steve","message":"fwd: hello"}')
    assert isinstance(said, UiChatMessage) and said.message == "fwd: hello"


# --- properties --------------------------------------------------------------------------

_TEXT = st.text(min_size=1, max_size=20)


def _value(field: Field) -> st.SearchStrategy[Any]:
    match field.type:
        case "str":
            return _TEXT
        case "int":
            return st.integers(-(2**31), 2**31)
        case "float":
            return st.integers(-30_000_000, 30_000_000) | st.floats(-1e6, 1e6)
        case "bool":
            return st.booleans()
        case _:  # a type id
            return st.from_regex(r"\A[a-z_]{1,12}:[a-z_]{1,20}\Z")


@st.composite
def _event(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    name = draw(st.sampled_from(sorted(ADDON_EVENTS)))
    specs = ADDON_EVENTS[name].fields
    chosen = draw(st.lists(st.sampled_from(specs), unique_by=lambda f: f.path, max_size=8))
    return name, {f.path[0]: draw(_value(f)) for f in chosen}


@given(
    st.integers(0, 2**40),
    st.lists(_event(), max_size=FORWARD_BATCH_MAX_EVENTS),
    st.dictionaries(st.sampled_from(sorted(ADDON_EVENTS)), st.integers(1, 10**6), max_size=4),
)
def test_any_batch_round_trips(tick: int, events: list[Any], dropped: dict[str, int]) -> None:
    try:
        text = encode_forwarded(tick, events, dropped)
    except ValueError:
        return  # past the byte bound: not a batch the addon sends
    batch = interpret_ui_chat("fw-1-1", text)
    assert isinstance(batch, ForwardedBatch)
    assert (batch.tick, batch.refused, dict(batch.dropped)) == (tick, 0, dropped)
    assert [type(e).name for e in batch.events] == [name for name, _ in events]
    for event, (name, body) in zip(batch.events, events, strict=True):
        for field in ADDON_EVENTS[name].fields:
            sent = body.get(field.path[0])
            if sent is None or field.type not in ("int", "bool", "str"):
                continue
            assert getattr(event, field.name) == (sent[:256] if field.type == "str" else sent)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(st.dictionaries(st.sampled_from(["fwd", "t", "k", "ev", "drop", "x"]), _JSON))
def test_any_junk_with_the_marker_never_raises(junk: dict[str, Any]) -> None:
    junk["fwd"] = junk.get("fwd", 1)
    event = interpret_ui_chat("m", json.dumps(junk))
    assert isinstance(event, ForwardedBatch | FrameRejected)


@given(st.text(max_size=200))
def test_any_text_never_raises(text: str) -> None:
    event = interpret_ui_chat("m", '{"fwd":1,' + text)
    assert isinstance(event, ForwardedBatch | FrameRejected | UiChatMessage)
