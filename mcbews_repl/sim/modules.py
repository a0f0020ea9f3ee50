"""ES modules for a script host with no module loader, every line kept on its line.

The ``quickjs`` binding evaluates a module but cannot link one to another, so the simulated
world turns each module (a notebook's prototype, a file of a behavior pack) into a function
``(function (__import, __export) { ... })``: ``import`` declarations become ``const``
bindings read from ``__import(specifier)`` and ``export`` declarations fill ``__export``. Only
the declarations at the start of a line are rewritten (what esbuild writes and what people
type); each keeps its line, so an error's line number is the source's.

It also arms the watchdog (docs/sim.md): every ``while``, ``do … while`` and three-part ``for``
condition first calls ``__mcbews_watchdog()``, which throws once the script has run longer than
the hang threshold in one go. The binding cannot interrupt JavaScript that calls back into
Python, so the loops check the clock themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..exceptions import McbewsError

__all__ = ["ModuleSyntaxError", "WrappedModule", "code_mask", "guard_loops", "wrap_module"]

WATCHDOG = "__mcbews_watchdog()"

# Words after which a "/" starts a regular expression rather than a division.
_BEFORE_EXPRESSION = frozenset(
    ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case",
     "do", "else", "yield", "await"]
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z0-9_$]+")


class ModuleSyntaxError(McbewsError, ValueError):
    """An import or export this loader cannot rewrite; ``line`` is 1-based. The script host
    turns it into a :class:`~mcbews_repl.exceptions.PrototypeError`."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class WrappedModule:
    """A module rewritten for QuickJS: one function of its imports and exports, with the
    same line numbers as the source, and the specifiers it imports.
    """

    function: str  # "(function (__import, __export) {...})", same lines as the source
    imports: list[str]  # the specifiers, in order


def _end_of_string(src: str, i: int) -> int:
    quote, j, n = src[i], i + 1, len(src)
    while j < n and src[j] != quote and src[j] != "\n":
        j += 2 if src[j] == "\\" else 1
    return min(j + 1, n)


