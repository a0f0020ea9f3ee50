"""Captures as tests: play a recorded session again and check the results (docs/captures.md).

    from mcbews_repl.testing import replay_capture

    async def test_my_capture():
        report = await replay_capture("tests/captures/my_session.jsonl")
        assert report.ok, report.describe()

:func:`replay_capture` starts a fresh bridge, connects one :class:`ReplayGame` per
recorded game, makes the recorded calls again and compares every result with the
recorded one. :class:`ReplayGame` alone plays a recorded game against any bridge URL, as
``mcbews-repl replay`` does.
"""

from __future__ import annotations

from .capture import (
    Capture,
    Difference,
    ReplayGame,
    ReplayReport,
    ReplaySummary,
    read_capture,
    replay_capture,
)

__all__ = [
    "Capture",
    "Difference",
    "ReplayGame",
    "ReplayReport",
    "ReplaySummary",
    "read_capture",
    "replay_capture",
]
