"""``mc.save_structure`` / ``mc.load_structure`` / ``mc.structure_command`` at the IPython prompt
(a real InteractiveShell, the simulated world): a build saved to a file and loaded elsewhere
reads back the same and the answer shows what was written; a file holding what a write does
not place is refused unless asked; mistakes are refused before anything is sent; the world's
own /structure goes out as one command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mcbews_repl.exceptions import InvalidArgument, StructureError
from mcbews_repl.toolkit import nbt
from mcbews_repl.toolkit.structures import Structure, read_structure
from mcbews_repl.toolkit.writes import WriteResult


def plain(shell: Any, value: object) -> str:
    text: str = shell.display_formatter.format(value)[0]["text/plain"]
    return text


def test_a_build_saved_and_loaded_elsewhere_reads_back_the_same(shell: Any, tmp_path: Path) -> None:
    mc = shell.user_ns["mc"]
    names = np.full((4, 3, 5), "stone", dtype=object)
    names[1:3, 1:, 1:4] = "glass"
    names[0, 2, 0] = "air"
    mc.set_blocks((2, 120, 2), names).result()
    path = tmp_path / "tower.mcstructure"
    saved = mc.save_structure(path, (2, 120, 2), (5, 122, 6)).result()
    assert isinstance(saved, Structure) and saved.size == (4, 3, 5)
    assert read_structure(path).entries == saved.entries
    result = mc.load_structure(str(path), (-20, 120, 2)).result()
    assert isinstance(result, WriteResult) and result.complete
    assert plain(shell, result).startswith("WriteResult 4x3x5 blocks at (-20, 120, 2) in overworld")
    back = mc.blocks((-20, 120, 2), (-17, 122, 6)).result()
    shown = np.asarray([p.removeprefix("minecraft:") for p in back.palette], dtype=object)
    assert (shown[back.ids] == names).all()


def test_what_a_write_does_not_place_is_refused_unless_asked(shell: Any, tmp_path: Path) -> None:
    mc = shell.user_ns["mc"]
    with_pig = Structure(np.zeros((1, 1, 1), dtype=np.int32), (("minecraft:stone", {}),),
                         entities=({"identifier": "minecraft:pig"},))  # fmt: skip
    path = tmp_path / "pig.mcstructure"
    path.write_bytes(nbt.encode(with_pig.to_nbt()))
    sent = len(mc.sim.raw.client.received)
    with pytest.raises(StructureError, match="holds 1 entities, which writing its blocks does"):
        mc.load_structure(path, (0, 125, 0))
    assert len(mc.sim.raw.client.received) == sent
    result = mc.load_structure(path, (0, 125, 0), blocks_only=True).result()
    assert result.complete and mc.blocks((0, 125, 0), (0, 125, 0)).result().palette == (
        "minecraft:stone",
    )


def test_mistakes_are_refused_before_anything_is_sent(shell: Any, tmp_path: Path) -> None:
    mc = shell.user_ns["mc"]
    sent = len(mc.sim.raw.client.received)
    with pytest.raises(StructureError, match="does not exist"):
        mc.save_structure(tmp_path / "missing" / "x.mcstructure", (0, 0, 0), (1, 1, 1))
    with pytest.raises(StructureError, match="cannot be read"):
        mc.load_structure(tmp_path / "nothing.mcstructure", (0, 0, 0))
    with pytest.raises(InvalidArgument, match="is not a structure name"):
        mc.structure_command("load", "a b", (0, 0, 0))
    assert len(mc.sim.raw.client.received) == sent


def test_the_worlds_own_structure_goes_out_as_one_command(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    answer = mc.structure_command("save", "mystructure:tower", (2, 120, 2), (5, 122, 6)).result()
    # the newest lines (the record is bounded; other lines, such as polls, may follow it)
    lines = [line for _, line in list(mc.sim.raw.client.received)[-50:]]
    assert 'structure save "mystructure:tower" 2 120 2 5 122 6 disk' in lines
    # The simulated world does not model /structure: it answers as the game does for a
    # command it does not know (docs/sim.md), and the answer says so.
    assert "Unknown command: structure" in answer.status_message
