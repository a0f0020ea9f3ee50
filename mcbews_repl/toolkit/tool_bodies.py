"""The tool bodies, one small coroutine per catalogue entry (``tool_<name>``); the
dispatcher that checks arguments and calls them is :class:`~.tools.Tools`.

Arguments arrive already checked against the catalogue; domain rules (holder syntax,
objective names, region size) raise :class:`InvalidArgument` from the builders and become
``why``/``how_to`` in :class:`Tools.call`.
"""

from __future__ import annotations

from typing import Any

from ..exceptions import InvalidArgument
from ..game_events import Source, event_kind, unknown_event_message
from ..gateway import Bridge
from ..optional import needs
from ..vocabulary import Capability, EventKind
from . import results as _t
from .blocks import read_blocks
from .boxes import OUT_OF_WORLD, UNLOADED, Box
from .catalogue import BLOCKS_TOOL_MAX
from .context import ChatContexts
from .validate import check_holder
from .world import Scoreboard, WorldQueries

__all__ = ["GRID_KEYS", "ToolBodies"]

# The blocks tool's grid: one character per palette entry; air, unread positions and those
# past the last key have their own.
GRID_KEYS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789#$%&*+=<>"
_FIXED_KEYS = {"minecraft:air": ".", UNLOADED: "?", OUT_OF_WORLD: "!"}
_MORE_KEY = "~"  # a palette past GRID_KEYS: the numbers (ids) still tell them apart


