"""Cancel notices: telling the addon which of its work nobody waits for any more.

A capability call or a text delivery cancelled after its request went down leaves the
addon holding work for it: an answer kept for pulling, a job still reading blocks, chunk
lines queued for the bridge player's chat, a half-received text response. The ids of such
calls are collected here during one turn of the loop and sent in as few ``scriptevent
mcbews:cancel`` lines as fit (``sansio/cancel.py``), from a context with no call scope, so
the notice goes out although the call that caused it was cancelled (docs/protocol.md,
"Cancelling"). A notice that cannot be sent is counted, never raised: the addon's TTL
drops the work in the end anyway.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..exceptions import McbewsError
from ..limits import CANCEL_NOTICE_TIMEOUT_SECONDS
from ..sansio import CANCEL_ID, encode_cancel
from .results import CommandResult
from .scope import in_no_scope

__all__ = ["CancelNotices"]

_log = logging.getLogger("mcbews_repl.gateway")


class CancelNotices:
    """One connection's pending cancel notices, flushed once a loop turn."""

    def __init__(
        self,
        send_line: Callable[[str, float], Awaitable[CommandResult]],
        *,
        where: str,
    ) -> None:
        self._send = send_line
        self._where = where
        self._ids: list[str] = []
        self._flushing: asyncio.Task[None] | None = None
        self.sent_lines = 0
        self.ids_sent = 0
        self.failed = 0
        self.closed = False

    def add(self, message_id: str) -> None:
        """Tell the addon soon that nobody waits for ``message_id`` any more."""
        if self.closed or not CANCEL_ID.fullmatch(message_id):
            return  # a closed game holds nothing for us; an odd id was never sent
        self._ids.append(message_id)
        self._schedule()

    def _schedule(self) -> None:
        if self._flushing is not None or not self._ids or self.closed:
            return
        # Created in a context with no call scope: the cancelled call's scope would refuse
        # to send it. One task per loop turn gathers every id cancelled meanwhile.
        loop = asyncio.get_running_loop()
        self._flushing = loop.create_task(self._flush(), context=in_no_scope())

    async def _flush(self) -> None:
        try:
            await asyncio.sleep(0)  # let every task cancelled together add its id first
            ids, self._ids = self._ids, []
            for line in encode_cancel(ids):
                await self._send_one(line, len(line.split()) - 2)
        finally:
            self._flushing = None
            self._schedule()  # ids added while the last line was on its way

    async def _send_one(self, line: str, count: int) -> None:
        try:
            (await self._send(line, CANCEL_NOTICE_TIMEOUT_SECONDS)).raise_for_status()
        except McbewsError as exc:
            self.failed += 1
            _log.info("%s: a cancel notice for %d id(s) was not taken: %s", self._where, count, exc)
            return
        self.sent_lines += 1
        self.ids_sent += count

    def close(self) -> None:
        """The game went away: nothing more to tell it."""
        self.closed = True
        self._ids.clear()
        if self._flushing is not None:
            self._flushing.cancel()
