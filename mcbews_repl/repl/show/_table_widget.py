"""``mc.explore(frame)``: a table to filter, search and sort, in the notebook.

A small anywidget of our own (``table_widget.js``), like the live map: the rows are the frame's
view exactly as the static table shows them (short item names, durability bars, readable
times), with a pick list for the columns worth choosing from (player, item, kind ...),
a search box, and a click on a column's name to sort by it (numbers as numbers). The
choice over an interactive table library: itables, the well-kept one, was tried first;
its widget stores its 700 KB DataTables bundle in every saved notebook that shows a
table, where ours stores a few kilobytes of rows and one small module. anywidget is
imported only when a table is explored.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...cleantext import clean_text, escape_html
from ...optional import needs
from ._views import Column, View, frame_html, frame_text, view_of, visible_columns

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["EXPLORE_ROWS_MAX", "PICK_VALUES_MAX", "table_widget", "widget_rows"]

# Rows one table carries to the front end; past this the frame should be narrowed first
# (each row is a few hundred bytes of HTML kept in the notebook).
EXPLORE_ROWS_MAX = 2000
# A column offers a pick list when it has between 2 and this many values.
PICK_VALUES_MAX = 40


def _sort_keys(words: list[str]) -> list[float | str | None]:
    """Numbers where every non-empty cell is one ("1,024", "92%"), else the words."""
    numbers: list[float | str | None] = []
    for word in words:
        text = word.replace(",", "").removesuffix("%").strip()
        if not text:
            numbers.append(None)
            continue
        try:
            number = float(text)
        except ValueError:
            return [w.lower() or None for w in words]
        numbers.append(number if math.isfinite(number) else None)
    return numbers


def _plain_view(frame: pd.DataFrame) -> View:
    """A view of any frame: its columns as they are, numbers to the right."""
    with needs():
        import pandas as pd

    def cell(name: Any) -> Any:
        return lambda row: "" if pd.isna(row.get(name)) else str(row.get(name))

    columns = tuple(
        Column(str(name), cell(name), hide_empty=False,
               align="right" if pd.api.types.is_numeric_dtype(frame[name]) else "left")
        for name in frame.columns
    )  # fmt: skip
    return View("frame", columns, index=str(frame.index.name) if frame.index.name else None)


def widget_rows(frame: pd.DataFrame) -> dict[str, Any]:
    """What the widget shows: column headers, each row's cells (HTML), words and sort keys
    (all cleaned: the page shows pick lists and headers as text)."""
    view = view_of(frame) or _plain_view(frame)
    columns = visible_columns(view, frame)
    shown = frame.iloc[:EXPLORE_ROWS_MAX]
    rows = [row for _, row in shown.iterrows()]
    words = [[c.words(row) for row in rows] for c in columns]
    headers = [clean_text(c.header) for c in columns]
    cells = [[c.html_cell(row) for c in columns] for row in rows]
    aligns = [c.align for c in columns]
    if view.index:
        labels = [clean_text(str(label)) for label in shown.index]
        words.insert(0, labels)
        headers.insert(0, clean_text(view.index))
        aligns.insert(0, "right")
        cells = [[f"<th style='text-align:right'>{escape_html(label)}</th>", *line]
                 for label, line in zip(labels, cells, strict=True)]  # fmt: skip
    keys = [_sort_keys(column) for column in words]
    picks = [_picks(view, header, column) for header, column in zip(headers, words, strict=True)]
    return {
        "columns": [
            {"header": h, "align": a, "picks": p}
            for h, a, p in zip(headers, aligns, picks, strict=True)
        ],
        "rows": [
            {"cells": line, "words": [w[k] for w in words], "keys": [c[k] for c in keys]}
            for k, line in enumerate(cells)
        ],
        "total": len(frame),
    }


def _picks(view: View, header: str, words: list[str]) -> list[str]:
    """The values offered in a column's pick list (none for a column not worth picking)."""
    values = sorted({w for w in words if w})
    wanted = header in view.picks if view.picks else len(values) < len(words)
    return values if wanted and 2 <= len(values) <= PICK_VALUES_MAX else []


def table_widget(frame: pd.DataFrame) -> Any:
    """The widget over ``frame``: pick lists, a search box, sortable columns."""
    with needs("mc.explore"):
        widget = _widget_class()
    table = widget(**widget_rows(frame))
    # Where widgets cannot show (a saved notebook on a web page, a terminal): the static view.
    table.fallback = {"text/html": frame_html(frame), "text/plain": frame_text(frame)}
    return table


@functools.cache
def _widget_class() -> Any:
    with needs():
        import anywidget
        import traitlets

    here = Path(__file__).parent

    class ExploreWidget(anywidget.AnyWidget):
        _esm = (here / "table_widget.js").read_text(encoding="utf-8")
        columns: traitlets.List[Any] = traitlets.List().tag(sync=True)
        rows: traitlets.List[Any] = traitlets.List().tag(sync=True)
        total = traitlets.Int(0).tag(sync=True)
        fallback: dict[str, str] = {}  # noqa: RUF012 - set per table by table_widget

        def _repr_mimebundle_(self, **kwargs: Any) -> Any:
            shown = super()._repr_mimebundle_(**kwargs)
            data, metadata = shown if isinstance(shown, tuple) else (shown or {}, {})
            return {**data, **self.fallback}, metadata

    return ExploreWidget
