"""Plain scripts: ``mcbews_repl.start()`` and the README's script section, run as a user would.

The README's code blocks under "Scripts" are run with ``python`` in a subprocess and must
print what they say; a busy port must end a script with a message that says what to do.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pandas as pd
import pytest

import mcbews_repl
from mcbews_repl.repl.runtime import Pending

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_scripts() -> list[str]:
    section = README.read_text(encoding="utf-8").split("## Scripts", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.DOTALL)


def run_python(source: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, timeout=timeout
    )


def test_the_readme_shows_the_sync_and_the_async_form() -> None:
    sync, asynchronous = readme_scripts()
    assert "mcbews_repl.start(" in sync and ".result()" in sync and "simulate()" in sync
    assert "asyncio.run(" in asynchronous and "await" in asynchronous
    assert "SimWorld" in asynchronous


@pytest.mark.parametrize("which", [0, 1], ids=["sync", "async"])
def test_the_readme_scripts_run(which: int) -> None:
    done = run_python(readme_scripts()[which])
    assert done.returncode == 0, done.stderr[-3000:]
    expected = ["Steve is at {'x': 0.5, 'y': 64", "{'Alex': "] if which == 0 else [
        "Steve sees ['Steve', 'Alex']"
    ]  # fmt: skip
    for text in expected:
        assert text in done.stdout
    assert "coroutine" not in done.stderr


def test_a_busy_port_ends_a_script_with_what_to_do() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = run_python(f"import mcbews_repl\nmcbews_repl.start(port={port})")
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        f"mcbews_repl.exceptions.AddressInUse: cannot listen on 127.0.0.1:{port}"
    )
    assert "stop that one, or choose another port (port=0 picks a free one)" in last


def test_start_gives_the_notebook_handle_on_its_own_thread() -> None:
    with mcbews_repl.start(port=0) as mc:
        assert any(t.name == "mcbews-script" for t in threading.enumerate())
        pending = mc.simulate()
        assert isinstance(pending, Pending)
        pending.result(60)
        assert isinstance(mc.players().result(30), pd.DataFrame)
        assert mc.command("say from a script").result(10).ok
    assert mc.stopped
    assert not any(t.name == "mcbews-script" for t in threading.enumerate())
    with pytest.raises(mcbews_repl.BridgeStopped):
        mc.players()


# A script that plays a world without the addon, one that hosts a pack folder, and prints
# the doctor's report of each (what a script user reads in the terminal).
SEAMS = """
import mcbews_repl
from mcbews_repl.addon import bundle_path
with mcbews_repl.start(port=0) as mc:
    sim = mc.simulate(addon=False).result(60)
    print("world:", sim)
    print("command ok:", mc.command("testfor @a").result(10).ok)
    report = mc.doctor(save=False).result(120)
    print(report)
    print("repr:", repr(report))
    print("folder:", mc.simulate(addon=str(bundle_path("stable"))).result(60))
    caps = mc.call("list_capabilities").result(30)["capabilities"]
    print("caps:", sorted(c["name"] for c in caps)[:2])
"""


def test_a_script_plays_a_world_without_the_addon_and_reads_the_doctors_table() -> None:
    done = run_python(SEAMS)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert "world: <simulated world: Steve, Alex; no addon>" in out
    assert "command ok: True" in out
    table = out.split("command ok: True", 1)[1].split("repr:", 1)[0]
    for seen in ("mcbews doctor: Steve's game", "what was seen", "what to do next",
                 "The addon answers", "✗ failed", "✓ ok", "no mcbews pack runs"):  # fmt: skip
        assert seen in table, table
    assert "<DoctorReport" not in table and "\x1b[" not in table  # a table, no colour codes
    assert out.count("\n", out.index("repr:")) and "repr: <DoctorReport Steve's game" in out
    assert "folder: <simulated world: Steve, Alex; stable pack" in out
    assert "caps: ['describe_entities', 'get_blocks']" in out


def test_the_doctors_table_in_a_windows_code_page_does_not_stop_a_script() -> None:
    """Output redirected to a file on Windows is in the code page (cp1252), which has
    neither the table's box lines nor ✓ and ✗: the table is drawn in ASCII, each glyph a
    ``?`` beside its word (forced here with PYTHONIOENCODING)."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    script = SEAMS.replace('print("repr:", repr(report))', "")  # a repr is the script's own
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=240,
                          env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:].decode("cp1252")
    out = done.stdout.decode("cp1252")
    assert "? failed" in out and "? ok" in out and "what was seen" in out
