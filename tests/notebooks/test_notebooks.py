"""Every notebook and every .ipy script runs top to bottom against the simulated world.

Each runs in a real Jupyter kernel (nbclient); the checks look at key outputs, not only
at the absence of errors. The committed notebooks must not carry error outputs either.

The world is the default of ``%mc sim``: the stable pack, Beta APIs off, answers by pull (as
in Minecraft Education or any world without experiments); every notebook and script runs so.
A selection runs again with the beta pack and Beta APIs on, over the chat transport and over
pull, so both transports keep working for what the notebooks do.
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


# The settings (environment variables the kernel inherits) of each way the world can answer.
MODES: dict[str, dict[str, str]] = {
    "stable-pull": {},  # the defaults: stable pack, Beta APIs off, transport auto (pull)
    "beta-chat": {
        "MCBEWS_SIM_PACK": "beta",
        "MCBEWS_SIM_BETA_APIS": "on",
        "MCBEWS_TRANSPORT": "chat",
    },
    "beta-pull": {
        "MCBEWS_SIM_PACK": "beta",
        "MCBEWS_SIM_BETA_APIS": "on",
        "MCBEWS_TRANSPORT": "pull",
    },
}


def run_notebook(nb: Any, cwd: Path, mode: str = "stable-pull") -> Any:
    # The kernel inherits these: port 0 never clashes on 19131; the mode picks pack and transport.
    env = {"MCBEWS_PORT": "0", **MODES[mode]}
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        NotebookClient(
            nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
        ).execute()
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
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


def executed(name: str, mode: str) -> tuple[Any, str]:
    nb = run_notebook(nbformat.read(NOTEBOOKS / name, as_version=4), NOTEBOOKS, mode)
    return nb, "\n".join(texts(c) for c in nb.cells)


def check_01_getting_started(nb: Any, out: str) -> None:
    assert "/connect 127.0.0.1:" in out
    assert "✔ /say Hello from Python!" in out  # the green result
    assert "Unknown command: fly" in out and "#cf222e" in out  # the red one
    assert "Excalibur" in out and "sharpness 5" in out  # the inventory table
    assert "overworld" in out and "Survival" in out  # the player card


def check_02_exploring_a_world(nb: Any, out: str) -> None:
    assert "Found Cow" in out and "Found Bob" in out
    assert "<th>type</th>" in out and "minecraft:villager_v2" in out  # mc.entities()
    assert "explorer_of_the_week" in out
    assert "Showing 2 objective(s)" in out
    assert images(nb) == 1


def check_03_inventory_analysis(nb: Any, out: str) -> None:
    assert "minecraft:cobblestone" in out and "101" in out  # 64 + 37 summed
    assert "protection" in out and "infinity" in out
    assert images(nb) == 1


def check_04_ui_chat_bot(nb: Any, out: str) -> None:
    # What the players see: the role prefix in the game's green, no raw § codes.
    green = "<span style='color:#55FF55'>[assistant]</span>"
    assert "<b>Alex sees:</b> <span style='background:#1e1e1e;" in out
    assert f"{green} In-game time:" in out and f"{green} You are at 0 64 0" in out
    assert "B line, 661 B frame: scriptevent mcbews:text_resp" in out  # the frame ceiling binds


def check_05_prototyping_a_capability(nb: Any, out: str) -> None:
    assert "players_near" in out
    # After `tp Alex 2 64 1` (the block's centre, 2.5 64 1.5) the new capability sees Alex.
    assert "'name': 'Alex', 'distance': 2.9" in out


def check_06_protocol_step_by_step(nb: Any, out: str) -> None:
    assert "scriptevent mcbews:bridge_req" in out and "\\u0040a" in out
    assert "of 461 bytes of command line," in out and "of 661 bytes of frame" in out
    assert "CapabilityResult(request_id='req-1'" in out
    assert "'duplicate_chunks': 1" in out
    assert "FrameRejected(reason='not_json'" in out
    # the pull way: one mcbews:ask line, the other pages pulled, the text whole again
    assert "mcbews:ask 7b2276223a" in out and "mcbews:pull req2 2 -> MCBEWS|ANSWER|req2|2/3|" in out
    assert "True True" in out
    assert "get_player_snapshot ok (" in out and ", pull)" in out  # the event log, for real


def check_07_mapping_a_region(nb: Any, out: str) -> None:
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


CHECKS = {
    "01_getting_started.ipynb": check_01_getting_started,
    "02_exploring_a_world.ipynb": check_02_exploring_a_world,
    "03_inventory_analysis.ipynb": check_03_inventory_analysis,
    "04_ui_chat_bot.ipynb": check_04_ui_chat_bot,
    "05_prototyping_a_capability.ipynb": check_05_prototyping_a_capability,
    "06_protocol_step_by_step.ipynb": check_06_protocol_step_by_step,
    "07_mapping_a_region.ipynb": check_07_mapping_a_region,
}
# What runs again with the beta pack: the UI chat bot and the inventory over chat (what the
# chat transport was made for), a world tour and the block map over pull.
BETA_RUNS = [
    ("01_getting_started.ipynb", "beta-chat"),
    ("03_inventory_analysis.ipynb", "beta-chat"),
    ("04_ui_chat_bot.ipynb", "beta-chat"),
    ("02_exploring_a_world.ipynb", "beta-pull"),
    ("04_ui_chat_bot.ipynb", "beta-pull"),
]


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_notebook(name: str) -> None:
    CHECKS[name](*executed(name, "stable-pull"))


@pytest.mark.parametrize(("name", "mode"), BETA_RUNS, ids=[f"{n[:2]}-{m}" for n, m in BETA_RUNS])
def test_notebook_with_the_beta_pack(name: str, mode: str) -> None:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    # One cell more at the end says which pack and transport the notebook really had.
    which = "print(mc.sim, [c.transport for c in mc.connections])"
    nb.cells.append(nbformat.v4.new_code_cell(which))
    run_notebook(nb, NOTEBOOKS, mode)
    CHECKS[name](nb, "\n".join(texts(c) for c in nb.cells[:-1]))
    said = texts(nb.cells[-1])
    assert "beta pack, Beta APIs on>" in said and f"['{mode.split('-')[1]}']" in said, said


def test_every_notebook_is_checked() -> None:
    assert set(CHECKS) == {p.name for p in NOTEBOOKS.glob("*.ipynb")}


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


@pytest.mark.parametrize(
    ("name", "mode"),
    [*((n, "stable-pull") for n in sorted(SCRIPT_CHECKS)), ("inventory_report.ipy", "beta-chat")],
)
def test_ipy_scripts_in_a_kernel(name: str, mode: str) -> None:
    source = (SCRIPTS / name).read_text(encoding="utf-8")
    cell = nbformat.v4.new_code_cell(source)
    nb = run_notebook(nbformat.v4.new_notebook(cells=[cell]), REPO, mode)
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
