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
