"""The game event codec: any body decodes to a typed event or a refusal, never an
exception; values of the right types come back as they went, strings bounded."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.game_events import GAME_EVENTS, GameEventKind
from mcbews_repl.sansio import FrameRejected, GameEventReceived, decode_frame
from mcbews_repl.sansio.game_events import EVENT_TEXT_CHARS, decode_game_event

KINDS = [k for k in GAME_EVENTS.values() if not k.always]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)
_VALUES = {"str": st.text(max_size=300), "int": st.integers(-(2**40), 2**40),
           "float": st.floats(-1e6, 1e6), "bool": st.booleans(),
           "id": st.tuples(st.sampled_from(["minecraft", "mymod"]),
                           st.from_regex(r"[a-z_]{1,12}", fullmatch=True)),
           "type_id": st.from_regex(r"minecraft:[a-z_]{1,12}", fullmatch=True)}  # fmt: skip


def _put(body: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    for key in path[:-1]:
        body = body.setdefault(key, {})
    body[path[-1]] = value


@st.composite
def filled(draw: st.DrawFn) -> tuple[GameEventKind, dict[str, Any], dict[str, Any]]:
    kind = draw(st.sampled_from(KINDS))
    body: dict[str, Any] = {}
    wanted: dict[str, Any] = {}
    for field in kind.fields:
        value = draw(_VALUES[field.type])
        if field.type == "id":
            namespace, short = value
            _put(body, field.path, {"aux": 0, "id": short, "namespace": namespace})
            wanted[field.name], wanted[f"{field.name}_id"] = short, f"{namespace}:{short}"
        else:
            _put(body, field.path, value)
            if field.type == "type_id":
                wanted[field.name], wanted[f"{field.name}_id"] = value.split(":")[1], value
            elif field.type == "str":
                wanted[field.name] = value[:EVENT_TEXT_CHARS]
            else:
                wanted[field.name] = float(value) if field.type == "float" else value
    return kind, body, wanted


@given(st.sampled_from([k.name for k in KINDS]), JSON)
def test_any_body_decodes_or_is_refused(name: str, body: Any) -> None:
    frame = {"header": {"eventName": name, "messagePurpose": "event"}, "body": body}
    event = decode_frame(json.dumps(frame))
    assert isinstance(event, GameEventReceived | FrameRejected)


@given(filled())
def test_values_of_the_right_types_come_back(
    case: tuple[GameEventKind, dict[str, Any], dict[str, Any]],
) -> None:
    kind, body, wanted = case
    event = decode_game_event(kind, body)
    assert not isinstance(event, FrameRejected), event
    for column, value in wanted.items():
        if column == "aux":  # the id object's aux and the aux field share one path
            continue
        assert getattr(event, column) == value, column
