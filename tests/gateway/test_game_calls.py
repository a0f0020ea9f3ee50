"""Each game call is defined once (gateway/game_calls.py); every layer takes exactly its
parameters (names, kinds, defaults, annotations) plus what that layer adds, returns the
same value (a Pending of it in the notebook), and carries its docs.

This is how ``mc.send_text`` once lost ``connection`` and ``conversation_id``: with the
layers written apart, nothing noticed. Now a drift in any layer fails here.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from mcbews_repl.gateway import Bridge, GameConnection
from mcbews_repl.gateway.game_calls import ADDED_BY_LAYER, GameCalls
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.handle._connections import Connection

CALLS = ["command", "call", "send_text"]
LAYERS = [GameConnection, Bridge, Minecraft, Connection]


def shape(fn: Callable[..., Any], added: tuple[str, ...] = ()) -> list[tuple[Any, ...]]:
    found = inspect.signature(fn).parameters.values()
    return [
        (p.name, p.kind, p.default, p.annotation)
        for p in found
        if p.name != "self" and p.name not in added
    ]


def returned(fn: Callable[..., Any]) -> str:
    shown = str(inspect.signature(fn).return_annotation)
    for wrapper in ("Awaitable[", "Pending["):
        if shown.startswith(wrapper):
            return shown[len(wrapper) : -1]
    return shown


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.__name__)
def test_every_layer_takes_the_calls_parameters(layer: type, name: str) -> None:
    spec, mine = getattr(GameCalls, name), getattr(layer, name)
    added = ADDED_BY_LAYER.get(layer.__name__, ())
    assert shape(mine, added) == shape(spec)
    assert [n for n in added if n not in inspect.signature(mine).parameters] == []
    assert returned(mine) == returned(spec)


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("layer", LAYERS, ids=lambda layer: layer.__name__)
def test_every_layer_carries_the_calls_docs(layer: type, name: str) -> None:
    doc = inspect.getdoc(getattr(layer, name)) or ""
    assert doc.startswith(inspect.getdoc(getattr(GameCalls, name)) or "?")
    assert "Raises:" in doc


def test_the_check_sees_a_dropped_parameter() -> None:
    def send_text(self: object, player: str, text: str, *, role: str = "assistant") -> int:
        return 0

    assert shape(send_text) != shape(GameCalls.send_text)
