"""The charts and the interactive table, from frames shaped as ``mc`` returns them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import pytest

from mcbews_repl.repl.charts import durability, items_by_player, paths
from mcbews_repl.repl.show._mapdraw import player_colours
from mcbews_repl.repl.show._table_widget import table_widget, widget_rows
from mcbews_repl.repl.show._tables import events_frame, inventory_frame, track_frame, track_rows
from tests.repl.show.test_views import INVENTORY, entry


def colour(artist: Any) -> str:
    from matplotlib.colors import to_hex

    return str(to_hex(artist.get_facecolor()))


def test_items_by_player_stacks_each_players_share() -> None:
    fig = items_by_player(inventory_frame(INVENTORY))
    [ax] = fig.axes
    assert [c.get_label() for c in ax.containers] == ["Alex", "Steve"]  # one bar set each
    items = [t.get_text() for t in ax.get_yticklabels()]
    assert items[-1] == "cobblestone" and "mypack:ruby" in items  # most first, at the top
    colours = player_colours(["Alex", "Steve"])
    assert colour(ax.containers[0][0]) == colours["Alex"]  # the map's colours
    assert fig._repr_png_().startswith(b"\x89PNG")


def test_durability_shows_every_worn_item_in_its_colour() -> None:
    fig = durability(inventory_frame(INVENTORY))
    [ax] = fig.axes
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["Steve: diamond_sword (0)", "Steve: iron_pickaxe (1)",
                      "Steve: iron_helmet (head)"]  # fmt: skip
    assert [colour(b) for b in ax.containers[0]] == ["#2da44e", "#d29922", "#cf222e"]
    assert [t.get_text() for t in ax.texts] == ["92%", "20%", "9%"]


def test_paths_draw_each_player_from_above_and_in_height() -> None:
    start = dt.datetime(2026, 1, 1).timestamp()
    rows = []
    for k, x in enumerate((0, 10, 20)):
        alex = {"name": "Alex", "location": {"x": x, "y": 64 + x, "z": 0}}
        rows += track_rows({"players": [alex]}, start + k, float(k))
    fig = paths(track_frame(rows))
    top, side = fig.axes
    line = top.get_lines()[0]
    assert list(line.get_xdata()) == [0, 10, 20] and top.yaxis_inverted()
    assert list(side.get_lines()[0].get_ydata()) == [64, 74, 84]


def test_charts_say_what_frame_they_need() -> None:
    with pytest.raises(ValueError, match=r"reads item, amount: give it the frame mc.inventory"):
        items_by_player(events_frame([entry(1, "chat", "hi")], {}).assign(player="x"))
    plain = inventory_frame({"players": [{"name": "A", "slots": [
        {"slot": 0, "typeId": "minecraft:dirt", "amount": 1}]}]})  # fmt: skip
    with pytest.raises(ValueError, match="no item in this inventory has durability"):
        durability(plain)


def test_explore_shows_the_view_with_sort_keys_and_pick_lists() -> None:
    shown = widget_rows(inventory_frame(INVENTORY))
    headers = [c["header"] for c in shown["columns"]]
    assert headers == ["player", "slot", "item", "amount", "durability", "name",
                       "enchantments"]  # fmt: skip
    picks = {c["header"]: c["picks"] for c in shown["columns"] if c["picks"]}
    assert picks == {"player": ["Alex", "Steve"], "item": ["cobblestone", "diamond_sword",
                     "iron_helmet", "iron_pickaxe", "mypack:ruby"]}  # fmt: skip
    sword = shown["rows"][0]
    assert sword["words"][2] == "diamond_sword" and "background:#2da44e" in "".join(sword["cells"])
    assert [r["keys"][3] for r in shown["rows"]] == [1, 1, 64, 1, 3]  # amounts sort as numbers
    assert [r["keys"][4] for r in shown["rows"]] == [92, 20, None, 9, None]
    assert [r["keys"][1] for r in shown["rows"]] == ["0", "1", "2", "head", "5"]  # mixed: words
    widget = table_widget(inventory_frame(INVENTORY))
    assert widget.total == 5 and len(widget.rows) == 5


def test_explore_takes_any_frame_and_keeps_the_cursor() -> None:
    events = widget_rows(events_frame([entry(7, "ui_chat", "hi"), entry(8, "text", "x")], {}))
    assert [c["header"] for c in events["columns"]][:2] == ["cursor", "time"]
    assert [r["keys"][0] for r in events["rows"]] == [7, 8]
    plain = widget_rows(pd.DataFrame({"who": ["a", "b", "a"], "n": [3, 1, 2]}))
    assert [c["picks"] for c in plain["columns"]] == [["a", "b"], []]
    assert [r["keys"][1] for r in plain["rows"]] == [3, 1, 2]
