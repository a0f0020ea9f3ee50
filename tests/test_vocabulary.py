"""Each shared word has one home (mcbews_repl/vocabulary.py): no layer spells one out, the
docs list exactly the event kinds defined, and the capabilities are the shipped addon's."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import get_args

import pytest

from mcbews_repl.gateway import LogEntry
from mcbews_repl.gateway.observer import OutcomeKind
from mcbews_repl.vocabulary import (
    CALL_KINDS,
    CHAT_KINDS,
    SPOKEN_CHAT_TYPES,
    Capability,
    ChatType,
    EventKind,
    Origin,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mcbews_repl"
# The packages that must use the words, not spell them.
SCANNED = ("gateway", "sansio", "capture", "doctor", "toolkit", "repl")
VOCABULARIES: dict[str, frozenset[str]] = {
    "event kind": frozenset(EventKind),
    "capability": frozenset(Capability),
    "chat type": frozenset(ChatType),
}
EVENT_KINDS = VOCABULARIES["event kind"]  # (``"chat" in EventKind`` raises on 3.11)
ANY_WORD = frozenset().union(*VOCABULARIES.values())
# Calls that take an event kind among their arguments.
KIND_TAKERS = {"append", "record", "_record", "watched", "Outcome", "Difference"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return _name(node.func)
    return ""


def _strings(node: ast.AST) -> list[str] | None:
    """The strings of a constant or of a tuple, list or set of constants (else None)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set) and node.elts:
        values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(values) == len(node.elts) and all(isinstance(v, str) for v in values):
            return [str(v) for v in values]
    return None


def _one_vocabulary(values: list[str]) -> bool:
    return len(values) >= 2 and any(set(values) <= words for words in VOCABULARIES.values())


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _kindlike(node: ast.AST) -> bool:
    return _name(node).endswith(("kind", "kinds", "type"))


