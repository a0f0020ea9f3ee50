"""Each call is defined by the gateway; the REPL's handles add only routing and Pending.

``mc`` mirrors ``Bridge`` and each ``mc.connections[i]`` mirrors ``GameConnection``: same
parameter names, same defaults. When a layer drops one (as ``mc.send_text`` once dropped
``connection`` and ``conversation_id``), this fails.
"""

from __future__ import annotations

import inspect

import pytest

from mcbews_repl.gateway import Bridge, GameConnection
from mcbews_repl.repl.connections import Connection
from mcbews_repl.repl.handle import Minecraft

CALLS = ["command", "call", "send_text"]
# What a handle may add: keyword fields merged into a capability's payload.
ADDED = {"fields"}


def parameters(fn: object) -> dict[str, object]:
    found = inspect.signature(fn).parameters.items()  # type: ignore[arg-type]
    return {name: p.default for name, p in found if name != "self"}


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize(("handle", "gateway"), [(Minecraft, Bridge), (Connection, GameConnection)])
def test_the_handles_take_what_the_gateway_takes(handle: type, gateway: type, name: str) -> None:
    mine, theirs = parameters(getattr(handle, name)), parameters(getattr(gateway, name))
    assert set(theirs) <= set(mine), f"{handle.__name__}.{name} drops {set(theirs) - set(mine)}"
    assert set(mine) - set(theirs) <= ADDED
    assert {k: mine[k] for k in theirs} == theirs  # the same defaults
