"""Every validation rule rejects bad input with InvalidArgument before anything is sent, and
good input builds exactly the command line the game expects."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit import Scoreboard, WorldQueries
from mcbews_repl.toolkit import commands as build

from .conftest import Recorder

Q = WorldQueries
S = Scoreboard
BAD: list[tuple[str, Callable[[Q, S], Awaitable[Any]], str]] = [
    # holder syntax (docs/toolkit.md): 1-128 bytes, no edge spaces, @ * " \ or control characters
    ("selector as holder", lambda q, s: s.set("@a", "kills", 1), "holder"),
    ("wildcard holder", lambda q, s: s.set("*", "kills", 1), "holder"),
    ("empty holder", lambda q, s: s.add("", "kills", 1), "holder"),
    ("long holder", lambda q, s: s.get("x" * 129, "kills"), "holder"),
    ("multibyte holder", lambda q, s: s.get("é" * 65, "kills"), "holder"),
    ("edge space", lambda q, s: s.reset(" Steve", "kills"), "holder"),
    ("quote", lambda q, s: q.scores('St"eve'), "holder"),
    ("backslash", lambda q, s: q.scores("St\\eve"), "holder"),
    ("newline", lambda q, s: q.scores("Steve\nsay hi"), "holder"),
    ("not a string", lambda q, s: q.scores(42), "holder"),  # type: ignore[arg-type]
    ("source holder", lambda q, s: s.operation("A", "k", "=", "@p", "k"), "source_holder"),
    ("player selector", lambda q, s: q.item_count("@s", "dirt"), "player"),
    ("tags selector", lambda q, s: q.tags("@e"), "player"),
    # objective syntax: [A-Za-z0-9_.-]{1,16}
    ("long objective", lambda q, s: s.set("A", "a" * 17, 1), "objective"),
    ("objective space", lambda q, s: s.add_objective("my score"), "objective"),
    ("objective colon", lambda q, s: s.remove_objective("a:b"), "objective"),
    ("empty objective", lambda q, s: s.get("A", ""), "objective"),
    ("source objective", lambda q, s: s.operation("A", "k", "=", "B", "k!"), "source_objective"),
    ("objective read", lambda q, s: s.objective_scores("no way"), "objective"),
    # integer ranges
    ("value above int32", lambda q, s: s.set("A", "k", 2**31), "value"),
    ("value below int32", lambda q, s: s.set("A", "k", -(2**31) - 1), "value"),
    ("value float", lambda q, s: s.set("A", "k", 1.5), "value"),  # type: ignore[arg-type]
    ("value bool", lambda q, s: s.set("A", "k", True), "value"),
    ("delta int32 min", lambda q, s: s.add("A", "k", -(2**31)), "delta"),
    ("delta too big", lambda q, s: s.add("A", "k", 2**31), "delta"),
    ("item data", lambda q, s: q.item_count("Steve", "dirt", data=32768), "data"),
    ("item data low", lambda q, s: q.item_count("Steve", "dirt", data=-2), "data"),
    # the operator set
    ("operator", lambda q, s: s.operation("A", "k", "**=", "B", "k"), "operator"),
    ("operator word", lambda q, s: s.operation("A", "k", "swap", "B", "k"), "operator"),
    # display names and slots
    ("display quote", lambda q, s: s.add_objective("k", 'say "hi"'), "display_name"),
    ("display long", lambda q, s: s.add_objective("k", "d" * 129), "display_name"),
    ("slot", lambda q, s: s.setdisplay("hotbar", "k"), "slot"),
    ("sort order", lambda q, s: s.setdisplay("sidebar", "k", sort_order="up"), "sort_order"),
    (
        "sort without objective",
        lambda q, s: s.setdisplay("list", sort_order="ascending"),
        "sort_order",
    ),
    (
        "sort on belowname",
        lambda q, s: s.setdisplay("belowname", "k", sort_order="ascending"),
        "sort_order",
    ),
    # items, blocks, entity filters
    ("item upper case", lambda q, s: q.item_count("Steve", "Diamond"), "item"),
    ("item space", lambda q, s: q.item_count("Steve", "diamond sword"), "item"),
    ("block id", lambda q, s: q.block(0, 0, 0, "stone 1"), "block"),
    ("block coordinate float", lambda q, s: q.block(0.5, 0, 0, "stone"), "x"),  # type: ignore[arg-type]
    ("block beyond border", lambda q, s: q.block(0, 0, 30_000_001, "stone"), "z"),
    ("entity type", lambda q, s: q.entities(entity_type="Zombie!"), "entity_type"),
    ("entity name quote", lambda q, s: q.entities(name='a"b'), "name"),
    ("entity tag bracket", lambda q, s: q.entities(tag="a]b"), "tag"),
    ("target kind", lambda q, s: q.entities(target="mobs"), "target"),
    ("limit zero", lambda q, s: q.entities(limit=0), "limit"),
    ("limit above 64", lambda q, s: q.entities(limit=65), "limit"),
    ("radius without origin", lambda q, s: q.entities(radius=5), "radius"),
    ("radius too big", lambda q, s: q.entities(origin=(0, 0, 0), radius=1025), "radius"),
    ("origin not three", lambda q, s: q.entities(origin=(0, 0)), "origin"),
    ("origin nan", lambda q, s: q.entities(origin=(0, float("nan"), 0)), "origin.y"),
    ("region too big", lambda q, s: q.region((0, 0, 0), (16, 16, 2), "stone"), "size"),
    ("region axis", lambda q, s: q.region((0, 0, 0), (17, 1, 1), "stone"), "size.x"),
    ("region empty axis", lambda q, s: q.region((0, 0, 0), (1, 0, 1), "stone"), "size.y"),
    ("region origin", lambda q, s: q.region((0, 0.5, 0), (1, 1, 1), "stone"), "origin"),  # type: ignore[arg-type]
    ("region block", lambda q, s: q.region((0, 0, 0), (1, 1, 1), "Stone"), "block"),
    # selectors
    ("selector kind", lambda q, s: q.testfor("@q"), "selector"),
    ("selector nested", lambda q, s: q.testfor("@e[[x]]"), "selector"),
    ("selector trailing", lambda q, s: q.testfor("@a say hi"), "selector"),
    ("selector empty", lambda q, s: q.testfor(""), "selector"),
    ("selector long", lambda q, s: q.testfor("@e[" + "a" * 300 + "]"), "selector"),
]


@pytest.mark.parametrize(("label", "call", "argument"), BAD, ids=[b[0] for b in BAD])
async def test_rule_rejects_before_sending(
    recorder: Recorder, label: str, call: Callable[[Q, S], Awaitable[Any]], argument: str
) -> None:
    with pytest.raises(InvalidArgument) as caught:
        await call(WorldQueries(recorder), Scoreboard(recorder))
    assert caught.value.argument == argument
    assert caught.value.how_to and caught.value.problem
    assert isinstance(caught.value, ValueError)
    assert recorder.sent == []


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (build.item_count("Steve", "diamond"), "clear Steve minecraft:diamond -1 0"),
        (build.item_count("Some One", "wool", 14), 'clear "Some One" minecraft:wool 14 0'),
        (build.scores_of("#global"), "scoreboard players list #global"),
        (build.score_add("A", "k", -5), "scoreboard players add A k -5"),
        (build.score_add("A", "k", 0), "scoreboard players add A k 0"),
        (build.score_set("A", "k", -(2**31)), "scoreboard players set A k -2147483648"),
        (build.score_reset("A", "k"), "scoreboard players reset A k"),
        (
            build.score_operation("A", "k", "><", "B", "j"),
            "scoreboard players operation A k >< B j",
        ),
        (build.objective_add("k", "My K"), 'scoreboard objectives add k dummy "My K"'),
        (build.objective_setdisplay("sidebar"), "scoreboard objectives setdisplay sidebar"),
        (
            build.objective_setdisplay("list", "k", "descending"),
            "scoreboard objectives setdisplay list k descending",
        ),
        (build.testforblock(1, -2, 3, "chest"), "testforblock 1 -2 3 minecraft:chest"),
        (
            build.entity_selector(entity_type="cow", origin=(0, 64.5, 0), radius=8, limit=3),
            "@e[x=0,y=64.5,z=0,r=8,type=minecraft:cow,c=4]",
        ),
        (build.entity_selector(target="players", name="Some One"), '@a[name="Some One",c=65]'),
        (build.testfor("Some One"), 'testfor "Some One"'),
    ],
)
def test_builders(line: str, expected: str) -> None:
    assert line == expected


@pytest.mark.parametrize("operator", ["=", "+=", "-=", "*=", "/=", "%=", "><", "<", ">"])
def test_every_operator_is_accepted(operator: str) -> None:
    assert f" {operator} " in build.score_operation("A", "k", operator, "B", "k")
