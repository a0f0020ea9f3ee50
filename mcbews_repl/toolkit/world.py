"""Typed queries and scoreboard actions over the bridge: build, send, parse.

``WorldQueries`` and ``Scoreboard`` wrap anything with the bridge's ``command`` coroutine.
Argument mistakes raise :class:`InvalidArgument` before anything is sent; the game's
answers come back as values that say whether they are known; transport problems raise as
the gateway does (``NotConnected``, ``RequestTimeout``, ``GameDisconnected``).
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from typing import Protocol

from ..exceptions import InvalidArgument
from ..gateway import CommandResult
from . import commands as build
from .answers import (
    Ack,
    BlockCheck,
    EntityList,
    ItemCount,
    ObjectiveList,
    ObjectiveScores,
    RegionScan,
    ScoreChange,
    ScoreList,
    ScoreRead,
    TagList,
    TestFor,
)
from .parsers import (
    parse_ack,
    parse_block,
    parse_entities,
    parse_holders,
    parse_item_count,
    parse_objectives,
    parse_score_change,
    parse_scores,
    parse_tags,
    parse_testfor,
)
from .validate import ENTITY_LIMIT_MAX, check_int, check_objective

__all__ = [
    "HOLDERS_MAX",
    "REGION_AXIS_MAX",
    "REGION_MAX_BLOCKS",
    "Commander",
    "Scoreboard",
    "WorldQueries",
]

# One testforblock per position: 256 commands fill the game's 100-command window under three
# times. Larger areas are a job for structure exports, not commands.
REGION_MAX_BLOCKS = 256
REGION_AXIS_MAX = 16
# A whole-objective read lists each holder with its own command; past this many holders the
# read stops and says it was truncated.
HOLDERS_MAX = 256


class Commander(Protocol):
    """What the toolkit needs from the bridge: one command in, one result out."""

    async def command(self, line: str, *, timeout: float | None = None) -> CommandResult:
        """Run one command line; the game's answer as a :class:`CommandResult`."""
        ...