class ToolBodies:
    """The tool bodies :class:`~.tools.Tools` dispatches to: ``tool_<name>`` runs the
    catalogue's tool ``name`` with checked keyword arguments and returns its result dict.

    Call them through :meth:`Tools.call`, which checks the arguments first and turns what a
    body raises (:class:`InvalidArgument`, :class:`NotConnected`, :class:`RequestTimeout`,
    :class:`CapabilityError` ...) into an ``ok: false`` answer with ``why`` and ``how_to``.
    """

    def __init__(
        self,
        bridge: Bridge,
        *,
        contexts: ChatContexts | None = None,
        timeout: float | None = None,
        builders: dict[int, Any] | None = None,
    ) -> None:
        self._bridge = bridge
        self._contexts = contexts
        self._timeout = timeout
        # Each world's building history (undo.Builder) by connection id: the owner keeps
        # it across calls (mc.tools, the MCP server), so the undo tool finds the last write.
        self._builders: dict[int, Any] = {} if builders is None else builders
        self._world = WorldQueries(bridge, timeout=timeout)
        self._board = Scoreboard(bridge, timeout=timeout)

    async def _capability(self, name: str, **payload: Any) -> dict[str, Any]:
        return await self._bridge.call(name, payload, timeout=self._timeout)

    # --- observe -----------------------------------------------------------------------

    async def tool_status(self) -> dict[str, Any]:
        """The ``status`` tool: bridge health: connected games, pending requests, counters."""
        games = [
            {"id": c.id, "player": c.local_player, "peer": c.peer, "pending": c.pending}
            for c in self._bridge.connections
        ]
        contexts = self._contexts.stats() if self._contexts and self._contexts.running else None
        return {
            "ok": True,
            "connections": games,
            "connect_command": self._bridge.connect_command,
            "last_cursor": self._bridge.log.last_cursor,
            "contexts": contexts,
            "describe": f"{len(games)} game(s) connected",
        }

    async def tool_capabilities(self, *, limit: int) -> dict[str, Any]:
        """The ``capabilities`` tool: what the world's addon offers (name, description, params)."""
        caps = (await self._capability(Capability.LIST_CAPABILITIES)).get("capabilities") or []
        out = _t.bounded(list(caps), limit, "capabilities")
        return {"ok": True, **out, "describe": f"{len(caps)} capabilities"}

    async def tool_players(self, *, limit: int) -> dict[str, Any]:
        """The ``players`` tool: every online player: position, dimension, rotation, health,
        mode."""
        online = await self._capability(Capability.GET_PLAYER_SNAPSHOT, target="@a")
        players = online.get("players") or []
        names = ", ".join(str(p.get("name")) for p in players[:limit])
        return {
            "ok": True,
            **_t.bounded(list(players), limit, "players"),
            "describe": f"{len(players)} online: {names}"[:160],
        }

    async def tool_inventory(self, *, player: str, limit: int) -> dict[str, Any]:
        """The ``inventory`` tool: one player's occupied slots and equipment."""
        check_holder(player, "player")  # one named player: never a selector
        asked = await self._capability(Capability.GET_INVENTORY_SNAPSHOT, target=player)
        found = asked.get("players")
        mine = next((p for p in found or [] if p.get("name") == player), None)
        if mine is None:
            return _t.failure(f"no inventory for {player}", _t.HOW_TO["no_target"])
        slots = list(mine.get("slots") or [])
        return {
            "ok": True,
            "player": player,
            **_t.bounded(slots, limit, "slots"),
            "equipment": mine.get("equipment"),
            "describe": f"{player}: {len(slots)} occupied slot(s)",
        }

    async def tool_item_count(self, *, player: str, item: str, data: int) -> dict[str, Any]:
        """The ``item_count`` tool: how many of an item a player holds (removes nothing)."""
        return _t.from_answer(await self._world.item_count(player, item, data=data))

    async def tool_tags(self, *, player: str) -> dict[str, Any]:
        """The ``tags`` tool: a player's tags as the game counts and shows them."""
        return _t.from_answer(await self._world.tags(player))

    async def tool_scores(self, *, holder: str) -> dict[str, Any]:
        """The ``scores`` tool: every score of one holder."""
        return _t.from_answer(await self._world.scores(holder))

    async def tool_score(self, *, holder: str, objective: str) -> dict[str, Any]:
        """The ``score`` tool: one holder's score in one objective."""
        return _t.from_answer(await self._world.score(holder, objective))

    async def tool_objectives(self, *, limit: int) -> dict[str, Any]:
        """The ``objectives`` tool: every scoreboard objective."""
        answer = await self._board.objectives()
        result = _t.from_answer(answer)
        if result["ok"]:
            result.update(_t.bounded(list(result["objectives"]), limit, "objectives"))
        return result

    async def tool_objective_scores(self, *, objective: str, limit: int) -> dict[str, Any]:
        """The ``objective_scores`` tool: every tracked holder's score in one objective."""
        read = await self._board.objective_scores(objective, limit=limit)
        if read.total is None:
            return _t.failure(
                f"{read.reason}: the tracked holders could not be listed",
                _t.HOW_TO["output_unrecognized"],
                reason=read.reason,
            )
        rows = [{"holder": h, "value": v} for h, v in read.scores]
        return {
            "ok": True,
            "objective": objective,
            "scores": rows,
            "total": read.total,
            "truncated": read.truncated,
            "limit": limit,
            "unknown": list(read.unknown),
            "describe": read.describe(),
        }

    async def tool_testfor(self, *, selector: str) -> dict[str, Any]:
        """The ``testfor`` tool: whether a selector or name matches anything."""
        return _t.from_answer(await self._world.testfor(selector))

    async def tool_entities(
        self,
        *,
        target: str,
        name: str | None,
        entity_type: str | None,
        tag: str | None,
        x: float | None,
        y: float | None,
        z: float | None,
        radius: float | None,
        limit: int,
    ) -> dict[str, Any]:
        """The ``entities`` tool: entities near a point or by name/type/tag, nearest first."""
        given = [v for v in (x, y, z) if v is not None]
        if given and len(given) != 3:
            return _t.failure("give all of x, y and z, or none", "x, y, z: the search centre")
        origin = (x, y, z) if x is not None and y is not None and z is not None else None
        answer = await self._world.entities(
            target=target,
            name=name,
            entity_type=entity_type,
            tag=tag,
            origin=origin,
            radius=radius,
            limit=limit,
        )
        result = _t.from_answer(answer)
        if result["ok"]:
            rows = result.pop("entities")
            result.update(
                entities=rows,
                total=None if not answer.complete else len(rows),
                truncated=not answer.complete,
            )
        return result

    async def tool_block(self, *, x: int, y: int, z: int, block: str) -> dict[str, Any]:
        """The ``block`` tool: whether a block is at a position (connected player's dimension)."""
        return _t.from_answer(await self._world.block(x, y, z, block))

    async def tool_region(
        self, *, x: int, y: int, z: int, dx: int, dy: int, dz: int, block: str, limit: int
    ) -> dict[str, Any]:
        """The ``region`` tool: where a block is within a small box (testforblock per position)."""
        scan = await self._world.region((x, y, z), (dx, dy, dz), block)
        rows = scan.rows()
        interesting = [r for r in rows if r["matches"] is not False]  # found or unknown
        return {
            "ok": True,
            "block": scan.block,
            "matched": scan.matched,
            "unknown": scan.unknown,
            "checked": len(rows),
            **_t.bounded(interesting, limit, "positions"),
            "describe": scan.describe(),
        }

    async def tool_blocks(
        self, *, x1: int, y1: int, z1: int, x2: int, y2: int, z2: int, dimension: str
    ) -> dict[str, Any]:
        """The ``blocks`` tool: every block of a box as a palette, text layers and numbers."""
        box = Box.between((x1, y1, z1), (x2, y2, z2))
        if box.volume > BLOCKS_TOOL_MAX:
            return _t.failure(
                f"the box holds {box.volume} blocks; this tool reads at most {BLOCKS_TOOL_MAX}",
                "read it in parts of at most 16x16x16 (or mc.blocks in a notebook)",
                size=list(box.size),
            )
        region = await read_blocks(
            self._bridge, (x1, y1, z1), (x2, y2, z2), dimension, timeout=self._timeout
        )
        counts = [0] * len(region.palette)
        ids: list[list[list[int]]] = []
        for dy in range(box.size[1]):
            layer = [[int(region.ids[dx, dy, dz]) for dx in range(box.size[0])]
                     for dz in range(box.size[2])]  # fmt: skip
            for row in layer:
                for index in row:
                    counts[index] += 1
            ids.append(layer)
        keys, spare = [], iter(GRID_KEYS)
        for block in region.palette:
            keys.append(_FIXED_KEYS.get(block) or next(spare, _MORE_KEY))
        layers = [
            {"y": box.origin[1] + dy, "rows": ["".join(keys[i] for i in row) for row in layer]}
            for dy, layer in enumerate(ids)
        ]
        unknown = sum(c for b, c in zip(region.palette, counts, strict=True) if b in _FIXED_KEYS
                      and b != "minecraft:air")  # fmt: skip
        rows = zip(keys, region.palette, counts, strict=True)
        palette = [{"index": i, "key": k, "block": b, "count": c}
                   for i, (k, b, c) in enumerate(rows)]  # fmt: skip
        return {
            "ok": True,
            "origin": list(box.origin),
            "size": list(box.size),
            "dimension": region.dimension,
            "palette": palette,
            "layers": layers,
            "ids": ids,
            "unknown": unknown,
            "grid_complete": _MORE_KEY not in keys,
            "describe": f"{box.volume} blocks, {len(palette)} kinds"
            + (f", {unknown} unread" if unknown else ""),
        }

    # --- building ------------------------------------------------------------------------

    def _check_build(self, count: int, low: tuple[int, ...], high: tuple[int, ...]) -> None:
        """Whether ``count`` blocks may be written in the box ``low``..``high``: nothing here
        (the caller is the operator); :class:`~.tools.Tools` asks its guard."""

    def _builder(self, game: Any) -> Any:
        with needs("the building tools"):
            from .undo import Builder

        builder = self._builders.get(game.id)
        if builder is None:
            builder = self._builders[game.id] = Builder()
        return builder

    async def _build(self, planned: Any, what: str) -> dict[str, Any]:
        with needs("the building tools"):
            from .undo import blocks_set

        box = planned.box
        high = tuple(o + s - 1 for o, s in zip(box.origin, box.size, strict=True))
        self._check_build(blocks_set(planned), box.origin, high)
        game = self._bridge.pick()
        result = await self._builder(game).write(
            self._bridge, planned, what=what, force=True, timeout=self._timeout, connection=game
        )
        return _t.written(result)

    async def tool_fill(self, *, x1: int, y1: int, z1: int, x2: int, y2: int, z2: int,
                        block: str, hollow: bool, dimension: str) -> dict[str, Any]:  # fmt: skip
        """The ``fill`` tool: every block of a box set to one block (kept for undo)."""
        with needs("the fill tool"):
            from .shapes import cuboid
            from .writes import plan_write

        shape = cuboid((x1, y1, z1), (x2, y2, z2), block, hollow=hollow)
        return await self._build(plan_write(shape.origin, shape, dimension=dimension), "fill")

    async def tool_shape(self, *, shape: str, x: int, y: int, z: int, block: str, radius: int,
                         height: int, x2: int | None, y2: int | None, z2: int | None,
                         hollow: bool, dimension: str) -> dict[str, Any]:  # fmt: skip
        """The ``shape`` tool: a sphere, an upright cylinder or a line of one block.

        Raises:
            InvalidArgument: a line without its other end.
        """
        with needs("the shape tool"):
            from . import shapes
            from .writes import plan_write

        if shape == "line":
            if x2 is None or y2 is None or z2 is None:
                raise InvalidArgument("x2, y2, z2", None, "are needed for a line",
                                      "the line's other end: x2, y2 and z2")  # fmt: skip
            made = shapes.line((x, y, z), (x2, y2, z2), block)
        elif shape == "sphere":
            made = shapes.sphere((x, y, z), radius, block, hollow=hollow)
        else:
            made = shapes.cylinder((x, y, z), radius, height, block, hollow=hollow)
        planned = plan_write(made.origin, made, dimension=dimension)
        return await self._build(planned, shape)

    async def tool_set_blocks(
        self, *, x: int, y: int, z: int, dx: int, dy: int, dz: int, palette: str, runs: str,
        dimension: str,
    ) -> dict[str, Any]:  # fmt: skip
        """The ``set_blocks`` tool: a box of mixed blocks from a palette and runs.

        Raises:
            InvalidArgument: an empty name in the palette, or runs that do not fill the box.
        """
        with needs("the set_blocks tool"):
            from .writes import ids_of_runs, plan_write

        names = [name.strip() for name in palette.split(",")]
        if not all(names):
            raise InvalidArgument("palette", palette, "holds an empty name",
                                  "block ids separated by commas: air,stone,<keep>")  # fmt: skip
        ids = ids_of_runs(runs, (dx, dy, dz), len(names))
        planned = plan_write((x, y, z), ids, palette=names, dimension=dimension)
        return await self._build(planned, Capability.SET_BLOCKS.value)

    async def tool_undo(self) -> dict[str, Any]:
        """The ``undo`` tool: this world's newest building tool call taken back."""
        with needs("the building tools"):
            from .undo import blocks_set

        game = self._bridge.pick()
        builder = self._builder(game)
        newest = builder.newest
        if newest is None:
            return _t.failure("nothing to undo in this world: no fill, shape or set_blocks "
                              "of these tools is kept", "build something first")  # fmt: skip
        box = newest.box
        high = tuple(o + s - 1 for o, s in zip(box.origin, box.size, strict=True))
        self._check_build(blocks_set(newest.planned()), box.origin, high)
        result = await builder.undo(self._bridge, timeout=self._timeout, connection=game)
        return {**_t.written(result), "undid": newest.label}

    async def tool_events(self, *, since: int, limit: int, kind: str | None) -> dict[str, Any]:
        """The ``events`` tool: the bridge's event log after a cursor (chat, commands, ...)."""
        entries = [e for e in self._bridge.events(since) if kind is None or e.kind == kind]
        shown = entries[:limit]
        rows = [
            {
                "cursor": e.cursor,
                "at": e.at,
                "kind": e.kind,
                "summary": e.summary,
                **self._context_of(e.cursor),
            }
            for e in shown
        ]
        next_since = shown[-1].cursor if shown else since
        return {
            "ok": True,
            "events": rows,
            "total": len(entries),
            "truncated": len(entries) > limit,
            "limit": limit,
            "next_since": next_since,
            "describe": f"{len(rows)} of {len(entries)} event(s) after cursor {since}",
        }

    async def tool_game_events(
        self, *, subscribe: str | None, rate: int, since: int, limit: int, kind: str | None
    ) -> dict[str, Any]:
        """The ``game_events`` tool: subscribe to the kinds named (in this call's world),
        then the game events after a cursor, each with its kind's own fields."""
        names = [n.strip() for n in (subscribe or "").split(",") if n.strip()]
        kinds = {n: event_kind(n) for n in [*names, *([kind] if kind else [])]}
        unknown = [n for n, k in kinds.items() if k is None]
        if unknown:
            return _t.failure(unknown_event_message(unknown[0]), "use one of the known names")
        game = self._bridge.pick()
        heard: frozenset[str] = game.events
        for name in names:
            found = kinds[name]
            addon = found is not None and found.source is Source.ADDON
            heard = await self._bridge.subscribe(
                name, connection=game, rate=(rate or None) if addon else None
            )
        held = self._bridge.events(since)
        entries = [
            e for e in held
            if e.kind == EventKind.GAME_EVENT and (kind is None or e.data.get("event") == kind)
        ]  # fmt: skip
        shown = entries[:limit]
        oldest = self._bridge.log.since(since)[:1]
        missed = max(0, oldest[0].cursor - since - 1) if oldest and since else 0
        return {
            "ok": True,
            "events": [{"cursor": e.cursor, **_json_values(e.data)} for e in shown],
            "subscribed": sorted(n for n in heard if not getattr(event_kind(n), "always", False)),
            "total": len(entries),
            "truncated": len(entries) > limit,
            "limit": limit,
            "next_since": shown[-1].cursor
            if len(entries) > limit
            else self._bridge.log.last_cursor,
            "missed": missed,
            "describe": f"{len(shown)} of {len(entries)} game event(s) after cursor {since}"
            + (f"; {missed} log entries were let go before they were read" if missed else ""),
        }

    def _context_of(self, cursor: int) -> dict[str, str]:
        found = self._contexts.context_id_for(cursor) if self._contexts else None
        return {"context_id": found} if found else {}

    async def tool_chat_context(self, *, context_id: str, player: str | None) -> dict[str, Any]:
        """The ``chat_context`` tool: a player's captured state at the moment they chatted."""
        if self._contexts is None or not self._contexts.running:
            return _t.failure(
                "chat contexts are not being captured",
                "start them with mc.contexts.start() (or ChatContexts.start())",
            )
        answer = await self._contexts.get(context_id, player=player)
        if answer.get("found") and answer.get("ok"):
            where = answer.get("location") or {}
            answer["describe"] = (
                f"{answer['player']} in {answer['dimension']} at "
                f"{where.get('x')}, {where.get('y')}, {where.get('z')}"
            )
            return answer
        if answer.get("found"):
            return _t.failure(
                f"capture failed: {answer.get('error')}",
                "query the world now with players/inventory",
                context_id=context_id,
            )
        answer["describe"] = f"failed: {answer['why']}"
        return answer

    # --- act -----------------------------------------------------------------------------

    async def tool_command(self, *, command: str) -> dict[str, Any]:
        """The ``command`` tool: run one command as the connected player."""
        r = await self._bridge.command(command, timeout=self._timeout)
        fields = {
            "command": r.command,
            "status_code": r.status_code,
            "message": r.status_message,
            "body": {k: v for k, v in r.body.items() if k not in ("statusCode", "statusMessage")},
        }
        if r.ok:
            return {"ok": True, **fields, "describe": f"ok: {r.status_message}"[:160]}
        return _t.failure(r.status_message, _t.HOW_TO["command_failed"], **fields)

    async def tool_send_text(self, *, player: str, text: str) -> dict[str, Any]:
        """The ``send_text`` tool: show text in a player's addon chat panel."""
        check_holder(player, "player")
        frames = await self._bridge.send_text(player, text)
        return {"ok": True, "frames": frames, "describe": f"shown to {player} in {frames} frame(s)"}

    async def tool_score_set(self, *, holder: str, objective: str, value: int) -> dict[str, Any]:
        """The ``score_set`` tool: set a holder's score."""
        return _t.from_answer(await self._board.set(holder, objective, value))

    async def tool_score_add(self, *, holder: str, objective: str, delta: int) -> dict[str, Any]:
        """The ``score_add`` tool: add to a holder's score (negative subtracts)."""
        return _t.from_answer(await self._board.add(holder, objective, delta))

    async def tool_score_reset(self, *, holder: str, objective: str) -> dict[str, Any]:
        """The ``score_reset`` tool: remove a holder from one objective."""
        return _t.from_answer(await self._board.reset(holder, objective))

    async def tool_score_operation(
        self,
        *,
        holder: str,
        objective: str,
        operator: str,
        source_holder: str,
        source_objective: str,
    ) -> dict[str, Any]:
        """The ``score_operation`` tool: ``holder objective <operator> source_holder
        source_objective``."""
        answer = await self._board.operation(
            holder, objective, operator, source_holder, source_objective
        )
        return _t.from_answer(answer)

    async def tool_objective_add(
        self, *, objective: str, display_name: str | None
    ) -> dict[str, Any]:
        """The ``objective_add`` tool: create a dummy objective."""
        return _t.from_answer(await self._board.add_objective(objective, display_name))

    async def tool_objective_remove(self, *, objective: str) -> dict[str, Any]:
        """The ``objective_remove`` tool: delete an objective and all its scores."""
        return _t.from_answer(await self._board.remove_objective(objective))

    async def tool_objective_setdisplay(
        self, *, slot: str, objective: str | None, sort_order: str | None
    ) -> dict[str, Any]:
        """The ``objective_setdisplay`` tool: show an objective in a slot; no objective
        clears it."""
        return _t.from_answer(await self._board.setdisplay(slot, objective, sort_order=sort_order))


def _json_values(data: Any) -> dict[str, Any]:
    """A log entry's fields as JSON values (everything but the summary's truncation note)."""
    return {k: v for k, v in data.items() if k != "truncated" and v is not None}
