"""The ``mcbews-repl`` command as a person runs it: its help reads as plain text, the demo
shows game text the way the player sees it, and ``demo --protocol`` shows the frame budget."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from mcbews_repl import __version__, bundled
from mcbews_repl.cli import main

COMMAND = str(Path(sys.executable).with_name("mcbews-repl"))


@pytest.mark.parametrize(
    "words",
    [["--help"], ["demo", "--help"], ["sim", "--help"], ["addon", "export", "--help"],
     ["lab", "--help"], ["docs", "--help"]],
)  # fmt: skip
def test_help_is_plain_text(words: list[str]) -> None:
    done = subprocess.run([COMMAND, *words], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "usage: mcbews-repl" in done.stdout
    assert "``" not in done.stdout  # no reStructuredText markup from a docstring


def test_help_says_what_the_command_does() -> None:
    done = subprocess.run([COMMAND, "--help"], capture_output=True, text=True, timeout=60)
    assert "demo: a bridge and a simulated world" in " ".join(done.stdout.split())


def test_the_demo_shows_clean_text_when_piped() -> None:
    done = subprocess.run([COMMAND, "demo"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "he sees: [assistant] Hello Steve! 你好 @a" in done.stdout
    assert "§" not in done.stdout
    # What comes next needs no clone and no make, and says where the docs are.
    last = done.stdout.splitlines()[-1]
    assert last.startswith("Next: mcbews-repl lab opens the notebooks in JupyterLab; or in "
                           "IPython: %load_ext mcbews_repl then %mc sim. The docs: ")  # fmt: skip
    assert "make" not in last and (bundled.root() / "docs").is_dir()
    assert f"The docs: {bundled.root() / 'docs'} (mcbews-repl docs lists them)" in last


def test_the_demo_written_to_a_file_in_a_windows_code_page_does_not_stop() -> None:
    """Redirected output on Windows is in the code page (cp1252 in Western Europe), which
    has no Chinese characters; forced here with PYTHONIOENCODING."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run([COMMAND, "demo"], capture_output=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:].decode("cp1252")
    assert "he sees: [assistant] Hello Steve! ?? @a" in done.stdout.decode("cp1252")


@pytest.mark.slow
def test_the_demo_shows_the_game_colours_on_a_terminal() -> None:
    child = pexpect.spawn(COMMAND, ["demo"], encoding="utf-8", timeout=120)
    try:
        child.expect(r"he sees: (.*)\r\n")
        seen = child.match.group(1)
    finally:
        child.close(force=True)
    assert "\x1b[38;2;85;255;85m[assistant]\x1b[0m Hello Steve!" in seen and "§" not in seen


def test_protocol_demo_shows_each_text_line_against_both_ceilings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--protocol"]) == 0
    out = capsys.readouterr().out
    sizes = [(int(a), int(b)) for a, b in re.findall(r"\[(\d+) B line, (\d+) B frame\]", out)]
    assert len(sizes) >= 2 and "461 bytes of line, 661 bytes of frame" in out
    assert all(line <= 461 and frame <= 661 for line, frame in sizes)
    assert sizes[0][1] == 661  # a full line is filled up to the frame ceiling


def test_addon_export_writes_the_stable_pack_and_says_how_to_get_the_other(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [COMMAND, "addon", "export"], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Wrote {tmp_path / 'mcbews_bridge.mcaddon'}: the stable pack")
    assert "needs no experiments (Minecraft Education 1.21.132 or later" in done.stdout
    assert "mcbews-repl addon export --beta" in done.stdout
    # "More in" the addon's README, where this installation holds it.
    readme = Path(done.stdout.split("More in ")[1].split("\n")[0])
    assert readme == bundled.path("addon/README.md") and readme.is_file()
    beta = subprocess.run(
        [COMMAND, "addon", "export", "--beta", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert beta.stdout.startswith(f"Wrote {tmp_path / 'mcbews_bridge_beta.mcaddon'}: the beta")
    assert "Minecraft Education among them, take the stable pack" in beta.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mcbews_bridge.mcaddon",
        "mcbews_bridge_beta.mcaddon",
    ]


def test_game_text_shows_control_characters_as_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcbews_repl.cli import game_text

    said = "§aHi \x1b]0;pwned\x07Eve\u202e"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert game_text(said) == "Hi ␛]0;pwned␇Eve⟨U+202E⟩"
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert game_text(said) == "\x1b[38;2;85;255;85mHi ␛]0;pwned␇Eve⟨U+202E⟩\x1b[0m"


def test_docs_lists_the_pages_and_gives_one_pages_path(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0] == f"The docs of mcbews-repl {__version__}, in {bundled.root()}:"
    assert f"  windows       {bundled.root() / 'docs' / 'windows.md'}" in listing
    assert main(["docs", "addon"]) == 0
    assert capsys.readouterr().out == f"{bundled.root() / 'addon' / 'README.md'}\n"
    assert main(["docs", "nope"]) == 2
    assert capsys.readouterr().err.startswith("mcbews-repl docs: no page 'nope'; the pages: ")


def test_an_export_over_a_file_minecraft_holds_open_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "mcbews_bridge.mcaddon"
    assert main(["addon", "export", str(target)]) == 0
    real = os.replace

    def replace(src: str, dst: str) -> None:  # Windows, while the game imports the file
        if Path(dst) == target:
            raise PermissionError(13, "The process cannot access the file", str(target))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    capsys.readouterr()
    assert main(["addon", "export", str(target)]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"mcbews-repl: cannot replace {target}: The process cannot access")
    assert "close the world that uses it (or the game) and try again" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no .tmp left
