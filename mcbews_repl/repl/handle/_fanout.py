"""Snapshots of every player as one call per player, gathered and stitched together.

A full inventory is about 4 KB of answer, so ``get_inventory_snapshot`` of a class of fifty
is 200 KB in one answer: it arrives (paged, docs/protocol.md), but only after the whole of it
was cut and sent. Asked per player, the answers are small, travel side by side through the
command window and each is checked on its own. ``mc.inventory()`` asks who is online (one
small ``get_player_snapshot``), then every player's inventory at once, and joins the answers
in the order the world listed the players, as one ``{"players": [...]}`` answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from ...exceptions import CapabilityError
from ...vocabulary import Capability

__all__ = ["snapshot_everyone"]

Call = Callable[..., Awaitable[dict[str, Any]]]


def _left(exc: BaseException, name: str) -> bool:
    """The player logged off between the two questions: not an error of the whole call."""
    return isinstance(exc, CapabilityError) and f"no player named {name} is online" in exc.message


async def snapshot_everyone(call: Call, capability: str) -> dict[str, Any]:
    """``capability`` (a per-player snapshot taking ``target``) for every player online,
    one call each, gathered; a player who left meanwhile is left out, any other failure
    raises as it would for one call."""
    online = await call(Capability.GET_PLAYER_SNAPSHOT, target="@a")
    names = [str(p.get("name")) for p in online.get("players") or [] if p.get("name")]
    answers = await asyncio.gather(
        *(call(capability, target=name) for name in names), return_exceptions=True
    )
    players: list[Any] = []
    for name, answer in zip(names, answers, strict=True):
        if isinstance(answer, BaseException):
            if _left(answer, name):
                continue
            raise answer
        players += answer.get("players") or []
    return {"players": players}
