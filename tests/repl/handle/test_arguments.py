"""A wrong type given to a public call is an error that says what the call accepts, raised
where the call is made (before anything starts), not a TypeError from deep inside."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.sim import SimWorld


@pytest.fixture(scope="module")
def mc() -> Iterator[Minecraft]:
    with mcbews_repl.start(port=0) as handle:
        yield handle


@pytest.mark.parametrize(
    ("given", "error", "says"),
    [
        ({"addon": 3}, TypeError, "addon must be False (no addon), True or None (the shipped "
         "pack), or the path of a simulator bundle (.js) or a pack folder, not 3 (an int)"),
        ({"addon": ["sim.js"]}, TypeError, "not ['sim.js'] (a list)"),
        ({"addon": "no/such/sim_stable.js"}, FileNotFoundError, "no simulator bundle or pack "
         "folder at no/such/sim_stable.js"),
        ({"players": "Ana"}, TypeError, "players must be a list of names (['Ana', 'Kai'], the "
         "first hosts), not the string 'Ana': players=['Ana']"),
        ({"players": [1, 2]}, TypeError, "players must be names (strings), not 1 (an int)"),
        ({"worlds": "2"}, TypeError, "worlds must be a whole number of worlds (worlds=5), not "
         "'2' (a str)"),
        ({"worlds": True}, TypeError, "not True (a bool)"),
        ({"worlds": 2, "addon": False}, ValueError, "worlds= starts the shipped pack's"),
    ],
)  # fmt: skip
def test_simulate_says_what_it_accepts(
    mc: Minecraft, given: dict[str, Any], error: type[Exception], says: str
) -> None:
    with pytest.raises(error) as raised:
        mc.simulate(**given)
    assert says in str(raised.value)
    assert mc.sim is None and mc.sims == []  # nothing started


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda mc: mc.command(123), "line must be a string (a command as typed in the "
         "game's chat, with or without its /), not 123 (an int)"),
        (lambda mc: mc.command(None), "not None"),
        (lambda mc: mc.send_text(1, "hi"), "player must be a string (a player's name), not 1"),
        (lambda mc: mc.send_text("Steve", b"hi"), "text must be a string, not b'hi' (a bytes)"),
    ],
)  # fmt: skip
def test_calls_say_what_they_accept(mc: Minecraft, call: Any, says: str) -> None:
    with pytest.raises(TypeError) as raised:
        call(mc)
    assert says in str(raised.value)


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ({"port": "19131"}, "port must be a whole number 0..65535 (0 picks a free one), not "
         "'19131' (a str)"),
        ({"host": 5}, "host must be a string (an address such as '127.0.0.1' or '0.0.0.0'), "
         "not 5 (an int)"),
        ({"token": 5}, "token must be a string of 1-64 letters, digits or ._~- (or 'auto', or "
         "None), not 5 (an int)"),
    ],
)  # fmt: skip
def test_start_and_serve_say_what_they_accept(given: dict[str, Any], says: str) -> None:
    for begin in (mcbews_repl.start, mcbews_repl.serve):
        with pytest.raises(TypeError) as raised:
            begin(**{"port": 0, **given})
        assert says in str(raised.value)


def test_simworld_says_what_addon_accepts(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"addon must be False \(no addon\), True"):
        SimWorld(addon=3)  # type: ignore[arg-type]
    assert SimWorld(addon=False).host is None  # a world without the addon
    assert SimWorld(addon=tmp_path)._addon == tmp_path  # a pack folder, loaded at start
