"""Game text made safe to show: no control character or bidi control survives, each is
shown (not dropped), and printable text, newline and tab pass unchanged."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.cleantext import clean_text, escape_html

BIDI_CONTROLS = {chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]}
DIRECTION_MARKS = {"\u200e", "\u200f", "\u061c"}
# What a hostile player puts in a name: set the window title, clear the screen, reverse.
HOSTILE = "\x1b]0;pwned\x07Eve\x1b[2J\u202e"


def unsafe(ch: str) -> bool:
    """What must never reach a terminal or a page as it is."""
    code = ord(ch)
    if ch in "\n\t":
        return False
    return (
        code < 0x20
        or 0x7F <= code <= 0x9F
        or ch in BIDI_CONTROLS
        or ch in DIRECTION_MARKS
        or 0xD800 <= code <= 0xDFFF
    )


# Any text, weighted towards the characters that matter.
texts = st.text(
    alphabet=st.one_of(
        st.characters(),
        st.sampled_from([*sorted(BIDI_CONTROLS | DIRECTION_MARKS), "\x1b", "\x07", "\x9b"]),
        st.characters(max_codepoint=0x9F),
    )
)


def test_a_hostile_name_is_shown_as_what_it_holds() -> None:
    assert clean_text(HOSTILE) == "␛]0;pwned␇Eve␛[2J⟨U+202E⟩"
    assert clean_text("Ste\rve\x00\x7f") == "Ste␍ve␀␡"
    assert clean_text("\x9b2J \x85") == "⟨U+009B⟩2J ⟨U+0085⟩"
    assert clean_text("a\u200fb\u2066c\ud800") == "a⟨U+200F⟩b⟨U+2066⟩c⟨U+D800⟩"


def test_newline_tab_and_printable_text_pass_unchanged() -> None:
    for text in ("Steve", "line one\nline two\tand a tab", "你好 §6gold ✔ 🙂 שלום", ""):
        assert clean_text(text) == text


@given(texts)
def test_no_unsafe_character_survives(text: str) -> None:
    assert not any(unsafe(ch) for ch in clean_text(text))


@given(texts)
def test_cleaning_twice_changes_nothing(text: str) -> None:
    once = clean_text(text)
    assert clean_text(once) == once


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs"))))
def test_text_without_controls_is_unchanged(text: str) -> None:
    kept = "".join(ch for ch in text if ch not in BIDI_CONTROLS | DIRECTION_MARKS)
    assert clean_text(kept) == kept


@given(texts)
def test_every_character_is_accounted_for(text: str) -> None:
    # Nothing is dropped: each unsafe character becomes one mark, the rest stay in order.
    shown = clean_text(text)
    marks = sum(unsafe(ch) for ch in text)
    pictures = sum(unicodedata.name(ch, "").startswith("SYMBOL FOR ") for ch in shown) - sum(
        unicodedata.name(ch, "").startswith("SYMBOL FOR ") for ch in text
    )
    assert shown.count("⟨U+") - text.count("⟨U+") + pictures == marks


@given(texts)
def test_a_page_gets_escaped_clean_text(text: str) -> None:
    page = escape_html(text)
    assert not any(unsafe(ch) for ch in page)
    assert not set(page) & set("<>\"'")


def test_pages_and_markup_escape_only_through_cleaned_text() -> None:
    # One way into a page or rich markup, so no rendering escapes without cleaning: HTML
    # through escape_html, rich markup through render.plain_markup (the doctor's table,
    # which sits below the REPL, cleans before it escapes).
    package = Path(__file__).resolve().parents[1] / "mcbews_repl"
    allowed = {"html.escape": {"cleantext.py"},
               "rich.markup": {"repl/show/_render.py", "doctor/view.py"}}  # fmt: skip
    for path in package.rglob("*.py"):
        where = path.relative_to(package).as_posix()
        source = path.read_text(encoding="utf-8")
        for call, homes in allowed.items():
            assert call not in source or where in homes, f"{where} uses {call}"
    assert "escape(clean_text(" in (package / "doctor" / "view.py").read_text(encoding="utf-8")
