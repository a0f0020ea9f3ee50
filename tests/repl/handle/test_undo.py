"""``mc.undo``, ``mc.checkpoint`` and ``mc.restore`` as a user sees them: at the IPython prompt
(a real InteractiveShell with the simulated world), what an undo says it undid, a write too
large refused with how many blocks until ``force=True`` (the limit a ``%config`` setting),
and two worlds on one bridge: undo in one does not touch the other."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import mcbews_repl
from mcbews_repl import NothingToUndo
from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.limits import CONFIRM_ABOVE_BLOCKS
from mcbews_repl.repl.handle import Minecraft


def plain(shell: Any, value: object) -> str:
    text: str = shell.display_formatter.format(value)[0]["text/plain"]
    return text


def names_of(region: Any) -> Any:
    return np.asarray(region.palette, dtype=object)[region.ids]


def test_an_undo_says_what_it_undid_and_the_world_reads_back_as_before(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    corners = ((-8, 58, -8), (7, 70, 7))
    before = mc.blocks(*corners).result()
    mc.fill(*corners, "glass").result()
    undone = mc.undo().result()
    text = plain(shell, undone)
    assert "\n  note: undid fill 16x13x16 at (-8, 58, -8) in overworld\n" in text
    html = shell.display_formatter.formatters["text/html"]
    assert "<i>undid fill 16x13x16 at (-8, 58, -8) in overworld</i>" in html.lookup(undone)(undone)
    assert (names_of(mc.blocks(*corners).result()) == names_of(before)).all()


def test_a_large_write_asks_for_force_saying_how_many(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    assert mc.confirm_above_blocks == CONFIRM_ABOVE_BLOCKS
    sent = len(mc.sim.raw.client.received)
    shell.run_line_magic("config", "McbewsRepl.confirm_above_blocks = 100")
    try:
        assert mc.confirm_above_blocks == 100
        with pytest.raises(InvalidArgument) as info:
            mc.fill((0, 150, 0), (4, 154, 4), "stone")  # 125 blocks
        assert "would set 125 blocks (5x5x5), more than the 100" in str(info.value)
        assert "force=True" in str(info.value)
        assert len(mc.sim.raw.client.received) == sent  # nothing was sent
        assert mc.fill((0, 150, 0), (4, 154, 4), "stone", force=True).result().written == 125
        assert "undid fill 5x5x5" in mc.undo().result().notes[0]
    finally:
        shell.run_line_magic("config", f"McbewsRepl.confirm_above_blocks = {CONFIRM_ABOVE_BLOCKS}")
    assert mc.confirm_above_blocks == CONFIRM_ABOVE_BLOCKS


def test_a_checkpoint_restored_and_its_restore_undone(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    corners = ((20, 60, 20), (27, 66, 27))
    kept = mc.checkpoint("lawn", *corners).result()
    assert kept == "saved checkpoint 'lawn': 8x7x8 at (20, 60, 20) in overworld"
    before = mc.blocks(*corners).result()
    mc.fill(*corners, "air").result()
    restored = mc.restore("lawn").result()
    assert restored.notes[0].startswith("restored checkpoint 'lawn'")
    assert (names_of(mc.blocks(*corners).result()) == names_of(before)).all()
    with pytest.raises(InvalidArgument, match="is not a checkpoint of this world; one of: 'lawn'"):
        mc.restore("garden").result()


@pytest.fixture(scope="module")
def class_of_two() -> Iterator[Minecraft]:
    with mcbews_repl.start(port=0) as handle:
        sims = handle.simulate(worlds=2).result(60)
        assert [s.world.local_player for s in sims] == ["Ana", "Ben"]
        yield handle


def test_undo_in_one_world_does_not_touch_the_other(class_of_two: Minecraft) -> None:
    mc = class_of_two
    ana, ben = mc.world("Ana"), mc.world("Ben")
    wool = np.full((3, 1, 3), "red_wool", dtype=object)
    ana.set_blocks((0, 100, 0), wool).result(30)
    ben.set_blocks((0, 100, 0), np.full((3, 1, 3), "blue_wool", dtype=object)).result(30)
    ben.set_blocks((0, 101, 0), np.full((1, 1, 1), "gold_block", dtype=object)).result(30)
    undone = ana.undo().result(30)
    assert undone.notes == ("undid set_blocks 3x1x3 at (0, 100, 0) in overworld",)
    worlds = {s.world.local_player: s.raw.world for s in mc.sims}
    assert worlds["Ana"].block("overworld", 1, 100, 1) == "minecraft:air"
    assert worlds["Ben"].block("overworld", 1, 100, 1) == "minecraft:blue_wool"
    assert worlds["Ben"].block("overworld", 0, 101, 0) == "minecraft:gold_block"
    with pytest.raises(NothingToUndo):
        ana.undo().result(30)
    ben.undo().result(30)  # Ben's newest: the gold block
    assert worlds["Ben"].block("overworld", 0, 101, 0) == "minecraft:air"
    assert worlds["Ben"].block("overworld", 1, 100, 1) == "minecraft:blue_wool"
