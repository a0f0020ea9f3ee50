"""Parsers from the game's command output to answers; unknown stays unknown.

Each parser recognises the English wording of the game's message (the language file's
``commands.*`` strings) and the body fields the WebSocket adds (``victim``, ``details``).
A success it cannot read is ``output_unrecognized``, never a zero: a world in another
language answers with translated text, and guessing would make up data.
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
_OBJECTIVE = r"[A-Za-z0-9_.\-]{1,16}"
_CLEAR_COUNT = re.compile(r"(?P<who>.+) has (?P<n>\d+) items that match the criteria")
_CLEAR_NONE = re.compile(r"Could not clear the inventory of (?P<who>.+), no items to remove")
_TAGS = re.compile(r"(?P<who>.+) has (?P<n>\d+) tags: (?P<text>.*)", re.DOTALL)
_NO_TAGS = re.compile(r"(?P<who>.+) has no tags")
_SCORES_HEAD = re.compile(r"Showing (?P<n>\d+) tracked objective\(s\) for (?P<who>.+?):")
_SCORE_ENTRY = re.compile(rf"- (?P<display>.*?): (?P<value>-?\d+) \((?P<objective>{_OBJECTIVE})\)")
_NO_SCORES = re.compile(r"Player (?P<who>.+) has no scores recorded")
_HOLDERS = re.compile(
    r"Showing (?P<n>\d+) tracked players on the scoreboard:\s*(?P<names>.*)", re.S
)
_OBJECTIVES_HEAD = re.compile(r"Showing (?P<n>\d+) objective\(s\) on scoreboard:")
_OBJECTIVE_ENTRY = re.compile(
    rf"- (?P<name>{_OBJECTIVE}): displays as '(?P<display>.*)' and is type '(?P<criteria>[^']*)'"
)
_CHANGES = {
    "set": re.compile(rf"Set \[(?P<obj>{_OBJECTIVE})\] for (?P<who>.+) to (?P<now>-?\d+)"),
    "add": re.compile(
        rf"Added -?\d+ to \[(?P<obj>{_OBJECTIVE})\] for (?P<who>.+) \(now (?P<now>-?\d+)\)"
    ),
    "remove": re.compile(
        rf"Removed -?\d+ from \[(?P<obj>{_OBJECTIVE})\] for (?P<who>.+) \(now (?P<now>-?\d+)\)"
    ),
}
# Several holders at once (and every operation): the game names how many, and only set
# says the value, which every one of them now has (commands.scoreboard.players.*.multiple).
_COUNTED = {
    "set": re.compile(rf"Set \[(?P<obj>{_OBJECTIVE})\] for \d+ entities to (?P<now>-?\d+)"),
    "add": re.compile(rf"Added -?\d+ to \[(?P<obj>{_OBJECTIVE})\] for \d+ entities"),
    "remove": re.compile(rf"Removed -?\d+ from \[(?P<obj>{_OBJECTIVE})\] for \d+ entities"),
    "operation": re.compile(rf"Updated \[(?P<obj>{_OBJECTIVE})\] for \d+ entities"),
}
_ACKS = (
    re.compile(r"Added new objective '.+' successfully"),
    re.compile(r"Removed objective '.+' successfully"),
    re.compile(r"Set the display objective in slot '.+' to '.+'"),
    re.compile(r"Cleared objective display slot '.+'"),
    re.compile(r"Reset scores? .*of player .+"),
)
_BLOCK_FOUND = re.compile(
    r"Successfully found the block at (?P<x>-?\d+),(?P<y>-?\d+),(?P<z>-?\d+)\."
)
_BLOCK_OTHER = re.compile(
    r"The block at (?P<x>-?\d+),(?P<y>-?\d+),(?P<z>-?\d+) is (?P<actual>.+) \(expected: .+\)\."
)
_BLOCK_STATE = re.compile(r"The block at (?P<x>-?\d+),(?P<y>-?\d+),(?P<z>-?\d+) did not match")
_OUT_OF_WORLD = "Cannot test for block outside of the world"


def _text(result: CommandResult) -> str:
    return _FORMATTING.sub("", result.status_message).strip()


def evidence(result: CommandResult) -> dict[str, Any]:
    """The fields every answer copies from the command result."""
    return {"command": result.command, "status_code": result.status_code, "message": _text(result)}


def failure_reason(result: CommandResult) -> str:
    """Why a result carries no answer: the status code's meaning, or the output's shape."""
    if result.ok:
        return "output_unrecognized" if _text(result) else "no_output"
    if _text(result) == "No targets matched selector":
        return "no_target"
    return _STATUS_REASONS.get(result.status_code, "command_failed")


def _same(a: str, b: str) -> bool:
    return a.strip('"').casefold() == b.strip('"').casefold()


def parse_item_count(result: CommandResult, player: str, item: str, data: int = -1) -> ItemCount:
    """``clear <player> <item> <data> 0``: "no items to remove" is a known 0."""
    text, base = _text(result), {**evidence(result), "player": player, "item": item, "data": data}
    match = _CLEAR_COUNT.fullmatch(text) if result.ok else _CLEAR_NONE.fullmatch(text)
    if match is None:
        return ItemCount(**base, known=False, reason=failure_reason(result))
    if not _same(match["who"], player):
        return ItemCount(**base, known=False, reason="holder_mismatch")
    count = int(match["n"]) if "n" in match.groupdict() else 0
    return ItemCount(**base, known=True, value=count)


def parse_tags(result: CommandResult, player: str) -> TagList:
    """``tags`` only when splitting the text gives exactly the game's count (else None)."""
    text, base = _text(result), {**evidence(result), "target": player}
    if result.ok and (none := _NO_TAGS.fullmatch(text)) and _same(none["who"], player):
        return TagList(**base, known=True, count=0, tags=())
    match = _TAGS.fullmatch(text) if result.ok else None
    if match is None:
        return TagList(**base, known=False, reason=failure_reason(result))
    if not _same(match["who"], player):
        return TagList(**base, known=False, reason="holder_mismatch")
    count, shown = int(match["n"]), match["text"].strip()
    parts = tuple(p.strip() for p in shown.split(", ")) if shown else ()
    exact = parts if len(parts) == count else None
    return TagList(**base, known=True, count=count, text=shown, tags=exact)


