"""The game's ``§`` formatting codes: strip them for tables, turn them into colours for display.

Bedrock text carries colours and styles inline: ``§6Legendary`` is gold, ``§l`` bold, ``§r``
resets. Names, lore, chat lines and text responses (``§a[assistant]§r ...``) all use them.
Tables want the clean words; cards and chat renderings want what the player sees. The raw
text itself is never changed where it is stored (snapshots, the event log, the sim's inbox).

:func:`strip_codes` gives the words as data (a DataFrame cell keeps a name's control
characters, so it still equals the name); :func:`to_html` and :func:`to_ansi` are for
showing, so they also make control characters and bidi controls visible
(``mcbews_repl.cleantext``) before they colour the text.

The code table is Bedrock's, from the Minecraft Wiki's "Formatting codes" page
(docs/repl.md lists it): the 16 classic colours, ``§g`` minecoin gold and the
material colours ``§h``..``§v``; styles ``§k`` obfuscated, ``§l`` bold, ``§o`` italic, and
``§r`` reset. Bedrock has no underline or strikethrough: ``§m`` and ``§n`` are colours.
In Bedrock a colour code does not end a style; only ``§r`` does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .cleantext import clean_text, escape_html

__all__ = ["COLOURS", "Run", "has_codes", "runs", "strip_codes", "to_ansi", "to_html"]

SECTION_SIGN = "§"
COLOURS: dict[str, str] = {
    "0": "#000000",
    "1": "#0000AA",
    "2": "#00AA00",
    "3": "#00AAAA",
    "4": "#AA0000",
    "5": "#AA00AA",
    "6": "#FFAA00",
    "7": "#AAAAAA",
    "8": "#555555",
    "9": "#5555FF",
    "a": "#55FF55",
    "b": "#55FFFF",
    "c": "#FF5555",
    "d": "#FF55FF",
    "e": "#FFFF55",
    "f": "#FFFFFF",
    "g": "#DDD605",  # minecoin gold
    "h": "#E3D4D1",
    "i": "#CECACA",
    "j": "#443A3B",
    "m": "#971607",  # quartz, iron,
    "n": "#B4684D",
    "p": "#DEB12D",
    "q": "#119F36",
    "s": "#2CBAA8",  # netherite, redstone,
    "t": "#21497B",
    "u": "#9A5CC6",
    "v": "#EB7114",  # copper, gold, emerald, diamond,
}  # fmt: skip  (lapis, amethyst, resin: the material colours in letter order)
_STYLES = {"k": "obfuscated", "l": "bold", "o": "italic"}
_RESET = "r"
# The game's chat draws on a dark panel; light codes (§f white) need it to be readable.
CHAT_BACKGROUND = "#1e1e1e"


@dataclass(frozen=True)
class Run:
    """A stretch of text with one look."""

    text: str
    colour: str | None = None  # "#RRGGBB", None for the default colour
    bold: bool = False
    italic: bool = False
    obfuscated: bool = False


def has_codes(text: str) -> bool:
    """Whether ``text`` holds at least one § formatting code (a lone § or an unknown
    letter after it is not one)."""
    return SECTION_SIGN in text and bool(_split(text)[1])


def _split(text: str) -> tuple[list[tuple[str, str]], bool]:
    """(code, text) pairs; code "" for the text before the first code. True if any code."""
    pieces: list[tuple[str, str]] = []
    code, start, i, found = "", 0, 0, False
    while (i := text.find(SECTION_SIGN, i)) != -1:
        letter = text[i + 1 : i + 2].lower()
        if letter and (letter in COLOURS or letter in _STYLES or letter == _RESET):
            pieces.append((code, text[start:i]))
            code, start, found = letter, i + 2, True
            i += 2
        else:
            i += 1  # a lone "§" or an unknown letter is shown as it is
    pieces.append((code, text[start:]))
    return pieces, found


def runs(text: str) -> list[Run]:
    """The text as runs of one look each (empty runs left out)."""
    out: list[Run] = []
    look = Run("")
    for code, piece in _split(text)[0]:
        if code == _RESET:
            look = Run("")
        elif code in COLOURS:
            look = replace(look, colour=COLOURS[code])  # styles persist (Bedrock)
        elif code == "l":
            look = replace(look, bold=True)
        elif code == "o":
            look = replace(look, italic=True)
        elif code == "k":
            look = replace(look, obfuscated=True)
        if piece:
            out.append(replace(look, text=piece))
    return out


def strip_codes(text: str) -> str:
    """The words without their codes: ``"§6Legendary"`` -> ``"Legendary"``."""
    if SECTION_SIGN not in text:
        return text
    return "".join(run.text for run in runs(text))


def to_html(text: str) -> str:
    """Escaped, cleaned HTML showing the colours and styles, on the chat's dark background
    if coloured."""
    if not has_codes(text):
        return escape_html(text)
    parts = []
    for run in runs(text):
        css = [f"color:{run.colour}"] if run.colour else []
        css += ["font-weight:bold"] * run.bold + ["font-style:italic"] * run.italic
        css += ["text-decoration:underline dotted"] * run.obfuscated
        body = escape_html(run.text)
        parts.append(f"<span style='{';'.join(css)}'>{body}</span>" if css else body)
    return (
        f"<span style='background:{CHAT_BACKGROUND};color:#ffffff;padding:0 3px;"
        f"border-radius:3px'>{''.join(parts)}</span>"
    )


def to_ansi(text: str) -> str:
    """The text, cleaned, with 24-bit ANSI colours for a terminal (codes removed, styles
    kept)."""
    if not has_codes(text):
        return clean_text(text)
    parts = []
    for run in runs(text):
        sgr = []
        if run.colour:
            r, g, b = (int(run.colour[k : k + 2], 16) for k in (1, 3, 5))
            sgr.append(f"38;2;{r};{g};{b}")
        sgr += ["1"] * run.bold + ["3"] * run.italic
        words = clean_text(run.text)
        parts.append(f"\x1b[{';'.join(sgr)}m{words}\x1b[0m" if sgr else words)
    return "".join(parts)
