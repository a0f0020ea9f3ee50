"""The extension inside a real Jupyter kernel (ipykernel, driven by nbclient)."""

from __future__ import annotations

from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "%mc sim",
    "r = await mc.command('say from a kernel')\nprint(r.ok, r['message'])",
    "p = await mc.player('Steve')\nprint(p.name, p['dimension'])",
    "df = await mc.inventory()\nprint(type(df).__name__, sorted(set(df.player)))",
    # A blocking cell: the bridge thread keeps the game connection and answers meanwhile.
    "import time, threading\n"
    "answers = []\n"
    "t = threading.Thread(target=lambda: answers.append(mc.command('list').result(10).ok))\n"
    "t.start(); time.sleep(5); t.join()\n"
    "print('during sleep', answers, len(mc.connections))",
    "import threading\n"
    "seen = []\n"
    "@mc.on_ui_chat\n"
    "def cb(msg):\n"
    "    seen.append((msg.player, msg.message, threading.current_thread().name))\n"
    "mc.sim.ui_chat('Alex', 'hello kernel')",
    "import asyncio\n"
    "for _ in range(100):\n"
    "    if seen: break\n"
    "    await asyncio.sleep(0.1)\n"
    "print('callback', seen)",
    "%unload_ext mcbews_repl\nprint('mc' in dir())",
]
# A long delivery (about 15 frames at 0.15 s) while the extension is loaded.
CELLS.insert(5, "n = await mc.send_text('Steve', 'x' * 5000)\nprint('frames', n)")


def outputs(cell: Any) -> str:
    text = []
    for out in cell.outputs:
        if out.output_type == "stream":
            text.append(out.text)
        elif out.output_type == "error":
            text.append(f"ERROR {out.ename}: {out.evalue}")
    return "".join(text)


def test_extension_in_a_real_kernel() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    NotebookClient(nb, timeout=90, kernel_name="python3").execute()
    out = [outputs(c) for c in nb.cells]
    assert "/connect 127.0.0.1:" in "".join(
        o.get("data", {}).get("text/html", "") for o in nb.cells[0].outputs
    )
    assert out[2].strip() == "True from a kernel"
    assert out[3].strip() == "Steve overworld" or out[3].startswith("Steve ")
    assert out[4].strip() == "DataFrame ['Alex', 'Steve']"
    # A long delivery shows a progress bar that ends full.
    assert out[5].strip().startswith("frames ")
    bars = [o.get("data", {}).get("text/html", "") for o in nb.cells[5].outputs]
    assert any("<progress" in b and "(100%)" in b for b in bars)
    assert out[6].strip() == "during sleep [True] 1"
    # The callback ran on the kernel's own thread (the main one), not the bridge thread.
    assert "('Alex', 'hello kernel', 'MainThread')" in out[8]
    assert out[9].strip() == "False"
