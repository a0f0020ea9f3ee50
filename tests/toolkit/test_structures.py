""".mcstructure files: a file laid out byte by byte as the format's documentation says is read
as it describes (x slowest, z fastest, -1 no block, byte states as booleans) and written back
byte for byte; shapes written into the simulated world, saved, loaded elsewhere and read back
equal what was written; hostile files are refused with a message naming the file and what is
wrong; the /structure lines for the world's own store. Files as the game saved its own
gametest structures (a Long version, a binary String) are read and kept; the game's own
files themselves, when a folder of them is named (MCBEWS_STRUCTURE_SAMPLES)."""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mcbews_repl.exceptions import InvalidArgument, StructureError
from mcbews_repl.toolkit import nbt
from mcbews_repl.toolkit.blocks import read_blocks
from mcbews_repl.toolkit.shapes import cuboid, sphere
from mcbews_repl.toolkit.structures import (
    BLOCK_VERSION,
    STRUCTURE_BLOCKS_MAX,
    Structure,
    read_structure,
    structure_command_line,
    write_structure,
)
from mcbews_repl.toolkit.writes import write_blocks

from .conftest import World

# --- a file as the documentation lays it out -------------------------------------------------


def tag(kind: int, name: str) -> bytes:
    raw = name.encode()
    return bytes([kind]) + struct.pack("<H", len(raw)) + raw


def text(value: str) -> bytes:
    raw = value.encode()
    return struct.pack("<H", len(raw)) + raw


def ints(values: list[int]) -> bytes:
    return b"\x03" + struct.pack(f"<i{len(values)}i", len(values), *values)


def documented_file() -> bytes:
    """A 2x1x2 structure, built from the layout bedrock-wiki's mcstructure page gives (not
    from our writer): an oak log on its side, a void, an open trapdoor that is waterlogged,
    stone; a pig; a chest's block entity data at index 3."""
    entries = [
        ("minecraft:oak_log", tag(8, "pillar_axis") + text("x")),
        ("minecraft:trapdoor", tag(1, "open_bit") + b"\x01" + tag(3, "direction")
         + struct.pack("<i", 2)),
        ("minecraft:stone", b""),
        ("minecraft:water", tag(3, "liquid_depth") + struct.pack("<i", 0)),
    ]  # fmt: skip
    palette = b"\x0a" + struct.pack("<i", len(entries))  # list items are unnamed compounds
    for name, states in entries:
        palette += tag(8, "name") + text(name) + tag(10, "states") + states + b"\x00"
        palette += tag(3, "version") + struct.pack("<i", 17959425) + b"\x00"
    # x slowest, then y, z fastest: (0,0,0) (0,0,1) (1,0,0) (1,0,1)
    first, second = [0, -1, 1, 2], [-1, -1, 3, -1]
    pig = tag(8, "identifier") + text("minecraft:pig") + b"\x00"
    chest = tag(10, "block_entity_data") + tag(8, "id") + text("Chest") + b"\x00" + b"\x00"
    return (
        tag(10, "")
        + tag(3, "format_version") + struct.pack("<i", 1)
        + tag(9, "size") + ints([2, 1, 2])
        + tag(10, "structure")
        + tag(9, "block_indices") + b"\x09" + struct.pack("<i", 2) + ints(first) + ints(second)
        + tag(9, "entities") + b"\x0a" + struct.pack("<i", 1) + pig
        + tag(10, "palette") + tag(10, "default")
        + tag(9, "block_palette") + palette
        + tag(10, "block_position_data") + tag(10, "3") + chest + b"\x00"
        + b"\x00"  # default
        + b"\x00"  # palette
        + b"\x00"  # structure
        + tag(9, "structure_world_origin") + ints([100, 64, -20])
        + b"\x00"
    )  # fmt: skip


