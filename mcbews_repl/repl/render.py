"""How results look: HTML for Jupyter, rich-coloured text for the terminal.

Nothing here is a method of the data classes: the extension registers these functions
with IPython's display formatters when it loads and removes them when it unloads.
rich is imported only when a terminal rendering is actually asked for.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from typing import Any

from ..optional import needs
from ..sansio.formatting import runs, to_html

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
]

_OK, _FAIL = "#1a7f37", "#cf222e"
# Secondary text and borders follow the notebook's theme (light or dark) where it says.
_MUTED = "color:var(--jp-ui-font-color2, #666)"
_BORDER = "var(--jp-border-color1, #ccc)"


def _e(value: object) -> str:
    """Game text as HTML: escaped, its § codes shown as the colours the player sees."""
    return to_html(str(value))


def game_markup(value: object) -> str:
    """Game text as rich markup: escaped, its § codes turned into rich styles."""
    with needs():
        from rich.markup import escape

    parts = []
    for run in runs(str(value)):
        style = " ".join(
            ([run.colour.lower()] if run.colour else [])
            + ["bold"] * run.bold
            + ["italic"] * run.italic
        )
        parts.append(f"[{style}]{escape(run.text)}[/]" if style else escape(run.text))
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
    colour = _OK if ok else _FAIL
    mark = "✔" if ok else "✘"
    rows = "".join(
        f"<tr><td style='padding:0 8px 0 0;{_MUTED}'>{_e(k)}</td><td>{_e(v)}</td></tr>"
        for k, v in extra.items()
    )
    return (
        f"<div style='border-left:4px solid {colour};padding:4px 10px;font-family:monospace'>"
        f"<b style='color:{colour}'>{mark} /{html.escape(command)}</b> "
        f"<span style='{_MUTED}'>status {status_code}</span>"
        # say, me and tellraw answer without a statusMessage: no empty line for them
        + (f"<br>{_e(message)}" if message else "")
        + (f"<table style='margin-top:4px'>{rows}</table>" if rows else "")
        + "</div>"
    )


def command_text(
    command: str, ok: bool, status_code: int, message: str, extra: dict[str, Any]
) -> str:
    with needs():
        from rich.markup import escape

    colour, mark = ("green", "✔") if ok else ("red", "✘")
    lines = [f"[bold {colour}]{mark} /{escape(command)}[/] [dim]status {status_code}[/]"]
    lines += [f"  {game_markup(message)}"] if message else []
    lines += [f"  [dim]{escape(str(k))}:[/] {game_markup(v)}" for k, v in extra.items()]
    return ansi("\n".join(lines))


def card_html(title: str, subtitle: str, fields: Iterable[tuple[str, object]]) -> str:
    """A small card: a title line and a two-column table of fields."""
    rows = "".join(
        f"<tr><th style='text-align:left;padding:1px 10px 1px 0;{_MUTED}'>{_e(k)}</th>"
        f"<td style='text-align:left'>{_e(v)}</td></tr>"
        for k, v in fields
    )
    return (
        f"<div style='display:inline-block;border:1px solid {_BORDER};border-radius:6px;"
        "padding:8px 12px;font-family:sans-serif'>"
        f"<div style='font-size:1.2em;font-weight:bold'>{_e(title)}</div>"
        f"<div style='{_MUTED};margin-bottom:4px'>{_e(subtitle)}</div>"
        f"<table>{rows}</table></div>"
    )


def card_text(title: str, subtitle: str, fields: Iterable[tuple[str, object]]) -> str:
    with needs():
        from rich.markup import escape

    lines = [f"[bold cyan]{game_markup(title)}[/]  [dim]{escape(subtitle)}[/]"]
    lines += [f"  [bold]{escape(k)}[/]: {game_markup(v)}" for k, v in fields]
    return ansi("\n".join(lines))


class GameText(str):
    """Text as the game sent it (``§`` codes and all), shown as the player sees it."""


def game_text_html(text: GameText) -> str:
    return f"<div>{to_html(str(text))}</div>"


def game_text_text(text: GameText) -> str:
    return ansi(game_markup(str(text)), wrap=False)
