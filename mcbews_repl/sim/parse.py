"""Reading command lines the way Bedrock does: a cursor over the line, one argument at a time.

Errors carry the game's message (``commands.generic.syntax`` in the language file:
``Syntax error: Unexpected "x": at "give @s >>x<<"``), so a client sees the same text it
would from a real world.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from ..exceptions import McbewsError
from .facts import text

__all__ = ["CommandSyntaxError", "Coord", "Reader", "Selector", "split_top_level"]

_T = TypeVar("_T")
_CONTEXT_CHARS = 10  # the game quotes about this much of the line around the bad token


class CommandSyntaxError(McbewsError):
    """The line does not parse; ``str()`` is the game's statusMessage."""

    def __init__(self, line: str, pos: int, token: str) -> None:
        before = line[max(0, pos - _CONTEXT_CHARS) : pos]
        if not token and before and not before.endswith(" "):
            before += " "  # a missing argument is shown where it should have started
        after = line[pos + len(token) : pos + len(token) + _CONTEXT_CHARS]
        super().__init__(text("commands.generic.syntax", before, token, after))


@dataclass(frozen=True)
class Coord:
    """One coordinate: absolute, ``~`` relative to the origin, or ``^`` local."""

    value: float
    relative: bool = False
    whole: bool = False  # an absolute coordinate written without a decimal point

    def resolve(self, base: float) -> float:
        """The coordinate's value in the world, ``base`` being the origin's on this axis."""
        return base + self.value if self.relative else self.value

    def resolve_centred(self, base: float) -> float:
        """As :meth:`resolve`, but a whole absolute x or z names the block, so the game
        puts an entity at its centre (``tp 0 4 0`` lands at 0.5, 4, 0.5; captures.json)."""
        return self.value + 0.5 if self.whole else self.resolve(base)


@dataclass(frozen=True)
class Selector:
    """``@a[tag=x,c=1]`` (kind ``a``) or a plain player name (kind ``""``)."""

    kind: str
    name: str = ""
    args: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    # A name written in quotes with a character past ASCII (``"王小明"``, or in ``name=``):
    # the game then matches no one (facts.json behaviours.quoted_non_ascii_name).
    quoted_non_ascii: bool = False

    def arg(self, key: str) -> list[str]:
        """Every value given for ``key`` (``tag`` may come more than once)."""
        return [v for k, v in self.args if k == key]


_SELECTOR_KINDS = "aprse"


