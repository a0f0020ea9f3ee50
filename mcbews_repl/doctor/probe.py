"""``--probe-limits``: the largest command line and frame this game accepts, by stepping up.

Two probes of harmless ``scriptevent`` lines (an id no addon listens to), each stepped up
from well inside the bridge's budget until the game refuses one (an ``error`` frame, a
negative status, or no answer), then narrowed down between the last accepted size and the
first refused one:

- plain ASCII, where a byte of line is a byte of frame: the largest accepted *line*;
- double quotes, each one byte of line and two of frame (JSON escapes it): the largest
  accepted *frame*, reached with a shorter line.

With plain ASCII the frame is about 212 bytes longer than its line, so whichever ceiling
binds first is the one seen; the result says which. The game may close the connection on
an oversized frame (one published report says it fails badly), or drop it without any
answer, as the evidence corpus records (docs/sim.md; each such probe then waits its timeout).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..exceptions import GameDisconnected, NotConnected, RequestTimeout
from ..gateway import GameConnection
from ..sansio import (
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    CommandResponse,
    command_frame_bytes,
    utf8_len,
)
from .report import Verdict

__all__ = ["PROBE_WARNING", "Found", "probe_limits"]

PROBE_WARNING = (
    "--probe-limits sends command lines past the budget the bridge keeps to "
    f"({COMMAND_LINE_BUDGET_BYTES} bytes of line, {COMMAND_FRAME_BUDGET_BYTES} of frame): the "
    "game may refuse them, or close the connection (type /connect again then)."
)
_PREFIX = "scriptevent mcbews_doctor:probe "  # no addon listens to this id
_STEP_BYTES = 32
# Where each probe starts (well inside every ceiling reported) and where it gives up: past
# scriptevent's own 2048-character message, which the game must refuse.
_LINE_RANGE = (256, 2100)
_FRAME_RANGE = (512, 4400)
_BASE_FRAME = command_frame_bytes(_PREFIX)
_ENVELOPE = _BASE_FRAME - len(_PREFIX)  # a plain line's frame is this much longer


def plain_line(line_bytes: int) -> str:
    """A line of exactly ``line_bytes`` bytes (plain ASCII: its frame is longer by a fixed
    envelope)."""
    return _PREFIX + "x" * (line_bytes - len(_PREFIX))


def quoted_line(frame_bytes: int) -> str:
    """A line whose frame is exactly ``frame_bytes`` bytes, mostly double quotes (each is
    one byte of line, two of frame)."""
    room = frame_bytes - _BASE_FRAME
    return _PREFIX + '"' * (room // 2) + "x" * (room % 2)


@dataclass
class Found:
    """What the limits probe found: its verdict, what it saw, advice, and the figures."""

    verdict: Verdict
    observed: str
    advice: str = ""
    data: dict[str, Any] = field(default_factory=dict)


class _Closed(Exception):
    """The game closed the connection on a probe."""


async def _accepted(game: GameConnection, line: str, timeout: float) -> bool:
    try:
        reply = await game.probe_command(line, timeout)
    except RequestTimeout:
        return False
    except (GameDisconnected, NotConnected) as exc:
        raise _Closed(str(exc)) from exc
    return isinstance(reply, CommandResponse) and reply.status_code >= 0


async def _largest(
    game: GameConnection, build: Callable[[int], str], bounds: tuple[int, int], timeout: float
) -> tuple[str | None, bool]:
    """The largest size ``build`` makes a line the game accepts, stepping up from the first
    bound then narrowing down; and whether any size up to the second bound was refused."""
    best: str | None = None
    low, size = 0, bounds[0]
    while size <= bounds[1]:
        if not await _accepted(game, build(size), timeout):
            break
        best, low, size = build(size), size, size + _STEP_BYTES
    else:
        return best, False
    high = size  # low was accepted (or nothing was), high refused
    while high - low > 1:
        middle = (low + high) // 2
        if await _accepted(game, build(middle), timeout):
            best, low = build(middle), middle
        else:
            high = middle
    return best, True


def _sizes(line: str | None) -> tuple[int, int]:
    return (utf8_len(line), command_frame_bytes(line)) if line else (0, 0)


async def probe_limits(game: GameConnection, timeout: float) -> Found:
    """Both probes; what they found against the bridge's budget."""
    try:
        plain, plain_refused = await _largest(game, plain_line, _LINE_RANGE, timeout)
        quoted, quoted_refused = await _largest(game, quoted_line, _FRAME_RANGE, timeout)
    except _Closed as exc:
        observed = f"the game closed the connection during the probe: {exc}"
        return Found("failed", observed, "type /connect again; the bridge's budget keeps clear")
    line_bytes, line_frame = _sizes(plain)
    quote_line, frame_bytes = _sizes(quoted)
    data = {
        "line_bytes": line_bytes,
        "line_frame_bytes": line_frame,
        "frame_bytes": frame_bytes,
        "frame_line_bytes": quote_line,
    }
    if not plain_refused and not quoted_refused:
        observed = f"nothing was refused up to {_LINE_RANGE[1]} bytes of line"
        advice = "the game took lines past scriptevent's own limit: please report it"
        return Found("unsure", observed, advice, data)
    binds = "the frame ceiling binds first" if line_frame >= frame_bytes else "the line ceiling"
    observed = (
        f"largest plain line accepted: {line_bytes} bytes (its frame {line_frame} bytes; "
        f"{binds}); largest frame accepted: {frame_bytes} bytes (a quote-heavy line of "
        f"{quote_line} bytes). The bridge's budget: {COMMAND_LINE_BUDGET_BYTES} bytes of line, "
        f"{COMMAND_FRAME_BUDGET_BYTES} of frame"
    )
    # What the bridge may send: plain lines up to the first ceiling they meet, any frame up
    # to its budget. The game must take at least that.
    widest_plain = min(COMMAND_LINE_BUDGET_BYTES, COMMAND_FRAME_BUDGET_BYTES - _ENVELOPE)
    within = line_bytes >= widest_plain and frame_bytes >= COMMAND_FRAME_BUDGET_BYTES
    if within:
        return Found("ok", observed, "", data)
    advice = "this game refuses frames the bridge would send: please report it with the capture"
    return Found("failed", observed, advice, data)
