"""Capability calls (channel A): one future per bridge request, settled by the reader.

The request goes down as a ``scriptevent`` command through the command window; the answer
comes back as chat chunks that the sans-I/O core reassembles into a result or a failure.
Whatever happens (answer, ``ok:false``, timeout, disconnect, cancellation) the ``finally``
removes the pending request and its chunk buffer, so late chunks find nothing and are
counted as ``unknown_request_id``; a cancelled call also has the addon told to drop the
request's work (cancel.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from ..exceptions import CapabilityError, RequestTimeout
from ..sansio import (
    BridgeProtocol,
    CapabilityFailed,
    CapabilityRequest,
    CapabilityResult,
    RequestExpired,
)
from ..vocabulary import EventKind
from .results import CommandResult
from .scope import current_scope

__all__ = ["Answer", "CapabilityCalls", "failure_fields", "send_lines"]

Answer = CapabilityResult | CapabilityFailed | RequestExpired
Record = Callable[..., object]


async def send_lines(
    run_command: Callable[[str], Awaitable[CommandResult]], lines: Sequence[str]
) -> CommandResult:
    """Send a request's lines (one, or a large request's bulk parts) side by side through
    the command window; the first refused one's result, else the last one's.

    The parts go out together (the window keeps at most 100 in flight, in order) so a large
    request costs its parts' commands, not a tick each; the addon takes them in any order.
    """
    if len(lines) == 1:
        return await run_command(lines[0])
    results = await asyncio.gather(*(run_command(line) for line in lines))
    return next((result for result in results if not result.ok), results[-1])


def failure_fields(answer: object) -> dict[str, str]:
    """The addon's code and message of a failed answer, for its ``capability`` log entry:
    ``%mc`` says what failed ("no player named Nobody is online"), not only that it did."""
    if isinstance(answer, CapabilityFailed):
        return {"code": answer.code, "message": answer.message}
    return {}


class CapabilityCalls:
    """The pending capability calls of one connection."""

    def __init__(
        self,
        proto: BridgeProtocol,
        run_command: Callable[[str], Awaitable[CommandResult]],
        record: Record,
        *,
        where: str,
        cancelled: Callable[[str], None] = lambda request_id: None,
    ) -> None:
        self._proto = proto
        self._run_command = run_command
        self._record = record
        self._where = where
        self._cancelled = cancelled  # the addon is told to drop the request's work
        self._futures: dict[str, asyncio.Future[Answer]] = {}

    def __len__(self) -> int:
        return len(self._futures)

    async def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None,
        timeout: float,
        *,
        record: bool = True,
    ) -> dict[str, Any]:
        """Send one capability request over chat and wait for its answer's data.

        Raises:
            CapabilityError: the addon answered ``ok: false``.
            RequestTimeout: no whole answer within ``timeout`` seconds.
            CommandFailed: the game refused the command that carries the request.
        """
        request = self._proto.capability_request(capability, payload, now=time.monotonic())
        future: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._futures[request.request_id] = future
        start, outcome = time.monotonic(), "error"
        answer: Answer | None = None
        scope = current_scope()
        if scope is not None:
            scope.requests += 1
        try:
            async with asyncio.timeout(timeout):
                lines = request.lines or (request.command_line,)
                (await send_lines(self._run_command, lines)).raise_for_status()
                answer = await future
            outcome = "ok" if isinstance(answer, CapabilityResult) else "failed"
        except TimeoutError as exc:
            outcome = "timeout"
            raise RequestTimeout(self.timeout_message(request, timeout)) from exc
        except asyncio.CancelledError:
            outcome = "cancelled"
            self._cancelled(request.request_id)
            raise
        finally:
            took = time.monotonic() - start
            self._forget(request, future, outcome, took, record, failure_fields(answer))
        return self._unwrap(request, answer, timeout)

    def settle(self, answer: Answer) -> bool:
        """Hand a reassembled answer to its call; False if nobody waits for it any more."""
        future = self._futures.get(answer.request_id)
        if future is None or future.done():
            return False
        future.set_result(answer)
        return True

    def fail_all(self, make_error: Callable[[], BaseException]) -> int:
        """Fail every call still waiting with ``make_error()`` (the connection
        closed); returns how many.
        """
        failed = 0
        for future in self._futures.values():
            if not future.done():
                future.set_exception(make_error())
                failed += 1
        return failed

    def _forget(
        self,
        request: CapabilityRequest,
        future: asyncio.Future[Answer],
        outcome: str,
        took: float,
        record: bool,
        failure: dict[str, str],
    ) -> None:
        self._futures.pop(request.request_id, None)
        self._proto.forget(request.request_id)
        if not future.done():
            future.cancel()
        elif not future.cancelled():
            future.exception()  # mark a disconnect error as seen: the caller got its own
        if not record:  # a transport probe: the connection records its verdict instead
            return
        self._record(
            EventKind.CAPABILITY,
            f"{request.capability} {outcome} ({took * 1000:.1f} ms)",
            capability=request.capability,
            request_id=request.request_id,
            outcome=outcome,
            elapsed=took,
            transport="chat",
            **failure,
        )

    def _unwrap(self, request: CapabilityRequest, answer: Answer, timeout: float) -> dict[str, Any]:
        match answer:
            case CapabilityResult(result=result):
                return result
            case CapabilityFailed(code=code, message=message):
                raise CapabilityError(code, message, request.capability)
            case RequestExpired():
                raise RequestTimeout(self.timeout_message(request, timeout))

    def timeout_message(self, request: CapabilityRequest, timeout: float) -> str:
        """Say what usually causes a silent addon, with this connection's evidence."""
        chunks = self._proto.chunks_received(request.request_id)
        unmatched = self._proto.counters["bridge_prefix_not_matched"]
        hint = " (is the bridge player named differently?)" if unmatched else ""
        message = (
            f"no answer to {request.capability} (request {request.request_id}) within "
            f"{timeout:g} s on {self._where}; {chunks} chunk(s) of it arrived. Usually the "
            "companion addon is not installed in this world, the world's Beta APIs "
            f"experiment is off, or the bridge player {self._proto.bridge_player} is missing. "
            f"{unmatched} MCBEWS| frame(s) were seen on this connection but not matched{hint}."
        )
        if not self._proto.counters["bridge_player_lines"]:
            # Answers travel as the bridge player's `tell @s`; no published capture shows
            # whether the game reports those to WebSocket subscribers (docs/sim.md).
            message += (
                f" No chat from {self._proto.bridge_player} has reached this connection yet: "
                f"if the pack is applied and {self._proto.bridge_player} is in the world "
                "(/list shows it), this game may not report the bridge player's `tell @s` "
                "to WebSocket subscribers."
            )
        return message
