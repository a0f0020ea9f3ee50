"""What command handlers share: results, errors, the context they run in, their signature.

Its own module so that the handler modules (``cmd_*.py``) and the interpreter that holds
their tables (``commands.py``) import it, and each other only one way.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import McbewsError
from . import facts
from .facts import COMMAND_NOT_FOUND, EXECUTION_FAIL, FAILED_TO_PARSE, NO_TARGET, SUCCESS
from .model import ChatLine, Entity, WorldState
from .parse import Reader, Selector
from .selectors import CommandOrigin, resolve

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
    "show",
]


@dataclass
class CommandOutcome:
    """One command's answer as the simulated game gives it (the bridge's reading of an
    answer is ``gateway.CommandResult``). ``status_message`` None leaves ``statusMessage``
    out of the body, as the game does for say, me and tellraw (captures.json)."""

    status_code: int = SUCCESS
    status_message: str | None = ""
    fields: dict[str, Any] = field(default_factory=dict)  # command-specific body fields
    success_count: int = 1  # what the Script API's runCommand reports

    @property
    def message(self) -> str:
        """The status message, "" when the body leaves it out."""
        return self.status_message or ""

    def body(self) -> dict[str, Any]:
        """The commandResponse body the game sends: statusCode, statusMessage (unless
        None) and the command's own fields, keys sorted as captured."""
        body: dict[str, Any] = {"statusCode": self.status_code}
        if self.status_message is not None:
            body["statusMessage"] = self.status_message
        body.update(self.fields)
        return dict(sorted(body.items()))  # the captured bodies list their keys sorted


class CommandError(McbewsError):
    """A command that parsed but failed; becomes a negative status code (and ``fields``)."""

    def __init__(
        self,
        message: str,
        status_code: int = EXECUTION_FAIL,
        fields: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.fields = fields or {}


@dataclass
class Effects:
    """Where the world's outward effects go; the defaults drop them."""

    chat: Callable[[ChatLine], None] = lambda line: None
    script_event: Callable[[str, str, CommandOrigin], None] = lambda i, m, o: None
    close_websocket: Callable[[], None] = lambda: None
    # Commands the addon registered (``mcbews:chat``): name, origin, the rest of the line.
    custom_command: Callable[[str, CommandOrigin, str], CommandOutcome | None] = (
        lambda name, origin, rest: None
    )


@dataclass
class Context:
    """What a handler may touch while running one command."""

    world: WorldState
    origin: CommandOrigin
    effects: Effects
    rng: random.Random

    def targets(self, selector: Selector, *, players: bool = False) -> list[Entity]:
        """The entities ``selector`` matches from this origin (only players with
        ``players``).

        Raises:
            CommandError: nothing matched (the game's "No targets matched selector").
        """
        found = resolve(self.world, selector, self.origin, self.rng)
        if players:
            found = [e for e in found if e.is_player]
        if not found:
            raise CommandError(facts.text("commands.generic.noTargetMatch"), NO_TARGET)
        return found


Handler = Callable[[Context, Reader], CommandOutcome]


def show(receivers: list[Entity], line: str) -> None:
    """Put ``line`` on the screens (inboxes) of the players among ``receivers``."""
    for entity in receivers:
        inbox = getattr(entity, "inbox", None)
        if inbox is not None:
            inbox.append(line)
