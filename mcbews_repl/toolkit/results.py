"""What every tool returns: ``ok`` and a short ``describe``; failures add ``why``/``how_to``.

Shared by the tool bodies (:mod:`.tool_bodies`) and the dispatcher (:mod:`.tools`).
"""

from __future__ import annotations

from typing import Any

from ..exceptions import (
    CapabilityError,
    CommandFailed,
    CommandQueueFull,
    GameDisconnected,
    InvalidArgument,
    McbewsError,
    NotConnected,
    Refused,
    RequestTimeout,
    WhichWorld,
)
from .answers import Answer

__all__ = [
    "DESCRIBE_CHARS",
    "HOW_TO",
    "bounded",
    "exception_failure",
    "failure",
    "from_answer",
    "refusal",
    "written",
]

DESCRIBE_CHARS = 160  # a describe is one line an agent can afford to read for every call
HOW_TO = {
    "no_target": "check the exact name with the players tool (names are case-sensitive text)",
    "syntax_error": "the game rejected the command line; check the arguments against describe()",
    "not_permitted": "the connected player needs operator rights in a world with cheats on",
    "command_failed": "read 'message': it is the game's own explanation",
    "output_unrecognized": "the game answered in wording this toolkit does not know (another "
    "language?); run the command tool and read the message yourself",
    "no_output": "the game gave no message; try the command tool to see the raw answer",
    "out_of_world": "the position is outside the world or in an unloaded chunk (not air); "
    "query a position near a player",
    "holder_mismatch": "the answer named someone else; ask again with the exact name",
}


def failure(why: str, how_to: str, **more: Any) -> dict[str, Any]:
    """A tool's ``ok: false`` result: ``why``, ``how_to``, a short ``describe``, and ``more``."""
    return {
        "ok": False,
        "why": why,
        "how_to": how_to,
        "describe": f"failed: {why}"[:DESCRIBE_CHARS],
        **more,
    }


def written(result: Any) -> dict[str, Any]:
    """A building tool's answer from its ``WriteResult`` (writes.py): the counts, where, and
    the notes (an undo dropped to make room, what an undo undid)."""
    counts = result.counts
    return {
        "ok": True,
        "origin": list(result.origin),
        "size": list(result.size),
        "written": counts["written"],
        "already": counts["already"],
        "kept": counts["kept"],
        "not_written": {"unloaded": counts["unloaded"], "out_of_world": counts["out_of_world"]},
        "notes": list(result.notes),
        "describe": result.describe()[:DESCRIBE_CHARS],
    }


def bounded(rows: list[Any], limit: int, key: str) -> dict[str, Any]:
    """At most ``limit`` of ``rows`` under ``key``, with ``total`` and ``truncated``."""
    return {key: rows[:limit], "total": len(rows), "truncated": len(rows) > limit, "limit": limit}


def from_answer(answer: Answer, **more: Any) -> dict[str, Any]:
    """A known answer as a result; an unknown one as a failure that keeps the evidence."""
    fields = {**answer.to_dict(), **more}
    if answer.known:
        return {"ok": True, **fields, "describe": answer.describe()[:DESCRIBE_CHARS]}
    reason = answer.reason or "output_unrecognized"
    why = f"{reason}: {answer.message or 'no message'}"
    return failure(why, HOW_TO.get(reason, HOW_TO["command_failed"]), **fields)


def refusal(refused: Refused) -> dict[str, Any]:
    """What the guard's refusal becomes: a failure naming the rule (``refused_by``)."""
    more = {k: v for k, v in refused.more.items() if isinstance(v, str | int | float | bool)}
    out = failure(refused.why, refused.how_to, refused_by=refused.rule, **more)
    out["describe"] = f"refused by {refused.rule}: {refused.why}"[:DESCRIBE_CHARS]
    return out


def exception_failure(exc: Exception) -> dict[str, Any]:
    """What an exception a tool met becomes: a failure saying why and what to do
    (an unexpected one is named as a toolkit bug, never shown as a traceback).
    """
    match exc:
        case Refused():
            return refusal(exc)
        case WhichWorld():
            return failure(str(exc), "name the world: pass world=<name> (see the worlds list)")
        case InvalidArgument():
            return failure(f"{exc.argument}: {exc.problem}", exc.how_to, argument=exc.argument)
        case NotConnected():
            return failure(
                "no game is connected", "in Minecraft, type the /connect line status shows"
            )
        case RequestTimeout():
            return failure(
                f"no answer in time: {exc}", "check status; retry, or narrow the request"
            )
        case GameDisconnected():
            return failure("the game disconnected during the request", "reconnect, then retry")
        case CapabilityError():
            return failure(
                f"the addon refused: {exc.message}",
                "check the capabilities tool and the parameters",
                code=exc.code,
            )
        case CommandFailed():
            return failure(exc.message, HOW_TO["command_failed"], status_code=exc.status_code)
        case CommandQueueFull():
            return failure(
                f"the bridge's command queue is full ({exc.limit} waiting)",
                "wait for earlier calls to finish, then retry with fewer at once",
                limit=exc.limit,
            )
        case McbewsError() | ValueError():
            return failure(str(exc), "fix the argument named in 'why'")
    return failure(
        f"internal error {type(exc).__name__}: {exc}",
        "this is a toolkit bug; check status and report it",
    )
