"""Every notebook and every .ipy script runs top to bottom against the simulated world.

Each runs in a real Jupyter kernel (nbclient); the checks look at key outputs, not only
at the absence of errors. The committed notebooks must not carry error outputs either.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html import unescape
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


def outputs(nb: Any, mime: str) -> list[str]:
    """Every output of one kind, in order (a live display counts in its final state)."""
    return [o["data"][mime] for c in nb.cells for o in c.get("outputs", [])
            if mime in o.get("data", {})]  # fmt: skip


def cell_with(nb: Any, code: str) -> Any:
    return next(c for c in nb.cells if c.cell_type == "code" and code in c.source)


def column(html: str, header: str) -> list[str]:
    """One column's cells of a friendly table (views.py), as text."""
    head, body = html.split("</thead>", 1)
    headers = [re.sub("<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    at = headers.index(header)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S) for r in rows]
    return [unescape(re.sub("<[^>]+>", "", c[at])) for c in cells if len(c) == len(headers)]


def test_01_getting_started() -> None:
    nb, out = executed("01_getting_started.ipynb")
    assert "/connect 127.0.0.1:" in out
    assert "✔ /say Hello from Python!" in out  # the green result
    assert "Unknown command: fly" in out and "#cf222e" in out  # the red one
    assert "overworld" in out and "Survival" in out  # the player card
    [table] = [h for h in outputs(nb, "text/html") if "Excalibur" in h]
    items = column(table, "item")
    assert "diamond_sword" in items and not any("minecraft:" in i for i in items)
    assert column(table, "durability")[:2] == ["92%", "20%"] and "sharpness 5" in table
    assert "NaN" not in table and "120.0" not in table and "0.923" not in table


def test_02_exploring_a_world() -> None:
    nb, out = executed("02_exploring_a_world.ipynb")
    players, entities = (texts(cell_with(nb, c)) for c in ("mc.players()\nplayers",
                                                          "mc.entities()\nentities"))  # fmt: skip
    assert column(players, "dimension") == ["overworld", "overworld"]
    assert set(column(entities, "dimension")) == {"overworld"}  # the same words as players
    assert ">villager_v2</td>" in entities and ">Bob</td>" in entities and ">cow</td>" in entities
    assert "Found Cow" not in out
    [shown] = [o for o in cell_with(nb, "mc.map()").outputs if o.output_type == "execute_result"]
    assert "application/vnd.jupyter.widget-view+json" in shown["data"]
    picture = shown["data"]["text/html"]
    assert re.findall(r"class='label'[^>]*>([^<]*)</text>", picture)[-2:] == ["Steve", "Alex"]
    assert "zombie &#215;1" in picture and "MCBEWS_BRIDGE" not in picture
    commands = texts(cell_with(nb, "%%mc"))
    assert "- coins: displays as 'Coins' and is type 'dummy'" in unescape(commands)
    assert "\\n" not in commands and "..." not in commands and "…" not in commands
    assert "explorer_of_the_week" in out
    kills = [h for h in outputs(nb, "text/html") if ">holder</th>" in h]
    assert len(kills) == 2 and ">10</td>" in kills[-1]  # Alex's 7 kills, plus 3
    assert images(nb) == 0  # the map is drawn by the page, not a picture


def test_03_inventory_analysis() -> None:
    nb, _ = executed("03_inventory_analysis.ipynb")
    totals = texts(cell_with(nb, "totals.to_frame"))
    assert re.search(r"<th>cobblestone</th>\s*<td>121</td>", totals)  # 64 + 37 + Alex's 20
    explore = cell_with(nb, "mc.explore(inv)").outputs[0]["data"]
    assert "application/vnd.jupyter.widget-view+json" in explore
    enchants = texts(cell_with(nb, "explode"))
    assert re.findall(r"<tr>\s*<th>(\d+)</th>", enchants) == ["0", "1", "2", "3"]  # no repeats
    assert "protection" in enchants and "infinity" in enchants
    worn = texts(cell_with(nb, 'sort_values("durability")'))
    assert column(worn, "item")[0] == "leather_boots" and column(worn, "durability")[0] == "8%"
    track = texts(cell_with(nb, "mc.track("))
    assert "snapshots (100%)" in track and ">Alex</td>" in track
    assert "blocks walked" in texts(cell_with(nb, "walked"))
    assert images(nb) == 3  # items by player, durability, paths


def test_04_ui_chat_bot() -> None:
    nb, out = executed("04_ui_chat_bot.ipynb")
    # What the players see: the role prefix in the game's green, no raw § codes.
    green = "<span style='color:#55FF55'>[assistant]</span>"
    assert "Alex asked 'what time is it?' and sees:" in out
    assert f"{green} In-game time:" in out and f"{green} You are at 0 64 0" in out
    assert "frames (100%)" in texts(cell_with(nb, "send_text"))
    live = texts(cell_with(nb, "follow=True"))  # the live table, as it was last updated
    assert ">text</td>" in live and ">ui_chat</td>" in live
    events = texts(cell_with(nb, "events.kind.isin"))
    assert ">command</td>" in events and "/time query daytime" in events  # the bot's command
    assert "<th style='text-align:right'>cursor</th>" in events
    assert not re.search(r"\d\d:\d\d:\d\d\.\d{6}", events)  # readable times
    frames = texts(cell_with(nb, "encode_text_response"))
    assert frames.count("B line, ") == 3 and "661 B frame:" in frames
    assert max(len(line) for line in frames.splitlines()) <= 80  # nothing cut, nothing too wide
    blocks = [b.strip().splitlines() for b in re.split(r"\d+ B line, \d+ B frame:", frames)[1:]]
    lines = [" ".join(part.strip() for part in block) for block in blocks]  # unwrapped again
    carried = "".join(json.loads(line.split(" ", 2)[2])["c"] for line in lines)
    assert carried == "A long answer. " * 60  # every frame shown whole


def test_05_prototyping_a_capability() -> None:
    nb, out = executed("05_prototyping_a_capability.ipynb")
    assert "players_near" in out
    # After `tp Alex 2 64 1` (the block's centre, 2.5 64 1.5) the new capability sees Alex.
    answer = cell_with(nb, "tp Alex 2 64 1").outputs[0]["data"]
    assert '"distance": 2.9' in answer["text/plain"] and "{'center'" not in out
    assert (
        "players_near answered" in answer["text/html"] and "<details open>" in answer["text/html"]
    )
    assert "<simulated world: Steve, Alex>" in out  # the bridge player is not listed
    assert not cell_with(nb, "NEW_CAPABILITY = ").outputs  # the TypeScript shown once, as source
    assert "private copy removed: True" in out


def test_06_protocol_step_by_step() -> None:
    nb, out = executed("06_protocol_step_by_step.ipynb")
    first = texts(cell_with(nb, "BridgeProtocol(new_id")).splitlines()
    assert first[0] == "scriptevent mcbews:bridge_req" and first[1].startswith('{"v":2,')
    assert "\\u0040a" in first[1]  # the escape kept whole on its line
    assert "of 461 bytes of command line," in out and "of 661 bytes of frame" in out
    assert "CapabilityResult(request_id='req-1'" in out
    assert "'duplicate_chunks': 1" in out
    assert "FrameRejected(reason='not_json'" in out
    card = texts(cell_with(nb, 'answer = await mc.call("get_player_snapshot"'))
    assert "0.5, 64.0, 0.5 in minecraft:overworld" in card and "'velocity'" not in card
    events = texts(nb.cells[-1])
    assert column(events, "kind")[-1] == "capability" and column(events, "cursor")[0] == "1"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_committed_notebooks_carry_no_errors(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", f"{path.name} holds an error output"
            assert "Traceback" not in out.get("text", ""), f"{path.name} holds a traceback"


SCRIPT_CHECKS = {
    "inventory_report.ipy": ["Enchanted items (3):", "Excalibur", "% left"],
    "world_census.ipy": ["2 players online", "6 entities", "Showing 2 objective(s)"],
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
