"""Write one benchmark's section of ``docs/benchmarks.md`` and keep everyone else's.

Each benchmark that shares the page owns the text between ``<!-- bench:KEY -->`` and
``<!-- /bench:KEY -->``; writing replaces only that block (or appends it), so the page's
other sections stay as their own benchmarks last wrote them. ``bench_sansio.py`` writes
the page's top and keeps these blocks below it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "benchmarks.md"


def _markers(key: str) -> tuple[str, str]:
    return f"<!-- bench:{key} -->", f"<!-- /bench:{key} -->"


def blocks(text: str) -> list[str]:
    """Every marked section of ``text``, markers included, in page order."""
    pattern = re.compile(r"<!-- bench:([\w-]+) -->.*?<!-- /bench:\1 -->", re.DOTALL)
    return [m.group(0) for m in pattern.finditer(text)]


def write_section(key: str, body: str, page: Path = PAGE) -> None:
    """Replace (or append) the section ``key`` of ``page`` with ``body``."""
    start, end = _markers(key)
    block = f"{start}\n{body.strip()}\n{end}"
    text = page.read_text(encoding="utf-8") if page.exists() else ""
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + block + "\n"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text, encoding="utf-8")


def git_revision(part: str = "mcbews_repl") -> str:
    """This checkout's commit, and whether ``part`` (the code measured) differs from it."""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", part],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown revision"
    return f"`{head}`" + (f" ({Path(part).name} modified)" if dirty else "")
