"""``mc.on_ui_chat``: the callbacks of UI chat, run by the one callback runner.

The bridge hands each message to what :meth:`UiChatCallbacks.add` registered there and
awaits the future it returns, so its bounded UI chat queue counts a message as running until
the callback has finished on the kernel's loop. The callback gets a :class:`UiMessage`
whose ``reply`` goes through the runtime thread to the game the message came from.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ...gateway import Bridge, GameConnection, UiChat
from ..runtime import Pending, Runtime
from ._callbacks import CallbackRunner
from ._connections import Connection, Submit

__all__ = ["UiCallback", "UiChatCallbacks", "UiMessage"]


@dataclass(frozen=True)
class UiMessage:
    """A UI chat message as a notebook callback sees it.

    ``connection`` is the game it came from and ``world`` its world (``mc`` bound to it,
    so ``msg.world.command(...)`` acts there); ``reply`` answers there, in the same
    conversation, and is safe on any loop.
    """

    player: str
    message: str
    conversation_id: str | None
    message_id: str
    connection: Connection | None = field(default=None, repr=False, compare=False)
    world: Any = field(default=None, repr=False, compare=False)

    def reply(self, text: str, *, role: str = "assistant") -> Pending[int]:
        """Answer in the player's panel: ``await msg.reply("...")`` or ``.result()``.

        Raises:
            ValueError: the message is not tied to a game connection.
        """
        if self.connection is None:
            raise ValueError("this message is not tied to a game connection")
        return self.connection.send_text(
            self.player, text, role=role, conversation_id=self.conversation_id
        )


UiCallback = Callable[[UiMessage], Any]
Delivery = Callable[[UiChat], "asyncio.Future[None]"]


class UiChatCallbacks:
    """The UI chat callbacks of one ``mc``, registered with its bridge."""

    def __init__(
        self,
        runner: CallbackRunner,
        runtime: Runtime,
        bridge: Bridge,
        submit: Submit,
        world_of_id: Callable[[int | None], Any],
    ) -> None:
        self._runner = runner
        self._runtime = runtime
        self._bridge = bridge
        self._submit = submit
        self._world_of_id = world_of_id
        self._deliveries: dict[UiCallback, Delivery] = {}

    def __len__(self) -> int:
        """How many callbacks are registered."""
        return len(self._deliveries)

    def add(self, callback: UiCallback) -> None:
        delivery = self._delivery(callback)
        self._deliveries[callback] = delivery
        self._runtime.call_soon(lambda: self._bridge.on_ui_chat(delivery))

    def remove(self, callback: UiCallback | None = None) -> None:
        """Remove one callback, or all of them."""
        chosen = list(self._deliveries) if callback is None else [callback]
        for cb in chosen:
            delivery = self._deliveries.pop(cb, None)
            if delivery is not None:
                self._runtime.call_soon(partial(self._bridge.off_ui_chat, delivery))

    def _delivery(self, callback: UiCallback) -> Delivery:
        def deliver(message: UiChat) -> asyncio.Future[None]:
            finished = asyncio.get_running_loop().create_future()
            self._runner.soon(self._invoke, callback, message, finished)
            return finished

        return deliver

    def _invoke(
        self, callback: UiCallback, message: UiChat, finished: asyncio.Future[None]
    ) -> None:
        # A message whose reply() goes through the runtime thread, to the game it came from:
        # the gateway's UiChat.reply() must only run on the bridge's loop.
        raw = message.connection
        source = Connection(raw, self._submit) if isinstance(raw, GameConnection) else None
        mine = UiMessage(
            message.player, message.message, message.conversation_id, message.message_id, source,
            self._world_of_id(raw.id if isinstance(raw, GameConnection) else None),
        )  # fmt: skip
        task = self._runner.invoke(callback, mine, "UI chat", message.player, message.message)
        if task is None:
            _settle(finished)
        else:
            task.add_done_callback(lambda _task: _settle(finished))


def _settle(finished: asyncio.Future[None]) -> None:
    """Tell the bridge's loop (from any thread) that a callback has finished."""

    def settle() -> None:
        if not finished.done():
            finished.set_result(None)

    loop = finished.get_loop()
    if not loop.is_closed():
        loop.call_soon_threadsafe(settle)
