"""The calls every layer offers, defined once: their parameters, their docs, what they raise.

Three layers offer ``command``, ``call`` and ``send_text``: a :class:`GameConnection` (one
game), the :class:`Bridge` (routes to a game: adds ``connection``) and the notebook's
``mc`` with its ``mc.connections[i]`` (runs on the bridge's thread: returns a ``Pending``;
``mc`` adds ``connection``, a handle or an id). Each layer only adds; the parameters
below are the same everywhere, and tests/gateway/test_game_calls.py fails when a layer's
signature drifts from this one.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, TypeVar

from ..exceptions import wrong_type
from .delivery import Progress
from .results import CommandResult

__all__ = ["ADDED_BY_LAYER", "GameCalls", "check_command", "check_send_text", "same_call"]

# What each layer adds to a call, by the parameter's name (tests compare the rest).
ADDED_BY_LAYER = {"Bridge": ("connection",), "Minecraft": ("connection",), "Connection": ()}


class GameCalls(Protocol):
    """``command``, ``call`` and ``send_text`` on one game."""

    def command(self, line: str, *, timeout: float | None = None) -> Awaitable[CommandResult]:
        """Run one command in the game (no leading slash needed).

        A command the game reports as failed is a result, not an error: check ``ok``, or
        call ``raise_for_status()``. ``timeout`` (seconds) defaults to the bridge's
        ``command_timeout``.

        Raises:
            FrameTooLarge: the line does not fit the game's line and frame ceilings.
            CommandQueueFull: too many commands already wait; nothing was sent.
            RequestTimeout: the game did not answer in time.
            NotConnected: no game is connected (or the chosen one is gone).
            GameDisconnected: the game went away before it answered.
        """
        ...

    def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        **fields: Any,
    ) -> Awaitable[dict[str, Any]]:
        """Ask the addon for ``capability`` with ``payload`` and/or keyword ``fields``.

        Returns the addon's result (a dict). A payload key that clashes with ``timeout``
        (or a layer's ``connection``) goes in ``payload``. ``timeout`` defaults to the
        bridge's ``call_timeout``.

        Raises:
            CapabilityError: the addon answered ``ok: false`` (``code``, ``message``).
            RequestTimeout: no answer in time, or no transport answers at all.
            FrameTooLarge: the request does not fit the game's ceilings.
            NotConnected: no game is connected (or the chosen one is gone).
            GameDisconnected: the game went away before the answer came.
        """
        ...

    def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        progress: Progress | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
    ) -> Awaitable[int]:
        """Show ``text`` in ``player``'s addon panel, paced; returns the frames sent.

        ``role`` labels the message (``assistant``, ``system``, ...); ``conversation_id``
        answers in that conversation (a UI chat message's own); ``title`` heads it;
        ``progress(sent, total)`` is called as frames go out.

        Raises:
            NotConnected: no game is connected (or the chosen one is gone).
            GameDisconnected: the game went away while the text was being sent.
            RequestTimeout: the game stopped answering the text's commands.
        """
        ...


F = TypeVar("F", bound=Callable[..., Any])


def same_call(spec: Callable[..., Any], adds: str = "") -> Callable[[F], F]:
    """Give a layer's method the docs of ``spec`` (a :class:`GameCalls` method), followed
    by ``adds``: what this layer adds (one sentence), so the docs are written once too."""

    def apply(method: F) -> F:
        method.__doc__ = inspect.cleandoc(spec.__doc__ or "") + (f"\n\n{adds}" if adds else "")
        return method

    return apply


def check_command(line: object) -> str:
    """``command``'s line, checked where each layer is called (a number or None would
    otherwise fail deep in the framing, or on another thread)."""
    if not isinstance(line, str):
        raise wrong_type("line must be a string (a command as typed in the game's chat, with "
                         "or without its /)", line)  # fmt: skip
    return line


def check_send_text(player: object, text: object) -> None:
    """``send_text``'s player and text, checked where each layer is called."""
    if not isinstance(player, str):
        raise wrong_type("player must be a string (a player's name)", player)
    if not isinstance(text, str):
        raise wrong_type("text must be a string", text)
