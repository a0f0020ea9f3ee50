"""Writing a box of blocks through the addon's ``set_blocks``: ``mc.set_blocks(origin, region)``.

What is written is a 3-D array indexed ``[x, y, z]`` from ``origin``: a
:class:`~mcbews_repl.toolkit.region.BlockRegion` as ``mc.blocks`` returns it (its ids and
palette, with its states when it was read with them), a numpy array of palette indices with
a ``palette`` (block names, or ``(name, states)`` pairs), or a numpy array of block names.
``air`` is written like any block; a position whose entry is :data:`KEEP` (or ``hole``, or
``None`` in an array of names) is left as it is, and so are the ``<unloaded>`` and
``<out_of_world>`` positions of a read, so a region read and written back writes only what
was read.

The palette is checked whole first (one ``check`` request: a name or a state the game does
not know is refused as ``INVALID_REQUEST`` naming each, before anything is written). Then the
smallest box around the positions to set is split into sections of at most 4,096 blocks, and
each section that sets something is one request of runs over its own palette (a request too
large for one command goes down in bulk parts), at most 16 in flight; positions no request
covers are holes, reported left as is.
The answer of each says what happened at every position; :class:`WriteResult` holds them:
written, already so, left as is, and not written with the reason (an unloaded chunk, outside
the height range). numpy is needed (``pip install mcbews-repl[lab]``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exceptions import CapabilityError, InvalidArgument, RequestTimeout
from ..gameids import short_id
from ..sansio import DEFAULT_TIMEOUT_SECONDS
from ..vocabulary import Capability
from .blocks import DIMENSIONS, REQUESTS_IN_FLIGHT, Caller, split_box
from .boxes import OUT_OF_WORLD, UNLOADED, Box
from .validate import COORDINATE_LIMIT

if TYPE_CHECKING:
    import pandas as pd

    from .region import BlockRegion

__all__ = [
    "KEEP",
    "STATUS",
    "WRITE_TILE_BLOCKS",
    "Entry",
    "PlannedWrite",
    "WriteResult",
    "plan_write",
    "send_write",
    "write_blocks",
]

KEEP = "<keep>"  # the palette entry that leaves a position as it is (addon: setBlocks.ts)
# Each position's outcome, in the order the addon's answer indexes them (STATUS there).
STATUS = ("written", "already", "kept", "unloaded", "out_of_world")
# Blocks per request: one section, as a read takes them. The addon takes up to 32,768, but a
# section is at most ~20 KiB of runs (a few dozen bulk parts), and a cancel stops the write
# within one section's worth of work per request in flight.
WRITE_TILE_BLOCKS = 4096
_LEAVE = (KEEP, UNLOADED, OUT_OF_WORLD)
_WHY = {
    "written": "written",
    "already": "already so",
    "kept": "left as is",
    "unloaded": "not written: in an unloaded chunk",
    "out_of_world": "not written: outside the height range",
}

Progress = Callable[[int, int], None]  # (positions done, positions in the box)
Entry = tuple[str, dict[str, Any] | None]  # a block name and its states (None: its defaults)


@dataclass(frozen=True, eq=False)
class WriteResult:
    """What a write did at each position: ``status[x, y, z]`` indexes :data:`STATUS`."""

    origin: tuple[int, int, int]
    status: np.ndarray[Any, np.dtype[np.uint8]]
    dimension: str = "minecraft:overworld"
    requests: int = 0
    seconds: float = field(default=0.0, compare=False)
    # What else the user should know: an undo that undid this, older undos dropped (undo.py).
    notes: tuple[str, ...] = ()

    @property
    def size(self) -> tuple[int, int, int]:
        """The box's extent along x, y, z."""
        sx, sy, sz = self.status.shape
        return int(sx), int(sy), int(sz)

    @property
    def counts(self) -> dict[str, int]:
        """How many positions ended each way, by :data:`STATUS` name."""
        tally = np.bincount(self.status.ravel(), minlength=len(STATUS))
        return {name: int(n) for name, n in zip(STATUS, tally, strict=True)}

    @property
    def written(self) -> int:
        """Blocks set."""
        return self.counts["written"]

    @property
    def already(self) -> int:
        """Positions that already held the block: nothing to do."""
        return self.counts["already"]

    @property
    def kept(self) -> int:
        """Holes: positions left as they are on purpose."""
        return self.counts["kept"]

    @property
    def not_written(self) -> int:
        """Positions that should have been written and could not be (see :meth:`mask`)."""
        return self.counts["unloaded"] + self.counts["out_of_world"]

    @property
    def complete(self) -> bool:
        """True when every position is as asked (written, already so, or a hole)."""
        return self.not_written == 0

    def mask(self, status: str) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """True where the position ended as ``status`` (one of :data:`STATUS`).

        Raises:
            ValueError: ``status`` is not one of them.
        """
        if status not in STATUS:
            raise ValueError(f"status is one of {', '.join(STATUS)}, not {status!r}")
        found: np.ndarray[Any, np.dtype[np.bool_]] = self.status == STATUS.index(status)
        return found

    def positions(self, status: str) -> list[tuple[int, int, int]]:
        """The world positions that ended as ``status``, x fastest, then z, then y."""
        xs, ys, zs = np.nonzero(self.mask(status))
        order = np.lexsort((xs, zs, ys))
        ox, oy, oz = self.origin
        return [(int(xs[i]) + ox, int(ys[i]) + oy, int(zs[i]) + oz) for i in order]

    def rows(self) -> list[tuple[str, int]]:
        """(what happened, how many) for each outcome that happened, in :data:`STATUS` order."""
        return [(_WHY[name], n) for name, n in self.counts.items() if n]

    def describe(self) -> str:
        """One line: the size, where, and how many of each outcome."""
        sx, sy, sz = self.size
        counts = self.counts
        done = f"{counts['written']:,} written, {counts['already']:,} already so"
        if counts["kept"]:
            done += f", {counts['kept']:,} left as is"
        missed = self.not_written
        if missed:
            why = [f"{counts['unloaded']:,} in an unloaded chunk"] * bool(counts["unloaded"]) + [
                f"{counts['out_of_world']:,} outside the height range"
            ] * bool(counts["out_of_world"])
            done += f"; {missed:,} NOT written ({', '.join(why)})"
        where = short_id(self.dimension)
        return f"{sx}x{sy}x{sz} blocks at {self.origin} in {where}: {done}"

    def to_frame(self) -> pd.DataFrame:
        """One row per outcome: ``status``, ``what`` it means and ``count``."""
        from ..optional import needs

        with needs():
            import pandas as pd

        counts = self.counts
        return pd.DataFrame(
            {"status": list(STATUS), "what": [_WHY[s] for s in STATUS],
             "count": [counts[s] for s in STATUS]}
        )  # fmt: skip

    def __repr__(self) -> str:
        return f"<WriteResult {self.describe()}>"


