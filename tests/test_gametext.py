"""The game's § formatting codes: clean words for tables, colours for display."""

from __future__ import annotations

import html
import re

from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.gametext import (
    COLOURS,
    Run,
    has_codes,
    runs,
    strip_codes,
    to_ansi,
    to_html,
)

# Game-like text: words, section signs, code letters (known and not) and markup characters.
game_text = st.text(
    alphabet=st.sampled_from(list("ab §§0123456789abcdefghijklmnopqrstuvwxyzKLOR<>&'\""))
)


def test_strip_codes_keeps_the_words() -> None:
    assert strip_codes("§6Legendary") == "Legendary"
    assert strip_codes("§a[assistant]§r In-game time: 1000") == "[assistant] In-game time: 1000"
    assert strip_codes("Treasure §cX") == "Treasure X"
    assert strip_codes("plain") == "plain"
    # A lone sign and a letter that is no code are shown as they are, as the game does.
    assert strip_codes("50§ off §z") == "50§ off §z"
    assert strip_codes("§") == "§"


def test_runs_follow_bedrock_rules() -> None:
    assert runs("§l§6Gold§r plain") == [Run("Gold", "#FFAA00", bold=True), Run(" plain")]
    # In Bedrock a colour code does not end bold; only §r does.
    assert runs("§lA§cB") == [Run("A", bold=True), Run("B", "#FF5555", bold=True)]
    # §m and §n are material colours in Bedrock, not strikethrough or underline.
    assert runs("§mR§nC") == [Run("R", COLOURS["m"]), Run("C", COLOURS["n"])]
    assert runs("§oi§kk") == [Run("i", italic=True), Run("k", italic=True, obfuscated=True)]


def test_html_shows_colours_on_the_chat_background_and_escapes() -> None:
    shown = to_html("§6<b>Gold</b>")
    assert "color:#FFAA00" in shown and "&lt;b&gt;Gold&lt;/b&gt;" in shown and "<b>" not in shown
    assert "background:#1e1e1e" in shown  # light codes (§f) stay readable
    assert to_html("plain <x>") == "plain &lt;x&gt;"


def test_ansi_uses_the_true_colours() -> None:
    assert to_ansi("§aok§r!") == "\x1b[38;2;85;255;85mok\x1b[0m!"
    assert to_ansi("§lbold") == "\x1b[1mbold\x1b[0m"
    assert to_ansi("plain") == "plain"


# An independent statement of the rule: each "§" + code letter, scanned left to right.
_CODE = re.compile("§[" + "".join(COLOURS) + "klor]", re.IGNORECASE)


@given(game_text)
def test_stripping_removes_each_code_and_nothing_else(text: str) -> None:
    clean = strip_codes(text)
    assert clean == _CODE.sub("", text) == "".join(r.text for r in runs(text))
    assert has_codes(text) == bool(_CODE.search(text))


@given(game_text)
def test_html_holds_exactly_the_clean_words(text: str) -> None:
    shown = to_html(text)
    words = html.unescape("".join(part.split(">")[-1] for part in shown.split("<")))
    assert words == strip_codes(text)


# Game text with what a hostile player adds: escapes, BEL, CR, C1 CSI, a right-to-left override.
_HOSTILE_LETTERS = ["\x1b", "\x07", "\r", "\x9b", "\u202e", "\u2066", "\n"]
hostile_text = st.text(alphabet=st.sampled_from([*"ab §§0123456789lorK<>&", *_HOSTILE_LETTERS]))
_OUR_SGR = re.compile(r"\x1b\[[0-9;]*m")
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@given(hostile_text)
def test_what_is_shown_holds_no_control_character(text: str) -> None:
    assert not _UNSAFE.search(to_html(text))
    assert not _UNSAFE.search(_OUR_SGR.sub("", to_ansi(text)))  # only our colours remain


def test_the_words_keep_the_characters_the_display_shows_as_marks() -> None:
    name = "§6Eve\x1b[2J\u202e"
    assert strip_codes(name) == "Eve\x1b[2J\u202e"  # the data: still equals the name
    assert to_ansi(name) == "\x1b[38;2;255;170;0mEve␛[2J⟨U+202E⟩\x1b[0m"
    assert "Eve␛[2J⟨U+202E⟩</span>" in to_html(name)
