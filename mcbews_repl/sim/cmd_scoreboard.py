"""``scoreboard objectives ...`` and ``scoreboard players ...``.

Participants are names: a selector contributes the names of what it matches, and a plain
name need not be an online player (fake players such as ``#global`` are common in packs).
Messages are the game's strings (``facts.text``): one holder's set/add/remove reports the new
score, several holders only their count, and an operation only ``Updated [<objective>] for
<n> entities``, so the simulated world reports no value the game does not.
"""

from __future__ import annotations

from collections.abc import Callable

from .cmdtypes import CommandError, CommandOutcome, Context, Handler
from .facts import text
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
        raise CommandError(text("commands.scoreboard.objectiveNotFound", name))
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


def objectives(ctx: Context, r: Reader) -> CommandOutcome:
    """``/scoreboard objectives add|remove|list|setdisplay ...``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: the objective exists already (add) or does not (remove, setdisplay) (a
            negative status code).
    """
    action = r.choice("add", "remove", "list", "setdisplay")
    objs = ctx.world.objectives
    if action == "list":
        r.end()
        if not objs:
            return CommandOutcome(status_message=text("commands.scoreboard.objectives.list.empty"))
        lines = [text("commands.scoreboard.objectives.list.count", len(objs))] + [
            text("commands.scoreboard.objectives.list.entry", o.name, o.display_name, o.criteria)
            for o in objs.values()
        ]
        return CommandOutcome(status_message="\n".join(lines))
    if action == "setdisplay":
        return _setdisplay(ctx, r)
    name = r.word()
    if action == "remove":
        r.end()
        objs.pop(_objective(ctx, name).name)
        return CommandOutcome(
            status_message=text("commands.scoreboard.objectives.remove.success", name)
        )
    r.choice("dummy")
    display = r.rest().strip().strip('"') or name
    if name in objs:
        raise CommandError(text("commands.scoreboard.objectives.add.alreadyExists", name))
    objs[name] = Objective(name, display)
    return CommandOutcome(status_message=text("commands.scoreboard.objectives.add.success", name))


_CHANGE: dict[str, Callable[[int, int], int]] = {
    "set": lambda old, n: n,
    "add": lambda old, n: old + n,
    "remove": lambda old, n: old - n,
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


def _setdisplay(ctx: Context, r: Reader) -> CommandOutcome:
    slot = r.choice(*_DISPLAY_SLOTS)
    name = r.optional_word()
    if name is None:
        return CommandOutcome(
            status_message=text("commands.scoreboard.objectives.setdisplay.successCleared", slot)
        )
    _objective(ctx, name)
    if slot != "belowname" and not r.at_end():
        r.choice("ascending", "descending")
    r.end()
    return CommandOutcome(
        status_message=text("commands.scoreboard.objectives.setdisplay.successSet", slot, name)
    )


def _change(ctx: Context, r: Reader, action: str) -> CommandOutcome:
    names = _participants(ctx, r)
    objective = _objective(ctx, r.word())
    amount = r.integer()
    assert amount is not None
    r.end()
    for name in names:
        objective.scores[name] = _wrap(_CHANGE[action](objective.scores.get(name, 0), amount))
    key = f"commands.scoreboard.players.{action}"
    if len(names) > 1:  # the game reports the count, and for add/remove no new score
        if action == "set":
            return CommandOutcome(
                status_message=text(f"{key}.multiple.success", objective.name, len(names), amount)
            )
        return CommandOutcome(
            status_message=text(f"{key}.multiple.success", amount, objective.name, len(names))
        )
    (name,) = names
    now = objective.scores[name]
    if action == "set":
        return CommandOutcome(status_message=text(f"{key}.success", objective.name, name, now))
    return CommandOutcome(status_message=text(f"{key}.success", amount, objective.name, name, now))


def _reset(ctx: Context, r: Reader) -> CommandOutcome:
    names = _participants(ctx, r)
    only = r.optional_word()
    r.end()
    targets = [_objective(ctx, only)] if only else list(ctx.world.objectives.values())
    for objective in targets:
        for name in names:
            objective.scores.pop(name, None)
    who = ", ".join(names)
    if only:
        return CommandOutcome(
            status_message=text("commands.scoreboard.players.resetscore.success", only, who)
        )
    return CommandOutcome(status_message=text("commands.scoreboard.players.reset.success", who))


def _list(ctx: Context, r: Reader) -> CommandOutcome:
    if r.at_end():
        tracked = sorted(_tracked(ctx))
        if not tracked:
            return CommandOutcome(status_message=text("commands.scoreboard.players.list.empty"))
        heading = text("commands.scoreboard.players.list.count", len(tracked))
        return CommandOutcome(status_message=f"{heading}\n{', '.join(tracked)}")
    names = _participants(ctx, r)
    r.end()
    lines: list[str] = []
    for name in names:
        held = [o for o in ctx.world.objectives.values() if name in o.scores]
        if not held and len(names) == 1:
            raise CommandError(text("commands.scoreboard.players.list.player.empty", name))
        lines.append(text("commands.scoreboard.players.list.player.count", len(held), name))
        # "- <display name>: <score> (<objective name>)"; no colour codes (facts.json).
        lines += [
            text("commands.scoreboard.players.list.player.entry", o.scores[name], o.display_name,
                 o.name)
            for o in held
        ]  # fmt: skip
    return CommandOutcome(status_message="\n".join(lines))


def _operation(ctx: Context, r: Reader) -> CommandOutcome:
    names = _participants(ctx, r)
    target = _objective(ctx, r.word())
    op = r.choice(*_OPERATIONS, "><")
    sources = _participants(ctx, r)
    source = _objective(ctx, r.word())
    r.end()
    for name in names:
        for other in sources:
            if other not in source.scores:
                raise CommandError(
                    text("commands.scoreboard.players.operation.notFound", source.name, other)
                )
            mine = target.scores.get(name, 0)
            if op == "><":
                target.scores[name], source.scores[other] = source.scores[other], mine
            else:
                target.scores[name] = _wrap(_OPERATIONS[op](mine, source.scores[other]))
    # The game names no score here, only how many holders were updated.
    return CommandOutcome(
        status_message=text("commands.scoreboard.players.operation.success", target.name,
                            len(names))
    )  # fmt: skip


def players(ctx: Context, r: Reader) -> CommandOutcome:
    """``/scoreboard players set|add|remove|reset|list|operation ...``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: the objective does not exist, no holder matched, or a source has no score (a
            negative status code).
    """
    action = r.choice("set", "add", "remove", "reset", "list", "operation")
    if action in _CHANGE:
        return _change(ctx, r, action)
    if action == "reset":
        return _reset(ctx, r)
    if action == "list":
        return _list(ctx, r)
    return _operation(ctx, r)


def scoreboard(ctx: Context, r: Reader) -> CommandOutcome:
    """``/scoreboard objectives ...`` or ``/scoreboard players ...``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: as :func:`objectives` or :func:`players` (a negative status code).
    """
    branch = r.choice("objectives", "players")
    return objectives(ctx, r) if branch == "objectives" else players(ctx, r)


HANDLERS: dict[str, Handler] = {"scoreboard": scoreboard}
