"""Parsers from the game's command output to answers; unknown stays unknown.

The game writes its output in the player's language, so each parser first reads the body
fields that carry no words (testfor's ``victim``, clear's ``playerTest``, testforblock's
``matches`` and ``position``, querytarget's ``details``), and where only text says it,
matches the text against the game's own string for that answer in every language it ships
(``gamestrings.py``), never English alone. A success it cannot read is
``output_unrecognized``, never a zero: guessing would make up data.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..gateway import CommandResult
from .answers import (
    Ack,
    BlockCheck,
    EntityList,
    EntityRow,
    ItemCount,
    ObjectiveInfo,
    ObjectiveList,
    Score,
    ScoreChange,
    ScoreList,
    TagList,
    TestFor,
)
from .gamestrings import read, read_all

__all__ = [
    "DIMENSIONS",
    "evidence",
    "failure_reason",
    "parse_ack",
    "parse_block",
    "parse_entities",
    "parse_holders",
    "parse_item_count",
    "parse_objectives",
    "parse_score_change",
    "parse_scores",
    "parse_tags",
    "parse_testfor",
]

# docs/protocol.md, "Status codes" (signed 32-bit). A target selector that matches nothing answers
# "No targets matched selector" with ExecutionFail (-2147352576) in the game's captures; the
# text, not the code, says it (failure_reason), and the enum's own code is kept for safety.
_FAILED_TO_PARSE = -2147483648
_COMMAND_NOT_FOUND = -2147483647
_NOT_ENOUGH_PERMISSIONS = -2147483646
_NO_TARGETS_FOUND = -2147483639
_STATUS_REASONS = {
    _FAILED_TO_PARSE: "syntax_error",
    _COMMAND_NOT_FOUND: "syntax_error",
    _NOT_ENOUGH_PERMISSIONS: "not_permitted",
    _NO_TARGETS_FOUND: "no_target",
}
# querytarget reports the dimension as a number.
DIMENSIONS = {0: "overworld", 1: "nether", 2: "the_end"}

_FORMATTING = re.compile(r"§.")
_OBJECTIVE = re.compile(r"[A-Za-z0-9_.\-]{1,16}")
# clear's playerTest entries: "Steve (64)" (captures.json clear-count), in every language.
_PLAYER_TEST = re.compile(r"(?P<who>.+) \((?P<n>\d+)\)")
# One holder's change reports the new value; several holders (a selector) and every
# operation report only a count, and only set says the value every one of them now has
# (commands.scoreboard.players.*.multiple.success): (key, objective at, holder at, value at).
_CHANGES = {
    "set": ("commands.scoreboard.players.set.success", 1, 2, 3),
    "add": ("commands.scoreboard.players.add.success", 2, 3, 4),
    "remove": ("commands.scoreboard.players.remove.success", 2, 3, 4),
}
_COUNTED = {
    "set": ("commands.scoreboard.players.set.multiple.success", 1, 3),
    "add": ("commands.scoreboard.players.add.multiple.success", 2, None),
    "remove": ("commands.scoreboard.players.remove.multiple.success", 2, None),
    "operation": ("commands.scoreboard.players.operation.success", 1, None),
}
_SCORES_HEAD = "commands.scoreboard.players.list.player.count"
_SCORE_ENTRY = "commands.scoreboard.players.list.player.entry"
_OBJECTIVES_HEAD = "commands.scoreboard.objectives.list.count"
_OBJECTIVE_ENTRY = "commands.scoreboard.objectives.list.entry"
# An entry's objective name (and a score) in its own characters, so that entries written
# without line breaks between them do not run into each other.
_OBJECTIVE_CHARS = r"[A-Za-z0-9_.\-]{1,16}"
_SCORE_NARROW = ((1, r"-?\d+"), (3, _OBJECTIVE_CHARS))
_OBJECTIVE_NARROW = ((1, _OBJECTIVE_CHARS), (3, r"[^'\s]*"))
_ACKS = (
    "commands.scoreboard.objectives.add.success",
    "commands.scoreboard.objectives.remove.success",
    "commands.scoreboard.objectives.setdisplay.successSet",
    "commands.scoreboard.objectives.setdisplay.successCleared",
    "commands.scoreboard.players.reset.success",
    "commands.scoreboard.players.resetscore.success",
)


def _text(result: CommandResult) -> str:
    return _FORMATTING.sub("", result.status_message).strip()


def evidence(result: CommandResult) -> dict[str, Any]:
    """The fields every answer copies from the command result."""
    return {"command": result.command, "status_code": result.status_code, "message": _text(result)}


def failure_reason(result: CommandResult) -> str:
    """Why a result carries no answer: the status code's meaning, or the output's shape."""
    if result.ok:
        return "output_unrecognized" if _text(result) else "no_output"
    if read("commands.generic.noTargetMatch", _text(result)) is not None:
        return "no_target"
    return _STATUS_REASONS.get(result.status_code, "command_failed")


def _same(a: str, b: str) -> bool:
    return a.strip().strip('"').casefold() == b.strip('"').casefold()


def _strings(value: object) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


def parse_item_count(result: CommandResult, player: str, item: str, data: int = -1) -> ItemCount:
    """``clear <player> <item> <data> 0``: the body's ``playerTest`` ("Steve (64)") or the
    text in any language; "no items to remove" is a known 0."""
    text, base = _text(result), {**evidence(result), "player": player, "item": item, "data": data}
    tested = _strings(result.body.get("playerTest")) if result.ok else None
    counted = _PLAYER_TEST.fullmatch(tested[0]) if tested and len(tested) == 1 else None
    if counted is not None:
        if not _same(counted["who"], player):
            return ItemCount(**base, known=False, reason="holder_mismatch")
        return ItemCount(**base, known=True, value=int(counted["n"]))
    if result.ok:
        found = read("commands.clear.testing", text)
        who, count = (found.args.get(1), found.number(2)) if found else (None, None)
    else:
        found = read("commands.clear.failure.no.items", text)
        who, count = (found.args.get(1), 0) if found else (None, None)
    if who is None or count is None:
        return ItemCount(**base, known=False, reason=failure_reason(result))
    if not _same(who, player):
        return ItemCount(**base, known=False, reason="holder_mismatch")
    return ItemCount(**base, known=True, value=count)


def parse_tags(result: CommandResult, player: str) -> TagList:
    """``tags`` only when splitting the text gives exactly the game's count (else None)."""
    text, base = _text(result), {**evidence(result), "target": player}
    none = read("commands.tag.list.single.empty", text) if result.ok else None
    if none is not None and _same(none.args.get(1, ""), player):
        return TagList(**base, known=True, count=0, tags=())
    found = read("commands.tag.list.single.success", text) if result.ok else None
    count = found.number(2) if found else None
    if found is None or count is None:
        return TagList(**base, known=False, reason=failure_reason(result))
    if not _same(found.args.get(1, ""), player):
        return TagList(**base, known=False, reason="holder_mismatch")
    shown = found.args.get(3, "").strip()
    parts = tuple(p.strip() for p in shown.split(", ")) if shown else ()
    exact = parts if len(parts) == count else None
    return TagList(**base, known=True, count=count, text=shown, tags=exact)