class Reader:
    """Reads one command line token by token, as the game's parser does; a token that
    does not fit raises :class:`CommandSyntaxError` quoting it in place.
    """

    def __init__(self, line: str) -> None:
        self.line = line
        self.pos = 0

    # --- low level --------------------------------------------------------------------
    def _skip_spaces(self) -> None:
        while self.pos < len(self.line) and self.line[self.pos] == " ":
            self.pos += 1

    def at_end(self) -> bool:
        """True when only spaces are left."""
        self._skip_spaces()
        return self.pos >= len(self.line)

    def fail(self, token: str | None = None) -> CommandSyntaxError:
        """The syntax error for the next token (or ``token``), quoted with its context."""
        self._skip_spaces()
        if token is None:
            end = self.line.find(" ", self.pos)
            token = self.line[self.pos : end if end >= 0 else len(self.line)]
        return CommandSyntaxError(self.line, self.pos, token)

    def _raw_token(self) -> str:
        self._skip_spaces()
        start = self.pos
        if self.pos < len(self.line) and self.line[self.pos] == '"':
            return self._quoted()
        while self.pos < len(self.line) and self.line[self.pos] != " ":
            self.pos += 1
        return self.line[start : self.pos]

    def _quoted(self) -> str:
        start = self.pos
        self.pos += 1
        out: list[str] = []
        while self.pos < len(self.line):
            ch = self.line[self.pos]
            self.pos += 1
            if ch == "\\" and self.pos < len(self.line):
                out.append(self.line[self.pos])
                self.pos += 1
            elif ch == '"':
                return "".join(out)
            else:
                out.append(ch)
        self.pos = start
        raise self.fail()

    # --- arguments --------------------------------------------------------------------
    def word(self) -> str:
        """A required argument; a missing one is the game's `Unexpected ""` error."""
        if self.at_end():
            raise self.fail("")
        return self._raw_token()

    def optional_word(self) -> str | None:
        """The next token, or None at the end."""
        return None if self.at_end() else self._raw_token()

    def peek(self) -> str | None:
        """The next token without reading it (None at the end)."""
        saved = self.pos
        token = self.optional_word()
        self.pos = saved
        return token

    def choice(self, *options: str) -> str:
        """The next token, lower-cased, if it is one of ``options``.

        Raises:
            CommandSyntaxError: it is not one, or the line ended.
        """
        saved = self.pos
        token = self.word()
        if token.lower() not in options:
            self.pos = saved
            raise self.fail()
        return token.lower()

    def _convert(self, convert: Callable[[str], _T]) -> _T:
        saved = self.pos
        token = self.word()
        try:
            return convert(token)
        except ValueError:
            self.pos = saved  # the error quotes the bad token in place
            raise self.fail() from None

    def integer(self, optional: bool = False) -> int | None:
        """The next token as a whole number (None at the end when ``optional``).

        Raises:
            CommandSyntaxError: the token is not a whole number, or the line ended.
        """
        if optional and self.at_end():
            return None
        return self._convert(int)

    def number(self) -> float:
        """The next token as a number.

        Raises:
            CommandSyntaxError: the token is not a number, or the line ended.
        """
        return self._convert(float)

    def coord(self) -> Coord:
        """The next token as a coordinate (``5``, ``~``, ``~-2``, ``^1``).

        Raises:
            CommandSyntaxError: the token is not a coordinate, or the line ended.
        """
        return self._convert(_coord)

    def position(self) -> tuple[Coord, Coord, Coord]:
        """The next three tokens as x, y, z coordinates.

        Raises:
            CommandSyntaxError: one is not a coordinate, or the line ended.
        """
        return (self.coord(), self.coord(), self.coord())

    def bracketed(self) -> str | None:
        """The text of a ``[...]`` argument (block states) without its brackets, if the next
        argument is one; None otherwise."""
        if self.at_end() or self.line[self.pos] != "[":
            return None
        close = self._matching_bracket(self.pos)
        if close < 0:
            raise self.fail()
        body = self.line[self.pos + 1 : close]
        self.pos = close + 1
        return body

    def rest(self) -> str:
        """The message argument: everything left, as typed (one separating space dropped)."""
        if self.pos < len(self.line) and self.line[self.pos] == " ":
            self.pos += 1
        text = self.line[self.pos :]
        self.pos = len(self.line)
        return text

    def end(self) -> None:
        """Check that nothing but spaces is left.

        Raises:
            CommandSyntaxError: a token is left.
        """
        if not self.at_end():
            raise self.fail()

    def target(self) -> Selector:
        """The next token as a target: a selector (``@e[type=cow]``) or a name.

        Raises:
            CommandSyntaxError: the line ended, or the selector is malformed.
        """
        if self.at_end():
            raise self.fail("")
        if self.line[self.pos] != "@":
            quoted = self.line[self.pos] == '"'
            name = self._raw_token()
            return Selector("", name=name, quoted_non_ascii=quoted and not name.isascii())
        start = self.pos
        kind = self.line[self.pos + 1 : self.pos + 2]
        if kind not in _SELECTOR_KINDS or not kind:
            raise self.fail()
        self.pos += 2
        args: tuple[tuple[str, str], ...] = ()
        quoted_names: list[str] = []
        if self.pos < len(self.line) and self.line[self.pos] == "[":
            args = self._selector_args(start, quoted_names)
        if self.pos < len(self.line) and self.line[self.pos] != " ":
            self.pos = start
            raise self.fail()
        unmatchable = any(not name.isascii() for name in quoted_names)
        return Selector(kind, args=args, quoted_non_ascii=unmatchable)

    def _selector_args(self, start: int, quoted_names: list[str]) -> tuple[tuple[str, str], ...]:
        close = self._matching_bracket(self.pos)
        if close < 0:
            self.pos = start
            raise self.fail()
        body = self.line[self.pos + 1 : close]
        self.pos = close + 1
        args: list[tuple[str, str]] = []
        for part in split_top_level(body):
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                self.pos = start
                raise self.fail()
            value = value.strip()
            if key.strip() == "name" and value.lstrip("!").startswith('"'):
                quoted_names.append(value)
            args.append((key.strip(), value.strip('"')))
        return tuple(args)

    def _matching_bracket(self, pos: int) -> int:
        depth, quoted = 0, False
        for i in range(pos, len(self.line)):
            ch = self.line[i]
            if ch == '"':
                quoted = not quoted
            elif not quoted and ch in "[{":
                depth += 1
            elif not quoted and ch in "]}":
                depth -= 1
                if depth == 0:
                    return i
        return -1


def _coord(token: str) -> Coord:
    relative = token[:1] in ("~", "^")
    number = token[1:] if relative else token
    value = float(number) if number else 0.0
    whole = not relative and "." not in number and value.is_integer()
    return Coord(value, relative, whole)


def split_top_level(body: str) -> list[str]:
    """Split ``a=1,b=[2,3]`` at the commas outside brackets and quotes."""
    parts, depth, quoted, current = [], 0, False, ""
    for ch in body:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{":
            depth += 1
        elif not quoted and ch in "]}":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append(current)
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current)
    return parts
