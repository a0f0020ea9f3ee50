"""Every notebook and every .ipy script runs top to bottom against the simulated world.

Each runs in a real Jupyter kernel (nbclient); the checks look at key outputs, not only
at the absence of errors. The committed notebooks must not carry error outputs either.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
SCRIPTS = REPO / "magics"


def run_notebook(nb: Any, cwd: Path) -> Any:
    env_port = os.environ.get("MCBEWS_PORT")
    os.environ["MCBEWS_PORT"] = "0"  # the kernel inherits it: never clash on 19131
    try:
        NotebookClient(
            nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
        ).execute()
    finally:
        if env_port is None:
            os.environ.pop("MCBEWS_PORT", None)
        else:
            os.environ["MCBEWS_PORT"] = env_port
    return nb


def texts(cell: Any) -> str:
    """Everything a cell showed: streams, plain text and HTML."""
    parts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        for mime in ("text/plain", "text/html"):
            parts.append(out.get("data", {}).get(mime, ""))
    return "\n".join(parts)


def images(nb: Any) -> int:
    return sum("image/png" in o.get("data", {}) for c in nb.cells for o in c.get("outputs", []))


def executed(name: str) -> tuple[Any, str]:
    nb = run_notebook(nbformat.read(NOTEBOOKS / name, as_version=4), NOTEBOOKS)
    return nb, "\n".join(texts(c) for c in nb.cells)


def test_01_getting_started() -> None:
    _, out = executed("01_getting_started.ipynb")
    assert "/connect 127.0.0.1:" in out
    assert "✔ /say Hello from Python!" in out  # the green result
    assert "Unknown command: fly" in out and "#cf222e" in out  # the red one
    assert "Excalibur" in out and "sharpness 5" in out  # the inventory table
    assert "overworld" in out and "Survival" in out  # the player card


def test_02_exploring_a_world() -> None:
    nb, out = executed("02_exploring_a_world.ipynb")
    assert "Found Cow" in out and "Found Bob" in out
    assert "<th>type</th>" in out and "minecraft:villager_v2" in out  # mc.entities()
    assert "explorer_of_the_week" in out
    assert "Showing 2 objective(s)" in out
    assert images(nb) == 1


def test_03_inventory_analysis() -> None:
    nb, out = executed("03_inventory_analysis.ipynb")
    assert "minecraft:cobblestone" in out and "101" in out  # 64 + 37 summed
    assert "protection" in out and "infinity" in out
    assert images(nb) == 1


def test_04_ui_chat_bot() -> None:
    _, out = executed("04_ui_chat_bot.ipynb")
    # What the players see: the role prefix in the game's green, no raw § codes.
    green = "<span style='color:#55FF55'>[assistant]</span>"
    assert "<b>Alex sees:</b> <span style='background:#1e1e1e;" in out
    assert f"{green} In-game time:" in out and f"{green} You are at 0 64 0" in out
    assert "B line, 661 B frame: scriptevent mcbews:text_resp" in out  # the frame ceiling binds


def test_05_prototyping_a_capability() -> None:
    _, out = executed("05_prototyping_a_capability.ipynb")
    assert "players_near" in out
    # After `tp Alex 2 64 1` (the block's centre, 2.5 64 1.5) the new capability sees Alex.
    assert "'name': 'Alex', 'distance': 2.9" in out


def test_06_protocol_step_by_step() -> None:
    _, out = executed("06_protocol_step_by_step.ipynb")
    assert "scriptevent mcbews:bridge_req" in out and "\\u0040a" in out
    assert "of 461 bytes of command line," in out and "of 661 bytes of frame" in out
    assert "CapabilityResult(request_id='req-1'" in out
    assert "'duplicate_chunks': 1" in out
    assert "FrameRejected(reason='not_json'" in out


def test_07_mapping_a_region() -> None:
    nb, out = executed("07_mapping_a_region.ipynb")
    assert "Steve is at 48 90 -24" in out
    assert "368640/368640 blocks in 128 parts (100%)" in out  # the split read's bar, full
    assert "<b>BlockRegion</b> 48x160x48 blocks at (24, -64, -48)" in out
    assert "<img src='data:image/png;base64," in out  # the region's picture beside its counts
    assert "diamond   104 blocks, y -63 to 2" in out  # ores keep to their depths
    assert "coal      416 blocks, y 3 to 63" in out
    assert "surface 62.0 to 75.0 | lake floor down to 58.0" in out
    assert "<unloaded>        1000" in out and "<out_of_world>    1000" in out
    assert "75 blocks filled" in out and "minecraft:gold_block    75" in out
    assert "75 positions, all gold: True" in out
    assert images(nb) == 3  # ores by depth, the heightmaps, the cross-section


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_committed_notebooks_carry_no_errors(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{path.name} holds an error output"
            assert "Traceback" not in out.get("text", ""), f"{path.name} holds a traceback"


SCRIPT_CHECKS = {
    "inventory_report.ipy": ["Enchanted items (3):", "Excalibur", "% left"],
    "world_census.ipy": ["2 players online", "5 entities", "Showing 2 objective(s)"],
}


@pytest.mark.parametrize("name", sorted(SCRIPT_CHECKS))
def test_ipy_scripts_in_a_kernel(name: str) -> None:
    source = (SCRIPTS / name).read_text(encoding="utf-8")
    nb = run_notebook(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]), REPO)
    out = texts(nb.cells[0])
    for expected in SCRIPT_CHECKS[name]:
        assert expected in out


@pytest.mark.parametrize("name", sorted(SCRIPT_CHECKS))
def test_ipy_scripts_with_the_ipython_command(name: str, tmp_path: Path) -> None:
    ipython = Path(sys.executable).with_name("ipython")
    env = {**os.environ, "MCBEWS_PORT": "0", "IPYTHONDIR": str(tmp_path)}
    done = subprocess.run(
        [str(ipython), "--no-banner", str(SCRIPTS / name)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    for expected in SCRIPT_CHECKS[name]:
        assert expected in done.stdout
    assert set(SCRIPTS.glob("*.ipy")) == {SCRIPTS / n for n in SCRIPT_CHECKS}
