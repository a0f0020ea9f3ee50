"""The friendly tables: what a frame from ``mc`` shows, and that the frame keeps its data.

The answers are shaped as the addon gives them (addon/src/capabilities/); the checks read
the HTML a notebook renders and the text a terminal prints.
"""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from typing import Any

import pandas as pd

from mcbews_repl.gateway import LogEntry
from mcbews_repl.repl.show._results import CallResult, result_html, result_text
from mcbews_repl.repl.show._tables import events_frame, inventory_frame, players_frame
from mcbews_repl.repl.show._views import frame_html, frame_text, tag, view_of

SWORD = {
    "slot": 0, "typeId": "minecraft:diamond_sword", "amount": 1, "maxAmount": 1,
    "nameTag": "Excalibur", "lore": ["Pulled from a stone", "§6Legendary"],
    "enchantments": [{"id": "sharpness", "level": 5}],
    "durability": {"damage": 120, "max": 1561},
}  # fmt: skip
INVENTORY = {
    "players": [
        {
            "name": "Steve",
            "slots": [
                SWORD,
                {"slot": 1, "typeId": "minecraft:iron_pickaxe", "amount": 1, "maxAmount": 1,
                 "durability": {"damage": 200, "max": 250}},
                {"slot": 2, "typeId": "minecraft:cobblestone", "amount": 64, "maxAmount": 64},
            ],
            "equipment": {"head": {"typeId": "minecraft:iron_helmet", "amount": 1,
                                   "maxAmount": 1, "durability": {"damage": 150, "max": 165}}},
        },
        {"name": "Alex", "slots": [{"slot": 5, "typeId": "mypack:ruby", "amount": 3,
                                    "maxAmount": 64}]},
    ]
}  # fmt: skip
PLAIN = {"players": [{"name": "Alex", "slots": [
    {"slot": 2, "typeId": "minecraft:cobblestone", "amount": 64, "maxAmount": 64}]}]}  # fmt: skip


def cells(html: str, column: str) -> list[str]:
    """The text of one column's cells in an HTML table (headers read from <th>)."""
    at = headers(html).index(column)
    rows = re.findall(r"<tr>(.*?)</tr>", html.split("<tbody>")[1], re.S)
    found = []
    for row in rows:
        tds = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        if len(tds) == len(headers(html)):
            found.append(unescape(re.sub("<[^>]+>", "", tds[at])))
    return found


def headers(html: str) -> list[str]:
    head = html.split("</thead>")[0]
    return [unescape(re.sub("<[^>]+>", "", h)) for h in re.findall(r"<th[^>]*>(.*?)</th>", head)]


def test_inventory_shows_short_names_whole_numbers_and_durability_bars() -> None:
    html = frame_html(inventory_frame(INVENTORY))
    items = cells(html, "item")
    assert items == ["diamond_sword", "iron_pickaxe", "cobblestone", "iron_helmet", "mypack:ruby"]
    assert "title='minecraft:diamond_sword'" in html  # the full id, on hover
    assert "NaN" not in html and "<NA>" not in html and "None" not in html
    assert "120.0" not in html and "0.923" not in html  # no floats for counts or fractions
    assert cells(html, "durability") == ["92%", "20%", "", "9%", ""]
    assert html.count("border-radius:4px;background:#") == 3  # a bar where durability is known
    for colour in ("#2da44e", "#d29922", "#cf222e"):  # the sword green, pickaxe amber, helmet red
        assert f"background:{colour}" in html
    assert "Legendary" in html and "§" not in html
    assert cells(html, "name")[0] == "ExcaliburPulled from a stone\nLegendary"  # lore below


def test_columns_empty_in_every_row_are_left_out() -> None:
    frame = inventory_frame(PLAIN)
    assert headers(frame_html(frame)) == ["player", "slot", "item", "amount"]
    assert frame_text(frame).splitlines()[0].split() == ["player", "slot", "item", "amount"]
    assert "durability" in frame.columns  # only the view leaves it out


def test_the_frame_keeps_every_column_for_analysis() -> None:
    frame = inventory_frame(INVENTORY)
    assert type(frame) is pd.DataFrame
    assert list(frame.columns[:4]) == ["player", "slot", "item", "itemId"]
    sword = frame.iloc[0]
    assert (sword["item"], sword["itemId"]) == ("diamond_sword", "minecraft:diamond_sword")
    assert sword["damage"] == 120 and "typeId" not in frame.columns
    assert str(frame["amount"].dtype) == "Int64" and frame["amount"].sum() == 70
    assert abs(sword["durability"] - (1 - 120 / 1561)) < 1e-9  # the fraction left, 0..1
    raw = inventory_frame(INVENTORY, raw=True)
    assert "item" not in raw.columns and view_of(raw) is None
    assert frame_html(raw) == raw._repr_html_()


def test_a_frame_whose_columns_changed_shows_as_pandas_shows_it() -> None:
    frame = inventory_frame(INVENTORY)
    picked = frame[["player", "item"]]
    assert view_of(picked) is None and frame_html(picked) == picked._repr_html_()
    steve = frame[frame["player"] == "Steve"]  # rows chosen, columns kept: still the view
    assert view_of(steve) is not None and "mypack:ruby" not in frame_html(steve)
    assert frame_text(picked) == repr(picked)


