"""How the frames ``mc`` returns look: friendly tables over plain DataFrames.

``mc.inventory()``, ``mc.players()``, ``mc.entities()``, ``mc.events()`` ... return ordinary
pandas DataFrames holding every column, for analysis. Each carries the name of its view in
``DataFrame.attrs``; the extension shows such a frame through the view: short item names,
whole numbers, durability as a percentage with a bar, readable times, no column that is
empty in every row, text that wraps instead of being cut, a width that fits a notebook.
A frame whose columns were changed (a selection, a new column) is no longer what the view
knows, so it shows as pandas shows any frame; so does every other DataFrame.

The views are chosen by name from :data:`VIEWS`; pandas is imported only when a frame is
shown, by whoever made it. The frame's cells keep the game's text as it came (a name with
control characters still equals the name); what the view shows is cleaned
(``mcbews_repl.cleantext``), and so is pandas' own rendering of any other frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...cleantext import clean_text, escape_html
from ...game_events import GAME_EVENTS, GameEventKind
from ...gameids import short_id
from ._style import MUTED as _MUTED

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BROKEN_PERCENT",
    "VIEWS",
    "WORN_PERCENT",
    "Column",
    "View",
    "bar_colour",
    "bar_html",
    "frame_html",
    "frame_text",
    "short_id",
    "tag",
    "view_of",
    "visible_columns",
    "world_view",
]

VIEW_KEY = "mcbews_view"  # DataFrame.attrs: the view's name
COLUMNS_KEY = "mcbews_columns"  # DataFrame.attrs: the columns the view was made for
# Longer frames show their first and last rows, as pandas does past display.max_rows.
MAX_ROWS_SHOWN = 60
HEAD_TAIL_ROWS = 10
# Durability (or health) below these percentages shows amber, then red.
WORN_PERCENT, BROKEN_PERCENT = 50, 20
_GREEN, _AMBER, _RED = "#2da44e", "#d29922", "#cf222e"


def _empty(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, str):
        return not value
    # pandas' missing values (NA, NaT) without importing pandas here
    return type(value).__name__ in {"NAType", "NaTType"}


def _number(value: object, digits: int = 0) -> str:
    if _empty(value):
        return ""
    number = float(value)  # type: ignore[arg-type]
    if digits == 0 or number.is_integer():
        return f"{number:,.0f}"
    return f"{number:,.{digits}f}"


def _time(value: object, *, milliseconds: bool = True) -> str:
    if _empty(value):
        return ""
    stamp = getattr(value, "strftime", None)
    if stamp is None:
        return str(value)
    return str(stamp("%H:%M:%S.%f"))[:-3] if milliseconds else str(stamp("%H:%M:%S"))


def bar_colour(fraction: float) -> str:
    """The bar's colour, judged on the percentage shown beside it (0.19999 shows 20%)."""
    percent = round(fraction * 100)
    if percent < BROKEN_PERCENT:
        return _RED
    return _AMBER if percent < WORN_PERCENT else _GREEN


def bar_html(fraction: float, label: str, title: str = "") -> str:
    """A small horizontal bar (green, amber below half, red below a fifth) and its label."""
    width = max(0.0, min(1.0, fraction)) * 100
    hint = f" title='{escape_html(title)}'" if title else ""
    return (
        f"<span{hint} style='white-space:nowrap'>"
        "<span style='display:inline-block;width:40px;height:8px;margin-right:5px;"
        "vertical-align:middle;border-radius:4px;background:rgba(128,128,128,.25)'>"
        f"<span style='display:block;width:{width:.0f}%;height:100%;border-radius:4px;"
        f"background:{bar_colour(fraction)}'></span></span>{escape_html(label)}</span>"
    )


Cell = Callable[[Any], str]  # a row (pandas Series) to text


@dataclass(frozen=True)
class Column:
    """One column of a view: what it reads from a row and how it shows.

    ``text`` gives the words (terminal and notebook alike); ``html`` may draw more (a bar);
    ``hide_empty`` drops the column when no row has anything to show in it.
    """

    header: str
    text: Cell
    html: Cell | None = None
    align: str = "left"
    wrap: bool = False  # long text wraps (within about 16 characters' width)
    hide_empty: bool = True
    title: Cell | None = None  # a tooltip (the full id behind a short name)

    def words(self, row: Any) -> str:
        """The cell's text as shown: cleaned (``text`` keeps the game's characters)."""
        return clean_text(self.text(row))

    def html_cell(self, row: Any) -> str:
        body = self.html(row) if self.html is not None else escape_html(self.text(row))
        style = f"text-align:{self.align};vertical-align:top"
        style += ";white-space:pre-line;max-width:16em" if self.wrap else ""
        hint = f" title='{escape_html(self.title(row))}'" if self.title is not None else ""
        return f"<td style='{style}'{hint}>{body}</td>"


