"""A player whose name, item name tag, lore and pet's name tag hold terminal control
sequences (tests/hostile.py), read from terminal IPython's screen (pexpect): what the
terminal receives holds none of them (no window title set, no screen cleared, no text
reversed), and it shows what the name holds instead, as visible marks.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile import OUR_COLOURS, SESSION, SHOWN, leftovers

from .test_terminal_display import Terminal

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

# What a teacher types, and how many times the name shows in what comes back.
SHOWN_BY = {
    "inventory": ("await mc.inventory()", 3),
    "player": ("await mc.player(H)", 1),
    "testfor": ("await mc.command('testfor @a')", 2),
    "map": ("mc.map()", 2),
    "status": ("mc.status()", 2),
    "magic": ("%mc", 2),
    "events": ("await mc.events()", 4),
    "entities": ("await mc.entities()", 2),
    "sim": ("mc.sim", 1),
    "connection": ("mc.connections[0]", 1),
    "error": ("await mc.player(H + 'x')", 1),
    "doctor": ("%mc doctor --capture {tmp}/doctor.jsonl", 1),
}


@pytest.fixture(scope="module")
def terminal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Terminal]:
    term = Terminal(tmp_path_factory.mktemp("ipython"))
    try:
        for line in ["%load_ext mcbews_repl", *SESSION]:
            term.run(line)
        yield term
    finally:
        term.close()


@pytest.mark.parametrize("name", list(SHOWN_BY))
def test_the_terminal_receives_no_control_sequence_of_the_name(
    terminal: Terminal, name: str, tmp_path: Path
) -> None:
    typed, times = SHOWN_BY[name]
    received = terminal.run(typed.format(tmp=tmp_path))
    assert "\x1b]" not in received and "\x1b[2J" not in received, received
    assert "\u202e" not in received and "\x07" not in received, received
    # (the terminal itself ends each line with CR LF: those carriage returns are not ours)
    assert leftovers(received.replace("\r\n", "\n")) == "", received
    # The name is there, shown for what it holds (a check that passes on an empty screen
    # would be no check); rich and the terminal may wrap it, so line ends are left out.
    unwrapped = OUR_COLOURS.sub("", received).replace("\r\n", "").replace("│", "")
    assert unwrapped.count(SHOWN) >= times, received
