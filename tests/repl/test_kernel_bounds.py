"""UI chat callbacks on a real kernel's loop stay bounded, and %mc shows what was dropped."""

from __future__ import annotations

import html
import re
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from .test_kernel import outputs

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

# The chat transport and the beta pack: the flood reaches the gateway at once, so the
# gateway's callback bounds are what limit it (over the pull transport the addon keeps at most
# 64 waiting first; tests/sim/test_e2e.py checks that bound).
CELLS = [
    "%config McbewsRepl.port = 0\n%config McbewsRepl.transport = 'chat'\n%load_ext mcbews_repl",
    "%mc sim --pack beta",
    # A slow callback: each message holds its task until the notebook releases it.
    "import asyncio\n"
    "released, started, peak = False, [], 0\n"
    "@mc.on_ui_chat\n"
    "async def slow(msg):\n"
    "    started.append(msg.message)\n"
    "    while not released:\n"
    "        await asyncio.sleep(0.02)",
    "for i in range(300):\n"
    "    mc.sim.ui_chat('Alex', f'flood {i}')\n"
    "game = mc.connections[0]\n"
    "for _ in range(1000):\n"
    "    peak = max(peak, mc._core.callbacks.running)\n"
    "    if game.counters['ui_chat_dropped'] >= 40: break\n"
    "    await asyncio.sleep(0.02)\n"
    "print('dropped', game.counters['ui_chat_dropped'], 'running', mc._core.callbacks.running)",
    "%mc",
    "released = True\n"
    "for _ in range(1000):\n"
    "    peak = max(peak, mc._core.callbacks.running)\n"
    "    if len(started) == 260 and not mc._core.callbacks.running: break\n"
    "    await asyncio.sleep(0.02)\n"
    "print('served', len(started), 'left', mc._core.callbacks.running, 'peak', peak)",
    "%unload_ext mcbews_repl",
]


def shown(cell: Any) -> str:
    """A cell's display output: its HTML, tags and entities gone, whitespace joined."""
    parts = [o.get("data", {}).get("text/html", "") for o in cell.outputs]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", " ".join(parts))).split())


def test_a_ui_chat_flood_on_the_kernel_loop_is_bounded_and_shown() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    assert outputs(nb.cells[3]).strip() == "dropped 40 running 4"
    assert "40 UI chat messages dropped while the callbacks were busy" in shown(nb.cells[4])
    assert outputs(nb.cells[5]).strip() == "served 260 left 0 peak 4"
