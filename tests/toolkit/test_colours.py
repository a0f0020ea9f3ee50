"""Pixel art's palette: 49 blocks in the colours of the game's own textures, the source of
each recorded, every block one the simulated world knows, and a family it lacks refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit import colours
from mcbews_repl.toolkit.colours import FAMILIES, block_colours

HERE = Path(colours.__file__).parent


def test_the_palette_is_the_games_textures_with_their_source() -> None:
    every = block_colours()
    assert len(every) == 49 and FAMILIES == ("wool", "concrete", "terracotta")
    assert [len(block_colours(f)) for f in FAMILIES] == [16, 16, 17]
    assert every["minecraft:white_wool"] == (234, 236, 237)  # its texture's mean colour
    assert "minecraft:hardened_clay" in block_colours("terracotta")  # plain terracotta
    assert (
        block_colours(["wool", "concrete"]).keys()
        == every.keys() - block_colours("terracotta").keys()
    )
    source = json.loads((HERE / "block_colours.json").read_text(encoding="utf-8"))
    assert source["source"]["repository"] == "Mojang/bedrock-samples"
    assert len(source["source"]["commit"]) == 40
    textures = [e["texture"] for e in source["blocks"].values()]
    assert all(t.startswith("resource_pack/textures/blocks/") for t in textures)
    assert "resource_pack/textures/blocks/wool_colored_silver.png" in textures  # light gray


def test_the_sims_block_list_holds_every_palette_block() -> None:
    known = json.loads(
        (HERE.parent / "sim" / "evidence" / "block_types.json").read_text(encoding="utf-8")
    )["blocks"]
    assert set(block_colours()) <= set(known)


@pytest.mark.parametrize("palette", ["glass", [], ["wool", "glass"]])
def test_a_family_it_lacks_is_refused_naming_those_it_has(palette: object) -> None:
    with pytest.raises(InvalidArgument, match="one or more of 'wool', 'concrete', 'terracotta'"):
        block_colours(palette)  # type: ignore[arg-type]
