"""The command interpreter: one line in, one game-shaped result out.

Handlers live in small modules by topic (chat, entities, scoreboard, world, blocks); each
reads its arguments with a :class:`Reader` and returns a :class:`CommandOutcome` or raises
:class:`CommandError` (both in ``cmdtypes.py``, which the handler modules import instead
of this one). Effects that leave the world (chat lines for the WebSocket, script events for
the addon, closing the socket) go through the :class:`Effects` hooks, so the interpreter
runs the same for the WebSocket client and for the addon's ``runCommand``.
"""

from __future__ import annotations

import random
from functools import partial

from . import cmd_blocks, cmd_chat, cmd_entities, cmd_scoreboard, cmd_world, facts
from .cmd_execute import execute
from .cmdtypes import (
    COMMAND_NOT_FOUND,
    EXECUTION_FAIL,
    FAILED_TO_PARSE,
    NO_TARGET,
    SUCCESS,
    CommandError,
    CommandOutcome,
    Context,
    Effects,
    Handler,
    show,
)
from .model import WorldState
from .parse import CommandSyntaxError, Reader
from .selectors import CommandOrigin

__all__ = [
    "COMMAND_NOT_FOUND",
    "EXECUTION_FAIL",
    "FAILED_TO_PARSE",
    "NO_TARGET",
    "SUCCESS",
    "CommandError",
    "CommandOutcome",
    "Context",
    "Effects",
    "Handler",
    "Interpreter",
    "show",
]


class Interpreter:
    """Runs command lines against a world; handlers register by name (aliases included)."""

    def __init__(self, world: WorldState, effects: Effects | None = None, seed: int = 0) -> None:
        self.world = world
        self.effects = effects or Effects()
        self.rng = random.Random(seed)
        self.handlers: dict[str, Handler] = {}
        for module in (cmd_chat, cmd_entities, cmd_scoreboard, cmd_world, cmd_blocks):
            self.handlers.update(module.HANDLERS)

    def execute(self, line: str, origin: CommandOrigin) -> CommandOutcome:
        """Run one command line as ``origin`` and answer as the game would: an unknown
        command, a syntax error or a failure is a :class:`CommandOutcome` with a negative
        status code, never an exception."""
        text = line.strip()
        text = text[1:] if text.startswith("/") else text
        reader = Reader(text)
        name = (reader.optional_word() or "").lower()
        handler = self.handlers.get(name)
        if name == "execute":  # runs a whole command line again, as another origin
            handler = partial(execute, run=self.execute)
        if handler is None:
            custom = self.effects.custom_command(name, origin, reader.rest())
            if custom is not None:
                return custom
            return CommandOutcome(
                COMMAND_NOT_FOUND, facts.text("commands.generic.unknown", name), success_count=0
            )
        ctx = Context(self.world, origin, self.effects, self.rng)
        try:
            return handler(ctx, reader)
        except CommandSyntaxError as exc:
            return CommandOutcome(FAILED_TO_PARSE, str(exc), success_count=0)
        except CommandError as exc:
            return CommandOutcome(exc.status_code, str(exc), exc.fields, success_count=0)
