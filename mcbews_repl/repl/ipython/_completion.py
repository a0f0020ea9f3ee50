"""Tab completion after ``%mc``: sub-commands, their options, then players, capabilities ...

A matcher of IPython's completion API (version 2) that answers for ``%mc`` lines only and
asks IPython to suppress every other matcher there, Jedi's included: the older
``complete_command`` hook cannot, so Python keywords (``and``, ``if``, ``in`` ...) used to
appear between the players. What it offers comes from the sub-command table (_usage.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...game_events import GAME_EVENTS
from ...optional import needs
from ...sansio import BRIDGE_PLAYER
from ._usage import BY_NAME, SUBCOMMANDS

if TYPE_CHECKING:
    from IPython.core.completer import CompletionContext, SimpleMatcherResult

    from ..handle import Minecraft

__all__ = ["COMMON_COMMANDS", "candidates", "make_matcher"]

# What Tab offers after %mc cmd (and %mc /): the commands people reach for first.
COMMON_COMMANDS = [
    "say", "tell", "tellraw", "give", "clear", "tp", "gamemode", "tag", "scoreboard", "testfor",
    "querytarget", "list", "time", "weather", "summon", "kill", "setblock", "fill",
    "scriptevent", "getlocalplayername",
]  # fmt: skip


def candidates(line: str, mc: Minecraft | None) -> tuple[str, list[str]] | None:
    """(the word being typed, what may replace it) for a ``%mc`` line; None for other lines."""
    words = line.split()
    if not words or words[0] != "%mc":
        return None
    typing = "" if line.endswith((" ", "\t")) else words[-1]
    position = len(words) - (1 if typing else 0)  # index of the word being typed
    if position == 0:
        return None  # still typing "%mc" itself: IPython's magic matcher answers that
    routed = _routed(words, position, mc)
    if routed is not None:  # %mc --world NAME ..., %mc --all ...
        return (
            routed
            if isinstance(routed, tuple)
            else (typing, [o for o in routed if o.startswith(typing)])
        )
    if position == 1:
        offered = [s.name for s in SUBCOMMANDS] + ["/" + c for c in COMMON_COMMANDS]
        offered += ["--all", "--world"]
    else:
        offered = _for_sub(words[1], words[position - 1], position, typing, mc)
    return typing, [o for o in offered if o.startswith(typing)]


def _routed(
    words: list[str], position: int, mc: Minecraft | None
) -> tuple[str, list[str]] | list[str] | None:
    """After ``--world``: the worlds' names, then the line as if typed alone; after
    ``--all``: what runs on every world."""
    if len(words) < 2 or words[1] not in ("--world", "--all") or position < 2:
        return None
    if words[1] == "--all":
        return ["players", "inv"] + ["/" + c for c in COMMON_COMMANDS] if position == 2 else []
    if position == 2:
        return [r.name for r in mc._roster.connected()] if mc is not None else []
    rest = " ".join(["%mc", *words[3:]]) + (" " if position == len(words) else "")
    return candidates(rest, mc) or ("", [])


def _for_sub(
    sub: str, previous: str, position: int, typing: str, mc: Minecraft | None
) -> list[str]:
    spec = BY_NAME.get(sub)
    if spec is None:
        return []
    if typing.startswith("-"):
        return spec.flags()
    option = next((o for o in spec.options if previous in o.flags), None)
    if option is not None and option.metavar is not None:  # the option's value comes next
        return [str(c) for c in option.options.get("choices", [])]
    if spec.completes == "events" and position == 3 and previous in ("on", "off"):
        return list(GAME_EVENTS)  # %mc events on <Tab>: the event names
    operands = _operands(spec.completes, mc) if position == 2 else []
    return operands or (spec.flags() if not typing else [])


def _operands(kind: str | None, mc: Minecraft | None) -> list[str]:
    if kind == "commands":
        return COMMON_COMMANDS
    if kind == "players":
        return player_names(mc) if mc is not None else []
    if kind == "capabilities":
        from ..handle import SHIPPED_CAPABILITIES

        return list(mc.capability_names) if mc is not None else list(SHIPPED_CAPABILITIES)
    if kind == "record":
        return ["stop"]  # or a file name, which Tab cannot guess
    if kind == "events":
        return ["list", "on", "off", *GAME_EVENTS]
    if kind == "subcommands":
        return [s.name for s in SUBCOMMANDS]
    if kind == "tools":
        from ...toolkit import CATALOGUE

        return [spec.name for spec in CATALOGUE]
    return []


def player_names(mc: Minecraft) -> list[str]:
    """Players seen so far: connected games, answers, the simulated world (not the bridge)."""
    names = {c.local_player for c in mc.connections if c.local_player} | mc.seen_players
    if mc.sim is not None:
        names |= set(mc.sim.world.players)
    names.discard(BRIDGE_PLAYER)  # the addon's own simulated player is not a person
    return sorted(names)


def make_matcher(current_mc: Callable[[], Minecraft | None]) -> Any:
    """The matcher to add to ``shell.Completer.custom_matchers`` (and remove on unload)."""
    with needs():
        from IPython.core.completer import SimpleCompletion, context_matcher

    @context_matcher()  # type: ignore[untyped-decorator]
    def mc_matcher(context: CompletionContext) -> SimpleMatcherResult:
        found = candidates(context.text_until_cursor, current_mc())
        if found is None:
            return {"completions": [], "suppress": False}
        typing, offered = found
        return {
            "completions": [SimpleCompletion(text=o, type="mc") for o in offered],
            "matched_fragment": typing,
            "suppress": True,  # Jedi and the rest have nothing to add to a %mc line
            "ordered": True,
        }

    return mc_matcher
