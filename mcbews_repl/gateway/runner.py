"""One command line run on one game connection, the way every part of it runs one.

``command()``, capability requests on either transport, UI chat polls, text frames,
cancel notices and the handshake's ``getlocalplayername`` each run their lines through
the connection's :class:`CommandRunner`: checked against the game's two ceilings, refused
on a closed connection, sent through the command window and bounded by a timeout. It is
handed to them directly (not through the connection), so a call's path goes down, from
the part that asks to the window, and never back up into ``connection.py``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..exceptions import McbewsError, RequestTimeout
from ..sansio import BridgeProtocol, check_command_line, silent_drop_hint
from ..vocabulary import EventKind
from .link import Link
from .results import CommandResult
from .window import CommandWindow

__all__ = ["CommandRunner"]


class CommandRunner:
    """Runs command lines through one connection's window; ``timeout`` is the default."""

    def __init__(
        self,
        link: Link,
        window: CommandWindow,
        proto: BridgeProtocol,
        record: Callable[..., object],
        *,
        timeout: float,
        record_answered: Callable[[str, int, str, float], object] | None = None,
    ) -> None:
        self._link = link
        self._window = window
        self._proto = proto
        self._record = record
        self.timeout = timeout
        # An answered command's entry (ConnectionLog.record_command: the same entry, smaller).
        self._record_answered = record_answered

    async def run(
        self, line: str, timeout: float | None = None, *, record: bool = False
    ) -> CommandResult:
        """Run one command and return the game's answer; ``record``: log it as a
        ``command`` entry (``command()``'s own; calls log entries of their own kind).

        Raises:
            FrameTooLarge: the line does not fit the game's line and frame ceilings.
            NotConnected: the connection is closed.
            CommandQueueFull: too many commands already wait; nothing was sent.
            RequestTimeout: the game did not answer within ``timeout``.
            GameDisconnected: the game went away before it answered.
        """
        start = time.monotonic()
        try:
            checked = check_command_line(
                line, self._proto.budget_bytes, self._proto.frame_budget_bytes
            )
            self._link.check_open()
            limit = self.timeout if timeout is None else timeout
            try:
                reply = await self._window.request(checked, timeout=limit)
            except TimeoutError as exc:
                why = silent_drop_hint(checked) or (
                    "; the world may be paused or the connection stalled"
                )
                raise RequestTimeout(
                    f"the game did not answer /{checked[:60]} within {limit:g} s on connection "
                    f"#{self._link.connection_id}{why}"
                ) from exc
        except McbewsError as exc:
            if record:
                elapsed = time.monotonic() - start
                self._record_command(line, f"✗ {type(exc).__name__}", elapsed, error=str(exc))
            raise
        code, message = reply.status_code, reply.status_message
        result = CommandResult(
            checked, code, message, reply.body, time.monotonic() - start, reply.request_id
        )
        if record:
            if self._record_answered is not None:
                self._record_answered(checked, code, message, result.elapsed_seconds)
            else:
                self._record_command(
                    checked,
                    f"→ {code}",
                    result.elapsed_seconds,
                    status_code=code,
                    status_message=message,
                )
        return result

    def _record_command(self, line: str, outcome: str, elapsed: float, **data: Any) -> None:
        # One shape for both outcomes of a ``command`` entry; ``data`` holds what differs.
        summary = f"/{line[:60]} {outcome}"
        self._record(EventKind.COMMAND, summary, command=line, **data, elapsed=elapsed)
