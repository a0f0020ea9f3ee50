"""The toolkit on the ``mc`` handle: queries, scoreboards, contexts, tools, live events.

Mixed into :class:`~mcbews_repl.repl.handle.Minecraft`. Every toolkit coroutine runs on the
runtime's loop thread and comes back as a :class:`Pending`, like the handle's other calls;
the catalogue of tools (``describe``, ``json_schemas``) is plain data and answers at once.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ...exceptions import CapabilityError, FrameTooLarge, InvalidArgument
from ...optional import needs
from ...sansio import encode_capability_request
from ...toolkit import (
    Box,
    ChatContexts,
    EntityList,
    EventForwarder,
    Guard,
    ItemCount,
    LiveEvents,
    Policy,
    Scoreboard,
    ScoreList,
    Tools,
    WorldQueries,
    read_blocks,
    split_box,
)
from ...vocabulary import CHAT_KINDS, Capability
from ..runtime import Pending
from ..show import Bar, blocks_bar, entities_frame, events_frame, until_cancelled
from ._connections import ConnectionRef, Submit, resolve
from ._core import Handle
from ._worlds import call_text

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

    from ...toolkit import (
        BlockRegion,
        BlockSpec,
        Builder,
        PixelArt,
        PlannedWrite,
        Shape,
        WriteResult,
    )

__all__ = ["OnLoop", "ToolkitCalls", "ToolsHandle"]

T = TypeVar("T")
# A request id as long as the bridge's own (12 hex digits), for sizing describe_entities
# batches: a batch is as many ids as fit one request's command line and frame (a request
# that fits the chat transport's script event fits the pull transport's, which is shorter).
_SIZING_REQUEST_ID = "0" * 12


def _fits(ids: list[str]) -> bool:
    """Whether one describe_entities request with ``ids`` fits both of the game's ceilings."""
    try:
        encode_capability_request(_SIZING_REQUEST_ID, Capability.DESCRIBE_ENTITIES, {"ids": ids})
    except FrameTooLarge:
        return False
    return True


class OnLoop(Generic[T]):
    """Calls any method of a loop-bound toolkit object on the runtime thread: a Pending."""

    def __init__(self, target: T, submit: Submit) -> None:
        self._target = target
        self._submit = submit

    @property
    def target(self) -> T:
        """The object itself (use it only from the runtime's loop)."""
        return self._target

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._target, name)
        if not callable(attr):
            return attr  # a plain value (a url, a counter): reading it is safe anywhere

        def call(*args: Any, **kwargs: Any) -> Pending[Any]:
            async def run() -> Any:
                out = attr(*args, **kwargs)
                return await out if inspect.isawaitable(out) else out

            return self._submit(run(), name)

        return call

    def __dir__(self) -> list[str]:
        return [n for n in dir(self._target) if not n.startswith("_")]


class ToolsHandle:
    """``mc.tools``: ``describe()`` and the JSON Schemas at once, ``call(...)`` as a Pending.

    Guarded (docs/agents.md): the default policy is read-only; ``use_policy(...)`` sets
    another (a :class:`Policy` or the path of a TOML file) and, with ``audit=PATH``, writes
    every action to an audit log; ``audit()`` lists the latest actions.
    """

    def __init__(self, tools: Tools, submit: Submit, make: Callable[[Guard], Tools]) -> None:
        self.tools = tools
        self._submit = submit
        self._make = make
        self._audit_log: Any = None

    @property
    def policy(self) -> Policy:
        """The policy the tools are held to."""
        assert self.tools.guard is not None
        return self.tools.guard.policy

    def use_policy(self, policy: Policy | str | Path, *, audit: str | Path | None = None) -> Policy:
        """Hold the tools to ``policy`` (a :class:`Policy`, or a TOML file's path); with
        ``audit``, write every action from now on to that audit log (a capture file).

        Raises:
            PolicyError: the file cannot be read or holds a wrong key (the message says).
            CaptureError: the audit log cannot be written there.
        """
        chosen = policy if isinstance(policy, Policy) else Policy.from_toml(policy)
        sink = None
        if audit is not None:
            from ...capture import AuditLog

            sink = AuditLog(audit)
        if self._audit_log is not None:
            self._audit_log.close()
        self._audit_log = sink
        assert self.tools.guard is not None
        guard = Guard(chosen, host=self.tools.guard.hosts, on_action=sink)
        self.tools = self._make(guard)
        return chosen

    def audit(self, last: int = 20) -> list[dict[str, Any]]:
        """The latest ``last`` actions the guard judged, newest last, as plain dicts."""
        assert self.tools.guard is not None
        return [e.to_dict() for e in list(self.tools.guard.audit)[-last:]]

    def describe(self) -> dict[str, Any]:
        return self.tools.describe()

    def json_schemas(self) -> list[dict[str, Any]]:
        return self.tools.json_schemas()

    def export_json(self) -> str:
        return self.tools.export_json()

    def anthropic_schemas(self) -> list[dict[str, Any]]:
        """The tools as Anthropic-style definitions (``name``, ``description``,
        ``input_schema``)."""
        return self.tools.anthropic_schemas()

    def answer(self, call: dict[str, Any]) -> Pending[dict[str, Any]]:
        """Run a model's tool call (OpenAI- or Anthropic-style) under the guard; the
        message that answers it (never failing: failures are data)."""
        return self._submit(self.tools.answer(call), "tool call")

    def call(self, name: str, /, **kwargs: Any) -> Pending[dict[str, Any]]:
        """Run a tool on the runtime thread; the result never raises (failures are data)."""
        return self._submit(self.tools.call(name, **kwargs), f"tool {name}")

    def frame(self) -> pd.DataFrame:
        with needs():
            import pandas as pd

        rows = [
            {"name": s.name, "kind": s.kind, "summary": s.summary,
             "params": ", ".join(p.name + ("" if p.required else "?") for p in s.params)}
            for s in self.tools.specs
        ]  # fmt: skip
        return pd.DataFrame(rows, columns=["name", "kind", "summary", "params"])


