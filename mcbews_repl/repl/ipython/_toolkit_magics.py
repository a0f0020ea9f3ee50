"""``%mc count``, ``%mc scores``, ``%mc entities``, ``%mc map``, ``%mc blocks`` and
``%mc tools``: the toolkit at the prompt.

A mixin of :class:`~mcbews_repl.repl.magics.McMagics`; each sub-command parses its words,
calls the ``mc`` handle and returns something that displays well. An argument the toolkit
rejects before sending (``InvalidArgument``) becomes a ``UsageError``: a message, no traceback.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError

from ...exceptions import InvalidArgument
from ...optional import needs
from ..runtime import Pending
from ..show import clean_rows
from ._magicargs import parse_value
from ._usage import BY_NAME

if TYPE_CHECKING:
    from ..handle import AnyHandle

__all__ = ["ToolkitMagics"]


def _result(pending: Pending[Any]) -> Any:
    try:
        return pending.result()
    except InvalidArgument as exc:
        raise UsageError(str(exc)) from None


class ToolkitMagics:
    """The toolkit's sub-commands, mixed into ``McMagics`` (which provides ``handle``)."""

    if TYPE_CHECKING:

        @property
        def handle(self) -> AnyHandle: ...

    def _sub_count(self, rest: str) -> Any:
        args = BY_NAME["count"].parse(rest)
        return _result(self.handle.count(args.player, args.item, data=args.data))

    def _sub_scores(self, rest: str) -> Any:
        args = BY_NAME["scores"].parse(rest)
        if args.objective:
            return _result(self.handle.objective(args.objective))
        if args.holder is None:
            listed = _result(self.handle.scoreboard.objectives())
            if not listed.known:
                return listed
            with needs():
                import pandas as pd

            rows = clean_rows([vars(o) for o in listed.objectives])
            return pd.DataFrame(rows, columns=["name", "display_name", "criteria"])
        answer = _result(self.handle.scores(args.holder))
        return answer.to_dataframe() if answer.known else answer

    def _sub_entities(self, rest: str) -> Any:
        args = BY_NAME["entities"].parse(rest)
        filters = vars(args)
        filters["target"] = "players" if filters.pop("players") else "entities"
        filters["origin"] = filters.pop("near")
        return _result(self.handle.entities(**filters))

    def _sub_map(self, rest: str) -> Any:
        args = BY_NAME["map"].parse(rest)
        try:
            return self.handle.map(every=args.every, dimension=args.dimension,
                                   entities=not args.no_entities,
                                   live=False if args.static else None)  # fmt: skip
        except ValueError as exc:
            raise UsageError(f"%mc map: {exc}") from None

    def _sub_blocks(self, rest: str) -> Any:
        args = BY_NAME["blocks"].parse(rest)
        try:
            x1, y1, z1, x2, y2, z2 = (int(word) for word in args.corners)
        except ValueError:
            got = " ".join(args.corners) or "nothing"
            raise UsageError(
                f"%mc blocks takes the two corners as six whole numbers, x1 y1 z1 x2 y2 z2 "
                f"(got {got}); e.g. %mc blocks -8 60 -8 7 70 7"
            ) from None
        return _result(self.handle.blocks((x1, y1, z1), (x2, y2, z2), args.dimension,
                                          states=args.states))  # fmt: skip

    def _sub_tools(self, rest: str) -> Any:
        words = shlex.split(rest)
        tools = self.handle.tools
        if not words:
            return tools.frame()
        if words == ["--schema"]:
            print(tools.export_json())
            return None
        kwargs: dict[str, Any] = {}
        for item in words[1:]:
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise UsageError(f"{item!r} is not key=value; e.g. %mc tools players limit=5")
            kwargs[key] = parse_value(value)
        return tools.call(words[0], **kwargs).result()