def parse_scores(result: CommandResult, holder: str) -> ScoreList:
    """``scoreboard players list <holder>``; "has no scores recorded" is a known empty list."""
    text, base = _text(result), {**evidence(result), "holder": holder}
    if (none := read("commands.scoreboard.players.list.player.empty", text)) is not None:
        if not _same(none.args.get(1, ""), holder):
            return ScoreList(**base, known=False, reason="holder_mismatch")
        return ScoreList(**base, known=True)
    head = read(_SCORES_HEAD, text, whole=False) if result.ok else None
    count = head.number(1) if head else None
    if head is None or count is None:
        return ScoreList(**base, known=False, reason=failure_reason(result))
    if not _same(head.args.get(2, ""), holder):
        return ScoreList(**base, known=False, reason="holder_mismatch")
    found = read_all(_SCORE_ENTRY, text[head.end :], narrow=_SCORE_NARROW)
    if found is None or len(found) != count:
        return ScoreList(**base, known=False, reason="output_unrecognized")
    entries = tuple(Score(e.args[3], e.args[2].strip(), int(e.args[1])) for e in found)
    return ScoreList(**base, known=True, scores=entries)


def parse_holders(result: CommandResult) -> tuple[str, ...] | None:
    """``scoreboard players list``: every tracked name, or None when not exactly readable."""
    text = _text(result)
    if result.ok and read("commands.scoreboard.players.list.empty", text) is not None:
        return ()
    head = read("commands.scoreboard.players.list.count", text, whole=False) if result.ok else None
    count = head.number(1) if head else None
    if head is None or count is None:
        return None
    names = tuple(n.strip() for n in text[head.end :].split(", ") if n.strip())
    return names if len(names) == count else None


def parse_objectives(result: CommandResult) -> ObjectiveList:
    """The objectives a ``scoreboard objectives list`` answer names; ``known``
    False when the command failed or its wording is not recognised.
    """
    text, base = _text(result), evidence(result)
    if result.ok and read("commands.scoreboard.objectives.list.empty", text) is not None:
        return ObjectiveList(**base, known=True)
    head = read(_OBJECTIVES_HEAD, text, whole=False) if result.ok else None
    count = head.number(1) if head else None
    if head is None or count is None:
        return ObjectiveList(**base, known=False, reason=failure_reason(result))
    found = read_all(_OBJECTIVE_ENTRY, text[head.end :], narrow=_OBJECTIVE_NARROW)
    if found is None or len(found) != count:
        return ObjectiveList(**base, known=False, reason="output_unrecognized")
    listed = tuple(ObjectiveInfo(e.args[1], e.args[2], e.args[3]) for e in found)
    return ObjectiveList(**base, known=True, objectives=listed)


