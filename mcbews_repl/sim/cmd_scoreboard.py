"""``scoreboard objectives ...`` and ``scoreboard players ...``.

Participants are names: a selector contributes the names of what it matches, and a plain
name need not be an online player (fake players such as ``#global`` are common in packs).
"""

from __future__ import annotations

from collections.abc import Callable

from .commands import CommandError, CommandResult, Context, Handler
from .model import Objective
from .parse import Reader

__all__ = ["HANDLERS"]

_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _wrap(value: int) -> int:
    """Scores are signed 32-bit in the game and wrap on overflow."""
    return (value - _INT32_MIN) % 2**32 + _INT32_MIN


def _objective(ctx: Context, name: str) -> Objective:
    objective = ctx.world.objectives.get(name)
    if objective is None:
        raise CommandError(f"No objective was found by the name '{name}'")
    return objective


def _participants(ctx: Context, r: Reader, objective: Objective | None = None) -> list[str]:
    token = r.peek()
    if token == "*":
        r.word()
        pool = objective.scores if objective else _tracked(ctx)
        return sorted(pool)
    selector = r.target()
    if selector.kind == "":
        return [selector.name]
    return [e.name for e in ctx.targets(selector)]


def _tracked(ctx: Context) -> set[str]:
    return {name for o in ctx.world.objectives.values() for name in o.scores}


def objectives(ctx: Context, r: Reader) -> CommandResult:
    action = r.choice("add", "remove", "list", "setdisplay")
    objs = ctx.world.objectives
    if action == "list":
        r.end()
        if not objs:
            return CommandResult(status_message="There are no objectives on the scoreboard")
        lines = [f"Showing {len(objs)} objective(s) on scoreboard:"] + [
            f"- {o.name}: displays as '{o.display_name}' and is type '{o.criteria}'"
            for o in objs.values()
        ]
        return CommandResult(status_message="\n".join(lines))
    if action == "setdisplay":
        return _setdisplay(ctx, r)
    name = r.word()
    if action == "remove":
        r.end()
        objs.pop(_objective(ctx, name).name)
        return CommandResult(status_message=f"Removed objective '{name}' successfully")
    r.choice("dummy")
    display = r.rest().strip().strip('"') or name
    if name in objs:
        raise CommandError(f"An objective with the name '{name}' already exists")
    objs[name] = Objective(name, display)
    return CommandResult(status_message=f"Added new objective '{name}' successfully")


_CHANGE: dict[str, tuple[str, Callable[[int, int], int]]] = {
    "set": ("Set", lambda old, n: n),
    "add": ("Added", lambda old, n: old + n),
    "remove": ("Removed", lambda old, n: old - n),
}

_OPERATIONS: dict[str, Callable[[int, int], int]] = {
    "+=": lambda a, b: a + b,
    "-=": lambda a, b: a - b,
    "*=": lambda a, b: a * b,
    "/=": lambda a, b: a // b if b else a,  # the game leaves the score alone on x/0
    "%=": lambda a, b: a % b if b else a,
    "=": lambda a, b: b,
    "<": min,
    ">": max,
}


_DISPLAY_SLOTS = ("list", "sidebar", "belowname")


def _setdisplay(ctx: Context, r: Reader) -> CommandResult:
    slot = r.choice(*_DISPLAY_SLOTS)
    name = r.optional_word()
    if name is None:
        return CommandResult(status_message=f"Cleared objective display slot '{slot}'")
    _objective(ctx, name)
    if slot != "belowname" and not r.at_end():
        r.choice("ascending", "descending")
    r.end()
    return CommandResult(status_message=f"Set the display objective in slot '{slot}' to '{name}'")


def _change(ctx: Context, r: Reader, action: str) -> CommandResult:
    names = _participants(ctx, r)
    objective = _objective(ctx, r.word())
    amount = r.integer()
    assert amount is not None
    r.end()
    verb, fn = _CHANGE[action]
    for name in names:
        objective.scores[name] = _wrap(fn(objective.scores.get(name, 0), amount))
    last = names[-1]
    now = objective.scores[last]
    if action == "set":
        return CommandResult(status_message=f"Set [{objective.name}] for {last} to {now}")
    prep = "to" if action == "add" else "from"
    return CommandResult(
        status_message=f"{verb} {amount} {prep} [{objective.name}] for {last} (now {now})"
    )


def _reset(ctx: Context, r: Reader) -> CommandResult:
    names = _participants(ctx, r)
    only = r.optional_word()
    r.end()
    targets = [_objective(ctx, only)] if only else list(ctx.world.objectives.values())
    for objective in targets:
        for name in names:
            objective.scores.pop(name, None)
    if only:
        return CommandResult(status_message=f"Reset score {only} of player {', '.join(names)}")
    return CommandResult(status_message=f"Reset scores of player {', '.join(names)}")


def _list(ctx: Context, r: Reader) -> CommandResult:
    if r.at_end():
        tracked = sorted(_tracked(ctx))
        if not tracked:
            return CommandResult(status_message="There are no tracked players on the scoreboard")
        return CommandResult(
            status_message=f"Showing {len(tracked)} tracked players on the scoreboard:\n"
            + ", ".join(tracked)
        )
    names = _participants(ctx, r)
    r.end()
    lines: list[str] = []
    for name in names:
        held = [o for o in ctx.world.objectives.values() if name in o.scores]
        if not held and len(names) == 1:
            raise CommandError(f"Player {name} has no scores recorded")
        lines.append(f"Showing {len(held)} tracked objective(s) for {name}:")
        # The game's entry is "- <display name>: <score> (<objective name>)".
        lines += [f"- {o.display_name}: {o.scores[name]} ({o.name})" for o in held]
    return CommandResult(status_message="\n".join(lines))


def _operation(ctx: Context, r: Reader) -> CommandResult:
    names = _participants(ctx, r)
    target = _objective(ctx, r.word())
    op = r.choice(*_OPERATIONS, "><")
    sources = _participants(ctx, r)
    source = _objective(ctx, r.word())
    r.end()
    for name in names:
        for other in sources:
            if other not in source.scores:
                raise CommandError(f"No {source.name} score for {other} found")
            mine = target.scores.get(name, 0)
            if op == "><":
                target.scores[name], source.scores[other] = source.scores[other], mine
            else:
                target.scores[name] = _wrap(_OPERATIONS[op](mine, source.scores[other]))
    last = names[-1]
    return CommandResult(
        status_message=f"Set [{target.name}] for {last} to {target.scores.get(last, 0)}"
    )


def players(ctx: Context, r: Reader) -> CommandResult:
    action = r.choice("set", "add", "remove", "reset", "list", "operation")
    if action in _CHANGE:
        return _change(ctx, r, action)
    if action == "reset":
        return _reset(ctx, r)
    if action == "list":
        return _list(ctx, r)
    return _operation(ctx, r)


def scoreboard(ctx: Context, r: Reader) -> CommandResult:
    branch = r.choice("objectives", "players")
    return objectives(ctx, r) if branch == "objectives" else players(ctx, r)


HANDLERS: dict[str, Handler] = {"scoreboard": scoreboard}
