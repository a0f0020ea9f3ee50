"""mcpi's block numbers as Bedrock blocks and back (mcbews_repl/mcpi/blockids.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcbews_repl.exceptions import UnknownBlockId
from mcbews_repl.mcpi import block
from mcbews_repl.mcpi.block import Block, bedrock_block, block_numbers, mcpi_block

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "mcbews_repl" / "mcpi" / "blockids.json").read_text())
TYPES = json.loads((ROOT / "mcbews_repl" / "sim" / "evidence" / "block_types.json").read_text())


def test_the_table_says_where_it_came_from() -> None:
    source = TABLE["source"]
    assert source["java"] == "1.12.2"
    assert source["pymctranslate"] and source["bedrock"] and source["mcpi"]


@pytest.mark.parametrize("name", sorted(TABLE["constants"]))
def test_every_constant_of_mcpis_block_py_is_here_and_maps(name: str) -> None:
    block_id, data = TABLE["constants"][name]  # read from mcpi's own block.py
    assert getattr(block, name) == Block(block_id, data)
    bedrock, states = bedrock_block(block_id, data)
    assert bedrock in TYPES["blocks"]
    assert set(states) <= set(TYPES["blocks"][bedrock])


def test_every_row_is_a_vanilla_bedrock_block_with_its_own_states() -> None:
    for (block_id, data), (name, states) in block_numbers().items():
        assert name in TYPES["blocks"], (block_id, data, name)
        assert set(states) <= set(TYPES["blocks"][name]), (block_id, data, name)


@pytest.mark.parametrize(
    ("number", "bedrock"),
    [
        ((35, 15), ("minecraft:black_wool", {})),
        ((35, 0), ("minecraft:white_wool", {})),
        ((95, 0), ("minecraft:white_stained_glass", {})),  # Bedrock's legacy 95: invisible bedrock
        ((95, 14), ("minecraft:red_stained_glass", {})),
        ((126, 0), ("minecraft:oak_slab", {"minecraft:vertical_half": "bottom"})),  # Bedrock 126:
        ((157, 0), ("minecraft:activator_rail", {"rail_data_bit": False, "rail_direction": 0})),
        ((1, 3), ("minecraft:diorite", {})),
        ((17, 4), ("minecraft:oak_log", {"pillar_axis": "x"})),
        ((63, 4), ("minecraft:standing_sign", {"ground_sign_direction": 4})),
        ((68, 2), ("minecraft:wall_sign", {"facing_direction": 2})),  # SIGN_WALL (68, 0) too
        ((246, 0), ("minecraft:blue_glazed_terracotta", {"facing_direction": 3})),
    ],
)
def test_where_the_numberings_differ(number: tuple[int, int], bedrock: tuple[str, dict]) -> None:
    assert bedrock_block(*number) == bedrock
    assert mcpi_block(*bedrock) == number


def test_bedrock_invisible_is_stained_glass_as_on_raspberryjuice() -> None:
    assert block.BEDROCK_INVISIBLE == block.STAINED_GLASS


def test_java_reads_of_an_odd_data_value_give_its_own_number() -> None:
    assert bedrock_block(68, 0) == bedrock_block(68, 2)  # 0 and 1 face north, as in Java
    assert mcpi_block(*bedrock_block(*block.SIGN_WALL)) == (68, 2)


def test_every_bedrock_block_of_the_table_reads_back_as_the_same_block() -> None:
    canonical = {(r[0], r[1]) for r in TABLE["blocks"] if r[4]}
    for number, (name, states) in block_numbers().items():
        back = mcpi_block(name, states)
        if number in canonical:  # Java's own number for the block: it reads back as itself
            assert back == number
        assert bedrock_block(*back)[0] == name, number


def test_a_read_with_more_states_than_1_12_had_finds_the_closest() -> None:
    name, states = bedrock_block(53, 2)  # oak stairs, upside down bit and direction
    assert mcpi_block(name, {**states, "some_new_state": 1}) == (53, 2)
    assert mcpi_block("oak_stairs") == (53, 0)  # a short name, no states: the lowest


def test_an_unknown_id_says_so() -> None:
    with pytest.raises(UnknownBlockId, match="999 is not an mcpi block id"):
        bedrock_block(999)


def test_an_unknown_data_value_lists_the_ids_data_values() -> None:
    with pytest.raises(UnknownBlockId, match=r"block 35 has no data value 16.*0-15"):
        bedrock_block(35, 16)
    assert bedrock_block(1, 7) == ("minecraft:stone", {})  # Java 1.12 read stone:7 as stone
    with pytest.raises(UnknownBlockId, match="data values are 0-15"):
        bedrock_block(1, 16)


def test_a_block_newer_than_the_numbering_says_so() -> None:
    with pytest.raises(UnknownBlockId, match="deepslate has no mcpi block id"):
        mcpi_block("minecraft:deepslate")


def test_block_behaves_as_mcpis() -> None:
    wool = block.WOOL.withData(14)
    assert (wool.id, wool.data) == (35, 14)
    assert list(wool) == [35, 14]
    assert repr(wool) == "Block(35, 14)"
    assert hash(wool) == (35 << 8) + 14
    assert {wool: 1}[Block(35, 14)] == 1
