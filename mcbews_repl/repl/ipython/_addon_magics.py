"""``%%mc capability NAME`` and ``%mc addon …``: prototypes and their pack at the prompt.

A mixin of :class:`~mcbews_repl.repl.magics.McMagics`. The cell magic registers the cell's
JavaScript module as a prototype capability in the simulated world (``mc.addon.define``);
``%mc addon`` lists and removes prototypes, exports a ``.mcaddon`` with them and deploys it
to a development behavior packs folder. A prototype that does not load raises
``PrototypeError`` (shown short, with the cell's line); wrong words are a ``UsageError``.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from IPython.core.error import UsageError

from ._usage import CAPABILITY_CELL, _Parser

if TYPE_CHECKING:
    from ..handle import AnyHandle

__all__ = ["AddonMagics"]

_ACTIONS = ("prototypes", "remove", "export", "deploy", "reload")
_USAGE = (
    "usage: %mc addon prototypes | remove NAME | export [PATH] [--with NAME ...] "
    "| deploy [FOLDER] [--with NAME ...] | reload"
)


def _pack_parser(action: str) -> _Parser:
    parser = _Parser(prog=f"addon {action}", add_help=False)
    parser.add_argument("where", nargs="?", default=None)
    parser.add_argument("--with", dest="include", nargs="+", metavar="NAME", default=None)
    parser.add_argument("--pack", choices=["stable", "beta"], default="stable")
    return parser


class AddonMagics:
    """The prototype sub-commands, mixed into ``McMagics`` (which provides ``handle``)."""

    if TYPE_CHECKING:

        @property
        def handle(self) -> AnyHandle: ...

    def _cell_capability(self, line: str, cell: str) -> Any:
        args = CAPABILITY_CELL.parse(line)
        # Errors then name the lines the notebook shows: the magic's own line is line 1.
        return self.handle.addon.define(args.name, cell, ts=args.ts, first_line=2)

    def _sub_addon(self, rest: str) -> Any:
        try:
            words = shlex.split(rest)
        except ValueError as exc:
            raise UsageError(f"%mc addon: {exc} (unbalanced quotes?)") from None
        action = words[0] if words else "prototypes"
        if action not in _ACTIONS:
            raise UsageError(f"%mc addon: unknown action {action!r}\n{_USAGE}")
        addon = self.handle.addon
        if action == "prototypes":
            return addon.prototypes
        if action == "reload":
            return addon.reload().result()
        if action == "remove":
            if len(words) != 2:
                raise UsageError(f"%mc addon remove: name one prototype\n{_USAGE}")
            removed = addon.remove(words[1])
            print(f"Removed {words[1]}." if removed else f"No prototype named {words[1]}.")
            return None
        args = _pack_parser(action).parse_args(words[1:])
        if action == "export":
            written = addon.export(args.where, args.include, args.pack)
            print(f"✔ wrote {written}: import it into Minecraft (open the file) to install "
                  "the pack with its prototypes")  # fmt: skip
            return None
        return addon.deploy(args.where, args.include, args.pack)
