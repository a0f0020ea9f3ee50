"""``mc.explore(frame)``: a table to filter, search and sort, in the notebook.

Built on itables' widget (DataTables inside an anywidget): a well-kept library (frequent
releases, pandas and polars, JupyterLab, VS Code and Colab) whose offline bundle carries
DataTables' SearchPanes, so a reader picks a player or an item from a list and sees the
matching rows, types in a search box, and sorts any column, without writing a filter.
As a widget it needs no trusted notebook and no JavaScript of ours. The rows are the
frame's view (short item names, whole numbers, durability in percent) with numbers kept
as numbers, so sorting is numeric. itables is imported only when a table is explored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .views import view_of, visible_columns

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PANE_MAX_VALUES", "explore_frame", "explore_table"]

# A column becomes a pick list (a search pane) when it has between 2 and this many values:
# players, items, kinds of event; not coordinates or free text.
PANE_MAX_VALUES = 24
ROWS_PER_PAGE = 10


def _as_numbers(values: list[str]) -> list[float | int | None] | None:
    """The column as numbers when every non-empty cell is one ("1,024", "92%"), else None;
    whole numbers stay whole, empty cells are None (DataTables shows them empty)."""
    numbers: list[float | int | None] = []
    for value in values:
        text = value.replace(",", "").removesuffix("%").strip()
        if not text:
            numbers.append(None)
            continue
        try:
            number = float(text)
        except ValueError:
            return None
        numbers.append(int(number) if number.is_integer() else number)
    return numbers


def explore_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows to explore: the frame's view as columns of words and numbers."""
    import pandas as pd

    view = view_of(frame)
    if view is None:
        return frame.reset_index() if frame.index.name else frame
    rows = [row for _, row in frame.iterrows()]
    table: dict[str, Any] = {}
    if view.index:
        table[view.index] = list(frame.index)
    for column in visible_columns(view, frame):
        words = [column.text(row) for row in rows]
        numbers = _as_numbers(words)
        percent = any(w.endswith("%") for w in words)
        header = f"{column.header} %" if percent and numbers is not None else column.header
        table[header or "ok"] = pd.Series(numbers if numbers is not None else words, dtype=object)
    return pd.DataFrame(table)


def _panes(table: pd.DataFrame, named: tuple[str, ...] | None) -> list[int]:
    """Which columns get a pick list: those the view names, when they offer a choice; for
    other frames, columns of words that repeat (not names or free text)."""
    chosen = []
    for position, name in enumerate(table.columns):
        values = table[name].dropna()
        values = values[values != ""]
        choice = 2 <= values.nunique() <= PANE_MAX_VALUES
        if named is not None:
            picked = name in named and choice
        else:
            words = all(isinstance(v, str) for v in values)
            picked = words and choice and values.nunique() < len(values)
        if picked:
            chosen.append(position)
    return chosen


def explore_table(frame: pd.DataFrame) -> Any:
    """An itables widget over ``frame``: pick lists, a search box, sortable columns."""
    try:
        from itables.widget import ITable
    except ImportError as exc:
        raise ImportError(
            "mc.explore needs itables and anywidget: pip install 'mcbews-repl[lab]'"
        ) from exc
    table = explore_frame(frame)
    view = view_of(frame)
    panes = _panes(table, view.picks if view is not None else None)
    options: dict[str, Any] = {"pageLength": ROWS_PER_PAGE, "showIndex": False,
                               "classes": "display compact", "maxBytes": 0}  # fmt: skip
    if panes:
        options["layout"] = {"top1": "searchPanes"}
        options["searchPanes"] = {"columns": panes, "cascadePanes": True, "viewTotal": True,
                                  "layout": f"columns-{min(len(panes), 3)}"}  # fmt: skip
    return ITable(table, **options)
