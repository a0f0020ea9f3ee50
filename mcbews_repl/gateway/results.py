"""What the gateway hands back: command results and UI chat messages.

Plain values: a :class:`UiChat` answers through the small :class:`TextSender` protocol
(which a game connection satisfies), so this module imports no connection and nothing
here holds a socket of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..exceptions import CommandFailed, InvalidArgument
from ..gametext import strip_codes

__all__ = ["CommandResult", "TextSender", "UiChat"]

# A repr shows this much of a long command line; the full line is in ``.command``.
_REPR_COMMAND_CHARS = 60


@dataclass(frozen=True, slots=True)
class CommandResult:
    """The game's answer to one command. A failure is a result too: check ``ok``.

    ``body`` holds the command-specific fields (``localplayername``, ``victim``, ...);
    ``result["victim"]`` is a shortcut for ``result.body["victim"]``.
    """

    command: str
    status_code: int
    status_message: str
    body: dict[str, Any] = field(default_factory=dict, repr=False)
    elapsed_seconds: float = 0.0
    request_id: str = ""

    @property
    def ok(self) -> bool:
        """True when the game reports success (a non-negative status code)."""
        return self.status_code >= 0

    @property
    def text(self) -> str:
        """The game's message as words, without its ``§`` formatting codes (what a script
        prints); ``status_message`` keeps them."""
        return strip_codes(self.status_message)

    def raise_for_status(self) -> CommandResult:
        """Return ``self`` if the command succeeded, so calls chain.

        Raises:
            CommandFailed: the game reported the command as failed (its status code and
                message are on the exception).
        """
        if not self.ok:
            raise CommandFailed(self.status_code, self.status_message, self.command)
        return self

    def __getitem__(self, key: str) -> Any:
        return self.body[key]

    def __repr__(self) -> str:
        line = self.command
        if len(line) > _REPR_COMMAND_CHARS:
            line = line[: _REPR_COMMAND_CHARS - 1] + "…"
        verdict = "ok" if self.ok else f"FAILED {self.status_code}"
        millis = self.elapsed_seconds * 1000
        return f"<CommandResult {verdict} /{line} → {self.status_message!r} ({millis:.1f} ms)>"


class TextSender(Protocol):
    """Where a UI chat message came from, as far as answering it goes: a game connection."""

    @property
    def id(self) -> int:
        """The connection's number, as the bridge and the event log show it."""
        ...

    async def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        conversation_id: str | None = None,
    ) -> int:
        """Show ``text`` in ``player``'s addon chat panel; returns the frames sent.

        Raises:
            NotConnected: the connection is gone.
            GameDisconnected: the game went away while the text was being sent.
            RequestTimeout: the game stopped answering the text's commands.
        """
        ...


@dataclass(frozen=True, slots=True)
class UiChat:
    """A message a player typed into the addon's chat panel.

    ``await msg.reply("...")`` answers the same player on the same game connection.
    """

    player: str
    message: str
    conversation_id: str | None = None
    message_id: str = ""
    connection: TextSender | None = field(default=None, repr=False, compare=False)

    async def reply(self, text: str, *, role: str = "assistant") -> int:
        """Send ``text`` back to the player's panel; returns the number of frames sent.

        Raises:
            InvalidArgument: the message was made by hand, with no connection to answer on.
            GameDisconnected, NotConnected: the game went away (see ``send_text``).
        """
        if self.connection is None:
            raise InvalidArgument(
                "connection",
                None,
                "this message is not tied to a game connection",
                "reply through mc.send_text(player, text, connection=...) instead",
            )
        return await self.connection.send_text(
            self.player, text, role=role, conversation_id=self.conversation_id
        )