def test_a_file_laid_out_as_documented_is_read_as_it_describes(tmp_path: Path) -> None:
    path = tmp_path / "house.mcstructure"
    path.write_bytes(documented_file())
    got = read_structure(path)
    assert got.size == (2, 1, 2) and got.world_origin == (100, 64, -20)
    assert got.blocks[:, 0, :].tolist() == [[0, -1], [1, 2]]
    assert got.entries[0] == ("minecraft:oak_log", {"pillar_axis": "x"})
    assert got.entries[1] == ("minecraft:trapdoor", {"open_bit": True, "direction": 2})
    assert got.water is not None and got.water[1, 0, 0] == 3 and got.voids == 1
    assert got.entities[0]["identifier"] == "minecraft:pig"
    assert got.block_data["3"]["block_entity_data"]["id"] == "Chest"
    assert got.not_placed() == {"waterlogged": 1, "entities": 1, "block entities": 1}
    assert repr(got) == (
        "<Structure 2x1x2 structure: 4 kinds of block, 1 positions with no block; not placed "
        "by a write: 1 waterlogged, 1 entities, 1 block entities>"
    )
    again = tmp_path / "again.mcstructure"
    write_structure(again, got)
    assert again.read_bytes() == path.read_bytes()  # every tag kept, in the game's order


def as_older_games_saved() -> bytes:
    """The documented file as Mojang's own gametest structures hold it (the ``.mcstructure``
    files of Mojang/minecraft-creator-tools at 77fdb1f1083616d4c21f7bf4b55a49695051990d,
    ``samplecontent/vanilla_gametest/structures/``, e.g. ``BlockTests/falling_sand_template``):
    each palette entry's ``version`` a Long (17760256), and an entity's ``StorageKey`` a
    String of eight bytes that are not UTF-8."""
    raw = documented_file()
    raw = raw.replace(tag(3, "version") + struct.pack("<i", 17959425),
                      tag(4, "version") + struct.pack("<q", 17760256))  # fmt: skip
    key = tag(8, "StorageKey") + struct.pack("<H", 8) + b"\xfa\x00\x00\x00\x06\x00\x00\x00"
    pig = tag(8, "identifier") + text("minecraft:pig")
    assert raw.count(pig) == 1
    return raw.replace(pig, pig + key)


def test_a_file_as_the_game_saved_its_gametest_structures_is_read_and_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "falling_sand.mcstructure"
    path.write_bytes(as_older_games_saved())
    got = read_structure(path)
    assert got.versions == (17760256,) * 4 and isinstance(got.versions[0], nbt.Long)
    assert got.blocks[:, 0, :].tolist() == [[0, -1], [1, 2]]
    assert len(got.entities[0]["StorageKey"]) == 8
    again = tmp_path / "again.mcstructure"
    write_structure(again, got)
    assert again.read_bytes() == path.read_bytes()  # the Long and the key's bytes kept


SAMPLES = os.environ.get("MCBEWS_STRUCTURE_SAMPLES")


@pytest.mark.skipif(not SAMPLES, reason="MCBEWS_STRUCTURE_SAMPLES names no folder of samples")
def test_the_games_own_structure_files_are_read_and_written_back() -> None:
    """Every ``.mcstructure`` under the folder MCBEWS_STRUCTURE_SAMPLES names (the game's own:
    the 295 of Mojang/minecraft-creator-tools at 77fdb1f1083616d4c21f7bf4b55a49695051990d,
    ``git ls-tree -r HEAD`` then ``git cat-file blob`` each, are read) is read, or refused
    with a StructureError; what is read re-encodes byte for byte and round-trips."""
    files = sorted(Path(str(SAMPLES)).rglob("*.mcstructure"))
    read, refused = 0, []
    for path in files:
        try:
            got = read_structure(path)
        except StructureError as exc:
            refused.append(str(exc))
            continue
        read += 1
        raw = path.read_bytes()
        assert nbt.encode(nbt.decode(raw)[1]) == raw, path
        again = Structure.from_nbt(nbt.decode(nbt.encode(got.to_nbt()))[1])
        assert (again.blocks == got.blocks).all() and again.entries == got.entries, path
        assert again.entities == got.entities and again.block_data == got.block_data, path
    assert read and read >= len(files) - 1, refused  # one of Mojang's is a text placeholder


