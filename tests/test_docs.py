"""Everything the repository cites is in the repository.

Code, tests, benchmarks and docs point at docs/*.md (and their sections), never at papers
that live outside it (the design notes, the protocol notes, source documents, the issue
tracker): a person who clones the repository must be able to follow every reference.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEXT = (".py", ".md", ".ts", ".mjs", ".json", ".ipynb", ".toml")
# Not ours to edit: generated lock files and recorded sessions.
SKIPPED = ("package-lock.json", "tests/captures/")

OUTSIDE = re.compile(r"PROTOCOL\.md|DESIGN\.md|\b[Ss]eeds? ?0\d\d\b|\b[Ii]ssues? #?\d+")
# Another project's issue tracker is a public source: "owner/repo, issue 12".
PUBLIC_ISSUE = re.compile(r"[\w.-]+/[\w.-]+,? (?:issue|#)\s*$", re.I)
DOC_PATH = re.compile(r"\bdocs/([\w-]+\.md)")
LINK = re.compile(r"\]\(([\w./-]*\.md)?(?:#([\w-]+))?\)")


def tracked() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [
        ROOT / n
        for n in names
        if n.endswith(TEXT) and not any(s in n for s in SKIPPED) and (ROOT / n).is_file()
    ]


def outside_citations(text: str) -> list[str]:
    found = []
    for match in OUTSIDE.finditer(text):
        before = text[max(0, match.start() - 60) : match.start()] + match.group()[:6]
        if not PUBLIC_ISSUE.search(before[: -len(match.group()[:6])] + "issue"):
            found.append(match.group())
    return found


def anchors(path: Path) -> set[str]:
    slugs = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            slugs.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return slugs


def test_nothing_cites_a_paper_outside_the_repository() -> None:
    bad = {
        str(p.relative_to(ROOT)): hits
        for p in tracked()
        if p != Path(__file__) and (hits := outside_citations(p.read_text(encoding="utf-8")))
    }
    assert bad == {}


def test_every_cited_doc_exists() -> None:
    missing = {
        f"{p.relative_to(ROOT)}: docs/{name}"
        for p in tracked()
        for name in DOC_PATH.findall(p.read_text(encoding="utf-8"))
        if not (ROOT / "docs" / name).is_file()
    }
    assert missing == set()


def test_every_link_between_the_docs_reaches_its_section() -> None:
    broken = []
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for target, anchor in LINK.findall(page.read_text(encoding="utf-8")):
            where = (page.parent / target).resolve() if target else page
            if not where.is_file():
                broken.append(f"{page.name} -> {target}")
            elif anchor and anchor not in anchors(where):
                broken.append(f"{page.name} -> {target}#{anchor}")
    assert broken == []


def test_the_checks_catch_what_they_look_for() -> None:
    assert outside_citations("see PROTOCOL.md and seed 000 (issue 14)") == [
        "PROTOCOL.md",
        "seed 000",
        "issue 14",
    ]
    assert outside_citations("reported in bedrock-ws/bedrockpy, issue 12") == []
    assert "the-frame-budget" in anchors(ROOT / "docs" / "gateway.md")


def test_the_readme_shows_every_parameter_of_the_game_calls() -> None:
    """The README's API table writes out ``mc.command``, ``mc.call`` and ``mc.send_text``
    with every parameter they take (``title=`` was used in a notebook but never shown)."""
    import inspect

    from mcbews_repl.repl.handle import Minecraft

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("command", "call", "send_text"):
        row = next(line for line in readme.splitlines() if line.startswith(f"| `mc.{name}("))
        shown = row.split("`")[1]
        taken = [p for p in inspect.signature(getattr(Minecraft, name)).parameters if p != "self"]
        missing = [p for p in taken if not re.search(rf"\b{p}\b", shown)]
        assert not missing, f"README's mc.{name} row lacks {missing}: {shown}"
