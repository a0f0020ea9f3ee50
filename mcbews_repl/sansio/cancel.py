"""Cancelling requests the addon is working on: ``scriptevent mcbews:cancel <id> ...``.

When a call is cancelled after its request went down (a cell interrupted, a task
cancelled), the bridge tells the addon to drop what it holds for it: an answer kept for
pulling, a job still reading the world, chat chunk lines not yet sent, a half-received
text response. One line names as many ids as fit both ceilings; ids are the ones the
bridge made (requests and text responses): 1-64 letters and digits, so they travel as
bare words. docs/protocol.md ("Cancelling") describes it; ``tests/vectors/cancel_v1.json``
holds examples both sides are tested against.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .frames import command_frame_bytes
from .jsonwire import utf8_len
from .wire import CANCEL_EVENT, COMMAND_FRAME_BUDGET_BYTES, COMMAND_LINE_BUDGET_BYTES

__all__ = ["CANCEL_ID", "encode_cancel"]

# The ids the bridge makes (short_id, pull and text-response ids) are letters and digits.
CANCEL_ID = re.compile(r"[A-Za-z0-9]{1,64}")
_PREFIX = f"scriptevent {CANCEL_EVENT}"


def encode_cancel(
    ids: Iterable[str],
    *,
    budget_bytes: int = COMMAND_LINE_BUDGET_BYTES,
    frame_budget_bytes: int = COMMAND_FRAME_BUDGET_BYTES,
) -> list[str]:
    """The fewest ``scriptevent mcbews:cancel`` lines naming every id (duplicates once, in
    first-seen order), each within both ceilings; ``[]`` for no ids.

    Raises:
        ValueError: an id is not 1-64 letters and digits.
    """
    lines: list[str] = []
    line = ""
    for request_id in dict.fromkeys(ids):
        if not CANCEL_ID.fullmatch(request_id):
            raise ValueError(f"a cancelled id must be 1-64 letters and digits, not {request_id!r}")
        longer = f"{line or _PREFIX} {request_id}"
        if line and not _fits(longer, budget_bytes, frame_budget_bytes):
            lines.append(line)
            longer = f"{_PREFIX} {request_id}"
        line = longer
    if line:
        lines.append(line)
    return lines


def _fits(line: str, budget_bytes: int, frame_budget_bytes: int) -> bool:
    return utf8_len(line) <= budget_bytes and command_frame_bytes(line) <= frame_budget_bytes