def test_a_structure_is_a_region_whose_voids_are_left_as_they_are() -> None:
    got = documented()
    assert got.palette[0] == "<keep>" and got.palette[1] == got.entries[0]
    assert got.ids[:, 0, :].tolist() == [[1, 0], [2, 3]]


# --- round trips through the simulated world ---------------------------------------------------


async def test_shapes_saved_and_loaded_elsewhere_read_back_the_same(
    world: World, tmp_path: Path
) -> None:
    mc = world.mc
    await write_blocks(mc, (0, 100, 0), cuboid((0, 100, 0), (11, 107, 11), "air"))
    for shape in (cuboid((0, 100, 0), (11, 103, 11), ("oak_log", {"pillar_axis": "x"})),
                  sphere((6, 104, 6), 3, "glass", hollow=True),
                  cuboid((2, 105, 2), (4, 107, 4), "stone")):  # fmt: skip
        await write_blocks(mc, shape.origin, shape)
    source = await read_blocks(mc, (0, 100, 0), (11, 107, 11), states=True)
    path = tmp_path / "dir with spaces é" / "build.mcstructure"
    path.parent.mkdir()
    write_structure(str(path), Structure.from_region(source))  # a str path works as a Path
    loaded = read_structure(path)
    assert loaded.world_origin == (0, 100, 0) and loaded.voids == 0
    result = await write_blocks(mc, (-30, 100, 20), loaded)
    assert result.complete and result.written + result.already == 12 * 8 * 12
    back = await read_blocks(mc, (-30, 100, 20), (-19, 107, 31), states=True)
    assert states_of(back) == states_of(source)


def states_of(region: Any) -> list[tuple[str, str]]:
    import json

    assert region.state_ids is not None and region.state_palette is not None
    entries = [(b, json.dumps(s, sort_keys=True)) for b, s in region.state_palette]
    return [entries[int(i)] for i in region.state_ids.ravel()]


def test_unknown_positions_of_a_read_are_saved_as_no_block() -> None:
    from mcbews_repl.toolkit.region import BlockRegion

    ids = np.array([0, 1, 2], dtype=np.uint16).reshape(3, 1, 1)
    region = BlockRegion((5, 6, 7), ids, ("minecraft:stone", "<unloaded>", "<out_of_world>"))
    got = Structure.from_region(region)
    assert got.blocks.ravel().tolist() == [0, -1, -1]
    assert got.entries == (("minecraft:stone", {}),) and got.versions == (BLOCK_VERSION,)


# --- hostile files -------------------------------------------------------------------------


def root_with(**changes: Any) -> dict[str, Any]:
    root = nbt.decode(documented_file())[1]
    for path, value in changes.items():
        *parents, last = path.split("__")
        at = root
        for key in parents:
            at = at[key]
        if value is None:
            del at[last]
        else:
            at[last] = value
    return root


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"size": None}, "size is missing"),
        ({"size": nbt.TagList.ints([2, 1])}, "size is not a list of 3 Ints"),
        ({"size": nbt.TagList.ints([0, 1, 2])}, "is not a box"),
        ({"size": nbt.TagList.ints([4096, 4096, 4096])}, "over the 4,194,304"),
        ({"format_version": "1"}, "format_version is not an Int"),
        ({"structure__block_indices": nbt.TagList.ints([1])}, "not a list of two layers"),
        ({"structure__block_indices": nbt.TagList(nbt.TagList.LIST, [nbt.TagList.ints([0])] * 2)},
         "holds 1 indices; size 2x1x2 needs 4"),
        ({"structure__block_indices": nbt.TagList(nbt.TagList.LIST,
                                                  [nbt.TagList.ints([0, 9, 0, 0])] * 2)},
         "index 9 at 1: the palette has 4 entries"),
        ({"structure__palette__default": None}, "palette.default is missing"),
        ({"structure__palette__default__block_palette": nbt.TagList(nbt.TagList.COMPOUND,
                                                                    [{"states": {}}])},
         r"block_palette\[0\].name is missing"),
        ({"structure__entities": nbt.TagList(nbt.TagList.STRING, ["pig"])},
         "entities is not a list of compounds"),
    ],
)  # fmt: skip
def test_hostile_structures_are_refused_naming_the_file_and_what(
    tmp_path: Path, changes: dict[str, Any], says: str
) -> None:
    path = tmp_path / "bad.mcstructure"
    path.write_bytes(nbt.encode(root_with(**changes)))
    with pytest.raises(StructureError, match=says) as caught:
        read_structure(path)
    assert str(caught.value).startswith(str(path))