@dataclass(frozen=True)
class View:
    name: str
    columns: tuple[Column, ...]
    index: str | None = None  # the header of the index when it means something (cursor)
    picks: tuple[str, ...] = ()  # the columns mc.explore offers as pick lists


def _get(name: str) -> Cell:
    return lambda row: "" if _empty(row.get(name)) else str(row.get(name))


def _num(name: str, digits: int = 0) -> Cell:
    return lambda row: _number(row.get(name), digits)


def _short(name: str) -> Cell:
    return lambda row: short_id(row.get(name))


def _durability_text(row: Any) -> str:
    value = row.get("durability")
    return "" if _empty(value) else f"{float(value):.0%}"


def _durability_html(row: Any) -> str:
    value = row.get("durability")
    if _empty(value):
        return ""
    used = f"{_number(row.get('damage'))} of {_number(row.get('maxDurability'))} used"
    return bar_html(float(value), f"{float(value):.0%}", used)


def _name_text(row: Any) -> str:
    """The name tag, and the lore after it in brackets (one column: the table stays narrow)."""
    tag, lore = row.get("nameTag"), row.get("lore")
    parts = [str(tag)] if not _empty(tag) else []
    parts += [f"({lore})" if parts else str(lore)] if not _empty(lore) else []
    return " ".join(parts)


def _name_html(row: Any) -> str:
    tag, lore = row.get("nameTag"), row.get("lore")
    shown = escape_html(str(tag)) if not _empty(tag) else ""
    if not _empty(lore):
        lines = escape_html(str(lore).replace(" / ", "\n"))
        shown += f"<div style='{_MUTED};font-size:0.9em;font-style:italic'>{lines}</div>"
    return shown


def _health_text(row: Any) -> str:
    now, most = row.get("health"), row.get("maxHealth")
    return "" if _empty(now) else f"{_number(now, 1)} / {_number(most, 1)}"


def _health_html(row: Any) -> str:
    now, most = row.get("health"), row.get("maxHealth")
    if _empty(now) or _empty(most) or not float(most):
        return escape_html(_health_text(row))
    return bar_html(float(now) / float(most), _health_text(row))


def _ok_text(row: Any) -> str:
    return "✔" if row.get("ok") else "✘"


def _ok_html(row: Any) -> str:
    ok = bool(row.get("ok"))
    return f"<b style='color:{_GREEN if ok else _RED}'>{'✔' if ok else '✘'}</b>"


def _world_connected(row: Any) -> str:
    """Since when (to the second), or that it dropped: one column keeps the table narrow."""
    if not row.get("connected"):
        return "no, dropped"
    return f"yes, since {_time(row.get('connected since'), milliseconds=False)}"


def _world_address(row: Any) -> str:
    return f"{_get('address')(row)}{', encrypted' if row.get('encrypted') is True else ''}"


_WHERE = (
    Column("dimension", _short("dimension"), title=_get("dimensionId")),
    Column("x", _num("x", 1), align="right"),
    Column("y", _num("y", 1), align="right"),
    Column("z", _num("z", 1), align="right"),
)

