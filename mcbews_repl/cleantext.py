"""Text from the game made safe to show: control characters and bidi controls made visible.

Player names, name tags, lore, chat, entity names and world names are typed by players, and
the game passes them on as they are. Printed raw, ``ESC ] 0 ; ... BEL`` sets a terminal's
window title, ``ESC [ 2 J`` clears the screen, a carriage return writes over what is shown,
and U+202E (right-to-left override) makes "Steve" read backwards in a page or a terminal.
Every rendering (cards, tables, maps, the status panel, reprs, the doctor, the command line
tools) passes the game's words through :func:`clean_text` before it styles them; the data
(capability answers, DataFrames, the event log, captures) keeps the raw string.

The characters are shown, not dropped, so that a teacher sees a name holds something odd:

- C0 controls (U+0000..U+001F) except newline and tab, as the Control Pictures
  (ESC as ``␛``, BEL as ``␇``, CR as ``␍``), and DEL as ``␡``: one character for one, so
  columns stay aligned;
- C1 controls (U+0080..U+009F; U+009B is CSI to some terminals), the bidirectional
  embeddings, overrides and isolates (U+202A..U+202E, U+2066..U+2069), the direction marks
  (U+200E, U+200F, U+061C: invisible, and they reorder the text around them) and lone
  surrogates (which a UTF-8 terminal cannot encode), as ``⟨U+202E⟩``.

The result holds none of these, so cleaning twice changes nothing; printable text, newline
and tab pass unchanged. Standard library only: the game-text helpers
(``mcbews_repl.gametext``) use it too.
"""

from __future__ import annotations

import html
import re

__all__ = ["clean_text", "escape_html"]

_CONTROL_PICTURES = 0x2400  # U+2400 SYMBOL FOR NULL: the picture of C0 code n is U+2400 + n
_DELETE_PICTURE = "\u2421"  # ␡
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _visible(match: re.Match[str]) -> str:
    code = ord(match[0])
    if code < 0x20:
        return chr(_CONTROL_PICTURES + code)
    if code == 0x7F:
        return _DELETE_PICTURE
    return f"⟨U+{code:04X}⟩"


def clean_text(text: str) -> str:
    """``text`` with its control characters and bidi controls made visible (see above).

    Newline and tab stay; everything else printable is returned as it is. Call it on the
    data before styling it (rich markup, ANSI colours, HTML), never on styled output.
    """
    if _UNSAFE.search(text) is None:
        return text  # the common case: nothing to change, nothing copied
    return _UNSAFE.sub(_visible, text)


def escape_html(text: str) -> str:
    """``text`` cleaned, then escaped for HTML (``<>&"'``): game text in a page."""
    return html.escape(clean_text(text))
