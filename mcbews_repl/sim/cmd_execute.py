"""``execute as <target> run <command>``: a command run as each target in turn.

Only this form is modelled (the doctor uses it to have the addon's bridge player whisper to
itself, the way the addon answers). The game's own wording for ``execute`` is not in the
evidence corpus: what it reports is taken to be the last target's result of the command it
ran (facts.json ``execute_as_run``, assumed).
"""

from __future__ import annotations

from collections.abc import Callable

from .cmdtypes import CommandOutcome, Context
from .parse import Reader
from .selectors import CommandOrigin

__all__ = ["execute"]

RunAs = Callable[[str, CommandOrigin], CommandOutcome]


def execute(ctx: Context, r: Reader, run: RunAs) -> CommandOutcome:
    """``/execute as <target> run <command>``: run the command once as each match; the last one's
    outcome.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no entity matched the target (a negative status code).
    """
    r.choice("as")
    targets = ctx.targets(r.target())
    r.choice("run")
    line = r.rest()
    if not line.strip():
        raise r.fail("")
    result = CommandOutcome()
    for entity in targets:
        result = run(line, CommandOrigin(entity.name, entity))
    return result