VIEWS: dict[str, View] = {
    "inventory": View("inventory", (
        Column("player", _get("player")),
        Column("slot", _get("slot"), align="right"),
        Column("item", _short("item"), title=_get("itemId")),
        Column("amount", _num("amount"), align="right"),
        Column("durability", _durability_text, _durability_html),
        Column("name", _name_text, _name_html, wrap=True),
        Column("enchantments", _get("enchantments"), wrap=True),
    ), picks=("player", "item")),
    "players": View("players", (
        Column("name", _get("name")),
        *_WHERE,
        Column("health", _health_text, _health_html),
        Column("game mode", _get("gameMode")),
        Column("level", _num("level"), align="right"),
        Column("tags", _get("tags"), wrap=True),
    ), picks=("dimension", "game mode")),
    "entities": View("entities", (
        Column("type", _short("type"), title=_get("typeId")),
        Column("name", _get("name")),
        *_WHERE,
        Column("id", _get("id"), align="right"),
    ), picks=("type", "dimension")),
    "events": View("events", (
        Column("time", lambda row: _time(row.get("time"))),
        Column("kind", _get("kind")),
        Column("game", _num("connection"), align="right"),
        Column("player", _get("player")),
        Column("summary", _get("summary"), wrap=True),
    ), index="cursor", picks=("kind", "game", "player")),
    "capabilities": View("capabilities", (
        Column("name", _get("name")),
        Column("description", _get("description"), wrap=True),
        Column("params", _get("params"), wrap=True),
        Column("kind", _get("kind")),  # shown once a prototype is defined (mc.addon)
    )),
    "commands": View("commands", (
        Column("", _ok_text, _ok_html, hide_empty=False),
        Column("command", lambda row: "/" + str(row.get("command"))),
        Column("status", _num("status"), align="right"),
        Column("message", _get("message"), wrap=True),
    )),
    "worlds": View("worlds", (
        Column("id", _num("id"), align="right"),
        Column("name", _get("name")),
        Column("connected", _world_connected),
        Column("address", _world_address),
        Column("players", _get("players"), wrap=True),
        Column("pending", _num("pending"), align="right"),
        Column("last event", _get("last event"), wrap=True),
    ), picks=("connected",)),
    "track": View("track", (
        Column("time", lambda row: _time(row.get("time"))),
        Column("seconds", _num("seconds", 2), align="right"),
        Column("player", _get("player")),
        *_WHERE,
    ), picks=("player", "dimension")),
    # %mc events list, mc.subscriptions: every game event (mcbews_repl/game_events.py).
    "game_events": View("game_events", (
        Column("event", _get("event")),
        Column("source", _get("source")),
        Column("covers", _get("covers")),
        Column("status", _get("status")),
        Column("subscribed", lambda row: "yes" if row.get("subscribed") else "no"),
        Column("callbacks", _num("callbacks"), align="right"),
        Column("meaning", _get("meaning"), wrap=True),
    ), picks=("source", "subscribed")),
}  # fmt: skip


def _failed(row: Any) -> bool:
    return not _empty(row.get("error"))


def _unless_failed(column: Column) -> Column:
    """``column``, blank on a row that stands for a world that failed (its error says why)."""
    text, shown = column.text, column.html
    return replace(
        column,
        text=lambda row: "" if _failed(row) else text(row),
        html=None if shown is None else (lambda row: "" if _failed(row) else shown(row)),
    )


def _by_world(view: View) -> View:
    """``view`` with a world column in front and an error column at the end (mc.each)."""
    columns = (
        Column("world", _get("world")),
        *(_unless_failed(c) for c in view.columns),
        Column("error", _get("error"), wrap=True),
    )
    return View(f"{view.name} by world", columns, view.index, ("world", *view.picks))


def _game_event_view(kind: GameEventKind) -> View:
    """``mc.events(kind="BlockBroken")``: when, which game, who, where, and the event's own
    fields (the short ids shown; the full ``*_id`` ones stay in the frame)."""
    types = {c: f.type for f in kind.fields for c in f.columns}
    own = [
        c
        for c in kind.columns
        if c not in ("player", "x", "y", "z", "dimension", "yaw") and not c.endswith("_id")
    ]

    def column(name: str) -> Column:
        if types.get(name) == "float":
            return Column(name, _num(name, 1), align="right")
        if types.get(name) == "int":
            return Column(name, _num(name), align="right")
        if types.get(name) == "bool":
            return Column(name, lambda row: "" if _empty(row.get(name)) else
                          ("yes" if row.get(name) else "no"))  # fmt: skip
        return Column(name, _get(name), wrap=name in ("message", "properties"))

    return View(f"game_event:{kind.name}", (
        Column("time", lambda row: _time(row.get("time"))),
        Column("game", _num("connection"), align="right"),
        Column("player", _get("player")),
        Column("x", _num("x", 1), align="right"),
        Column("y", _num("y", 1), align="right"),
        Column("z", _num("z", 1), align="right"),
        *(column(c) for c in own),
    ), index="cursor", picks=("player",))  # fmt: skip


VIEWS.update({f"game_event:{name}": _game_event_view(kind) for name, kind in GAME_EVENTS.items()})
VIEWS.update({f"{name} by world": _by_world(view) for name, view in list(VIEWS.items())})


def world_view(view: str) -> str:
    """The name of ``view``'s form with ``world`` and ``error`` columns (mc.each's tables)."""
    return f"{view} by world"