def parse_scores(result: CommandResult, holder: str) -> ScoreList:
    """``scoreboard players list <holder>``; "has no scores recorded" is a known empty list."""
    text, base = _text(result), {**evidence(result), "holder": holder}
    if (none := _NO_SCORES.fullmatch(text)) is not None:
        if not _same(none["who"], holder):
            return ScoreList(**base, known=False, reason="holder_mismatch")
        return ScoreList(**base, known=True)
    head = _SCORES_HEAD.match(text) if result.ok else None
    if head is None:
        return ScoreList(**base, known=False, reason=failure_reason(result))
    if not _same(head["who"], holder):
        return ScoreList(**base, known=False, reason="holder_mismatch")
    entries = [
        Score(m["objective"], m["display"], int(m["value"]))
        for m in _SCORE_ENTRY.finditer(text, head.end())
    ]
    if len(entries) != int(head["n"]):
        return ScoreList(**base, known=False, reason="output_unrecognized")
    return ScoreList(**base, known=True, scores=tuple(entries))


def parse_holders(result: CommandResult) -> tuple[str, ...] | None:
    """``scoreboard players list``: every tracked name, or None when not exactly readable."""
    text = _text(result)
    if result.ok and text == "There are no tracked players on the scoreboard":
        return ()
    match = _HOLDERS.fullmatch(text) if result.ok else None
    if match is None:
        return None
    names = tuple(n.strip() for n in match["names"].split(", ") if n.strip())
    return names if len(names) == int(match["n"]) else None


def parse_objectives(result: CommandResult) -> ObjectiveList:
    """The objectives a ``scoreboard objectives list`` answer names; ``known``
    False when the command failed or its wording is not recognised.
    """
    text, base = _text(result), evidence(result)
    if result.ok and text == "There are no objectives on the scoreboard":
        return ObjectiveList(**base, known=True)
    head = _OBJECTIVES_HEAD.match(text) if result.ok else None
    if head is None:
        return ObjectiveList(**base, known=False, reason=failure_reason(result))
    found = [
        ObjectiveInfo(m["name"], m["display"], m["criteria"])
        for line in text[head.end() :].splitlines()
        if (m := _OBJECTIVE_ENTRY.fullmatch(line.strip()))
    ]
    if len(found) != int(head["n"]):
        return ObjectiveList(**base, known=False, reason="output_unrecognized")
    return ObjectiveList(**base, known=True, objectives=tuple(found))


def parse_score_change(
    result: CommandResult, operation: str, holder: str, objective: str
) -> ScoreChange:
    """One holder's set/add/remove reports the new score; several holders (a selector) and
    every operation report only a count, and then only set's value is known."""
    text = _text(result)
    base = {**evidence(result), "operation": operation, "holder": holder, "objective": objective}
    if not result.ok:
        return ScoreChange(**base, known=False, reason=failure_reason(result))
    counted = _COUNTED[operation].fullmatch(text) if operation in _COUNTED else None
    if counted is not None:
        if counted["obj"] != objective:
            return ScoreChange(**base, known=False, reason="holder_mismatch")
        if "now" in counted.groupdict():
            return ScoreChange(**base, known=True, value=int(counted["now"]))
        return ScoreChange(**base, known=True, reason="not_reported")
    match = _CHANGES["set" if operation == "operation" else operation].fullmatch(text)
    if match is None:
        return ScoreChange(**base, known=False, reason=failure_reason(result))
    if not _same(match["who"], holder) or match["obj"] != objective:
        return ScoreChange(**base, known=False, reason="holder_mismatch")
    return ScoreChange(**base, known=True, value=int(match["now"]))


def parse_ack(result: CommandResult, operation: str) -> Ack:
    """Whether the game confirmed ``operation`` (add, remove, setdisplay, reset)."""
    text, base = _text(result), {**evidence(result), "operation": operation}
    if result.ok and any(p.fullmatch(text) for p in _ACKS):
        return Ack(**base, known=True)
    return Ack(**base, known=False, reason=failure_reason(result))


def parse_testfor(result: CommandResult, selector: str) -> TestFor:
    """No target is a known "no"; other failures are unknown."""
    base = {**evidence(result), "selector": selector}
    victims = result.body.get("victim")
    if result.ok and isinstance(victims, list) and all(isinstance(v, str) for v in victims):
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
    """``testforblock``: found, something else (its display name), or unknown."""
    text, base = _text(result), {**evidence(result), "x": x, "y": y, "z": z, "block": block}
    if text == _OUT_OF_WORLD:
        return BlockCheck(**base, known=False, reason="out_of_world")
    pattern = _BLOCK_FOUND if result.ok else None
    for candidate in [pattern] if pattern else [_BLOCK_OTHER, _BLOCK_STATE]:
        match = candidate.match(text)
        if match is None:
            continue
        if (int(match["x"]), int(match["y"]), int(match["z"])) != (x, y, z):
            return BlockCheck(**base, known=False, reason="holder_mismatch")
        actual = match.groupdict().get("actual")
        return BlockCheck(**base, known=True, matches=result.ok, actual=actual)
    return BlockCheck(**base, known=False, reason=failure_reason(result))
