"""Watching the world: ``mc.map()``, ``mc.track()`` and ``mc.explore()``.

Mixed into :class:`~mcbews_repl.repl.handle.Minecraft` beside the toolkit's methods
(:class:`ToolkitCalls`, which provides ``query`` and ``_describe``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ...gameids import short_id
from ...vocabulary import Capability
from ..runtime import Pending
from ..show import (
    MIN_EVERY_SECONDS,
    LiveMap,
    MapPoint,
    MapSnapshot,
    StaticMap,
    samples_bar,
    track_frame,
    track_rows,
    until_cancelled,
    widgets_available,
)
from ._core import Handle
from ._worlds import call_text

if TYPE_CHECKING:
    import pandas as pd

    from ...toolkit import BlockRegion, WorldQueries, WritePreview
    from ._toolkit import OnLoop

__all__ = ["MAX_TRACK_SAMPLES", "MIN_TRACK_EVERY_SECONDS", "Watch"]

T = TypeVar("T")
# A track's snapshots: one get_player_snapshot each. Ten thousand rows per player is far
# more than a chart can show and still a small frame; the game ticks 20 times a second, so
# a shorter interval would only read the same tick twice.
MAX_TRACK_SAMPLES = 10_000
MIN_TRACK_EVERY_SECONDS = 0.05
# Entity types and names seen by a live map, kept so each look asks only about new ids.
_DESCRIBED_KEPT = 1024


def _short_dimension(name: object) -> str:
    return short_id(name) or "overworld"


class Watch(Handle):
    """``map``, ``track`` and ``explore`` (with the toolkit's ``query`` and ``_describe``)."""

    if TYPE_CHECKING:  # provided by ToolkitCalls, the part this one joins

        async def _describe(self, ids: list[str]) -> dict[str, dict[str, Any]]: ...
        @property
        def query(self) -> OnLoop[WorldQueries]: ...
        def blocks(self, corner1: Sequence[int], corner2: Sequence[int],
                   dimension: str = "overworld", *, timeout: float | None = None,
                   ) -> Pending[BlockRegion]: ...  # fmt: skip

    # --- the map ------------------------------------------------------------------------

    def map(
        self,
        *,
        every: float = 1.0,
        dimension: str | None = None,
        entities: bool = True,
        terrain: BlockRegion | None = None,
        live: bool | None = None,
        preview: Any = None,
        at: Sequence[int] | None = None,
        palette: Sequence[Any] | None = None,
        timeout: float | None = None,
    ) -> LiveMap | StaticMap | WritePreview:
        """Players (labelled, facing shown) and entities (coloured and named by type) seen
        from above, with the area's bounds and a scale; ``terrain``: a ``BlockRegion`` drawn
        underneath (each column's top block).

        In a notebook with widgets it refreshes every ``every`` seconds while it is on screen
        (``.pause()``, ``.resume()``, ``.stop()``, or its button); elsewhere, or with
        ``live=False``, it is a picture taken once (a text map in a terminal).

        Each look asks the world, unless the world pushes positions: subscribed to
        ``PlayerTravelled`` (``mc.subscribe("PlayerTravelled")``) or another position
        event, whose events cover every player the map shows, looks read the pushed
        positions and send nothing, and ask the world every 15 s (entities, who is
        there); ``.commands`` counts what the map sent.

        ``preview``: what a write would change, before it is written: a shape, a
        ``BlockRegion`` or an array as ``set_blocks`` takes it (``palette`` too), at ``at``
        (a shape: where it stands). The box is read and a ``WritePreview`` drawn: before
        and after from above, the columns that would change in red (a character map in a
        terminal), and how many blocks would change. Nothing is written.

        Raises:
            ValueError: ``every`` is not a number, or is shorter than the map's shortest
                interval (the message gives it).
            InvalidArgument: ``preview`` or ``at`` is not one ``set_blocks`` takes.
            RuntimeError: ``live=True`` where a live map cannot show (no notebook widgets).
            BridgeStopped: the bridge was stopped.
        """
        from ._toolkit import _in_kernel

        self._check_running()
        if preview is not None:
            return self._preview(preview, at, palette, dimension, timeout)
        if not (isinstance(every, int | float) and every >= MIN_EVERY_SECONDS):
            raise ValueError(f"every={every!r}: the map looks at most every {MIN_EVERY_SECONDS} s")

        seen = _SeenEntities()  # what the last look that asked the world saw

        def look() -> Pending[MapSnapshot]:
            return self._submit(self._map_snapshot(dimension, entities, seen), "map", "map()")

        loop = self._kernel_loop
        can_live = loop is not None and _in_kernel() and widgets_available()
        if live and not can_live:
            raise RuntimeError(
                "a live map needs a notebook with widgets (pip install mcbews-repl[lab]); "
                "mc.map() without live=True draws it once"
            )
        if (live is None or live) and can_live and loop is not None:
            return LiveMap(look, loop, every, terrain)
        picture = StaticMap(look, terrain)
        picture.first_look()
        return picture

    def _preview(self, region: Any, at: Sequence[int] | None, palette: Sequence[Any] | None,
                 dimension: str | None, timeout: float | None) -> WritePreview:  # fmt: skip
        from ...optional import needs

        with needs():
            from ...toolkit import plan_write, preview_write

        origin = at if at is not None else getattr(region, "origin", None)
        if origin is None:
            from ...exceptions import InvalidArgument

            raise InvalidArgument("at", None, "is needed with a region that has no origin",
                                  "at=(x, y, z): where its lowest corner would go")  # fmt: skip
        planned = plan_write(origin, region, palette=palette, dimension=dimension or "overworld")
        box = planned.box
        corner2 = tuple(o + s - 1 for o, s in zip(box.origin, box.size, strict=True))
        read: Pending[BlockRegion] = self.blocks(box.origin, corner2, planned.dimension,
                                                 timeout=timeout)  # fmt: skip
        return preview_write(read.result(), planned)

    async def _map_snapshot(
        self, dimension: str | None, entities: bool, seen: _SeenEntities
    ) -> MapSnapshot:
        """One look: the players (pushed positions when they stand in, _pushed.py, else
        asked of the world) and the entities (asked with the players, else as last seen)."""
        game = self._bridge.pick()
        positions = self._core.positions
        pusher, why = positions.pusher(game), positions.why_polled(game)
        if not (why or seen.at or not entities):
            why = "the map's first look at the entities"
        players_answer = None if why else positions.stand_in(game)
        if players_answer is None:
            players_answer = await self._call(
                Capability.GET_PLAYER_SNAPSHOT, target="@a", game=game
            )
            positions.looked(game, players_answer)
            if entities:
                await self._look_at_entities(players_answer, seen)
        people = players_answer.get("players") or []
        points = [_player_point(p) for p in people if isinstance(p, dict)]
        if entities:
            points += seen.points
        chosen = dimension or self._map_dimension(points)
        source = ""  # said when a position kind is subscribed: pushed, or why not
        if pusher is not None and not why:
            when = dt.datetime.fromtimestamp(seen.at).strftime("%H:%M:%S") if seen.at else ""
            source = f"players as {pusher} events put them" + (
                f"; entities as seen at {when}" if entities and when else ""
            )
        elif pusher is not None:
            source = f"asked the world ({why})"
        return MapSnapshot(tuple(points), time.time(), _short_dimension(chosen),
                           seen.complete, source=source)  # fmt: skip

    async def _look_at_entities(self, players_answer: dict[str, Any], seen: _SeenEntities) -> None:
        """Ask the world for its entities (not the players) and keep them in ``seen``."""
        people = players_answer.get("players") or []
        found = await self.query.target.entities(limit=64)
        known = {str(p.get("id")) for p in people if isinstance(p, dict)}
        rows = [e for e in found.entities if e.id not in known]
        described = await self._types_of([e.id for e in rows])
        points = []
        for e in rows:
            info = described.get(e.id) or {}
            kind = str(info.get("typeId") or "unknown")
            if kind == "minecraft:player":
                continue  # a player the players' answer leaves out: the bridge's own
            name, where = str(info.get("nameTag") or ""), _short_dimension(e.dimension)
            points.append(MapPoint("entity", name, kind, e.x, e.y, e.z, where, e.yaw))
        seen.points, seen.complete, seen.at = points, bool(found.complete), time.time()

    def _map_dimension(self, points: Sequence[MapPoint]) -> str:
        local = self._local_player()
        for point in points:
            if point.kind == "player" and point.label == local:
                return point.dimension
        players = [p for p in points if p.kind == "player"]
        return players[0].dimension if players else "overworld"

    async def _types_of(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """Type and name of each id; ids seen before are not asked again."""
        cache = self._described
        new = [i for i in ids if i not in cache]
        if new:
            if len(cache) + len(new) > _DESCRIBED_KEPT:
                cache.clear()
            cache.update(await self._describe(new))
        return {i: cache[i] for i in ids if i in cache}

    # --- tracks -------------------------------------------------------------------------

    def track(
        self, seconds: float = 10.0, *, every: float = 0.5, players: Sequence[str] | None = None
    ) -> Pending[pd.DataFrame]:
        """Where the players are over ``seconds``: a snapshot every ``every`` seconds, as a
        DataFrame (time, seconds, player, dimension, dimensionId, x, y, z, yaw, health), one
        row per player and snapshot. ``players`` keeps only those named. As the map does, a
        snapshot reads pushed positions when the world pushes them for every player (then
        health is as the world last said it, at most 15 s before).

        Raises:
            ValueError: ``seconds`` is not a positive number, ``every`` is shorter than a
                tick, or the two ask for more than ``MAX_TRACK_SAMPLES`` snapshots.
            BridgeStopped: the bridge was stopped.
        """
        self._check_running()
        if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"seconds={seconds!r}: give how long to track, e.g. seconds=10")
        if not (isinstance(every, int | float) and every >= MIN_TRACK_EVERY_SECONDS):
            raise ValueError(f"every={every!r}: at least {MIN_TRACK_EVERY_SECONDS} s (one tick)")
        samples = int(seconds / every) + 1
        if samples > MAX_TRACK_SAMPLES:
            raise ValueError(
                f"{samples} snapshots is more than {MAX_TRACK_SAMPLES}: track for less time or "
                "with a longer interval (every=...)"
            )
        wanted = None if players is None else {str(p) for p in players}
        bar = samples_bar(samples)

        async def run() -> pd.DataFrame:
            loop = asyncio.get_running_loop()
            start, rows = loop.time(), []
            positions = self._core.positions
            for k in range(samples):
                await asyncio.sleep(max(0.0, start + k * every - loop.time()))
                game = self._bridge.pick()
                answer = positions.stand_in(game)  # pushed positions, when they cover all
                if answer is None:
                    answer = await self._call(
                        Capability.GET_PLAYER_SNAPSHOT, target="@a", game=game
                    )
                    positions.looked(game, answer)
                rows += track_rows(answer, time.time(), loop.time() - start, wanted)
                if bar is not None:
                    bar(k + 1, samples)
            return track_frame(rows)

        track = until_cancelled(run(), lambda: bar)
        return self._submit(track, f"track {seconds:g} s", call_text("track", seconds))

    # --- exploring a frame --------------------------------------------------------------

    def explore(self, frame: pd.DataFrame) -> Any:
        """``frame`` as a table to work with in place: a pick list per column worth choosing
        from (player, item, kind ...), a search box, a click on a column sorts by it.

        Raises:
            TypeError: ``frame`` is not a pandas DataFrame.
        """
        from ..show import table_widget

        if type(frame).__name__ != "DataFrame":
            raise TypeError(
                f"mc.explore takes a DataFrame (mc.inventory(), mc.events() ...), "
                f"not {type(frame).__name__}"
            )
        return table_widget(frame)


@dataclass
class _SeenEntities:
    """A map's entities as its last look that asked the world saw them."""

    points: list[MapPoint] = field(default_factory=list)
    complete: bool = True
    at: float = 0.0  # time.time() of that look (0: none yet)


def _player_point(p: dict[str, Any]) -> MapPoint:
    loc = p.get("location") or {}
    rotation = p.get("rotation") or {}
    return MapPoint("player", str(p.get("name", "?")), "minecraft:player",
                    float(loc.get("x", 0)), float(loc.get("y", 0)), float(loc.get("z", 0)),
                    _short_dimension(p.get("dimension")), rotation.get("yaw"))  # fmt: skip
