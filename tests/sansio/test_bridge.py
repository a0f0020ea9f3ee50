"""Reading a reassembled answer: the JSON fast path must read exactly as ``json.loads``."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.sansio.bridge import _load_object


def loads_object(text: str) -> dict[str, Any] | str:
    """What _load_object must return: json.loads, then the root must be an object."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {exc}"
    if not isinstance(value, dict):
        return f"JSON root is {type(value).__name__}, not an object"
    return value


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
_blank = st.text(" \t\r\n", max_size=3)


@given(value=_values, before=_blank, after=_blank, tail=st.sampled_from(["", "x", "{}", "]"]))
@settings(max_examples=500)
def test_answer_json_reads_as_json_loads(value: Any, before: str, after: str, tail: str) -> None:
    text = before + json.dumps(value, ensure_ascii=False) + after + tail
    assert repr(_load_object(text)) == repr(loads_object(text))


@given(text=st.text(alphabet='{}[]":,0123456789.eE-+ \ntrufalsn\\\ufeff', max_size=30))
@settings(max_examples=500)
def test_any_text_reads_as_json_loads(text: str) -> None:
    assert repr(_load_object(text)) == repr(loads_object(text))


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    text = "[" * 100_000 + "]" * 100_000
    assert _load_object(text) == loads_object(text)
    assert str(_load_object(text)).startswith("not JSON")
