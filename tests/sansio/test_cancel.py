"""``scriptevent mcbews:cancel``: the shared vectors, and every line within both ceilings."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.sansio.cancel import CANCEL_ID, encode_cancel
from mcbews_repl.sansio.frames import command_frame_bytes
from mcbews_repl.sansio.wire import (
    CANCEL_EVENT,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
)

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parents[1] / "vectors" / "cancel_v1.json").read_text(encoding="utf-8")
)
IDS = st.text(alphabet="abcdefABCDEF0123456789xyz", min_size=1, max_size=64)


@pytest.mark.parametrize("case", VECTORS["encode"], ids=lambda c: c["name"])
def test_encode_vectors(case: dict[str, Any]) -> None:
    assert encode_cancel(case["ids"]) == case["lines"]


@pytest.mark.parametrize("case", VECTORS["encode_budget"], ids=lambda c: c["name"])
def test_encode_within_a_budget(case: dict[str, Any]) -> None:
    assert encode_cancel(case["ids"], budget_bytes=case["budget_bytes"]) == case["lines"]


@pytest.mark.parametrize("case", VECTORS["encode_refused"], ids=lambda c: c["name"])
def test_an_id_that_is_not_a_bare_word_is_refused(case: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="letters and digits"):
        encode_cancel(["ok1", case["id"]])


@given(st.lists(IDS, max_size=200))
def test_every_id_once_every_line_within_both_ceilings(ids: list[str]) -> None:
    lines = encode_cancel(ids)
    named = [word for line in lines for word in line.split()[2:]]
    assert named == list(dict.fromkeys(ids))
    for line in lines:
        assert line.startswith(f"scriptevent {CANCEL_EVENT} ")
        assert len(line.encode()) <= COMMAND_LINE_BUDGET_BYTES
        assert command_frame_bytes(line) <= COMMAND_FRAME_BUDGET_BYTES
        assert all(CANCEL_ID.fullmatch(word) for word in line.split()[2:])


@given(st.lists(IDS, min_size=2, max_size=60))
def test_a_line_is_only_cut_when_the_next_id_would_not_fit(ids: list[str]) -> None:
    lines = encode_cancel(ids, budget_bytes=120)
    for line, after in itertools.pairwise(lines):
        first_of_next = after.split()[2]
        assert len(f"{line} {first_of_next}".encode()) > 120
