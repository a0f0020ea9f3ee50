"""The command interpreter: one line in, one game-shaped result out.

Handlers live in small modules by topic (chat, entities, scoreboard, world); each reads its
arguments with a :class:`Reader` and returns a :class:`CommandResult` or raises
:class:`CommandError`. Effects that leave the world (chat lines for the WebSocket, script
events for the addon, closing the socket) go through the :class:`Effects` hooks, so the
interpreter runs the same for the WebSocket client and for the addon's ``runCommand``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .model import ChatLine, Entity, WorldState
from .parse import CommandSyntaxError, Reader, Selector
from .selectors import CommandOrigin, resolve

__all__ = [
    "COMMAND_NOT_FOUND",
    "EXECUTION_FAIL",
    "FAILED_TO_PARSE",
    "NO_TARGETS_FOUND",
    "SUCCESS",
    "CommandError",
    "CommandResult",
    "Context",
    "Effects",
    "Handler",
    "Interpreter",
]

# Signed 32-bit status codes the game reports (PROTOCOL.md, "Status codes").
SUCCESS = 0
FAILED_TO_PARSE = -2147483648
COMMAND_NOT_FOUND = -2147483647
NO_TARGETS_FOUND = -2147483639
EXECUTION_FAIL = -2147352576


@dataclass
class CommandResult:
    status_code: int = SUCCESS
    status_message: str = ""
    fields: dict[str, Any] = field(default_factory=dict)  # command-specific body fields
    success_count: int = 1  # what the Script API's runCommand reports

    def body(self) -> dict[str, Any]:
        return {"statusCode": self.status_code, "statusMessage": self.status_message, **self.fields}


class CommandError(Exception):
    """A command that parsed but failed; becomes a negative status code."""

    def __init__(self, message: str, status_code: int = EXECUTION_FAIL) -> None:
        super().__init__(message)
        self.status_code = status_code


@dataclass
class Effects:
    """Where the world's outward effects go; the defaults drop them."""

    chat: Callable[[ChatLine], None] = lambda line: None
    script_event: Callable[[str, str, CommandOrigin], None] = lambda i, m, o: None
    close_websocket: Callable[[], None] = lambda: None
    # Commands the addon registered (``mcbews:chat``): name, origin, the rest of the line.
    custom_command: Callable[[str, CommandOrigin, str], CommandResult | None] = lambda n, o, rest: (
        None
    )


@dataclass
class Context:
    """What a handler may touch while running one command."""

    world: WorldState
    origin: CommandOrigin
    effects: Effects
    rng: random.Random

    def targets(self, selector: Selector, *, players: bool = False) -> list[Entity]:
        found = resolve(self.world, selector, self.origin, self.rng)
        if players:
            found = [e for e in found if e.is_player]
        if not found:
            raise CommandError("No targets matched selector", NO_TARGETS_FOUND)
        return found

    def show(self, receivers: list[Entity], text: str) -> None:
        """Put text on the screens (inboxes) of the players among ``receivers``."""
        for entity in receivers:
            inbox = getattr(entity, "inbox", None)
            if inbox is not None:
                inbox.append(text)


Handler = Callable[[Context, Reader], CommandResult]


class Interpreter:
    """Runs command lines against a world; handlers register by name (aliases included)."""

    def __init__(self, world: WorldState, effects: Effects | None = None, seed: int = 0) -> None:
        self.world = world
        self.effects = effects or Effects()
        self.rng = random.Random(seed)
        self.handlers: dict[str, Handler] = {}
        from . import cmd_chat, cmd_entities, cmd_scoreboard, cmd_world

        for module in (cmd_chat, cmd_entities, cmd_scoreboard, cmd_world):
            self.handlers.update(module.HANDLERS)

    def execute(self, line: str, origin: CommandOrigin) -> CommandResult:
        text = line.strip()
        text = text[1:] if text.startswith("/") else text
        reader = Reader(text)
        name = (reader.optional_word() or "").lower()
        handler = self.handlers.get(name)
        if handler is None:
            custom = self.effects.custom_command(name, origin, reader.rest())
            if custom is not None:
                return custom
            return CommandResult(
                COMMAND_NOT_FOUND,
                f"Unknown command: {name}. Please check that the command exists and that "
                "you have permission to use it.",
                success_count=0,
            )
        ctx = Context(self.world, origin, self.effects, self.rng)
        try:
            return handler(ctx, reader)
        except CommandSyntaxError as exc:
            return CommandResult(FAILED_TO_PARSE, str(exc), success_count=0)
        except CommandError as exc:
            return CommandResult(exc.status_code, str(exc), success_count=0)
