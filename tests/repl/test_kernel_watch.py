"""The live map, tracks, interactive tables and ``mc.sim.ask`` in a real Jupyter kernel.

No browser here: the cells play the front end's part by handing the widget the messages
livemap.js sends (the map is on screen, the button was pressed), and read what the kernel
displayed and what the widget holds. tests/browser/ checks the same map in JupyterLab itself.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.repl.kernel import run_in_kernel

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

CELLS = {
    "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl\n%mc sim",
    "map": "import asyncio\nm = mc.map(every=0.25)\nm",
    "map_id": "print(m.widget.map_id)",
    "follows": "seen = m.widget._handle_custom_msg  # what livemap.js sends\n"
    "seen({'visible': True}, [])  # the map came on screen\n"
    "await mc.command('tp Alex -30 64 25')\nawait asyncio.sleep(1.5)\n"
    "print('Alex</b> -29.5, 64, 25.5' in m.widget.html, m.refreshes > 1)",
    "paused": "seen({'paused': True}, [])  # the button\nbefore = m.refreshes\n"
    "await mc.command('tp Alex 0 64 -20')\n"
    "await asyncio.sleep(1)\n"
    "print(m.refreshes == before, '-29.5, 64, 25.5' in m.widget.html, m.widget.status)",
    "hidden": "m.resume(); seen({'visible': False}, []); await asyncio.sleep(0.3)\n"
    "before = m.refreshes\nawait asyncio.sleep(1)\nprint(m.refreshes == before)",
    "shown": "seen({'visible': True}, []); await asyncio.sleep(1)\n"
    "print(m.refreshes > before, 'Alex</b> 0.5, 64, -19.5' in m.widget.html)",
    "stopped": "m.pause(); m.resume(); m.stop(); await asyncio.sleep(0.6); before = m.refreshes\n"
    "await asyncio.sleep(0.6)\nprint(m.running, m.refreshes == before, m.widget.status)",
    "track": "await mc.command('tp Alex 0 64 0')\n"
    "async def walk():\n"
    "    for x in (10, 20, 30):\n"
    "        await asyncio.sleep(0.35)\n"
    "        await mc.command(f'tp Alex {x} 64 0')\n"
    "walking = asyncio.ensure_future(walk())\n"
    "track = await mc.track(seconds=1.6, every=0.2)\nawait walking\ntrack",
    "track_data": "alex = track[track.player == 'Alex']\n"
    "print(len(track), list(track.columns), alex.x.iloc[0], alex.x.iloc[-1],"
    " track[track.player == 'Steve'].x.nunique())",
    "explore": "mc.explore(await mc.inventory())",
    "bot": "@mc.on_ui_chat\nasync def bot(msg):\n    await msg.reply(f'hello {msg.player}')",
    "ask": "await mc.sim.ask('Alex', 'hi')",
    "sim": "mc.sim",
    "beta": "%mc sim --pack beta --beta-apis on\n"
    "import time\nwhile 'MCBEWS_BRIDGE' not in mc.sim.world.players: time.sleep(0.05)\n"
    "print(repr(mc.sim))\nprint('bridge on the map:', 'MCBEWS_BRIDGE' in repr(mc.map(live=False)))",
    "unload": "%unload_ext mcbews_repl",
}


@pytest.fixture(scope="module")
def shown() -> dict[str, Any]:
    return run_in_kernel(CELLS, timeout=90)


def printed(cell: Any) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def result(cell: Any) -> dict[str, Any]:
    [out] = [o for o in cell.outputs if o.output_type == "execute_result"]
    data: dict[str, Any] = out["data"]
    return data


def test_the_map_is_a_widget_then_its_static_copy(shown: dict[str, Any]) -> None:
    """Two outputs: the widget, and the picture with the text map for a front end that
    cannot draw the widget (anywidget's front end missing, a saved notebook on a web page);
    the copy carries the widget's id, by which the widget hides it once drawn."""
    widget, copy = [o for o in shown["map"].outputs if o.output_type == "display_data"]
    view = widget["data"]["application/vnd.jupyter.widget-view+json"]
    assert "model_id" in view and "text/html" not in widget["data"]  # the copy: once
    html = copy["data"]["text/html"]
    assert re.findall(r"class='label'[^>]*>([^<]*)</text>", html)[-2:] == ["Steve", "Alex"]
    assert "S  Steve at 0.5, 64, 0.5" in copy["data"]["text/plain"]
    [map_id] = re.findall(r"class='mcbews-map-fallback' data-map='([0-9a-f]+)'", html)
    assert printed(shown["map_id"]).strip() == map_id


def test_the_live_map_follows_the_world_while_on_screen(shown: dict[str, Any]) -> None:
    assert printed(shown["follows"]).split() == ["True", "True"]


def test_paused_or_off_screen_the_map_asks_the_world_nothing(shown: dict[str, Any]) -> None:
    assert printed(shown["paused"]).strip() == "True True paused"
    assert printed(shown["hidden"]).strip() == "True"
    assert printed(shown["shown"]).split() == ["True", "True"]  # back on screen: it catches up
    running, still, *status = printed(shown["stopped"]).split()
    assert (running, still) == ("False", "True") and " ".join(status).startswith("stopped")


def test_a_track_is_a_frame_of_snapshots_with_a_progress_bar(shown: dict[str, Any]) -> None:
    bars = [o["data"]["text/html"] for o in shown["track"].outputs
            if o.output_type == "display_data"]  # fmt: skip
    assert bars and "9/9 snapshots (100%)" in bars[-1]
    rows, *rest = printed(shown["track_data"]).split(" ", 1)
    assert rows == "18"  # 9 snapshots of two players
    columns = "['time', 'seconds', 'player', 'dimension', 'dimensionId', 'x', 'y', 'z', 'yaw'"
    assert columns + ", 'health']" in rest[0]
    assert rest[0].split()[-3:] == ["0.5", "30.5", "1"]  # Alex walked east, Steve stood
    html = result(shown["track"])["text/html"]
    assert "<th style='text-align:left'>time</th>" in html and "30.5" in html


def test_explore_is_an_interactive_table(shown: dict[str, Any]) -> None:
    data = result(shown["explore"])
    assert "application/vnd.jupyter.widget-view+json" in data


def test_ask_waits_for_the_reply_and_shows_it_as_the_player_sees_it(
    shown: dict[str, Any],
) -> None:
    data = result(shown["ask"])
    assert "[assistant]" in data["text/html"] and "hello Alex" in data["text/html"]
    assert "color:#55FF55" in data["text/html"]
    assert result(shown["sim"])["text/plain"].startswith("<simulated world: Steve, Alex;")


def test_the_bridge_player_is_neither_a_player_of_the_world_nor_on_the_map(
    shown: dict[str, Any],
) -> None:
    # With the beta pack the addon's MCBEWS_BRIDGE stands in the world (answers by chat).
    lines = printed(shown["beta"]).splitlines()
    assert lines[0].startswith("<simulated world: Steve, Alex; beta pack, Beta APIs on>")
    assert lines[1] == "bridge on the map: False"
