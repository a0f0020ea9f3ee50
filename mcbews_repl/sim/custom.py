"""The addon's custom commands as the simulated game runs them.

The addon registers each command with its parameters (``customCommandRegistry``); the game
parses the rest of the command line by those types and calls the script's callback with the
values, in restricted execution (the shim refuses what the game refuses there, facts.json
``custom_command_restricted_execution``). The callback's ``{status, message}`` becomes the
command's result: ``statusMessage`` carries the message (facts.json
``custom_command_result_in_status_message``, assumed), a failure answers ExecutionFail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .commands import CommandOutcome
from .facts import CUSTOM_COMMAND_FAILURE, FAILED_TO_PARSE
from .parse import CommandSyntaxError, Reader

__all__ = ["CustomCommandSpec", "parse_arguments", "run_custom_command"]

# How each parameter type reads its argument (the types the addon uses, and their kin).
_READERS: dict[str, Callable[[Reader], Any]] = {
    "String": Reader.word,  # a bare word, or a quoted string (facts.json: assumed)
    "Integer": lambda r: r.integer(),
    "Float": Reader.number,
    "Boolean": lambda r: r.choice("true", "false") == "true",
}


@dataclass(frozen=True)
class CustomCommandSpec:
    """What ``registerCommand`` declared: the name and the parameters, in order."""

    name: str
    mandatory: list[tuple[str, str]] = field(default_factory=list)
    optional: list[tuple[str, str]] = field(default_factory=list)
    permission_level: int = 0

    @classmethod
    def from_js(cls, data: dict[str, Any]) -> CustomCommandSpec:
        """The spec a script passed to ``registerCommand`` (name, parameters,
        permission level).
        """

        def params(key: str) -> list[tuple[str, str]]:
            return [(str(p["name"]), str(p["type"])) for p in data.get(key) or []]

        return cls(
            str(data["name"]),
            params("mandatory"),
            params("optional"),
            int(data.get("permissionLevel") or 0),
        )


def parse_arguments(spec: CustomCommandSpec, line: str) -> list[Any]:
    """The callback's arguments from the whole command line (name first); raises
    :class:`CommandSyntaxError` (the game's "Syntax error") when they do not parse."""
    reader = Reader(line)
    reader.word()  # the command's name
    values: list[Any] = []
    for _, kind in spec.mandatory:
        values.append(_read(reader, kind))
    for _, kind in spec.optional:
        if reader.at_end():
            break
        values.append(_read(reader, kind))
    reader.end()
    return values


def _read(reader: Reader, kind: str) -> Any:
    read = _READERS.get(kind)
    if read is None:
        raise ValueError(f"the simulated world does not parse {kind} parameters")
    if reader.at_end():
        raise reader.fail("")
    return read(reader)


Callback = Callable[[str, list[Any]], dict[str, Any]]


def run_custom_command(spec: CustomCommandSpec, rest: str, call: Callback) -> CommandOutcome:
    """Parse ``rest``, call the script (``call(name, args)`` returns ``{status, message}``)
    and answer as the game does."""
    try:
        args = parse_arguments(spec, f"{spec.name} {rest}".strip())
    except CommandSyntaxError as exc:
        return CommandOutcome(FAILED_TO_PARSE, str(exc), success_count=0)
    out = call(spec.name, args)
    message = str(out.get("message", ""))
    if out.get("status", 1) == 0:
        return CommandOutcome(status_message=message)
    return CommandOutcome(CUSTOM_COMMAND_FAILURE, message, success_count=0)
