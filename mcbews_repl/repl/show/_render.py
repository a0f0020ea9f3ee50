"""How results look: HTML for Jupyter, rich-coloured text for the terminal.

Nothing here is a method of the data classes: the extension registers these functions
with IPython's display formatters when it loads and removes them when it unloads.
rich is imported only when a terminal rendering is actually asked for. Every piece of text
is cleaned (``mcbews_repl.cleantext``) before it is styled: a name's control characters
show as marks, and only our own colours reach the terminal.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...cleantext import clean_text, escape_html
from ...gametext import runs, to_html
from ...optional import needs
from ._style import MUTED as _MUTED

__all__ = [
    "GameText",
    "ansi",
    "card_html",
    "card_text",
    "command_html",
    "command_text",
    "game_markup",
    "game_text_html",
    "game_text_text",
    "plain_markup",
]

_OK, _FAIL = "#1a7f37", "#cf222e"
# Secondary text and borders follow the notebook's theme (light or dark) where it says.
_BORDER = "var(--jp-border-color1, #ccc)"
# A card's rows carry their own look: JupyterLab styles every table in an output
# (.jp-RenderedHTMLCommon: cells right-aligned, odd and even rows in two backgrounds, a
# hover colour), which made a card's first row read differently from the others.
_ROW = "background:transparent"
_CELL = "text-align:left;vertical-align:top;background:transparent;border:none;line-height:1.4"


def _fields_table(fields: Iterable[tuple[object, object]], key: str, margin: str = "") -> str:
    """Rows of a key (``<th>``, styled ``key``) and its value, all in one look of our own."""
    rows = "".join(
        f"<tr style='{_ROW}'><th style='{_CELL};font-weight:normal;padding:1px 10px 1px 0;"
        f"{key}'>{_e(k)}</th><td style='{_CELL};padding:1px 0'>{_e(v)}</td></tr>"
        for k, v in fields
    )
    return (f"<table class='mcbews-fields' style='border-collapse:collapse;border:none;"
            f"margin:{margin or '0'}'><tbody>{rows}</tbody></table>")  # fmt: skip


def _e(value: object) -> str:
    """Game text as HTML: escaped, its § codes shown as the colours the player sees."""
    return to_html(str(value))


def plain_markup(value: object) -> str:
    """Text as rich markup that shows it as it is: cleaned, then escaped (no § colours)."""
    with needs():
        from rich.markup import escape

    return escape(clean_text(str(value)))


def game_markup(value: object) -> str:
    """Game text as rich markup: cleaned, escaped, its § codes turned into rich styles."""
    parts = []
    for run in runs(str(value)):
        style = " ".join(
            ([run.colour.lower()] if run.colour else [])
            + ["bold"] * run.bold
            + ["italic"] * run.italic
        )
        words = plain_markup(run.text)
        parts.append(f"[{style}]{words}[/]" if style else words)
    return "".join(parts)


def ansi(markup: str, width: int = 100, *, wrap: bool = True) -> str:
    """Render rich console markup to a string with ANSI colours (``wrap``: at ``width``)."""
    with needs():
        from rich.console import Console

    # force_jupyter=False: in a kernel rich would otherwise also display its (empty) capture
    # buffer, leaving a blank <pre></pre> output above every result.
    console = Console(
        width=width,
        force_terminal=True,
        force_jupyter=False,
        color_system="truecolor",  # the game's colours are 24-bit
        highlight=False,
    )
    with console.capture() as capture:
        console.print(markup, end="", soft_wrap=not wrap)
    return capture.get()


def command_html(
    command: str, ok: bool, status_code: int, message: str, extra: dict[str, Any]
) -> str:
    """A command's result as HTML: a tick or a cross, the command, its status code, the
    game's message and any other fields it answered."""
    colour = _OK if ok else _FAIL
    mark = "✔" if ok else "✘"
    return (
        f"<div style='border-left:4px solid {colour};padding:4px 10px;font-family:monospace'>"
        f"<b style='color:{colour}'>{mark} /{escape_html(command)}</b> "
        f"<span style='{_MUTED}'>status {status_code}</span>"
        # say, me and tellraw answer without a statusMessage: no empty line for them
        + (f"<br>{_e(message)}" if message else "")
        + (_fields_table(extra.items(), _MUTED, "4px 0 0 0") if extra else "")
        + "</div>"
    )


def command_text(
    command: str, ok: bool, status_code: int, message: str, extra: dict[str, Any]
) -> str:
    """A command's result as coloured terminal text, the same parts as :func:`command_html`."""
    colour, mark = ("green", "✔") if ok else ("red", "✘")
    lines = [f"[bold {colour}]{mark} /{plain_markup(command)}[/] [dim]status {status_code}[/]"]
    lines += [f"  {game_markup(message)}"] if message else []
    lines += [f"  [dim]{plain_markup(k)}:[/] {game_markup(v)}" for k, v in extra.items()]
    return ansi("\n".join(lines))


def card_html(title: str, subtitle: str, fields: Iterable[tuple[str, object]]) -> str:
    """A small card: a title line and a two-column table of fields."""
    return (
        f"<div style='display:inline-block;border:1px solid {_BORDER};border-radius:6px;"
        "padding:8px 12px;font-family:sans-serif'>"
        f"<div style='font-size:1.2em;font-weight:bold'>{_e(title)}</div>"
        f"<div style='{_MUTED};margin-bottom:4px'>{_e(subtitle)}</div>"
        f"{_fields_table(fields, f'{_MUTED};font-weight:bold')}</div>"
    )


def card_text(title: str, subtitle: str, fields: Iterable[tuple[str, object]]) -> str:
    """A card as coloured terminal text: the title and subtitle, then a line per field."""
    lines = [f"[bold cyan]{game_markup(title)}[/]  [dim]{plain_markup(subtitle)}[/]"]
    lines += [f"  [bold]{plain_markup(k)}[/]: {game_markup(v)}" for k, v in fields]
    return ansi("\n".join(lines))


class GameText(str):
    """Text as the game sent it (``§`` codes and all), shown as the player sees it."""


def game_text_html(text: GameText) -> str:
    """Game text as HTML, its ``§`` codes shown as the colours the player sees."""
    return f"<div>{to_html(str(text))}</div>"


def game_text_text(text: GameText) -> str:
    """Game text as coloured terminal text, its ``§`` codes turned into colours."""
    return ansi(game_markup(str(text)), wrap=False)
