"""Reading a box of blocks of any size through the addon's ``get_blocks``.

The addon answers at most one 16x16x16 section's worth per request, so a larger box is split
into tiles, the tiles are read concurrently (a bounded number at a time), and their answers
are stitched into one :class:`~mcbews_repl.toolkit.region.BlockRegion`. A tile whose blocks
are too varied for one answer comes back in parts (``start``/``count``); the reader asks for
the rest. The wire format is the addon's (addon/README.md, "get_blocks"): a palette and
runs in the order x fastest, then z, then y. numpy is imported when a read finishes.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..exceptions import CapabilityError, InvalidArgument, RequestTimeout
from ..optional import needs
from ..sansio import (
    DEFAULT_TIMEOUT_SECONDS,
    MAX_CHUNKS_PER_MESSAGE,
    MAX_MESSAGE_BYTES,
    UPSTREAM_CHUNK_CODE_POINTS,
)
from ..vocabulary import Capability
from .boxes import OUT_OF_WORLD, UNLOADED, Box, Tile

if TYPE_CHECKING:
    from .region import BlockRegion

__all__ = [
    "ANSWER_BUDGET_BYTES",
    "DIMENSIONS",
    "MAX_BLOCKS_PER_REQUEST",
    "OUT_OF_WORLD",
    "REQUESTS_IN_FLIGHT",
    "UNLOADED",
    "Box",
    "Tile",
    "read_blocks",
    "split_box",
]

# What one answer may take: 128 chunks of at most 256 code points (wire.json); every chunk but
# the last carries at least 256 UTF-8 bytes, and the total is under the 64 KiB message limit.
ANSWER_BUDGET_BYTES = min(MAX_CHUNKS_PER_MESSAGE * UPSTREAM_CHUNK_CODE_POINTS, MAX_MESSAGE_BYTES)
# A run of one block costs at most this many bytes of the answer ("123,").
WORST_RUN_BYTES = 5
# Positions per request, the addon's own limit (addon/src/capabilities/getBlocks.ts): one
# section, 4096 runs of at most 5 bytes = 20 KiB of ANSWER_BUDGET_BYTES, the rest for the
# palette. tests/toolkit/test_blocks.py checks the two sides agree.
MAX_BLOCKS_PER_REQUEST = 4096
# Requests in flight at once: the addon queues at most 8192 answer lines (addon/README.md) and
# a full answer is 128 lines, so 16 full answers fill a quarter of it; far inside the game's
# 100-command window.
REQUESTS_IN_FLIGHT = 16
# The addon sends 16 chunk lines a tick at 20 ticks a second (linesPerTick in
# addon/src/runtime.ts): a full answer takes 0.4 s.
FULL_ANSWER_SECONDS = MAX_CHUNKS_PER_MESSAGE / (16 * 20)
DIMENSIONS = ("overworld", "nether", "the_end")

Progress = Callable[[int, int], None]  # (positions read, positions in the box)


class Caller(Protocol):
    """Anything with the bridge's ``call`` (``Bridge`` from ``serve()``)."""

    def call(
        self,
        capability: str,
        payload: dict[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        connection: Any = None,
    ) -> Awaitable[dict[str, Any]]:
        """Run one addon capability with ``payload``; its answer's data."""
        ...


def split_box(box: Box, limit: int = MAX_BLOCKS_PER_REQUEST) -> list[Box]:
    """Tiles of at most ``limit`` blocks covering ``box`` (the longest side halved until a
    tile fits), in the reading order: x fastest, then z, then y."""
    tile = list(box.size)
    while math.prod(tile) > limit:
        longest = max(range(3), key=lambda axis: (tile[axis], -axis))
        tile[longest] = -(-tile[longest] // 2)
    tiles = []
    for y, z, x in _steps(box, tile):
        origin = (box.origin[0] + x, box.origin[1] + y, box.origin[2] + z)
        size = (min(tile[0], box.size[0] - x), min(tile[1], box.size[1] - y),
                min(tile[2], box.size[2] - z))  # fmt: skip
        tiles.append(Box(origin, size))
    return tiles


def _steps(box: Box, tile: list[int]) -> list[tuple[int, int, int]]:
    ys, zs, xs = (range(0, box.size[a], tile[a]) for a in (1, 2, 0))
    return [(y, z, x) for y in ys for z in zs for x in xs]


def _check_dimension(dimension: str) -> str:
    short = dimension.removeprefix("minecraft:")
    if short not in DIMENSIONS:
        raise InvalidArgument(
            "dimension", dimension, "is not a dimension", f"one of {', '.join(DIMENSIONS)}"
        )
    return short


def decode_runs(runs: str, palette_size: int) -> list[int]:
    """``"0*3,2"`` -> ``[0, 0, 0, 2]``; a malformed answer raises ``ValueError``."""
    entries: list[int] = []
    for run in runs.split(",") if runs else []:
        index, star, times = run.partition("*")
        count = int(times) if star else 1
        entry = int(index)
        if not 0 <= entry < palette_size or count < 1:
            raise ValueError(f"run {run!r} does not fit a palette of {palette_size}")
        entries += [entry] * count
    return entries


class _Reader:
    """One read: the tiles, their requests, the progress and the silence watchdog."""

    def __init__(self, caller: Caller, dimension: str, states: bool, timeout: float,
                 connection: Any, progress: Progress | None) -> None:  # fmt: skip
        self.caller, self.dimension, self.states = caller, dimension, states
        self.timeout, self.connection, self.progress = timeout, connection, progress
        self.requests = 0
        self.read = 0

    async def tiles(self, boxes: list[Box], total: int) -> list[Tile]:
        """Every tile, in order, read by at most REQUESTS_IN_FLIGHT tasks: a task a tile
        made a 128-block cube's read 252 tasks, where 16 can be asking at once anyway."""
        tiles: list[Tile | None] = [None] * len(boxes)
        todo = iter(enumerate(boxes))

        async def reading() -> None:
            for index, box in todo:
                tiles[index] = await self.tile(box, total)

        count = min(REQUESTS_IN_FLIGHT, len(boxes))
        await _gather(self, [asyncio.ensure_future(reading()) for _ in range(count)])
        return [tile for tile in tiles if tile is not None]

    async def tile(self, box: Box, total: int) -> Tile:
        tile = Tile(box, [], [], [])
        while len(tile.entries) < box.volume:
            answer = await self._ask(box, len(tile.entries))
            self._merge(tile, answer)
            self.read += answer["count"]
            if self.progress is not None:
                self.progress(self.read, total)
        return tile

    async def _ask(self, box: Box, start: int) -> dict[str, Any]:
        payload: dict[str, Any] = {"from": list(box.origin), "to": list(box.far),
                                   "dimension": self.dimension}  # fmt: skip
        if self.states:
            payload["states"] = True
        if start:
            payload["start"] = start
        self.requests += 1
        # Up to REQUESTS_IN_FLIGHT full answers may leave the addon before this one.
        limit = self.timeout + REQUESTS_IN_FLIGHT * FULL_ANSWER_SECONDS
        options = {} if self.connection is None else {"connection": self.connection}
        return await self.caller.call(Capability.GET_BLOCKS, payload, timeout=limit, **options)

    def _merge(self, tile: Tile, answer: dict[str, Any]) -> None:
        try:
            if answer["start"] != len(tile.entries) or list(answer["origin"]) != list(
                tile.box.origin
            ):
                raise ValueError("it is not the part asked for")
            palette = [str(p) for p in answer["palette"]]
            states = answer.get("states") or [None] * len(palette)
            entries = decode_runs(str(answer["runs"]), len(palette))
            if len(entries) != answer["count"] or len(states) != len(palette) or not entries:
                raise ValueError("its count does not match its runs")
        except (KeyError, TypeError, ValueError) as exc:
            raise CapabilityError(
                "CAPABILITY_FAILED",
                f"get_blocks answered in an unknown shape ({exc})",
                Capability.GET_BLOCKS,
            ) from exc
        base = len(tile.palette)
        tile.palette += palette
        tile.states += states
        tile.entries += [base + e for e in entries]


async def _gather(reader: _Reader, tasks: list[asyncio.Future[None]]) -> None:
    """Wait for every reading task; if nothing finishes for ``timeout`` seconds (answers arrive one
    after another, each within seconds), give up and cancel the rest."""
    pending = set(tasks)
    try:
        while pending:
            before = reader.read
            done, pending = await asyncio.wait(
                pending, timeout=reader.timeout, return_when=asyncio.FIRST_COMPLETED
            )
            for task in done:
                task.result()  # the first failure ends the read
            if not done and reader.read == before:
                raise RequestTimeout(
                    f"get_blocks: nothing arrived for {reader.timeout:g} s; read "
                    f"{reader.read} positions in {reader.requests} requests so far"
                )
    finally:
        for task in pending:
            task.cancel()


async def read_blocks(
    caller: Caller,
    corner1: Sequence[int],
    corner2: Sequence[int],
    dimension: str = "overworld",
    *,
    states: bool = False,
    timeout: float | None = None,
    connection: Any = None,
    progress: Progress | None = None,
) -> BlockRegion:
    """Every block between two corners (inclusive) as a :class:`BlockRegion`.

    ``timeout``: the longest silence allowed between two answers (default 5 s). ``progress``
    is called with (positions read, positions in the box) after each answer.

    Raises:
        InvalidArgument: a corner is not three whole numbers, or ``dimension`` is not one.
        CapabilityError: the addon refused a part, answered one that does not decode, or
            has no ``get_blocks`` (the message says to export the current pack).
        RequestTimeout: no answer arrived for ``timeout`` seconds.
        NotConnected: no game is connected (or the chosen one is gone).
        GameDisconnected: the game went away during the read.
        MissingDependency: numpy is not installed (the message names the extra).
    """
    box = Box.between(corner1, corner2)
    short = _check_dimension(dimension)
    limit = DEFAULT_TIMEOUT_SECONDS if timeout is None else timeout
    reader = _Reader(caller, short, states, limit, connection, progress)
    started = time.perf_counter()
    try:
        tiles = await reader.tiles(split_box(box), box.volume)
    except CapabilityError as exc:
        raise _explained(exc) from None
    with needs():
        from .region import stitch

    return stitch(box, f"minecraft:{short}", tiles, states, reader.requests,
                  time.perf_counter() - started)  # fmt: skip


def _explained(exc: CapabilityError) -> CapabilityError:
    if exc.code != "UNSUPPORTED_CAPABILITY":
        return exc
    return CapabilityError(
        exc.code,
        "this world's addon has no get_blocks: export the current pack (mcbews-repl addon "
        "export) and apply it to the world",
        Capability.GET_BLOCKS,
    )