def tag(frame: pd.DataFrame, view: str) -> pd.DataFrame:
    """Mark ``frame`` to show through the view named ``view`` (as long as its columns stay).

    Raises:
        ValueError: no view is called ``view``.
    """
    if view not in VIEWS:
        raise ValueError(f"no view named {view!r}; one of {', '.join(VIEWS)}")
    frame.attrs[VIEW_KEY] = view
    frame.attrs[COLUMNS_KEY] = [str(c) for c in frame.columns]
    return frame


def view_of(frame: Any) -> View | None:
    """The view ``frame`` shows through, or None: not ours, or its columns were changed."""
    attrs = getattr(frame, "attrs", None)
    if not isinstance(attrs, dict) or attrs.get(VIEW_KEY) not in VIEWS:
        return None
    if [str(c) for c in frame.columns] != attrs.get(COLUMNS_KEY):
        return None
    return VIEWS[attrs[VIEW_KEY]]


def _rows(frame: pd.DataFrame) -> tuple[list[tuple[Any, Any]], int]:
    """The rows to show (all, or the first and last ten) and how many are left out."""
    rows = list(frame.iterrows())
    if len(rows) <= MAX_ROWS_SHOWN:
        return rows, 0
    return rows[:HEAD_TAIL_ROWS] + rows[-HEAD_TAIL_ROWS:], len(rows) - 2 * HEAD_TAIL_ROWS


def visible_columns(view: View, frame: pd.DataFrame) -> list[Column]:
    """The view's columns minus those empty in every row (and the game column with one game)."""
    shown = []
    for column in view.columns:
        one_game = "connection" in frame.columns and frame["connection"].nunique() <= 1
        if column.header == "game" and one_game:
            continue
        if column.hide_empty and not any(column.text(r) for _, r in frame.iterrows()):
            continue
        shown.append(column)
    return shown


def frame_html(frame: pd.DataFrame) -> str:
    """``frame`` as an HTML table through its view (pandas' own HTML when it has none)."""
    view = view_of(frame)
    if view is None:
        pandas_html = getattr(frame, "_repr_html_")  # noqa: B009 - pandas-stubs lack it
        # pandas writes no control character of its own: what it holds came in the cells.
        return clean_text(str(pandas_html()))
    columns = visible_columns(view, frame)
    rows, left_out = _rows(frame)
    index = f"<th style='text-align:right'>{escape_html(view.index)}</th>" if view.index else ""
    head = index + "".join(
        f"<th style='text-align:{c.align}'>{escape_html(c.header)}</th>" for c in columns
    )
    body = []
    for position, (label, row) in enumerate(rows):
        if left_out and position == HEAD_TAIL_ROWS:
            span = len(columns) + bool(view.index)
            body.append(f"<tr><td colspan='{span}' style='{_MUTED}'>… {left_out} more rows"
                        "</td></tr>")  # fmt: skip
        cells = f"<th style='text-align:right'>{escape_html(str(label))}</th>" if index else ""
        body.append("<tr>" + cells + "".join(c.html_cell(row) for c in columns) + "</tr>")
    count = f"{len(frame)} row{'s' * (len(frame) != 1)}"
    return (
        "<div class='mcbews-table' style='max-width:100%;overflow-x:auto'>"
        f"<table class='dataframe'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
        f"<div style='{_MUTED};font-size:0.85em'>{count}</div></div>"
    )


def frame_text(frame: pd.DataFrame) -> str:
    """``frame`` as terminal text through its view (pandas' own text when it has none)."""
    view = view_of(frame)
    if view is None:
        return clean_text(repr(frame))  # pandas' text, plain: only the cells can hold controls
    columns = visible_columns(view, frame)
    rows, left_out = _rows(frame)
    grid = [[c.header for c in columns]]
    grid += [[c.words(row).replace("\n", " / ") for c in columns] for _, row in rows]
    aligns = [c.align for c in columns]
    if view.index:
        grid = [[view.index if k == 0 else clean_text(str(rows[k - 1][0])), *line]
                for k, line in enumerate(grid)]  # fmt: skip
        aligns = ["right", *aligns]
    widths = [max(len(line[k]) for line in grid) for k in range(len(aligns))]
    lines = [
        "  ".join(
            cell.rjust(width) if align == "right" else cell.ljust(width)
            for cell, width, align in zip(line, widths, aligns, strict=True)
        ).rstrip()
        for line in grid
    ]
    if left_out:
        lines.insert(HEAD_TAIL_ROWS + 1, f"… {left_out} more rows")
    return "\n".join(lines)