# --- what to write --------------------------------------------------------------------------


def _entry(item: Any, index: int) -> Entry:
    """A palette item as (name, states): a name, or a (name, states) pair."""
    if isinstance(item, str) and item:
        return item, None
    if (
        isinstance(item, tuple | list)
        and len(item) == 2
        and isinstance(item[0], str)
        and item[0]
        and (item[1] is None or isinstance(item[1], Mapping))
    ):
        return item[0], (dict(item[1]) if item[1] else None)
    raise InvalidArgument(
        "palette", item, f"entry {index} is not a block",
        "block names ('stone', 'minecraft:oak_log') or (name, {state: value}) pairs",
    )  # fmt: skip


def _as_ids(array: Any) -> np.ndarray[Any, Any]:
    ids = np.asarray(array)
    if ids.ndim != 3 or 0 in ids.shape:
        raise InvalidArgument(
            "region", f"an array of shape {ids.shape}", "is not a 3-D box of blocks",
            "a BlockRegion, or an array indexed [x, y, z]",
        )  # fmt: skip
    return ids


def plan(
    region: BlockRegion | Any, palette: Sequence[Any] | None = None, hole: str | None = None
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], list[Entry]]:
    """The palette index of each position ``[x, y, z]`` and the palette, from any of the
    shapes :func:`write_blocks` takes. Holes are palette entries named :data:`KEEP`.

    Raises:
        InvalidArgument: the region or palette is not one of those shapes.
    """
    state_ids = getattr(region, "state_ids", None)
    if hasattr(region, "palette") and hasattr(region, "ids"):  # a BlockRegion
        if state_ids is not None and region.state_palette is not None:
            ids, entries = _as_ids(state_ids), [(b, s or None) for b, s in region.state_palette]
        else:
            ids = _as_ids(region.ids)  # a palette of names, or of (name, states) (a Shape)
            entries = [_entry(b, i) for i, b in enumerate(region.palette)]
    else:
        ids = _as_ids(region)
        if ids.dtype.kind in "iu":
            if palette is None:
                raise InvalidArgument(
                    "palette", None, "is needed with an array of indices",
                    "palette=['air', 'stone', ...] naming what each index is",
                )  # fmt: skip
            entries = [_entry(item, i) for i, item in enumerate(palette)]
            if ids.min() < 0 or ids.max() >= len(entries):
                raise InvalidArgument(
                    "region", f"indices {int(ids.min())}..{int(ids.max())}",
                    "do not all index the palette", f"indices from 0 to {len(entries) - 1}",
                )  # fmt: skip
        elif ids.dtype.kind in "UOS":
            missing = np.frompyfunc(lambda v: v is None, 1, 1)(ids).astype(bool)
            names = np.where(missing, KEEP, ids).astype(str)
            unique, inverse = np.unique(names, return_inverse=True)
            ids = inverse.reshape(names.shape)
            entries = [_entry(str(name), i) for i, name in enumerate(unique)]
        else:
            raise InvalidArgument(
                "region", f"an array of {ids.dtype}", "holds neither names nor indices",
                "an array of block names, or of indices with a palette",
            )  # fmt: skip
    if hole is not None:
        entries = [(KEEP, None) if name == hole else (name, st) for name, st in entries]
    entries = [(KEEP, None) if name in _LEAVE else (name, st) for name, st in entries]
    return ids.astype(np.int64), entries