def bare_words(path: Path) -> list[tuple[int, str]]:
    """Every shared word ``path`` spells out as a literal where it means the word: as a
    capability name anywhere; as an event kind given to the log, an outcome or a report;
    compared with a ``kind`` or ``type``; as a default or keyword ``kind``; or in a tuple,
    list, set or dict keys made only of the words of one vocabulary."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    found: list[tuple[int, str]] = []

    def flag(node: ast.AST, values: list[str] | None, why: str) -> None:
        for value in values or []:
            if value in ANY_WORD:
                found.append((getattr(node, "lineno", 0), f"{value!r} {why}"))

    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)
        elif isinstance(node, ast.Constant) and id(node) not in skip:
            if isinstance(node.value, str) and node.value in VOCABULARIES["capability"]:
                flag(node, [node.value], "(a capability name)")
        elif isinstance(node, ast.Call):
            if _name(node.func) in KIND_TAKERS:
                kinds = [v for a in node.args for v in (_strings(a) or ()) if v in EVENT_KINDS]
                flag(node, kinds, f"given to {_name(node.func)}()")
            for keyword in node.keywords:
                if keyword.arg is not None and keyword.arg.endswith(("kind", "kinds")):
                    flag(node, _strings(keyword.value), f"as {keyword.arg}=")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_kindlike(side) for side in sides):
                for side in sides:
                    flag(node, _strings(side), "compared with a kind or type")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            values = _strings(node)
            if values is not None and _one_vocabulary(values):
                flag(node, values, "in a collection of them")
        elif isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            if len(keys) == len(node.keys) and _one_vocabulary([str(k) for k in keys]):
                flag(node, [str(k) for k in keys], "as keys")
        elif isinstance(node, ast.arguments):
            named = [*node.posonlyargs, *node.args][-len(node.defaults) :] if node.defaults else []
            pairs = [*zip(named, node.defaults, strict=True)]
            pairs += [(a, d) for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True) if d]
            for arg, default in pairs:
                if arg.arg.endswith(("kind", "kinds")):
                    flag(default, _strings(default), f"as the default of {arg.arg}")
    return sorted(set(found))


def scanned_files() -> list[Path]:
    files = [p for part in SCANNED for p in sorted((PACKAGE / part).rglob("*.py"))]
    files += [p for p in sorted(PACKAGE.glob("*.py")) if p.name != "vocabulary.py"]
    return files


def test_no_layer_spells_out_a_shared_word() -> None:
    spelled = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in scanned_files()
        for line, what in bare_words(path)
    ]
    assert spelled == [], "use mcbews_repl.vocabulary instead:\n" + "\n".join(spelled)


@pytest.mark.parametrize(
    "source",
    [
        'log.append("chat", "hi", 1)',
        'self._record("rejected", summary, reason=why)',
        'if entry.kind == "ui_chat": pass',
        'if record.kind in ("command", "text"): pass',
        'KINDS = ("chat", "ui_chat")',
        'SPOKEN = {"tell", "say", "me"}',
        'def f(kinds=("chat",)): pass',
        'await bridge.call("get_blocks", payload)',
        'Outcome = Literal["command", "capability"]',
        'forward(kinds=["chat"])',
    ],
)
def test_the_scan_finds_a_word_spelled_out(source: str, tmp_path: Path) -> None:
    path = tmp_path / "spelled.py"
    path.write_text(source + "\n", encoding="utf-8")
    assert bare_words(path), source


@pytest.mark.parametrize(
    "source",
    [
        '"""A docstring about chat and get_blocks."""',
        'request = {"text": text, "title": title}',
        'log.append(EventKind.CHAT, "hi", 1)',
        'text = f"list_capabilities failed: {why}"',
        'transport = "chat"',
        'mode = ("auto", "pull", "chat")',
    ],
)
def test_the_scan_leaves_other_strings_alone(source: str, tmp_path: Path) -> None:
    path = tmp_path / "words.py"
    path.write_text(source + "\n", encoding="utf-8")
    assert bare_words(path) == [], source


def _event_log_table() -> dict[str, list[str]]:
    text = (ROOT / "docs" / "gateway.md").read_text(encoding="utf-8")
    section = text.split("### The event log", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    return {c[0].strip("`"): c[1:] for c in cells}


def test_the_docs_list_exactly_the_event_kinds_defined() -> None:
    table = _event_log_table()
    assert list(table) == [str(kind) for kind in EventKind]
    for kind in EventKind:
        origin, meaning, fields = table[kind]
        assert (origin, meaning) == (kind.origin, kind.meaning), kind
        assert re.findall(r"`(\w+)`", fields) == list(kind.fields), kind


def test_every_field_the_gateway_records_is_in_its_kinds_row() -> None:
    """A call that records an entry of a kind (``EventKind.X`` among its arguments) names
    only fields that kind lists: the table of fields stays true."""
    strays = []
    for path in scanned_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kinds = [
                a.attr
                for a in node.args
                if isinstance(a, ast.Attribute) and _name(a.value) == "EventKind"
            ]
            named = {k.arg for k in node.keywords if k.arg is not None}
            for kind in kinds:
                extra = named - set(EventKind[kind].fields)
                if extra:
                    strays.append(f"{path.relative_to(ROOT)}:{node.lineno}: {kind} {extra}")
    assert strays == []


def test_the_capabilities_are_the_shipped_addons_in_its_order() -> None:
    folder = ROOT / "addon" / "src" / "capabilities"
    index = (folder / "index.ts").read_text(encoding="utf-8")
    listed = re.search(r"DEFAULT_CAPABILITIES[^=]*=\s*\[([^\]]*)\]", index)
    assert listed is not None
    variables = [v.strip() for v in listed.group(1).split(",") if v.strip()]
    names = {}
    for source in folder.glob("*.ts"):
        text = source.read_text(encoding="utf-8")
        for variable, name in re.findall(r"export const (\w+)[^=]*=\s*\{\s*name: \"(\w+)\"", text):
            names[variable] = name
    assert [names[v] for v in variables] == [str(c) for c in Capability]


def test_the_outcome_type_and_the_call_kinds_agree() -> None:
    assert set(get_args(OutcomeKind)) == set(CALL_KINDS)


def test_a_word_is_its_string_wherever_it_goes() -> None:
    assert EventKind.CHAT == "chat" and EventKind("ui_chat") is EventKind.UI_CHAT
    assert f"{Capability.GET_BLOCKS}" == "get_blocks" and str(ChatType.TELL) == "tell"
    assert json.dumps({"kind": EventKind.TEXT}) == '{"kind": "text"}'
    assert {"chat": 1}[EventKind.CHAT] == 1  # the same hash: dict keys and sets mix
    entry = LogEntry(1, 0.0, EventKind.CHAT, 1, "<Alex> hi")
    assert "kind='chat'" in repr(entry)  # shown as the word, not as the enum's member


def test_every_word_says_what_it_means() -> None:
    for word in [*EventKind, *Capability, *ChatType, *Origin]:
        assert word.meaning and "\n" not in word.meaning, word
    assert all(kind.origin in Origin for kind in EventKind)


def test_the_chat_sets_are_made_of_their_words() -> None:
    assert set(CHAT_KINDS) == {EventKind.CHAT, EventKind.UI_CHAT}
    assert "chat" in SPOKEN_CHAT_TYPES and ChatType.TITLE not in SPOKEN_CHAT_TYPES


def test_the_vocabulary_needs_nothing_but_the_standard_library() -> None:
    tree = ast.parse((PACKAGE / "vocabulary.py").read_text(encoding="utf-8"))
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert imported <= {"__future__", "enum", "typing"}


def test_the_addon_forwards_exactly_the_vocabularys_addon_events() -> None:
    """addon/src/forwarder.ts FORWARD_KINDS names the addon kinds of game_events.py, in
    its order, and afterEvents.ts reads each from its world.afterEvents signal."""
    from mcbews_repl.game_events import ADDON_EVENTS

    source = (ROOT / "addon" / "src" / "forwarder.ts").read_text(encoding="utf-8")
    listed = source.split("export const FORWARD_KINDS = [", 1)[1].split("]", 1)[0]
    assert re.findall(r'"(\w+)"', listed) == list(ADDON_EVENTS)
    readers = (ROOT / "addon" / "src" / "afterEvents.ts").read_text(encoding="utf-8")
    signals = dict(re.findall(r"^  (\w+): \"(\w+)\",$", readers, re.MULTILINE))
    assert {n: f"world.afterEvents.{s}" for n, s in signals.items()} == {
        n: k.signal for n, k in ADDON_EVENTS.items()
    }
