"""mc.events(follow=True) in a real kernel: one display, refreshed in place as events arrive."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl\n%mc sim",
    "live = mc.events(last=4, follow=True)",
    "import asyncio\n"
    "for i in range(3):\n"
    "    await mc.command(f'say live {i}')\n"
    "await asyncio.sleep(1)\n"
    "live.stop()\n"
    "print('refreshes', live.refreshes > 1)",
    "%unload_ext mcbews_repl",
]


def test_follow_updates_one_display() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    NotebookClient(nb, timeout=60, kernel_name="python3").execute()
    live_outputs = nb.cells[1].outputs
    assert len(live_outputs) == 1  # one display, updated in place, nothing else printed
    html = live_outputs[0]["data"]["text/html"]
    assert "&lt;External&gt; live 2" in html or "live 2" in html
    assert "refreshes True" in "".join(o.get("text", "") for o in nb.cells[2].outputs)


GAME_EVENT_CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl\n%mc sim",
    "mc.subscribe('BlockBroken').result(10)",
    "live = mc.events(kind='BlockBroken', last=4, follow=True)",
    "import asyncio, time\n"
    "for x in range(3):\n"
    "    mc.sim.place_block('Steve', x, 90, 0, 'gold_block')\n"
    "    mc.sim.break_block('Steve', x, 90, 0)\n"
    "deadline = time.monotonic() + 20\n"
    "while len(live.entries()) < 3 and time.monotonic() < deadline:\n"
    "    await asyncio.sleep(0.05)\n"
    "await asyncio.sleep(0.5)\n"
    "live.stop()\n"
    "print('rows', len(live.entries()), 'refreshes', live.refreshes > 1)",
    "%unload_ext mcbews_repl",
]


def test_follow_a_game_event_shows_its_own_columns_live() -> None:
    """mc.events(kind="BlockBroken", follow=True): one display, empty at first, that comes
    to show each broken block's row in the event's own columns as the game sends it."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in GAME_EVENT_CELLS])
    NotebookClient(nb, timeout=90, kernel_name="python3").execute()
    live_outputs = nb.cells[2].outputs
    assert len(live_outputs) == 1  # one display, updated in place
    shown = live_outputs[0]["data"]
    assert "3 rows" in shown["text/html"]
    header, *rows = shown["text/plain"].splitlines()
    assert header.split() == ["cursor", "time", "player", "x", "y", "z", "block", "aux",
                              "count", "destruction_method", "tool"]  # fmt: skip
    assert len(rows) == 3  # every broken block's row, refreshed in
    assert all(row.split()[2] == "Steve" and "gold_block" in row.split() for row in rows)
    assert "rows 3 refreshes True" in "".join(o.get("text", "") for o in nb.cells[3].outputs)
