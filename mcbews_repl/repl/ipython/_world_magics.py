"""``%mc worlds``, ``%mc --world NAME ...`` and ``%mc --all ...``: many worlds at the prompt.

A mixin of :class:`~mcbews_repl.repl.magics.McMagics`. ``--world NAME`` runs any
sub-command on that world (the magics' handle is ``mc.world(NAME)`` for the one line);
``--all`` runs the sub-commands that make sense everywhere (``players``, ``inv``, a
command) on every world at once and shows one table with a ``world`` column.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from IPython.core.error import UsageError

from ...exceptions import NotConnected
from ._usage import ALL_USAGE

if TYPE_CHECKING:
    from ..handle import AnyHandle, World

__all__ = ["WorldMagics"]


class WorldMagics:
    """The many-worlds forms, mixed into ``McMagics`` (which provides ``handle``)."""

    _bound: World | None = None  # the world of a --world line while it runs

    if TYPE_CHECKING:

        @property
        def handle(self) -> AnyHandle: ...
        def _wait(self, pending: Any) -> Any: ...

    def _sub_worlds(self, rest: str) -> Any:
        if rest:
            raise UsageError("%mc worlds takes no words; %mc --world NAME ... talks to one")
        return self.handle.worlds

    def _routed(self, line: str) -> Any:
        flag, _, rest = line.partition(" ")
        if flag == "--all":
            return self._on_all(rest.strip())
        if flag == "--world":
            return self._on_world(rest.strip())
        raise UsageError(f"unknown option {flag!r}; %mc --all ... or %mc --world NAME ...")

    def _on_world(self, rest: str) -> Any:
        name, remainder = _first_word(rest)
        if not name or not remainder:
            raise UsageError("usage: %mc --world NAME <sub-command>, e.g. %mc --world Ana players")
        ref: str | int = int(name) if name.isdigit() else name
        try:
            world = self.handle.world(ref)
        except NotConnected as exc:
            raise UsageError(f"%mc --world: {exc}") from None
        self._bound = world
        try:
            return cast(Any, self).mc(remainder)  # McMagics.mc, the line as if typed alone
        finally:
            self._bound = None

    def _on_all(self, rest: str) -> Any:
        word, _, more = rest.partition(" ")
        each = self.handle.each
        runs: dict[str, Callable[[], Any]] = {
            "players": each.players,
            "inv": lambda: each.inventory(more.strip() or None),
            "cmd": lambda: each.command(more),
        }
        if rest.startswith("/"):
            return self._wait(each.command(rest[1:]))
        if word not in runs or not rest:
            raise UsageError(f"usage: {ALL_USAGE[0]}")
        return self._wait(runs[word]())


def _first_word(text: str) -> tuple[str, str]:
    """The first word (a quoted name may hold spaces: "Table 4") and the rest of the line."""
    if text[:1] in ("'", '"'):
        end = text.find(text[0], 1)
        if end < 0:
            raise UsageError(f"%mc --world: no closing quote in {text!r}")
        return text[1:end], text[end + 1 :].strip()
    word, _, rest = text.partition(" ")
    return word, rest.strip()