class WorldQueries:
    """``await q.item_count("Steve", "diamond")``, ``await q.entities(entity_type="cow")`` ..."""

    def __init__(self, bridge: Commander, *, timeout: float | None = None) -> None:
        self._bridge = bridge
        self._timeout = timeout

    async def _run(self, line: str) -> CommandResult:
        return await self._bridge.command(line, timeout=self._timeout)

    async def item_count(self, player: str, item: str, *, data: int = -1) -> ItemCount:
        """How many ``item`` the player holds (inventory and equipment); removes nothing.

        ``data`` narrows to one aux value (-1: any). Returns an :class:`ItemCount` whose
        ``value`` is None, with a ``reason``, when the game's answer does not say.

        Raises:
            InvalidArgument: ``player``, ``item``, or ``data`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        line = build.item_count(player, item, data)
        item_id = line.split(" ")[-3]
        return parse_item_count(await self._run(line), player, item_id, data)

    async def tags(self, player: str) -> TagList:
        """The tags the player carries, as a :class:`TagList` (``known`` False if unread).

        Raises:
            InvalidArgument: ``player`` is not a usable name; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_tags(await self._run(build.tags_of(player)), player)

    async def scores(self, holder: str) -> ScoreList:
        """Every score of one holder (a player or fake-player name), as a :class:`ScoreList`.

        Raises:
            InvalidArgument: ``holder`` is not a usable name; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_scores(await self._run(build.scores_of(holder)), holder)

    async def score(self, holder: str, objective: str) -> ScoreRead:
        """One score, as a :class:`ScoreRead`; ``found`` False when the holder has none in
        that objective, ``known`` False when the game's listing could not be read.

        Raises:
            InvalidArgument: ``holder`` or ``objective`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        check_objective(objective)
        listed = await self.scores(holder)
        evidence = {k: getattr(listed, k) for k in ("command", "status_code", "message")}
        if not listed.known:
            return ScoreRead(
                **evidence, holder=holder, objective=objective, known=False, reason=listed.reason
            )
        score = listed.get(objective)
        value = score.value if score else None
        return ScoreRead(
            **evidence,
            holder=holder,
            objective=objective,
            known=True,
            found=bool(score),
            value=value,
        )

    async def testfor(self, selector: str) -> TestFor:
        """Which entities ``selector`` (``@a[tag=red]``, a name ...) matches now, as a
        :class:`TestFor`: ``matched`` and the names the game listed.

        Raises:
            InvalidArgument: ``selector`` is empty or holds characters a command cannot carry.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_testfor(await self._run(build.testfor(selector)), selector)

    async def entities(
        self,
        *,
        target: str = "entities",
        name: str | None = None,
        entity_type: str | None = None,
        tag: str | None = None,
        origin: Sequence[float] | None = None,
        radius: float | None = None,
        limit: int = ENTITY_LIMIT_MAX,
    ) -> EntityList:
        """Entities via ``querytarget``, nearest first; ``complete`` False past ``limit``.

        ``target`` is ``"entities"`` or ``"players"``; ``name``, ``entity_type`` and ``tag``
        filter; ``origin`` (x, y, z) with ``radius`` keeps those within that distance.
        Returns an :class:`EntityList` (``to_dataframe()`` for a table).

        Raises:
            InvalidArgument: a filter, ``origin``, ``radius`` or ``limit`` is malformed or out
                of range (``radius`` needs ``origin``); nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        selector = build.entity_selector(
            target=target,
            name=name,
            entity_type=entity_type,
            tag=tag,
            origin=origin,
            radius=radius,
            limit=limit,
        )
        return parse_entities(await self._run(f"querytarget {selector}"), selector, limit)

    async def block(self, x: int, y: int, z: int, block: str) -> BlockCheck:
        """Whether ``block`` is at x, y, z (in the connected player's dimension), as a
        :class:`BlockCheck` (``matches`` None when the position is not loaded).

        Raises:
            InvalidArgument: a coordinate is not a whole number in range, or ``block`` is not
                a block id; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        line = build.testforblock(x, y, z, block)
        return parse_block(await self._run(line), x, y, z, line.split(" ")[-1])

    async def region(self, origin: Sequence[int], size: Sequence[int], block: str) -> RegionScan:
        """``block`` at every position of a small box (at most 256 positions, 16 per axis).

        ``origin`` is the low corner (x, y, z), ``size`` the box's extent on each axis.
        Returns a :class:`RegionScan` with one :class:`BlockCheck` per position.

        Raises:
            InvalidArgument: ``origin`` or ``size`` is not three whole numbers, an axis is
                past 16, the box holds more than 256 positions, or ``block`` is not a block
                id; nothing was sent.
            CommandQueueFull: other calls already fill the command queue.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        x0, y0, z0 = _triple(origin, "origin")
        dx, dy, dz = (
            check_int(v, f"size.{a}", 1, REGION_AXIS_MAX)
            for v, a in zip(_triple(size, "size"), "xyz", strict=True)
        )
        if dx * dy * dz > REGION_MAX_BLOCKS:
            raise InvalidArgument(
                "size",
                tuple(size),
                f"covers {dx * dy * dz} positions",
                f"at most {REGION_MAX_BLOCKS} positions (e.g. 8x4x8); scan in parts",
            )
        build.testforblock(x0 + dx - 1, y0 + dy - 1, z0 + dz - 1, block)  # checks the far corner
        positions = itertools.product(range(x0, x0 + dx), range(y0, y0 + dy), range(z0, z0 + dz))
        checks = await asyncio.gather(*(self.block(x, y, z, block) for x, y, z in positions))
        block_id = checks[0].block if checks else block
        return RegionScan((x0, y0, z0), (dx, dy, dz), block_id, tuple(checks))


def _triple(value: Sequence[int], argument: str) -> tuple[int, int, int]:
    if isinstance(value, str | bytes) or len(value) != 3:
        raise InvalidArgument(
            argument, value, "is not three whole numbers", f"{argument}=(x, y, z)"
        )
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int):
            raise InvalidArgument(
                argument, value, "is not three whole numbers", f"{argument}=(x, y, z)"
            )
    return value[0], value[1], value[2]


class Scoreboard:
    """Objectives and scores with every argument checked before a command is sent."""

    def __init__(self, bridge: Commander, *, timeout: float | None = None) -> None:
        self._bridge = bridge
        self._timeout = timeout
        self._queries = WorldQueries(bridge, timeout=timeout)

    async def _run(self, line: str) -> CommandResult:
        return await self._bridge.command(line, timeout=self._timeout)

    async def objectives(self) -> ObjectiveList:
        """Every objective of the world (name, display name, criterion) as an
        :class:`ObjectiveList`.

        Raises:
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_objectives(await self._run(build.objectives_list()))

    async def add_objective(self, objective: str, display_name: str | None = None) -> Ack:
        """A new ``dummy`` objective, shown as ``display_name`` (the name if None); the
        :class:`Ack` says whether the game accepted it (an existing name is refused).

        Raises:
            InvalidArgument: ``objective`` or ``display_name`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_ack(await self._run(build.objective_add(objective, display_name)), "add")

    async def remove_objective(self, objective: str) -> Ack:
        """Remove ``objective`` and every score in it; the :class:`Ack` says whether the
        game did (an unknown objective is refused, not raised).

        Raises:
            InvalidArgument: ``objective`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_ack(await self._run(build.objective_remove(objective)), "remove")

    async def setdisplay(
        self, slot: str, objective: str | None = None, *, sort_order: str | None = None
    ) -> Ack:
        """Show ``objective`` in a display slot (``sidebar``, ``list``, ``belowname``), or
        clear the slot when ``objective`` is None; ``sort_order`` is ``ascending`` or
        ``descending``. The :class:`Ack` says whether the game accepted it.

        Raises:
            InvalidArgument: ``slot`` or ``sort_order`` is not one the game knows, or
                ``objective`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        line = build.objective_setdisplay(slot, objective, sort_order)
        return parse_ack(await self._run(line), "setdisplay")

    async def get(self, holder: str, objective: str) -> ScoreRead:
        """One score, as :meth:`WorldQueries.score` reads it.

        Raises:
            InvalidArgument: ``holder`` or ``objective`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return await self._queries.score(holder, objective)

    async def scores(self, holder: str) -> ScoreList:
        """Every score of one holder, as :meth:`WorldQueries.scores` reads them.

        Raises:
            InvalidArgument: ``holder`` is not a usable name; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return await self._queries.scores(holder)

    async def set(self, holder: str, objective: str, value: int) -> ScoreChange:
        """Set ``holder``'s score in ``objective`` to ``value``; the :class:`ScoreChange`
        says whether the game did and, when it says, the new value.

        Raises:
            InvalidArgument: ``holder`` or ``objective`` is malformed, or ``value`` is not a
                32-bit whole number; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        result = await self._run(build.score_set(holder, objective, value))
        return parse_score_change(result, "set", holder, objective)

    async def add(self, holder: str, objective: str, delta: int) -> ScoreChange:
        """Add ``delta`` (negative subtracts) to ``holder``'s score in ``objective``; the
        :class:`ScoreChange` says whether the game did and, when it says, the new value.

        Raises:
            InvalidArgument: ``holder`` or ``objective`` is malformed, or ``delta`` is not a
                whole number in the game's range; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        result = await self._run(build.score_add(holder, objective, delta))
        return parse_score_change(result, "add", holder, objective)

    async def reset(self, holder: str, objective: str) -> Ack:
        """Remove ``holder``'s score from ``objective``; the :class:`Ack` says whether the
        game did.

        Raises:
            InvalidArgument: ``holder`` or ``objective`` is malformed; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        return parse_ack(await self._run(build.score_reset(holder, objective)), "reset")

    async def operation(
        self,
        holder: str,
        objective: str,
        operator: str,
        source_holder: str,
        source_objective: str,
    ) -> ScoreChange:
        """``holder objective <operator> source_holder source_objective`` (``><`` swaps).

        ``operator`` is one of ``+= -= *= /= %= = < > ><``. Returns a :class:`ScoreChange`.

        Raises:
            InvalidArgument: an operator the game does not know, or a malformed holder or
                objective; nothing was sent.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        line = build.score_operation(holder, objective, operator, source_holder, source_objective)
        return parse_score_change(await self._run(line), "operation", holder, objective)

    async def objective_scores(
        self, objective: str, *, limit: int = HOLDERS_MAX
    ) -> ObjectiveScores:
        """Every tracked holder's score in ``objective`` (one list command per holder).

        At most ``limit`` holders are read; the :class:`ObjectiveScores` says when the list
        was cut short and which holders could not be read.

        Raises:
            InvalidArgument: ``objective`` is malformed or ``limit`` is not 1..256; nothing
                was sent.
            CommandQueueFull: other calls already fill the command queue.
            NotConnected: no game is connected (or the chosen one is gone).
            RequestTimeout: the game did not answer in time.
            GameDisconnected: the game went away before it answered.
        """
        check_objective(objective)
        most = check_int(limit, "limit", 1, HOLDERS_MAX)
        listed = await self._run(build.tracked_holders())
        holders = parse_holders(listed)
        if holders is None:
            reason = "output_unrecognized" if listed.ok else "command_failed"
            return ObjectiveScores(objective, (), None, False, reason=reason)
        visited = holders[:most]
        answers = await asyncio.gather(*(self._queries.scores(h) for h in visited))
        found = [(a.holder, s.value) for a in answers if a.known and (s := a.get(objective))]
        unknown = tuple(a.holder for a in answers if not a.known)
        return ObjectiveScores(objective, tuple(found), len(holders), len(holders) > most, unknown)