class ToolkitCalls(Handle):
    """The toolkit's part of a handle: ``query``, ``scoreboard``, ``contexts``, ``tools``,
    ``entities``, ``blocks``, ``set_blocks``, ``fill``, ``build``, ``undo``, ``checkpoint``,
    ``restore``, ``forward`` and ``events(follow=True)``."""

    @cached_property
    def query(self) -> OnLoop[WorldQueries]:
        """``await mc.query.item_count("Steve", "diamond")``, ``mc.query.tags("Alex")`` ..."""
        return OnLoop(WorldQueries(self._bridge), self._submit)

    @cached_property
    def scoreboard(self) -> OnLoop[Scoreboard]:
        """``await mc.scoreboard.set("Steve", "coins", 5)``, ``.objectives()`` ..."""
        return OnLoop(Scoreboard(self._bridge), self._submit)

    @cached_property
    def contexts(self) -> OnLoop[ChatContexts]:
        """Chat-moment contexts: ``mc.contexts.start()``, then ``mc.contexts.get(id)``."""
        return OnLoop(ChatContexts(self._bridge, timeout=self._call_timeout), self._submit)

    @cached_property
    def tools(self) -> ToolsHandle:
        """Agent tools: ``mc.tools.describe()``, ``await mc.tools.call("players")``; held
        to a guard's policy (read-only by default: ``mc.tools.use_policy(...)``)."""

        builders: dict[int, Any] = {}  # the building tools' undo, by connection id

        def make(guard: Guard) -> Tools:
            return Tools(self._bridge, contexts=self.contexts.target,
                         timeout=self._call_timeout, guard=guard, builders=builders)  # fmt: skip

        def hosts() -> list[str]:
            return [c.local_player for c in self._bridge.connections if c.local_player]

        return ToolsHandle(make(Guard(Policy(), host=hosts)), self._submit, make)

    def count(self, player: str, item: str, *, data: int = -1) -> Pending[ItemCount]:
        """How many ``item`` a player holds (``.value`` None when unknown; see ``.reason``)."""
        pending: Pending[ItemCount] = self.query.item_count(player, item, data=data)
        return pending

    def scores(self, holder: str) -> Pending[ScoreList]:
        """Every score of one holder; ``.to_dataframe()`` for a table."""
        pending: Pending[ScoreList] = self.query.scores(holder)
        return pending

    def blocks(
        self,
        corner1: Sequence[int],
        corner2: Sequence[int],
        dimension: str = "overworld",
        *,
        states: bool = False,
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[BlockRegion]:
        """Every block between two corners (inclusive): a ``BlockRegion`` with numpy ``ids``
        into ``palette``, ``counts()``, ``to_frame()``, ``heightmap()`` and ``plot()``.

        Unloaded or out-of-world positions are palette entries of their own, never air. A
        box over 4096 blocks is read in parts (a progress bar in notebooks); ``timeout`` is
        the longest wait for the next part (default: the call timeout).
        """
        box = Box.between(corner1, corner2)  # a bad corner raises here, before anything is sent
        limit = self._bridge.settings.call_timeout if timeout is None else timeout
        bar: list[Bar | None] = [None]  # shown once the read is on its way

        def progress(done: int, total: int) -> None:
            if bar[0] is not None:
                bar[0](done, total)

        async def run() -> BlockRegion:
            chosen = resolve(self._bridge, connection)
            read = read_blocks(
                self._bridge, corner1, corner2, dimension, states=states, timeout=limit,
                connection=chosen, progress=progress,
            )  # fmt: skip
            return await until_cancelled(read, lambda: bar[0])

        label, called = f"blocks {box.size[0]}x{box.size[1]}x{box.size[2]}", "blocks(...)"
        self._check_running()  # no bar for a stopped bridge
        # The bar is shown before the read starts, as send_text and track do theirs: an
        # interrupt that lands while it is being drawn then stops a cell that has sent
        # nothing, instead of leaving a started read running behind a KeyboardInterrupt.
        bar[0] = blocks_bar(box.volume, len(split_box(box)))
        return self._submit(run(), label, called)

    def set_blocks(
        self,
        origin: Sequence[int],
        region: Any,
        *,
        palette: Sequence[Any] | None = None,
        hole: str | None = None,
        dimension: str = "overworld",
        force: bool = False,
        undo: bool = True,
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[WriteResult]:
        """Write a box of blocks with its lowest corner at ``origin``: a ``BlockRegion``
        (``r = await mc.blocks(...)``, edit ``r.ids``, write it back), an array of palette
        indices with ``palette`` (names or ``(name, states)``), or an array of block names.

        ``air`` is written; ``"<keep>"`` (or ``hole``, or None among names) leaves a position
        as it is, as do a read's unknown positions. The answer, a ``WriteResult``, says what
        was written, what was already so and what could not be, and why. Names and states the
        game does not know are refused before anything is written. Interrupting the cell
        stops the write where it is.

        The box is read first and what the write replaced is kept for ``mc.undo()``
        (``undo=False``: neither). A write that would set more than
        ``mc.confirm_above_blocks`` blocks (``%config McbewsRepl.confirm_above_blocks``) is
        refused, saying how many, unless ``force=True``.
        """
        with needs():
            from ...toolkit import plan_write

        planned = plan_write(origin, region, palette=palette, hole=hole, dimension=dimension)
        return self._write(planned, Capability.SET_BLOCKS, force=force, undo=undo, timeout=timeout,
                           connection=connection)  # fmt: skip

    def _write(
        self,
        planned: PlannedWrite,
        what: str,
        *,
        force: bool,
        undo: bool,
        timeout: float | None,
        connection: ConnectionRef | None,
    ) -> Pending[WriteResult]:
        from ...toolkit import check_force

        check_force(planned, self.confirm_above_blocks, force)  # refused before a bar shows
        limit = self._bridge.settings.call_timeout if timeout is None else timeout
        box = planned.box
        bar: list[Bar | None] = [None]
        confirm_above = self.confirm_above_blocks

        def progress(done: int, total: int) -> None:
            if bar[0] is not None:
                bar[0](done, total)

        async def run() -> WriteResult:
            game = self._bridge.pick(resolve(self._bridge, connection))
            write = self._builder(game).write(
                self._bridge, planned, what=what, undo=undo, force=True,
                confirm_above=confirm_above, timeout=limit, connection=game, progress=progress,
            )  # fmt: skip
            return await until_cancelled(write, lambda: bar[0])

        label = f"{what} {box.size[0]}x{box.size[1]}x{box.size[2]}"
        self._check_running()
        parts = len(split_box(box)) * (2 if undo else 1)
        bar[0] = blocks_bar(box.volume * (2 if undo else 1), parts)
        return self._submit(run(), label, f"{what}(...)")

    def _builder(self, game: Any) -> Builder:
        """The undo history and checkpoints of ``game``'s world (kept across reconnects)."""
        from ...toolkit import Builder

        record = next((r for r in self._roster.sync() if r.connection is game), None)
        if record is None:
            found: Builder = self._core.builders.setdefault(game.id, Builder())
            return found
        if record.builder is None:
            record.builder = Builder()
        builder: Builder = record.builder
        return builder

    @property
    def confirm_above_blocks(self) -> int:
        """A write that would set more blocks than this asks for ``force=True``
        (``%config McbewsRepl.confirm_above_blocks``; limits.py's ``confirm_above_blocks``)."""
        return self._core.confirm_above_blocks

    @confirm_above_blocks.setter
    def confirm_above_blocks(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidArgument("confirm_above_blocks", value, "is not a whole number from 0",
                                  "a number of blocks, such as 65536")  # fmt: skip
        self._core.confirm_above_blocks = value

    def undo(
        self, *, timeout: float | None = None, connection: ConnectionRef | None = None
    ) -> Pending[WriteResult]:
        """Take back this world's newest write (``set_blocks``, ``fill``, ``build``,
        ``restore``): what it replaced is written back where it changed something. The
        answer's notes say which write it undid; the next ``undo`` takes back the one before.

        Raises:
            NothingToUndo: no write of this world is kept.
        """
        limit = self._bridge.settings.call_timeout if timeout is None else timeout
        bar: list[Bar | None] = [None]
        self._check_running()
        game = self._bridge.pick(resolve(self._bridge, connection))
        builder = self._builder(game)

        def progress(done: int, total: int) -> None:
            if bar[0] is not None:
                bar[0](done, total)

        async def run() -> WriteResult:
            write = builder.undo(self._bridge, timeout=limit, connection=game, progress=progress)
            return await until_cancelled(write, lambda: bar[0])

        newest = builder.newest
        if newest is not None:  # shown before the write starts, as set_blocks does
            bar[0] = blocks_bar(newest.box.volume, len(split_box(newest.box)))
        return self._submit(run(), "undo", "undo()")

    def checkpoint(
        self,
        name: str,
        corner1: Sequence[int],
        corner2: Sequence[int],
        dimension: str = "overworld",
        *,
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[str]:
        """Save the blocks between two corners as ``name`` in this world, to put back with
        ``mc.restore(name)``; the answer says what was saved (and what older checkpoint was
        dropped to make room)."""
        box = Box.between(corner1, corner2)
        limit = self._bridge.settings.call_timeout if timeout is None else timeout

        async def run() -> str:
            game = self._bridge.pick(resolve(self._bridge, connection))
            notes = await self._builder(game).checkpoint(
                self._bridge, name, corner1, corner2, dimension, timeout=limit, connection=game
            )
            return "\n".join(notes)

        self._check_running()
        return self._submit(run(), f"checkpoint {box.size}", "checkpoint(...)")

    def restore(
        self, name: str, *, timeout: float | None = None, connection: ConnectionRef | None = None
    ) -> Pending[WriteResult]:
        """Write the checkpoint ``name`` back (as a write ``mc.undo()`` can take back); the
        answer's notes say which checkpoint it was.

        Raises:
            InvalidArgument: this world has no checkpoint of that name (the message lists them).
        """
        limit = self._bridge.settings.call_timeout if timeout is None else timeout

        async def run() -> WriteResult:
            game = self._bridge.pick(resolve(self._bridge, connection))
            return await self._builder(game).restore(self._bridge, name, timeout=limit,
                                                     connection=game)  # fmt: skip

        self._check_running()
        return self._submit(run(), f"restore {name}", "restore(...)")

    def build(
        self,
        shape: Shape | PixelArt,
        *,
        dimension: str = "overworld",
        force: bool = False,
        undo: bool = True,
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[WriteResult]:
        """Write a shape (``mcbews_repl.toolkit.shapes``: ``sphere``, ``cylinder``, ``line``,
        ``cuboid``, or a picture from ``pixel_art``) where it stands:
        ``set_blocks(shape.origin, shape)``; the positions of its box outside the shape are
        left as they are.

        Raises:
            InvalidArgument: ``shape`` is not a shape.
        """
        if not all(hasattr(shape, name) for name in ("origin", "ids", "palette")):
            raise InvalidArgument(
                "shape", shape, "is not a shape",
                "sphere(...), cylinder(...), line(...), cuboid(...) or pixel_art(...) from "
                "mcbews_repl.toolkit",
            )  # fmt: skip
        with needs():
            from ...toolkit import plan_write

        planned = plan_write(shape.origin, shape, dimension=dimension)
        return self._write(planned, "build", force=force, undo=undo, timeout=timeout,
                           connection=connection)  # fmt: skip

    def fill(
        self,
        corner1: Sequence[int],
        corner2: Sequence[int],
        block: BlockSpec,
        *,
        hollow: bool = False,
        dimension: str = "overworld",
        force: bool = False,
        undo: bool = True,
        timeout: float | None = None,
        connection: ConnectionRef | None = None,
    ) -> Pending[WriteResult]:
        """Every position between two corners (both inside, like ``/fill``, of any size) set to
        ``block`` (a name, or ``(name, {state: value})``); ``hollow=True``: only the faces.
        Written through ``set_blocks``: the answer says what was written and what could not be.
        """
        with needs():
            from ...toolkit import cuboid, plan_write

        shape = cuboid(corner1, corner2, block, hollow=hollow)
        planned = plan_write(shape.origin, shape, dimension=dimension)
        return self._write(planned, "fill", force=force, undo=undo, timeout=timeout,
                           connection=connection)  # fmt: skip

    def objective(self, objective: str) -> Pending[pd.DataFrame]:
        """A whole objective as a DataFrame (holder, value)."""

        async def run() -> pd.DataFrame:
            read = await self.scoreboard.target.objective_scores(objective)
            return read.to_dataframe()

        return self._submit(run(), f"objective {objective}", call_text("objective", objective))

    def entities(self, **filters: Any) -> Pending[pd.DataFrame]:
        """Entities as a DataFrame (id, type, typeId, name, dimension, dimensionId, x, y, z,
        yaw: the short names and the full ids, gameids.py); filters as
        ``query.entities``. ``querytarget`` finds them; the addon names them by id."""

        async def run() -> pd.DataFrame:
            found: EntityList = await self.query.target.entities(**filters)
            return entities_frame(found, await self._describe([e.id for e in found.entities]))

        return self._submit(run(), "entities", "entities()" if not filters else "entities(...)")

    async def _describe(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """Type and name of each id, asked in batches that fit a command line; empty when
        the world's addon predates ``describe_entities``."""
        batches: list[list[str]] = [[]]
        for entity_id in ids:
            if batches[-1] and not _fits([*batches[-1], entity_id]):
                batches.append([])
            batches[-1].append(entity_id)
        describe, timeout = Capability.DESCRIBE_ENTITIES, self._call_timeout
        calls = [self._bridge.call(describe, {"ids": b}, timeout=timeout) for b in batches if b]
        try:
            answers = await asyncio.gather(*calls)
        except CapabilityError as exc:
            if exc.code == "UNSUPPORTED_CAPABILITY":
                return {}
            raise
        return {e["id"]: e for answer in answers for e in answer.get("entities") or []}

    def forward_events(
        self, url: str, secret: str, *, kinds: tuple[str, ...] = CHAT_KINDS
    ) -> Pending[OnLoop[EventForwarder]]:
        """Post chosen events, HMAC-signed, to ``url`` (chat events carry ``context_id``);
        ``.stop()`` on the answer ends it (a Pending, like every call)."""
        contexts = self.contexts.target

        def enrich(entry: Any) -> dict[str, str]:
            found = contexts.context_id_for(entry.cursor)
            return {"context_id": found} if found else {}

        async def run() -> OnLoop[EventForwarder]:
            forwarder = EventForwarder(self._bridge.log, url, secret, kinds=kinds, enrich=enrich)
            return OnLoop(forwarder.start(), self._submit)

        return self._submit(run(), "forward_events")

    def _follow_events(self, since: int | None, last: int, kind: str | None = None) -> LiveEvents:
        with needs():
            from IPython.display import display

        from ._calls import entry_is
        from ._game_events import game_events_frame

        players = {c.id: c.local_player or "" for c in self._bridge.connections}
        if kind is not None and kind[:1].isupper():  # a game event: its own columns
            render = lambda entries: game_events_frame(entries, kind)  # noqa: E731
        else:
            render = lambda entries: events_frame(entries, players)  # noqa: E731
        keep = None if kind is None else (lambda entry: entry_is(entry, kind))
        held = [e for e in self._bridge.events(since or 0) if keep is None or keep(e)]
        now = held[-last:] if last > 0 else []
        handle = display(render(now), display_id=True)  # type: ignore[no-untyped-call]
        in_kernel = _in_kernel() and handle is not None
        loop = self._kernel_loop

        def deliver(fn: Callable[[], None]) -> None:
            # An empty context: ipykernel then sends the update under the newest request's
            # header instead of the one this thread inherited from the cell that started
            # the bridge, which front ends have stopped listening to.
            if loop is not None and not loop.is_closed():
                loop.call_soon_threadsafe(fn, context=contextvars.Context())
            else:
                contextvars.Context().run(fn)

        update = handle.update if in_kernel and handle is not None else (lambda view: None)
        live = LiveEvents(self._bridge.log, render, update, since=since or 0, last=last,
                          deliver=deliver, keep=keep)  # fmt: skip
        self._submit(_start(live), "events").result(10)
        if not in_kernel:
            print("(live updates need a notebook; the table above is a snapshot)")
        return live


def _in_kernel() -> bool:
    """A Jupyter kernel's shell (updates reach a front end), not a terminal that imported
    ipykernel along the way."""
    with needs():
        from IPython import get_ipython

    return getattr(get_ipython(), "kernel", None) is not None


async def _start(live: LiveEvents) -> LiveEvents:
    return live.start()