def runs_of(flat: np.ndarray[Any, Any]) -> str:
    """``[0, 0, 0, 2]`` -> ``"0*3,2"``: runs over the palette, as get_blocks answers."""
    if flat.size == 0:
        return ""
    starts = np.flatnonzero(np.diff(flat, prepend=flat[0] - 1))
    lengths = np.diff(np.append(starts, flat.size))
    values = flat[starts]
    return ",".join(
        f"{v}*{n}" if n > 1 else str(v)
        for v, n in zip(values.tolist(), lengths.tolist(), strict=True)
    )


def ids_of_runs(
    runs: str, size: tuple[int, int, int], entries: int
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """``"0*3,2"`` over a box of ``size`` (reading order: x fastest, then z, then y) to
    palette indices indexed ``[x, y, z]``: what :func:`runs_of` made, read back.

    Raises:
        InvalidArgument: a run is not ``index`` or ``index*count``, an index is past the
            palette, or the runs do not cover the box exactly.
    """
    volume = size[0] * size[1] * size[2]
    how = f"runs of palette indices (0 to {entries - 1}) covering {volume} positions: 0*12,1,2*3"
    out = np.empty(volume, dtype=np.int64)
    at = 0
    for run in runs.split(",") if runs.strip() else []:
        index, star, times = run.strip().partition("*")
        if not index.isdigit() or (star and not times.isdigit()):
            raise InvalidArgument("runs", run, "is not index or index*count", how)
        count = int(times) if star else 1
        if int(index) >= entries:
            raise InvalidArgument("runs", run, f"names index {index}, past the palette", how)
        if count < 1 or at + count > volume:
            raise InvalidArgument("runs", run, f"goes past the box's {volume} positions", how)
        out[at : at + count] = int(index)
        at += count
    if at != volume:
        raise InvalidArgument("runs", f"{at} positions", f"do not cover the box's {volume}", how)
    sx, sy, sz = size
    return out.reshape(sy, sz, sx).transpose(2, 0, 1)


def decode_status(
    runs: str, codes: Sequence[str], volume: int
) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """An answer's ``status`` runs to one :data:`STATUS` index a position (reading order).

    Raises:
        ValueError: the runs do not fit the box or name an unknown outcome.
    """
    mapping = [STATUS.index(code) for code in codes]
    out = np.empty(volume, dtype=np.uint8)
    at = 0
    for run in runs.split(",") if runs else []:
        index, star, times = run.partition("*")
        count = int(times) if star else 1
        if count < 1 or at + count > volume:
            raise ValueError(f"the status runs cover more than the box's {volume} positions")
        out[at : at + count] = mapping[int(index)]
        at += count
    if at != volume:
        raise ValueError(f"the status runs cover {at} positions, the box has {volume}")
    return out


# --- writing --------------------------------------------------------------------------------


def _origin(origin: Sequence[int]) -> tuple[int, int, int]:
    how = f"origin=(x, y, z): whole numbers within ±{COORDINATE_LIMIT:,}"
    if isinstance(origin, str | bytes) or len(origin) != 3:
        raise InvalidArgument("origin", origin, "is not three whole numbers", how)
    values = []
    for v in origin:
        if (
            isinstance(v, bool)
            or not isinstance(v, int | np.integer)
            or abs(int(v)) > COORDINATE_LIMIT
        ):
            raise InvalidArgument("origin", origin, "is not three whole numbers", how)
        values.append(int(v))
    return values[0], values[1], values[2]


def _payload(entries: list[Entry]) -> dict[str, Any]:
    payload: dict[str, Any] = {"palette": [name for name, _ in entries]}
    if any(states for _, states in entries):
        payload["states"] = [states or None for _, states in entries]
    return payload


class _Writer:
    """One write: the tiles, their requests and the progress."""

    def __init__(self, caller: Caller, dimension: str, timeout: float, connection: Any,
                 progress: Progress | None) -> None:  # fmt: skip
        self.caller, self.dimension, self.timeout = caller, dimension, timeout
        self.connection, self.progress = connection, progress
        self.requests = 0
        self.done = 0

    async def ask(self, payload: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        options = {} if self.connection is None else {"connection": self.connection}
        payload = {**payload, "dimension": self.dimension}
        return await self.caller.call(
            Capability.SET_BLOCKS, payload, timeout=self.timeout, **options
        )

    async def tile(self, box: Box, origin: tuple[int, int, int], ids: np.ndarray[Any, Any],
                   entries: list[Entry], total: int) -> np.ndarray[Any, Any]:  # fmt: skip
        where = tuple(
            slice(t - o, t - o + s) for t, o, s in zip(box.origin, origin, box.size, strict=True)
        )
        flat = ids[where].transpose(1, 2, 0).ravel()  # x fastest, then z, then y
        used, local = np.unique(flat, return_inverse=True)
        payload = {**_payload([entries[int(i)] for i in used]), "origin": list(box.origin),
                   "size": list(box.size), "runs": runs_of(local)}  # fmt: skip
        answer = await self.ask(payload)
        try:
            status = decode_status(str(answer["status"]), list(answer["codes"]), box.volume)
        except (KeyError, TypeError, ValueError) as exc:
            raise CapabilityError(
                "CAPABILITY_FAILED", f"set_blocks answered in an unknown shape ({exc})",
                Capability.SET_BLOCKS,
            ) from exc  # fmt: skip
        self.done += box.volume
        if self.progress is not None:
            self.progress(self.done, total)
        sx, sy, sz = box.size
        return status.reshape(sy, sz, sx).transpose(2, 0, 1)


@dataclass(frozen=True, eq=False)
class PlannedWrite:
    """A write checked and ready to send (:func:`plan_write`): nothing sent yet."""

    origin: tuple[int, int, int]
    ids: np.ndarray[Any, np.dtype[np.int64]]
    entries: list[Entry]
    dimension: str  # short: overworld, nether, the_end

    @property
    def box(self) -> Box:
        """Where it goes."""
        sx, sy, sz = self.ids.shape
        return Box(self.origin, (int(sx), int(sy), int(sz)))


def plan_write(
    origin: Sequence[int],
    region: BlockRegion | Any,
    *,
    palette: Sequence[Any] | None = None,
    hole: str | None = None,
    dimension: str = "overworld",
) -> PlannedWrite:
    """Check a write's arguments (what :func:`write_blocks` takes) before anything is sent.

    Raises:
        InvalidArgument: the origin, region, palette or dimension is not one it takes.
    """
    corner = _origin(origin)
    short = dimension.removeprefix("minecraft:")
    if short not in DIMENSIONS:
        raise InvalidArgument(
            "dimension", dimension, "is not a dimension", f"one of {', '.join(DIMENSIONS)}"
        )
    ids, entries = plan(region, palette, hole)
    return PlannedWrite(corner, ids, entries, short)


async def write_blocks(
    caller: Caller,
    origin: Sequence[int],
    region: BlockRegion | Any,
    *,
    palette: Sequence[Any] | None = None,
    hole: str | None = None,
    dimension: str = "overworld",
    timeout: float | None = None,
    connection: Any = None,
    progress: Progress | None = None,
) -> WriteResult:
    """Write ``region`` (indexed ``[x, y, z]``) with its lowest corner at ``origin``.

    ``region``: a ``BlockRegion``, an array of palette indices with ``palette``, or an array
    of block names (``None`` leaves a position). ``hole``: a palette name whose positions are
    left as they are (besides :data:`KEEP`). ``timeout``: the longest wait for each request.

    Raises:
        InvalidArgument: the origin, region or palette is not one of the shapes above.
        CapabilityError: ``INVALID_REQUEST`` naming the blocks or states the game does not
            know (nothing was written), or the addon has no ``set_blocks``.
        RequestTimeout: a part of the write was not answered within ``timeout``.
        NotConnected: no game is connected (or the chosen one is gone).
    """
    planned = plan_write(origin, region, palette=palette, hole=hole, dimension=dimension)
    return await send_write(caller, planned, timeout=timeout, connection=connection,
                            progress=progress)  # fmt: skip


async def send_write(
    caller: Caller,
    planned: PlannedWrite,
    *,
    timeout: float | None = None,
    connection: Any = None,
    progress: Progress | None = None,
) -> WriteResult:
    """Send a planned write: the palette checked whole, then its sections (see
    :func:`write_blocks`, which raises the same)."""
    limit = DEFAULT_TIMEOUT_SECONDS if timeout is None else timeout
    writer = _Writer(caller, planned.dimension, limit, connection, progress)
    started = time.perf_counter()
    try:
        await writer.ask({**_payload(planned.entries), "check": True})  # refused whole, or not
        status = await _tiles(writer, planned.box, planned.ids, planned.entries)
    except CapabilityError as exc:
        raise _explained(exc) from None
    return WriteResult(planned.origin, status, f"minecraft:{planned.dimension}", writer.requests,
                       time.perf_counter() - started)  # fmt: skip


def _to_send(box: Box, ids: np.ndarray[Any, Any], entries: list[Entry]) -> list[Box]:
    """The tiles that set something: the box cut down to the smallest box around the
    positions to set, split, and the tiles that only hold ``<keep>`` left out (a shape or
    a picture in a large box sends no request for the space around it)."""
    keep = np.array([name == KEEP for name, _ in entries], dtype=bool)
    setting = ~keep[ids]
    if not setting.any():
        return []
    low = [int(np.flatnonzero(setting.any(axis=tuple(a for a in range(3) if a != axis)))[0])
           for axis in range(3)]  # fmt: skip
    high = [int(np.flatnonzero(setting.any(axis=tuple(a for a in range(3) if a != axis)))[-1])
            for axis in range(3)]  # fmt: skip
    origin = tuple(o + lo for o, lo in zip(box.origin, low, strict=True))
    inner = Box((origin[0], origin[1], origin[2]),
                (high[0] - low[0] + 1, high[1] - low[1] + 1, high[2] - low[2] + 1))  # fmt: skip
    tiles = []
    for tile in split_box(inner, WRITE_TILE_BLOCKS):
        where = tuple(
            slice(t - o, t - o + s) for t, o, s in zip(tile.origin, box.origin, tile.size,
                                                       strict=True)
        )  # fmt: skip
        if setting[where].any():
            tiles.append(tile)
    return tiles


async def _tiles(writer: _Writer, box: Box, ids: np.ndarray[Any, Any],
                 entries: list[Entry]) -> np.ndarray[Any, np.dtype[np.uint8]]:  # fmt: skip
    # A position no request covers only holds <keep>: left as it is.
    status = np.full(box.size, STATUS.index("kept"), dtype=np.uint8)
    tiles = _to_send(box, ids, entries)
    writer.done = box.volume - sum(tile.volume for tile in tiles)  # those are done already
    todo = iter(tiles)

    async def writing() -> None:
        for tile in todo:
            got = await writer.tile(tile, box.origin, ids, entries, box.volume)
            where = tuple(
                slice(t - o, t - o + s)
                for t, o, s in zip(tile.origin, box.origin, tile.size, strict=True)
            )
            status[where] = got

    tasks = [asyncio.ensure_future(writing()) for _ in range(min(REQUESTS_IN_FLIGHT, len(tiles)))]
    try:
        for task in asyncio.as_completed(tasks):
            await task  # the first failure ends the write
    except RequestTimeout as exc:
        raise RequestTimeout(
            f"set_blocks: {exc} ({writer.done} of {box.volume} positions done)"
        ) from exc
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return status


def _explained(exc: CapabilityError) -> CapabilityError:
    if exc.code != "UNSUPPORTED_CAPABILITY":
        return exc
    return CapabilityError(
        exc.code,
        "this world's addon has no set_blocks: export the current pack (mcbews-repl addon "
        "export) and apply it to the world",
        Capability.SET_BLOCKS,
    )