def test_a_state_of_a_type_no_block_has_is_refused(tmp_path: Path) -> None:
    root = root_with()
    root["structure"]["palette"]["default"]["block_palette"][2]["states"]["odd"] = nbt.Float(1)
    path = tmp_path / "odd.mcstructure"
    path.write_bytes(nbt.encode(root))
    with pytest.raises(StructureError, match=r"states\.odd is Float: not a Byte, Int or String"):
        read_structure(path)


def test_cut_short_too_large_and_missing_files_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cut.mcstructure"
    path.write_bytes(documented_file()[:-30])
    with pytest.raises(StructureError, match="cut short"):
        read_structure(path)
    from mcbews_repl.toolkit import structures

    monkeypatch.setattr(structures, "STRUCTURE_FILE_BYTES_MAX", 100)
    path.write_bytes(documented_file())
    with pytest.raises(StructureError, match="over 100 bytes"):
        read_structure(path)
    with pytest.raises(StructureError, match="cannot be read"):
        read_structure(tmp_path / "nowhere.mcstructure")
    with pytest.raises(StructureError, match="cannot be written"):
        write_structure(tmp_path / "no" / "such" / "x.mcstructure", documented())
    assert STRUCTURE_BLOCKS_MAX == 4 * 64 * 256 * 64


def documented() -> Structure:
    return Structure.from_nbt(nbt.decode(documented_file())[1])


def test_a_state_the_format_cannot_hold_is_refused_when_written() -> None:
    odd = Structure(np.zeros((1, 1, 1), dtype=np.int32), (("minecraft:stone", {"x": 1.5}),))
    with pytest.raises(StructureError, match=r"stone.s state x=1\.5 is not a boolean"):
        odd.to_nbt()


# --- the world's own store -----------------------------------------------------------------


def test_structure_command_lines() -> None:
    assert structure_command_line("save", "mystructure:house", (0, 60, 0), (9, 69, 9)) == (
        'structure save "mystructure:house" 0 60 0 9 69 9 disk'
    )
    assert structure_command_line("save", "h", (0, 1, 2), (3, 4, 5), save_mode="memory") == (
        'structure save "h" 0 1 2 3 4 5 memory'
    )
    assert structure_command_line("load", "h", (10, 64, -3)) == 'structure load "h" 10 64 -3'
    assert structure_command_line("delete", "h") == 'structure delete "h"'


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("copy", "h"), "action='copy': is not one /structure takes"),
        (("load", 'h" 0 0 0 ~'), "is not a structure name"),
        (("load", "a:b:c", (0, 0, 0)), "is not a structure name"),
        (("save", "h", (0, 0, 0)), "do not fit save"),
        (("load", "h", (0, 0)), "is not three whole numbers"),
    ],
)
def test_structure_command_mistakes_say_what_to_give(args: tuple[Any, ...], says: str) -> None:
    with pytest.raises(InvalidArgument, match=says):
        structure_command_line(*args)
