"""Every table names dimensions, entity types, items and blocks one way (gameids.py): the
short name in the column a person reads, the full id in the column beside it. Read from a
real shell against the simulated world, so tables made by different calls join."""

from __future__ import annotations

from typing import Any

from mcbews_repl.repl.handle import Minecraft

# The short name, the full id beside it, and where they are.
NAMED = {"dimension": "dimensionId", "type": "typeId", "item": "itemId", "block": "blockId"}


def mc_of(shell: Any) -> Minecraft:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft)
    return mc


def html(shell: Any, value: object) -> str:
    shown: str = shell.display_formatter.formatters["text/html"].lookup(value)(value)
    return shown


def assert_named_one_way(frame: Any) -> None:
    for short, full in NAMED.items():
        if short not in frame.columns:
            continue
        assert full in frame.columns, (short, list(frame.columns))
        known = frame[frame[full].notna()]
        assert not known[short].astype(str).str.startswith("minecraft:").any(), short
        assert known[full].astype(str).str.contains(":|^<", regex=True).all(), full
        again = "minecraft:" + known[short].astype(str)
        same = known[short].astype(str) == known[full].astype(str)  # another namespace
        assert (known[full].astype(str).isin(again) | same).all(), full


def test_players_join_entities_on_what_both_show(shell: Any) -> None:
    mc = mc_of(shell)
    players, entities = mc.players().result(20), mc.entities().result(20)
    joined = players.merge(entities, on=["name", "dimension"], suffixes=("", "_entity"))
    assert sorted(joined["name"]) == ["Alex", "Steve"]  # the players are entities too
    assert set(joined["dimensionId"]) == {"minecraft:overworld"}
    assert set(joined["type"]) == {"player"} and set(joined["typeId"]) == {"minecraft:player"}


def test_every_table_has_the_short_name_and_the_full_id(shell: Any) -> None:
    mc = mc_of(shell)
    frames = {
        "players": mc.players().result(20),
        "entities": mc.entities().result(20),
        "inventory": mc.inventory().result(20),
        "track": mc.track(seconds=0.2, every=0.1).result(20),
        "each": mc.each.players().result(20),
        "blocks": mc.blocks((-2, 63, -2), (1, 64, 1)).result(20).to_frame(),
        "query": mc.query.entities().result(20).to_dataframe(),
    }
    for name, frame in frames.items():
        assert any(c in frame.columns for c in NAMED), name
        assert_named_one_way(frame)
    assert set(frames["track"]["dimension"]) == {"overworld"}
    assert "diamond_sword" in set(frames["inventory"]["item"])
    assert "minecraft:diamond_sword" in set(frames["inventory"]["itemId"])
    assert "typeId" not in frames["inventory"].columns  # one name per meaning
    assert set(frames["query"]["dimension"]) == set(frames["players"]["dimension"])


def test_tables_show_the_short_name_and_the_full_id_on_hover(shell: Any) -> None:
    mc = mc_of(shell)
    shown = html(shell, mc.entities().result(20))
    assert ">zombie</td>" in shown and "title='minecraft:zombie'" in shown
    assert ">overworld</td>" in shown and "title='minecraft:overworld'" in shown
    shown = html(shell, mc.inventory("Steve").result(20))
    assert "title='minecraft:diamond_sword'>diamond_sword</td>" in shown
