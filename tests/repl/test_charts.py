"""The charts and the interactive table, from frames shaped as ``mc`` returns them."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from mcbews_repl.repl.charts import durability, items_by_player, paths
from mcbews_repl.repl.interactive import explore_frame, explore_table
from mcbews_repl.repl.mapdraw import player_colours
from mcbews_repl.repl.tables import events_frame, inventory_frame, track_frame, track_rows
from tests.repl.test_views import INVENTORY, entry


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
    with pytest.raises(ValueError, match=r"reads typeId, amount: give it the frame mc.inventory"):
        items_by_player(events_frame([entry(1, "chat", "hi")], {}).assign(player="x"))
    plain = inventory_frame({"players": [{"name": "A", "slots": [
        {"slot": 0, "typeId": "minecraft:dirt", "amount": 1}]}]})  # fmt: skip
    with pytest.raises(ValueError, match="no item in this inventory has durability"):
        durability(plain)


def test_explore_keeps_numbers_as_numbers_and_offers_pick_lists() -> None:
    table = explore_frame(inventory_frame(INVENTORY))
    assert list(table.columns) == ["player", "slot", "item", "amount", "name", "enchantments",
                                   "lore", "durability %"]  # fmt: skip
    assert list(table["amount"]) == [1, 1, 64, 1, 3] and list(table["durability %"])[:2] == [92, 20]
    assert table["durability %"].iloc[2] is None  # shown empty, sorted as missing
    widget = explore_table(inventory_frame(INVENTORY))
    args = widget._dt_args
    assert args["layout"]["top1"] == "searchPanes"  # above the search box and the pages
    assert args["searchPanes"]["columns"] == [0, 2]  # player and item: pick lists
    events = explore_frame(events_frame([entry(7, "ui_chat", "hi"), entry(8, "text", "x")], {}))
    assert list(events.columns[:2]) == ["cursor", "time"] and list(events["cursor"]) == [7, 8]