def test_terminal_text_reads_like_the_table() -> None:
    lines = frame_text(inventory_frame(INVENTORY)).splitlines()
    assert lines[0].split() == ["player", "slot", "item", "amount", "durability", "name",
                                "enchantments"]  # fmt: skip
    assert "diamond_sword" in lines[1] and "92%" in lines[1] and "minecraft:" not in lines[1]
    assert "Excalibur (Pulled from a stone / Legendary)" in lines[1]


def test_players_show_where_and_health() -> None:
    answer = {"players": [{"name": "Alex", "id": "-2", "dimension": "minecraft:overworld",
                           "location": {"x": 12.5, "y": 70, "z": -8.5},
                           "health": {"current": 14, "max": 20}, "gameMode": "Creative",
                           "level": 3, "tags": ["vip"]}]}  # fmt: skip
    html = frame_html(players_frame(answer))
    assert headers(html) == ["name", "dimension", "x", "y", "z", "health", "game mode",
                             "level", "tags"]  # fmt: skip
    assert cells(html, "dimension") == ["overworld"] and cells(html, "y") == ["70"]
    assert cells(html, "health") == ["14 / 20"] and "background:#2da44e" in html


def entry(cursor: int, kind: str, summary: str, connection: int = 1) -> LogEntry:
    at = dt.datetime(2026, 1, 2, 3, 4, 5, 678_901).timestamp()
    return LogEntry(cursor, at, kind, connection, summary, {"player": "Alex"})


def test_events_are_indexed_by_cursor_with_readable_times() -> None:
    frame = events_frame([entry(7, "ui_chat", "hi"), entry(8, "text", "sent")], {1: "Steve"})
    assert list(frame.index) == [7, 8] and frame.index.name == "cursor"
    assert "cursor" not in frame.columns
    html = frame_html(frame)
    assert headers(html) == ["cursor", "time", "kind", "player", "summary"]  # one game: no game
    assert cells(html, "time") == ["03:04:05.678", "03:04:05.678"]
    assert cells(html, "cursor") == ["7", "8"]
    assert frame_text(frame).splitlines()[1].split()[:3] == ["7", "03:04:05.678", "ui_chat"]
    two = events_frame([entry(1, "connected", "a"), entry(2, "connected", "b", 2)], {})
    assert "game" in headers(frame_html(two))


def test_long_text_wraps_instead_of_being_cut() -> None:
    message = "Showing 2 objective(s) on scoreboard:\n- kills: displays as 'Kills'\n- coins"
    frame = tag(pd.DataFrame([{"command": "scoreboard objectives list", "ok": True,
                               "status": 0, "message": message}]), "commands")  # fmt: skip
    html = frame_html(frame)
    assert message in unescape(html) and "\\n" not in html and "..." not in html
    assert "white-space:pre-line" in html
    assert "✔" in html and "/scoreboard objectives list" in html


def test_long_frames_show_their_first_and_last_rows() -> None:
    entries = [entry(k, "command", f"say {k}") for k in range(1, 101)]
    frame = events_frame(entries, {})
    html = frame_html(frame)
    assert cells(html, "cursor") == [str(k) for k in [*range(1, 11), *range(91, 101)]]
    assert "… 80 more rows" in html and "100 rows" in html
    assert "… 80 more rows" in frame_text(frame)


def test_capability_answers_are_dicts_that_show_as_what_they_are() -> None:
    snapshot = CallResult("get_player_snapshot", {"players": [{"name": "Steve", "id": "-1",
                          "dimension": "minecraft:overworld", "location": {"x": 0.5, "y": 64,
                          "z": 0.5}}]})  # fmt: skip
    assert snapshot == {"players": snapshot["players"]} and isinstance(snapshot, dict)
    html = result_html(snapshot)
    assert "Steve" in html and "0.5, 64.0, 0.5 in overworld" in html
    assert "{'players'" not in html and "&#x27;location&#x27;" not in html
    inventory = result_html(CallResult("get_inventory_snapshot", INVENTORY))
    assert cells(inventory, "item")[0] == "diamond_sword"


def test_unknown_answers_show_as_a_json_tree() -> None:
    near = {
        "center": {"x": 0, "y": 64},
        "radius": 5,
        "players": [{"name": "Alex", "distance": 2.9}],
    }
    answer = CallResult("players_near", near)
    html = result_html(answer)
    assert "players_near answered" in html and "<details open>" in html
    assert re.search(r">distance</span>: <span[^>]*>2\.9</span>", html)
    assert "2 keys" in html and "1 item" in html
    assert "{'center'" not in html
    text = result_text(answer)
    assert text.splitlines()[0] == "players_near answered" and '"distance": 2.9' in text


def test_an_answer_of_an_unexpected_shape_falls_back_to_the_tree() -> None:
    odd: Any = CallResult("get_player_snapshot", {"who": "nobody"})
    assert "get_player_snapshot answered" in result_html(odd)
