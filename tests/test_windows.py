"""Text crossing into files, pipes and consoles is UTF-8 by choice, not by the locale: on
Windows the locale's encoding is a code page (cp1252) that has neither emoji nor most of
the world's letters. Played here with the C locale and UTF-8 mode off (ASCII, stricter
than cp1252), in a Python of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from mcbews_repl.repl.handle._addon_dev import ESBUILD

# A Python whose locale encoding is not UTF-8, as on Windows.
NOT_UTF8 = {**os.environ, "LC_ALL": "POSIX", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


def run_without_utf8(source: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-c", source], capture_output=True, env=NOT_UTF8,
                          timeout=120)  # fmt: skip


def test_this_python_really_has_a_narrow_locale() -> None:
    done = run_without_utf8("import locale; print(locale.getpreferredencoding(False))")
    assert done.stdout.decode().strip() in {"ANSI_X3.4-1968", "ascii", "US-ASCII"}


@pytest.mark.skipif(shutil.which("node") is None or not ESBUILD.is_file(),
                    reason="needs Node and the addon's toolchain (--ts)")  # fmt: skip
def test_a_typescript_cell_keeps_its_colours_and_emoji() -> None:
    source = (
        "from mcbews_repl.repl.handle._addon_dev import compile_typescript\n"
        'js = compile_typescript(\'const hi: string = "\\u00a7aHello \\U0001f389";'
        " export default { name: \"hi\", run() { return hi; } };', 'hi')\n"
        "print(ascii(js))"
    )
    done = run_without_utf8(source)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    # esbuild writes non-ASCII as escapes: the same string, whatever reads the file.
    assert "\\\\xA7aHello \\\\u{1F389}" in done.stdout.decode()
