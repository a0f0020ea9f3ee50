"""One definition of %mc: its help, Tab completion and the README's table; and the settings.

The sub-command table (ipython/_usage.py) is the only place a sub-command's words and options are
written. ``%mc?``, Tab and the README's table are rendered from it, and these tests fail
when any of them drifts. Settings: %config and ipython_config.py win over environment
variables, which win over the defaults.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from IPython.core.completer import provisionalcompleter
from traitlets import TraitError
from traitlets.config import Config

from mcbews_repl.repl.ipython._config import McbewsRepl
from mcbews_repl.repl.ipython._usage import SUBCOMMANDS, help_text, markdown_table

README = Path(__file__).resolve().parents[3] / "README.md"
PYTHON_KEYWORDS = {"and", "as", "assert", "async", "if", "in", "is", "not", "or", "None"}


def readme_table() -> str:
    """The first table under the README's "%mc reference" heading."""
    section = README.read_text(encoding="utf-8").split("## `%mc` reference", 1)[1]
    lines = section.strip().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("|"))
    end = next((k for k in range(start, len(lines)) if not lines[k].startswith("|")), len(lines))
    return "\n".join(lines[start:end])


def test_the_readme_table_is_the_one_definition() -> None:
    assert readme_table() == markdown_table(), (
        "README's %mc table drifted: paste `python -m mcbews_repl.repl.ipython` into it"
    )


def test_help_shows_the_one_definition(shell: Any) -> None:
    doc = shell.find_line_magic("mc").__doc__
    assert doc == help_text()
    for sub in SUBCOMMANDS:
        shown = "%mc [status]" if sub.name == "status" else sub.synopsis()
        assert f"{shown}\n    {sub.summary}" in doc
    # The options people missed in the old hand-written help are there.
    assert "[--since CURSOR]" in doc and "[--limit N]" in doc


def test_question_mark_shows_it(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    shell.run_cell("%mc?")
    shown = capsys.readouterr().out
    assert "%mc entities [--type T]" in shown and "[--limit N]" in shown


def test_help_as_a_sub_command_shows_the_same(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shell.run_cell("%mc?")
    asked = capsys.readouterr().out
    shell.run_cell("%mc help")
    shown = capsys.readouterr()
    assert not shown.err  # no UsageError, as "help" was before
    assert shown.out.strip() == help_text()
    assert help_text().splitlines()[2] in asked  # %mc? pages the same text
    shell.run_cell("%mc help inv")
    one = capsys.readouterr().out
    assert one.startswith("%mc inv [name]\n    inventories as a DataFrame"), one
    shell.run_cell("%mc help bogus")
    wrong = capsys.readouterr()
    assert "UsageError: %mc help: no sub-command 'bogus'; one of: status, help," in wrong.err


def completions(shell: Any, line: str) -> list[str]:
    """What IPython's completer offers (the API terminal IPython and Jupyter use)."""
    with provisionalcompleter():
        return [c.text for c in shell.Completer.completions(line, len(line))]


def test_tab_offers_players_without_python_keywords(shell: Any) -> None:
    assert completions(shell, "%mc player ") == ["Alex", "Steve"]
    assert completions(shell, "%mc inv A") == ["Alex"]
    assert completions(shell, "%mc tell S") == ["Steve"]
    for line in ("%mc ", "%mc player ", "%mc count ", "%mc entities --", "%mc scores "):
        assert not PYTHON_KEYWORDS & set(completions(shell, line)), line


def test_tab_offers_sub_commands_options_and_choices(shell: Any) -> None:
    assert set(completions(shell, "%mc pl")) == {"player", "players"}
    assert "/scoreboard" in completions(shell, "%mc /sc")
    assert "querytarget" in completions(shell, "%mc cmd ")
    assert "list_capabilities" in completions(shell, "%mc call ")
    entities = completions(shell, "%mc entities --")
    assert {"--type", "--name", "--limit", "--near"} <= set(entities)
    assert completions(shell, "%mc serve --encrypt ") == ["auto", "on", "off"]
    assert completions(shell, "%mc events --l") == ["--last"]
    # Other lines are left to IPython.
    assert "print" in completions(shell, "pri")


def test_config_wins_over_environment_which_wins_over_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MCBEWS_PORT", "19999")
    monkeypatch.setenv("MCBEWS_HOST", "0.0.0.0")
    config = Config()
    config.McbewsRepl.port = 0
    settings = McbewsRepl(config=config)
    assert settings.port == 0  # %config / ipython_config.py
    assert settings.host == "0.0.0.0"  # the environment, where config says nothing
    assert settings.call_timeout == McbewsRepl().call_timeout  # the default
    assert McbewsRepl().port == 19999


def test_encrypt_is_one_of_three_words(monkeypatch: pytest.MonkeyPatch) -> None:
    assert McbewsRepl(encrypt="ON").encrypt_value is True
    with pytest.raises(TraitError):
        McbewsRepl(encrypt="sometimes")
    monkeypatch.setenv("MCBEWS_ENCRYPT", "sometimes")
    with pytest.raises(ValueError, match=re.escape("MCBEWS_ENCRYPT='sometimes' is not a valid")):
        McbewsRepl()