def parse_score_change(
    result: CommandResult, operation: str, holder: str, objective: str
) -> ScoreChange:
    """One holder's set/add/remove reports the new score; several holders (a selector) and
    every operation report only a count, and then only set's value is known."""
    text = _text(result)
    base = {**evidence(result), "operation": operation, "holder": holder, "objective": objective}
    if not result.ok:
        return ScoreChange(**base, known=False, reason=failure_reason(result))
    if operation in _COUNTED:
        key, objective_at, value_at = _COUNTED[operation]
        if (counted := read(key, text)) is not None:
            if counted.args.get(objective_at) != objective:
                return ScoreChange(**base, known=False, reason="holder_mismatch")
            if value_at is None:
                return ScoreChange(**base, known=True, reason="not_reported")
            if (now := counted.number(value_at)) is not None:
                return ScoreChange(**base, known=True, value=now)
    key, objective_at, holder_at, value_at = _CHANGES[
        "set" if operation == "operation" else operation
    ]
    match = read(key, text)
    now = match.number(value_at) if match else None
    if match is None or now is None:
        return ScoreChange(**base, known=False, reason=failure_reason(result))
    if (
        not _same(match.args.get(holder_at, ""), holder)
        or match.args.get(objective_at) != objective
    ):
        return ScoreChange(**base, known=False, reason="holder_mismatch")
    return ScoreChange(**base, known=True, value=now)


def parse_ack(result: CommandResult, operation: str) -> Ack:
    """Whether the game confirmed ``operation`` (add, remove, setdisplay, reset)."""
    text, base = _text(result), {**evidence(result), "operation": operation}
    if result.ok and any(read(key, text) is not None for key in _ACKS):
        return Ack(**base, known=True)
    return Ack(**base, known=False, reason=failure_reason(result))


def parse_testfor(result: CommandResult, selector: str) -> TestFor:
    """No target is a known "no"; other failures are unknown."""
    base = {**evidence(result), "selector": selector}
    victims = _strings(result.body.get("victim"))
    if result.ok and victims is not None:
        return TestFor(**base, known=True, matched=bool(victims), names=tuple(victims))
    reason = failure_reason(result)
    if reason == "no_target":
        return TestFor(**base, known=True, matched=False)
    return TestFor(**base, known=False, reason=reason)


def _entity(item: object) -> EntityRow | None:
    if not isinstance(item, dict):
        return None
    pos, dim, yaw, uid = (
        item.get("position"),
        item.get("dimension"),
        item.get("yRot"),
        item.get("uniqueId"),
    )
    if not isinstance(pos, dict) or uid is None or not isinstance(yaw, int | float):
        return None
    xyz = [pos.get(axis) for axis in "xyz"]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in xyz):
        return None
    dimension = DIMENSIONS.get(dim, str(dim)) if isinstance(dim, int) else str(dim)
    return EntityRow(str(uid), dimension, float(xyz[0]), float(xyz[1]), float(xyz[2]), float(yaw))  # type: ignore[arg-type]


def parse_entities(result: CommandResult, selector: str, limit: int) -> EntityList:
    """``querytarget``: ``details`` is a JSON string; one malformed row makes it unknown."""
    base = {**evidence(result), "selector": selector, "limit": limit}
    if not result.ok:
        reason = failure_reason(result)
        if reason == "no_target":
            return EntityList(**base, known=True, complete=True)
        return EntityList(**base, known=False, reason=reason)
    details = result.body.get("details")
    try:
        items = json.loads(details) if isinstance(details, str) else details
    except ValueError:
        items = None
    rows = [_entity(i) for i in items] if isinstance(items, list) else [None]
    if any(r is None for r in rows):
        return EntityList(**base, known=False, reason="output_unrecognized")
    found = tuple(r for r in rows if r is not None)
    return EntityList(**base, known=True, entities=found[:limit], complete=len(found) <= limit)


def parse_block(result: CommandResult, x: int, y: int, z: int, block: str) -> BlockCheck:
    """``testforblock``: found, something else (its display name, when the text says it),
    or unknown. The body's ``matches`` and ``position`` say it in every language."""
    text, base = _text(result), {**evidence(result), "x": x, "y": y, "z": z, "block": block}
    if read("commands.testforblock.outOfWorld", text) is not None:
        return BlockCheck(**base, known=False, reason="out_of_world")
    other = None if result.ok else read("commands.testforblock.failed.tile", text)
    actual = other.args.get(4) if other else None
    matches, position = result.body.get("matches"), result.body.get("position")
    if isinstance(matches, bool) and isinstance(position, dict):
        where = tuple(position.get(axis) for axis in "xyz")
        if where != (x, y, z):
            return BlockCheck(**base, known=False, reason="holder_mismatch")
        return BlockCheck(**base, known=True, matches=matches, actual=None if matches else actual)
    keys = ["commands.testforblock.success"] if result.ok else [
        "commands.testforblock.failed.tile", "commands.testforblock.failed.data"]  # fmt: skip
    for key in keys:
        found = read(key, text)
        if found is None:
            continue
        if (found.number(1), found.number(2), found.number(3)) != (x, y, z):
            return BlockCheck(**base, known=False, reason="holder_mismatch")
        return BlockCheck(**base, known=True, matches=result.ok, actual=actual)
    return BlockCheck(**base, known=False, reason=failure_reason(result))
