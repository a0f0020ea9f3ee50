"""Every notebook and every .ipy script runs top to bottom against the simulated world.

Each runs in a real Jupyter kernel (nbclient); the checks look at key outputs, not only
at the absence of errors. The committed notebooks must not carry error outputs either.

The world is the default of ``%mc sim``: the stable pack, Beta APIs off, answers by pull (as
in Minecraft Education or any world without experiments); every notebook and script runs so.
A selection runs again with the beta pack and Beta APIs on, over the chat transport and over
pull, so both transports keep working for what the notebooks do.
"""

from __future__ import annotations

import base64
import json
import os
import re
import struct
import subprocess
import sys
import zlib
from html import unescape
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

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


NODE_TOOLS = ("node", "nodejs", "npm", "npx", "corepack")


def path_without_node(folder: Path) -> str:
    """PATH with Node hidden: each directory holding node, npm or npx is replaced by a folder
    of links to everything else in it (so python, git ... stay), as on a machine without Node."""
    entries = []
    for n, entry in enumerate(os.environ.get("PATH", "").split(os.pathsep)):
        where = Path(entry)
        if not any((where / tool).exists() for tool in NODE_TOOLS):
            entries.append(entry)
            continue
        shadow = folder / f"path{n}"
        shadow.mkdir(parents=True, exist_ok=True)
        for item in where.iterdir():
            if item.name not in NODE_TOOLS and not (shadow / item.name).exists():
                (shadow / item.name).symlink_to(item)
        entries.append(str(shadow))
    return os.pathsep.join(entries)


def run_notebook(
    nb: Any, cwd: Path, mode: str = "stable-pull", extra: dict[str, str] | None = None
) -> Any:
    # The kernel inherits these: port 0 never clashes on 19131; the mode picks pack and transport.
    env = {"MCBEWS_PORT": "0", **MODES[mode], **(extra or {})}
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


def outputs(nb: Any, mime: str) -> list[str]:
    """Every output of one kind, in order (a live display counts in its final state)."""
    return [o["data"][mime] for c in nb.cells for o in c.get("outputs", [])
            if mime in o.get("data", {})]  # fmt: skip


def cell_with(nb: Any, code: str) -> Any:
    return next(c for c in nb.cells if c.cell_type == "code" and code in c.source)


