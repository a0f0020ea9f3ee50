"""Text delivery (channel C): encode a text as paced ``mcbews:text_resp`` frames.

A text longer than the addon can reassemble in one response (128 frames, 64 KiB) goes as
several responses in order, so any length arrives whole. The pauses are the addon's: a
prelude so the panel is ready, then a gap between frames so the game is not flooded.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..sansio import (
    BUFFER_TTL_SECONDS,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
    MAX_CHUNKS_PER_MESSAGE,
    encode_text_response,
    short_id,
    split_text,
)
from .results import CommandResult

__all__ = ["Progress", "TextLine", "deliver_text", "encode_text_lines"]

Progress = Callable[[int, int], object]


@dataclass(frozen=True, slots=True)
class TextLine:
    """One ``mcbews:text_resp`` command line and the id of the response it is part of."""

    response_id: str
    line: str


# The addon drops a partial response TTL seconds after its first frame. Send each response
# within 80 % of that, leaving a margin for round trips: fewer frames per response when
# the configured pause is long.
_TTL_SHARE = 0.8


def _frames_per_response(interval: float) -> int:
    if interval <= 0:
        return MAX_CHUNKS_PER_MESSAGE
    return max(1, min(MAX_CHUNKS_PER_MESSAGE, int(BUFFER_TTL_SECONDS * _TTL_SHARE / interval)))


def encode_text_lines(
    player: str,
    text: str,
    *,
    role: str = "assistant",
    conversation_id: str | None = None,
    title: str | None = None,
    interval: float = 0.0,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> list[TextLine]:
    """Every command line of one delivery, with its response's id: all responses, each with
    a fresh id, each line within ``budget_bytes`` and each commandRequest frame within
    ``frame_budget_bytes``."""
    parts = split_text(
        player,
        text,
        role=role,
        conversation_id=conversation_id,
        title=title,
        id_length=len(short_id()),
        max_frames=_frames_per_response(interval),
        budget_bytes=budget_bytes,
        frame_budget_bytes=frame_budget_bytes,
    )
    lines: list[TextLine] = []
    for part in parts:
        response_id = short_id()
        frames = encode_text_response(
            player,
            part,
            response_id=response_id,
            role=role,
            conversation_id=conversation_id,
            title=title,
            max_frames=None,
            budget_bytes=budget_bytes,
            frame_budget_bytes=frame_budget_bytes,
        )
        lines += (TextLine(response_id, frame) for frame in frames)
    return lines


async def deliver_text(
    send_line: Callable[[str], Awaitable[CommandResult]],
    lines: list[TextLine],
    *,
    prelude: float,
    interval: float,
    progress: Progress | None = None,
    cancelled: Callable[[str], None] = lambda response_id: None,
) -> int:
    """Send ``lines`` one by one with the pauses; raise on the first frame the game refuses.

    Cancelled part way, ``cancelled`` is told the id of the response the addon holds part
    of (its frames are dropped there rather than kept until they expire)."""
    total = len(lines)
    begun: str | None = None  # the response of the last frame handed to the game
    try:
        await asyncio.sleep(prelude)
        for sent, line in enumerate(lines, start=1):
            if sent > 1:
                await asyncio.sleep(interval)
            begun = line.response_id
            (await send_line(line.line)).raise_for_status()
            if progress is not None:
                outcome = progress(sent, total)
                if inspect.isawaitable(outcome):
                    await outcome
    except asyncio.CancelledError:
        if begun is not None:
            cancelled(begun)
        raise
    return total
