"""The setBlock batch: what it writes, when, and in how many boxes."""

from __future__ import annotations

import threading
import time

import pytest

from mcbews_repl.mcpi._batch import BATCH_MAX_BLOCKS, CELL_BLOCKS, Batch, boxes

STONE = ("minecraft:stone", None)
WOOL = ("minecraft:black_wool", None)
DEADLINE_SECONDS = 20.0


class Recorder:
    def __init__(self) -> None:
        self.writes: list[tuple[tuple[int, int, int], tuple[int, int, int], dict]] = []
        self.done = threading.Event()

    def __call__(self, origin, size, blocks) -> None:  # type: ignore[no-untyped-def]
        self.writes.append((origin, size, dict(blocks)))
        self.done.set()


def test_a_dense_loop_is_one_box() -> None:
    pending = {(x, y, z): STONE for x in range(20) for y in range(20) for z in range(20)}
    [(origin, size, blocks)] = boxes(pending)
    assert (origin, size, len(blocks)) == ((0, 0, 0), (20, 20, 20), 8000)


def test_far_apart_blocks_go_cell_by_cell() -> None:
    far = 10 * CELL_BLOCKS
    out = boxes({(0, 0, 0): STONE, (1, 0, 0): STONE, (far, 5, far): WOOL})
    assert [(o, s) for o, s, _ in out] == [((0, 0, 0), (2, 1, 1)), ((far, 5, far), (1, 1, 1))]


def test_the_last_block_asked_for_a_position_wins_and_a_flush_writes_all() -> None:
    rec = Recorder()
    batch = Batch(rec, flush_after=60)
    batch.add((1, 2, 3), STONE)
    batch.add((1, 2, 3), WOOL)
    batch.add((2, 2, 3), STONE)
    assert len(batch) == 2 and rec.writes == []
    batch.flush()
    assert rec.writes == [((1, 2, 3), (2, 1, 1), {(1, 2, 3): WOOL, (2, 2, 3): STONE})]
    assert (batch.writes, batch.blocks, len(batch)) == (1, 2, 0)
    batch.flush()  # nothing waits: nothing is written
    assert len(rec.writes) == 1


def test_the_timer_writes_what_waits() -> None:
    rec = Recorder()
    batch = Batch(rec, flush_after=0.05)
    batch.add((0, 0, 0), STONE)
    assert rec.done.wait(DEADLINE_SECONDS)
    assert rec.writes[0][2] == {(0, 0, 0): STONE}


def test_a_full_batch_is_written_at_once() -> None:
    rec = Recorder()
    batch = Batch(rec, flush_after=60)
    for i in range(BATCH_MAX_BLOCKS):
        batch.add((i % 256, i // 65536, (i // 256) % 256), STONE)
    assert sum(len(b) for _, _, b in rec.writes) == BATCH_MAX_BLOCKS


def test_a_timed_writes_failure_is_raised_by_the_next_call() -> None:
    def broken(origin, size, blocks) -> None:  # type: ignore[no-untyped-def]
        raise RuntimeError("the game went away")

    batch = Batch(broken, flush_after=0.01)
    batch.add((0, 0, 0), STONE)
    end = time.monotonic() + DEADLINE_SECONDS
    while batch._failure is None and time.monotonic() < end:
        time.sleep(0.01)
    with pytest.raises(RuntimeError, match="went away"):
        batch.add((1, 0, 0), STONE)