def column(html: str, header: str) -> list[str]:
    """One column's cells of a friendly table (show/_views.py), as text."""
    head, body = html.split("</thead>", 1)
    headers = [re.sub("<[^>]+>", "", h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    at = headers.index(header)
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    cells = [re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S) for r in rows]
    return [unescape(re.sub("<[^>]+>", "", c[at])) for c in cells if len(c) == len(headers)]


def check_01_getting_started(nb: Any, out: str) -> None:
    assert "/connect 127.0.0.1:" in out
    assert "✔ /say Hello from Python!" in out  # the green result
    assert "Unknown command: fly" in out and "#cf222e" in out  # the red one
    assert "Survival in the overworld" in out  # the player card's subtitle, not its entity id
    [table] = [h for h in outputs(nb, "text/html") if "Excalibur" in h]
    items = column(table, "item")
    assert "diamond_sword" in items and not any("minecraft:" in i for i in items)
    assert column(table, "durability")[:2] == ["92%", "20%"] and "sharpness 5" in table
    assert "NaN" not in table and "120.0" not in table and "0.923" not in table


def check_02_exploring_a_world(nb: Any, out: str) -> None:
    players, entities = (texts(cell_with(nb, c)) for c in ("mc.players()\nplayers",
                                                          "mc.entities()\nentities"))  # fmt: skip
    assert column(players, "dimension") == ["overworld", "overworld"]
    assert set(column(entities, "dimension")) == {"overworld"}  # the same words as players
    join = cell_with(nb, "].merge(")
    [joined] = [o["data"]["text/html"] for o in join.outputs if "text/html" in o.get("data", {})]
    assert column(joined, "name") == ["Steve", "Alex"] and column(joined, "type") == ["player"] * 2
    assert ">villager_v2</td>" in entities and ">Bob</td>" in entities and ">cow</td>" in entities
    assert "Found Cow" not in out
    widget, copy = cell_with(nb, "mc.map()").outputs  # the live map, then its static copy
    assert "application/vnd.jupyter.widget-view+json" in widget["data"]
    picture = copy["data"]["text/html"]
    assert re.findall(r"class='label'[^>]*>([^<]*)</text>", picture)[-2:] == ["Steve", "Alex"]
    assert "zombie &#215;1" in picture and "MCBEWS_BRIDGE" not in picture
    commands = texts(cell_with(nb, "%%mc"))
    assert "- coins: displays as 'Coins' and is type 'dummy'" in unescape(commands)
    assert "\\n" not in commands and "..." not in commands and "…" not in commands
    assert "explorer_of_the_week" in out
    kills = [h for h in outputs(nb, "text/html") if ">holder</th>" in h]
    assert len(kills) == 2 and ">10</td>" in kills[-1]  # Alex's 7 kills, plus 3
    assert images(nb) == 0  # the map is drawn by the page, not a picture


def check_03_inventory_analysis(nb: Any, out: str) -> None:
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


def check_04_ui_chat_bot(nb: Any, out: str) -> None:
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
    explore = cell_with(nb, "mc.explore(events)").outputs[0]["data"]
    assert (
        "application/vnd.jupyter.widget-view+json" in explore
        and ">cursor</th>" in explore["text/html"]
    )
    frames = texts(cell_with(nb, "encode_text_response"))
    assert frames.count("B line, ") == 3 and "661 B frame:" in frames
    assert max(len(line) for line in frames.splitlines()) <= 80  # nothing cut, nothing too wide
    blocks = [b.strip().splitlines() for b in re.split(r"\d+ B line, \d+ B frame:", frames)[1:]]
    lines = [" ".join(part.strip() for part in block) for block in blocks]  # unwrapped again
    carried = "".join(json.loads(line.split(" ", 2)[2])["c"] for line in lines)
    assert carried == "A long answer. " * 60  # every frame shown whole


def check_05_prototyping_a_capability(nb: Any, out: str) -> None:
    defined = texts(cell_with(nb, "// players_near: which players"))
    assert "✔ players_near is registered in the simulated world's addon (a prototype)" in defined
    [shown] = [o for o in cell_with(nb, "%mc call players_near").outputs if "data" in o]
    first = shown["data"]["text/plain"]
    assert first.startswith("players_near answered")
    assert [p["name"] for p in json.loads(first.split("\n", 1)[1])["players"]] == ["Steve", "Alex"]
    near = texts(cell_with(nb, 'await mc.command("tp Alex 2 64 1")'))
    assert '"distance": 2.9' in near and '"health"' not in near
    changed = cell_with(nb, "// players_near, second version")
    after = texts(nb.cells[nb.cells.index(changed) + 1])
    assert '"health": 14' in after and '"dimension": "overworld"' in after  # the new version
    assert 'parameter "radius" of players_near must be a number, not a string' in out
    caps = texts(cell_with(nb, "await mc.caps()"))
    assert column(caps, "kind").count("prototype") == 1 and "shipped" in column(caps, "kind")
    assert "cell players_near, line 3: SyntaxError" in out
    assert (
        "TypeError: cannot read property 'name' of undefined\n  at run (cell players_near, line 7)"
        in out
    )
    assert "WatchdogError: script hang: ran longer than 3000 ms" in out and "'Steve'" in out
    exported = texts(cell_with(nb, "mc.addon.export("))
    assert "mcbews_bridge_bp/scripts/prototypes/players_near.js" in exported
    assert "mcbews_bridge_bp/scripts/bridge.js" in exported and "version [0, 2, 1]" in exported
    assert "✔ wrote the pack with players_near to " in out and "/reload makes the simulated" in out
    assert "Function and script files have been reloaded." in texts(cell_with(nb, "reload()"))
    again = nb.cells[nb.cells.index(cell_with(nb, "reload()")) + 1]
    assert '"health": 14' in texts(again)  # the deployed pack's capability, after /reload
    assert "['players_near']" in texts(cell_with(nb, "after /reload"))
    # After `tp Alex 2 64 1` (the block's centre, 2.5 64 1.5) the new capability sees Alex.
    answer = cell_with(nb, "tp Alex 2 64 1").outputs[0]["data"]
    assert '"distance": 2.9' in answer["text/plain"] and "{'center'" not in out
    assert (
        "players_near answered" in answer["text/html"] and "<details open>" in answer["text/html"]
    )
    assert "MCBEWS_BRIDGE" not in out  # the bridge player is not listed


def check_06_protocol_step_by_step(nb: Any, out: str) -> None:
    first = texts(cell_with(nb, "BridgeProtocol(new_id")).splitlines()
    assert first[0] == "scriptevent mcbews:bridge_req" and first[1].startswith('{"v":2,')
    assert "\\u0040a" in first[1]  # the escape kept whole on its line
    assert "of 461 bytes of command line," in out and "of 661 bytes of frame" in out
    assert "CapabilityResult(request_id='req-1'" in out
    assert "'duplicate_chunks': 1" in out
    assert "FrameRejected(reason='not_json'" in out
    card = texts(cell_with(nb, 'answer = await mc.call("get_player_snapshot"'))
    assert "0.5, 64.0, 0.5 in overworld" in card and "'velocity'" not in card
    assert "Survival in the overworld" in card and ">-4294967296</div>" not in card
    events = texts(next(c for c in nb.cells if c.source == "await mc.events()"))
    assert column(events, "kind")[-1] == "capability" and column(events, "cursor")[0] == "1"
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
    assert "75 blocks filled" in out and "gold_block    75" in out
    assert "75 positions, all gold: True" in out
    assert images(nb) == 3  # ores by depth, the heightmaps, the cross-section
    [terrain] = [o["data"]["text/html"] for o in cell_with(nb, "mc.map(terrain=").outputs
                 if "<image href=" in o.get("data", {}).get("text/html", "")]  # fmt: skip
    assert ">Steve</text>" in terrain and "zombie &#215;1" in terrain
    # The map shows the world after the fill: the gold block's columns are gold, not lake.
    pixels = terrain_pixels(terrain)
    x0, z0 = 48 - 24, -24 - 24  # the terrain read around Steve, at 48 90 -24
    gold = {pixels[z - z0][x - x0] for x in range(50, 55) for z in range(-22, -17)}
    assert gold == {(0xF8, 0xD0, 0x30, 255)}, gold
    # Nothing is under the scale bar and the north arrow: they sit below the area drawn.
    area = re.search(r"<rect x='28' y='28' width='[\d.]+' height='([\d.]+)'", terrain)
    assert area is not None
    bottom = 28 + float(area.group(1))
    dots = [float(y) for y in re.findall(r"<circle cx='[\d.-]+' cy='([\d.-]+)'", terrain)]
    key = terrain.split("<g class='scale'>", 1)[1].split("</g>", 1)[0]
    assert max(dots) <= bottom < min(float(v) for v in re.findall(r"\by[12]?='([\d.-]+)'", key))


def terrain_pixels(html: str) -> list[list[tuple[int, ...]]]:
    """The RGBA rows of the terrain under a map (surface_png: 8-bit RGBA, no filters)."""
    png = base64.b64decode(html.split("<image href='data:image/png;base64,", 1)[1].split("'")[0])
    width, height = struct.unpack(">II", png[16:24])
    raw = zlib.decompress(png[png.index(b"IDAT") + 4 : png.index(b"IEND") - 8])
    rows = [raw[r * (1 + 4 * width) + 1 : (r + 1) * (1 + 4 * width)] for r in range(height)]
    return [[tuple(row[4 * c : 4 * c + 4]) for c in range(width)] for row in rows]


CLASS = ["Ana", "Ben", "Chloe", "Dev", "Emma"]


def cell_is(nb: Any, source: str) -> Any:
    return next(c for c in nb.cells if c.cell_type == "code" and c.source.strip() == source)


def check_08_classroom(nb: Any, out: str) -> None:
    listing = texts(cell_is(nb, "mc.worlds"))
    assert column(listing, "name") == CLASS  # five worlds, by their hosts
    assert not re.search(r"\d\d:\d\d:\d\d\.\d{6}", listing)  # times to the second
    table = cell_with(nb, "inventory = await mc.each.inventory()")
    [inventory] = [o["data"]["text/html"] for o in table.outputs if "text/html" in o["data"]]
    assert sorted(set(column(inventory, "world"))) == CLASS
    assert column(inventory, "world") == column(inventory, "player")  # each in her own world
    given = texts(cell_with(nb, "give @a apple 3"))
    assert all(f"Gave Apple * 3 to {name}" in given for name in CLASS)
    apples = texts(cell_with(nb, 'after["item"] == "apple"'))
    assert all(f"<td>{name}</td>" in apples for name in CLASS)
    asked = texts(cell_with(nb, 'mc.world("Chloe").sim.ask'))
    assert "[assistant]</span> A torch: a stick under a piece of coal" in asked
    online = texts(cell_is(nb, "%mc"))
    assert "4 games connected, 1 dropped" in online
    assert re.search(r"Dev \(#4\).{0,40}dropped at \d\d:\d\d:\d\d", online)
    for name in ("Ana", "Ben", "Chloe", "Emma"):
        assert re.search(rf"{name} \(#\d\).{{0,40}}connected since .{{0,30}}{name}'s game", online)
    four = texts(cell_with(nb, "the four still connected"))
    assert ">Dev<" not in four and all(f">{n}</td>" in four for n in ("Ana", "Ben", "Emma"))
    worlds = texts(cell_with(nb, "Dev's world stays listed"))
    assert dict(zip(column(worlds, "name"), column(worlds, "connected"), strict=True))["Dev"] == (
        "no, dropped"
    )


def pivot(html: str) -> dict[str, dict[str, str]]:
    """A pandas table's HTML (one index level, as ``unstack`` gives) as row -> column -> cell."""
    table = html.split("<table", 1)[1].split("</table>", 1)[0]
    head, body = table.split("</thead>", 1)
    columns = re.findall(r"<th>(.*?)</th>", head.split("</tr>", 1)[0])[1:]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        [name] = re.findall(r"<th>(.*?)</th>", row)
        rows[name] = dict(zip(columns, re.findall(r"<td>(.*?)</td>", row), strict=True))
    return rows


def check_09_events(nb: Any, out: str) -> None:
    # A selection of the listing's columns shows as pandas shows any frame (True, not yes).
    listed = cell_with(nb, "mc.subscriptions").get("outputs", [])
    [listing] = [o["data"]["text/html"] for o in listed if "text/html" in o.get("data", {})]
    rows = zip(*(column(listing, h) for h in ("event", "source", "covers", "status")), strict=True)
    shown = {event: rest for event, *rest in rows}
    for name in ("BlockBroken", "MobKilled", "PlayerTravelled"):
        assert shown[name] == ["websocket", "the connected client only", "captured"], shown
    assert set(column(listing, "subscribed")) == {"True"}
    live = texts(cell_with(nb, "follow=True"))
    assert ">game_event</td>" in live and "BlockBroken by " in live
    told = cell_with(nb, "GameText(ben.sim.inbox")
    assert "Ben is shown:" in texts(told)
    [html] = [o["data"]["text/html"] for o in told.outputs if "text/html" in o.get("data", {})]
    assert "Diamonds, Ben! Well found." in html and "§" not in html  # in colour, no codes
    broke = pivot(texts(cell_with(nb, "who_broke_what =")))
    assert set(broke) == {"Ana", "Ben", "Chloe"}
    assert broke["Ben"]["diamond_ore"] == "1" and broke["Ana"]["diamond_ore"] == "0"
    looked = re.search(r"the map looked (\d+) times and sent (\d+) commands: (.*)", out)
    assert looked is not None, "the map's line"
    looks, commands = int(looked.group(1)), int(looked.group(2))
    assert looks >= 10 and commands * 5 <= looks, (looks, commands)  # polled: 2 a look
    assert looked.group(3).startswith("players as PlayerTravelled events put them")
    mobs = pivot(texts(cell_with(nb, "per_player =")))
    assert all(int(mobs[name]["mobs"]) > 0 for name in ("Ana", "Ben", "Chloe"))
    assert images(nb) == 2  # the heat map, the mobs per player


def check_10_building(nb: Any, out: str) -> None:
    assert "<b>BlockRegion</b> 48x22x32 blocks at (-24, 60, -8)" in out  # the meadow before
    art = texts(cell_with(nb, "art = pixel_art("))
    assert "<PixelArt of 16x24 pixels: 384 blocks of 4 kinds in 24x16x1 at (-20, 64, -4)>" in art
    assert "'minecraft:light_blue_wool': 22" in art and "'minecraft:red_wool': " in art
    built = texts(cell_is(nb, "await mc.build(art)"))
    assert "WriteResult 24x16x1 blocks at (-20, 64, -4) in overworld: 384 written" in built
    assert "384 positions read back, all as written: True" in out
    drawn = [line for line in texts(cell_with(nb, "def maze(")).splitlines() if line]
    assert len(drawn) == 15 and {len(line) for line in drawn} == {21}  # 10 x 7 cells
    assert drawn[0] == "# " + "#" * 19 and drawn[-1] == "#" * 19 + " #"  # a way in and out
    shown = cell_with(nb, "mc.map(preview=blocks")
    [preview] = [o["data"]["text/html"] for o in shown.outputs if "text/html" in o["data"]]
    found = re.search(r"preview of 21x3x15 blocks at \(0, 63, 6\) in overworld: (\d+) would "
                      r"change, (\d+) already so", preview)  # fmt: skip
    assert found is not None and "alt='before'" in preview and "alt='after'" in preview
    change, already = found.groups()
    maze = texts(cell_is(nb, "await mc.set_blocks(MAZE_AT, blocks)"))
    assert f"{change} written, {already} already so" in maze  # as the preview said
    house = texts(cell_with(nb, "HOUSE_AT = "))
    assert "WriteResult 7x8x7 blocks at (-20, 63, 8) in overworld:" in house
    saved = texts(cell_with(nb, "mc.save_structure("))
    assert re.search(r"house\.mcstructure \d+ bytes", saved)
    assert "<Structure 7x8x7 structure: 5 kinds of block>" in saved
    for where in ("(-11, 63, 8)", "(-20, 63, 16)"):
        loaded = texts(cell_with(nb, f"mc.load_structure(path, {where})"))
        assert re.search(
            rf"WriteResult 7x8x7 blocks at \{where[:-1]}\) in overworld: \d+ wr", loaded
        )
    undone = texts(cell_is(nb, "await mc.undo()"))
    assert "undid set_blocks 7x8x7 at (-20, 63, 16) in overworld" in undone
    assert images(nb) == 3  # the image and its wool, the meadow before, and after


def check_11_mcpi_lessons(nb: Any, out: str) -> None:
    """The classic lesson through the mcpi facade: where the player is (the spawn, from which
    positions count), the house read back block by block, the tower's wool colours, the
    player on the roof."""
    where = texts(cell_with(nb, 'print("Steve is at", pos)'))
    assert "Steve is at Vec3(0,0,0)" in where  # he starts at the spawn: (0, 0, 0)
    assert re.search(r"the block under his feet: 1$", where, re.M)  # the stone under the spawn
    shown = texts(cell_with(nb, "Counter(house)")).splitlines()
    house = dict(line.split() for line in shown if line.strip())
    # a 7x4x6 box, 5x3x4 hollowed, a doorway of 2, two windows
    assert house == {"COBBLESTONE": "104", "AIR": "62", "GLASS_PANE": "2"}, house
    tower = texts(cell_with(nb, "for level in range(12)"))
    assert "placed 96 blocks" in tower
    assert "the bottom: Block(35, 0)" in tower and "the top:    Block(35, 11)" in tower
    roof = texts(cell_with(nb, "mc.player.setTilePos("))
    assert "Steve is now at Vec3(9,5,0)" in roof and "he stands on: WOOD_PLANKS" in roof


PROTOTYPING = "05_prototyping_a_capability.ipynb"
EVENTS = "09_events.ipynb"
CHECKS = {
    "01_getting_started.ipynb": check_01_getting_started,
    "02_exploring_a_world.ipynb": check_02_exploring_a_world,
    "03_inventory_analysis.ipynb": check_03_inventory_analysis,
    "04_ui_chat_bot.ipynb": check_04_ui_chat_bot,
    "05_prototyping_a_capability.ipynb": check_05_prototyping_a_capability,
    "06_protocol_step_by_step.ipynb": check_06_protocol_step_by_step,
    "07_mapping_a_region.ipynb": check_07_mapping_a_region,
    "08_classroom.ipynb": check_08_classroom,
    EVENTS: check_09_events,
    "10_building.ipynb": check_10_building,
    "11_mcpi_lessons.ipynb": check_11_mcpi_lessons,
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


@pytest.mark.parametrize("name", sorted(set(CHECKS) - {PROTOTYPING, EVENTS}))
def test_notebook(name: str) -> None:
    CHECKS[name](*executed(name, "stable-pull"))


def test_events_notebook_with_its_map_on_screen() -> None:
    """Notebook 09 with its live map on screen: a cell after the map's says so, as the page's
    livemap.js does once the map is visible (no browser here), so the map looks while the
    class plays, from pushed positions."""
    nb = nbformat.read(NOTEBOOKS / EVENTS, as_version=4)
    after = nb.cells.index(cell_with(nb, "ana.map(")) + 1
    shown = "m.widget._handle_custom_msg({'visible': True}, [])  # what livemap.js sends"
    nb.cells.insert(after, nbformat.v4.new_code_cell(shown))
    run_notebook(nb, NOTEBOOKS)
    check_09_events(nb, "\n".join(texts(c) for c in nb.cells))


def test_prototyping_runs_with_no_node_on_path(tmp_path: Path) -> None:
    """Notebook 05 defines, calls, changes, exports, deploys, reloads and calls again on a
    machine without Node: the kernel's PATH has no node, npm or npx (a last cell checks)."""
    nb = nbformat.read(NOTEBOOKS / PROTOTYPING, as_version=4)
    check = "import shutil; print('node:', [shutil.which(t) for t in ('node', 'npm', 'npx')])"
    nb.cells.append(nbformat.v4.new_code_cell(check))
    run_notebook(nb, NOTEBOOKS, extra={"PATH": path_without_node(tmp_path)})
    check_05_prototyping_a_capability(nb, "\n".join(texts(c) for c in nb.cells[:-1]))
    assert "node: [None, None, None]" in texts(nb.cells[-1])


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
    "world_census.ipy": [
        "2 players online",
        "5 entities",
        "Showing 2 objective(s)",
        "- coins: displays as 'Coins'",
    ],
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
    assert "§" not in out and "minecraft:" not in out  # the words, and the short names


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
    assert "§" not in done.stdout and "minecraft:" not in done.stdout
    assert set(SCRIPTS.glob("*.ipy")) == {SCRIPTS / n for n in SCRIPT_CHECKS}