def _end_of_regex(src: str, i: int) -> int:
    j, n, in_class = i + 1, len(src), False
    while j < n and src[j] != "\n":
        c = src[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            return j
        j += 1
    return j


def code_mask(src: str) -> bytearray:
    """1 for every character that is code, 0 inside strings, comments, regular expressions
    and the text of template literals (their ``${...}`` parts are code)."""
    mask, n, i = bytearray(len(src)), len(src), 0
    templates: list[int] = []  # brace depth at each open "${"
    depth, regex_ok, in_template = 0, True, False
    while i < n:
        c = src[i]
        if in_template:
            if c == "\\":
                i += 2
            elif c == "`":
                in_template, regex_ok, i = False, False, i + 1
            elif src.startswith("${", i):
                templates.append(depth)
                depth, in_template, regex_ok, i = depth + 1, False, True, i + 2
            else:
                i += 1
            continue
        if c in "\"'":
            i, regex_ok = _end_of_string(src, i), False
        elif c == "`":
            in_template, i = True, i + 1
        elif src.startswith("//", i):
            end = src.find("\n", i)
            i = n if end < 0 else end
        elif src.startswith("/*", i):
            end = src.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c == "/" and regex_ok:
            i, regex_ok = _end_of_regex(src, i), False
        elif c.isspace():
            i += 1
        elif (word := _WORD.match(src, i)) is not None:
            mask[i : word.end()] = b"\x01" * (word.end() - i)
            regex_ok, i = word.group() in _BEFORE_EXPRESSION, word.end()
        else:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if templates and templates[-1] == depth:
                    templates.pop()
                    in_template, i = True, i + 1
                    continue
            mask[i] = 1
            regex_ok, i = c not in ")]", i + 1
    return mask


def _matching_paren(src: str, mask: bytearray, open_at: int) -> tuple[int, list[int]]:
    """The index of the ``)`` closing the ``(`` at ``open_at``, and its top-level ``;``s."""
    depth, semicolons = 0, list[int]()
    for j in range(open_at, len(src)):
        if not mask[j]:
            continue
        c = src[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return j, semicolons
        elif c == ";" and depth == 1:
            semicolons.append(j)
    raise ValueError("unbalanced parentheses")


_LOOP = re.compile(r"\b(while|for)\b(\s*)(await\b)?\s*\(")


def guard_loops(src: str) -> str:
    """Make every loop condition call the watchdog first (for-in and for-of loops walk a
    finite object or a generator whose own loops are guarded, so they are left alone)."""
    mask = code_mask(src)
    inserts: list[tuple[int, str]] = []
    for match in _LOOP.finditer(src):
        start, open_at = match.start(), match.end() - 1
        if not mask[start] or not mask[open_at] or match.group(3):
            continue
        if start > 0 and src[start - 1] == ".":
            continue
        try:
            close, semicolons = _matching_paren(src, mask, open_at)
        except ValueError:
            continue  # QuickJS reports the syntax error itself
        if match.group(1) == "while":
            inserts += [(open_at + 1, f"{WATCHDOG} && ("), (close, ")")]
        elif len(semicolons) == 2:
            first, second = semicolons
            empty = src[first + 1 : second].strip() == ""
            inserts += [(first + 1, WATCHDOG if empty else f"{WATCHDOG} && (")]
            if not empty:
                inserts.append((second, ")"))
    out, last = [], 0
    for at, text in sorted(inserts):
        out += [src[last:at], text]
        last = at
    out.append(src[last:])
    return "".join(out)


_IMPORT = re.compile(
    r"^import\s*(?:(?P<clause>[\w$\s{},*]+?)\s*from\s*)?(?P<q>[\"'])(?P<spec>[^\"'\n]+)(?P=q)\s*;?",
    re.MULTILINE,
)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+", re.MULTILINE)
_EXPORT_DECLARATION = re.compile(
    r"^export\s+((?:async\s+)?function\s*\*?\s*|class\s+|const\s+|let\s+|var\s+)([\w$]+)",
    re.MULTILINE,
)
_EXPORT_LIST = re.compile(r"^export\s*\{(?P<names>[^}]*)\}\s*;?", re.MULTILINE)
_ANY_EXPORT = re.compile(r"^export\b", re.MULTILINE)


def _line_of(src: str, index: int) -> int:
    return src.count("\n", 0, index) + 1


def _import_bindings(clause: str | None, spec: str, line: int) -> str:
    source = f"__import({spec!r})"
    if clause is None:
        return f"{source};"
    parts: list[str] = []
    rest = clause.strip()
    default, _, rest = rest.partition(",") if not rest.startswith(("{", "*")) else ("", "", rest)
    if default.strip():
        parts.append(f"const {default.strip()} = {source}.default;")
    rest = rest.strip()
    if rest.startswith("*"):
        name = rest.removeprefix("*").strip().removeprefix("as").strip()
        parts.append(f"const {name} = {source};")
    elif rest.startswith("{"):
        names = [n.strip() for n in rest.strip("{} \n").split(",") if n.strip()]
        pairs = [": ".join(p.strip() for p in n.split(" as ")) for n in names]
        parts.append(f"const {{ {', '.join(pairs)} }} = {source};")
    elif rest:
        raise ModuleSyntaxError(f"cannot read the import of {spec}", line)
    return " ".join(parts)


def wrap_module(src: str) -> WrappedModule:
    """Rewrite a module's imports and exports (see the module docstring); guard its loops."""
    imports: list[str] = []
    tail: list[str] = []

    def on_import(match: re.Match[str]) -> str:
        spec = match.group("spec")
        imports.append(spec)
        line = _line_of(src, match.start())
        code = _import_bindings(match.group("clause"), spec, line)
        return code + "\n" * match.group().count("\n")

    def on_list(match: re.Match[str]) -> str:
        for item in match.group("names").split(","):
            local, _, exported = item.strip().partition(" as ")
            if local:
                tail.append(f"__export[{(exported or local).strip()!r}] = {local.strip()};")
        return "\n" * match.group().count("\n")

    def on_declaration(match: re.Match[str]) -> str:
        tail.append(f"__export[{match.group(2)!r}] = {match.group(2)};")
        return match.group(1) + match.group(2)

    body = _IMPORT.sub(on_import, src)
    body = _EXPORT_DEFAULT.sub("__export.default = ", body)
    body = _EXPORT_LIST.sub(on_list, body)
    body = _EXPORT_DECLARATION.sub(on_declaration, body)
    left = _ANY_EXPORT.search(body)
    if left is not None:
        line = _line_of(body, left.start())
        raise ModuleSyntaxError("this export form is not supported here", line)
    guarded = guard_loops(body)
    function = (
        '(function (__import, __export) {"use strict"; ' + guarded + "\n;" + " ".join(tail) + "\n})"
    )
    return WrappedModule(function, imports)
