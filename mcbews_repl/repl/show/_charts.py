"""Charts that answer the questions people ask of a world, from the frames ``mc`` returns.

``items_by_player(inventory)``: what each player holds, item by item, stacked.
``durability(inventory)``: how worn every tool and piece of armour is.
``paths(track)``: where the players went (``mc.track(...)``), from above and in height.

Each returns a matplotlib figure that shows itself once when it ends a cell; players keep
the colours the live map gives them. matplotlib is imported when a chart is drawn
(``pip install mcbews-repl[lab]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...optional import needs
from ._mapdraw import player_colours
from ._views import BROKEN_PERCENT, WORN_PERCENT, bar_colour

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = ["durability", "items_by_player", "paths"]

# Items shown by items_by_player; the rest are summed in one bar.
TOP_ITEMS = 15


def _need(frame: pd.DataFrame, columns: tuple[str, ...], made_by: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"this chart reads {', '.join(missing)}: give it the frame {made_by} "
                         "returns")  # fmt: skip


def _figure(height: float, width: float = 8.0) -> Figure:
    with needs():
        from ...toolkit import shown_figure

    return shown_figure(figsize=(width, height), layout="constrained")


def items_by_player(inventory: pd.DataFrame, *, top: int = TOP_ITEMS) -> Figure:
    """A bar per item (most first), split by player: who holds how many of what.

    Raises:
        ValueError: ``inventory`` lacks the columns ``mc.inventory()`` gives.
    """
    _need(inventory, ("player", "item", "amount"), "mc.inventory()")
    table = inventory.pivot_table(
        index="item", columns="player", values="amount", aggfunc="sum", fill_value=0
    )
    table = table.loc[table.sum(axis=1).sort_values(ascending=False).index]
    if len(table) > top:
        rest = table.iloc[top - 1 :].sum().rename(f"{len(table) - top + 1} other items")
        table = table.iloc[: top - 1]
        table.loc[rest.name] = rest
    colours = player_colours(str(p) for p in table.columns)
    fig = _figure(max(2.5, 0.32 * len(table) + 1.2))
    ax = fig.subplots()
    table[::-1].plot.barh(stacked=True, ax=ax, color=[colours[str(p)] for p in table.columns],
                          width=0.75)  # fmt: skip
    ax.set(xlabel="items held", ylabel="", title="Items by player")
    ax.legend(title="player", loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return fig


def durability(inventory: pd.DataFrame) -> Figure:
    """Every tool and piece of armour, most worn first: green, amber below half, red below
    a fifth, as in the inventory table.

    Raises:
        ValueError: ``inventory`` lacks the columns ``mc.inventory()`` gives, or no item in
            it has durability.
    """
    _need(inventory, ("player", "slot", "item", "durability"), "mc.inventory()")
    worn = inventory.dropna(subset=["durability"]).sort_values("durability", ascending=False)
    if worn.empty:
        raise ValueError("no item in this inventory has durability (tools, weapons, armour)")
    labels = [f"{p}: {t} ({s})" for p, t, s in
              zip(worn["player"], worn["item"], worn["slot"], strict=True)]  # fmt: skip
    percent = [float(d) * 100 for d in worn["durability"]]
    fig = _figure(max(2.5, 0.32 * len(worn) + 1.2))
    ax = fig.subplots()
    bars = ax.barh(labels, percent, color=[bar_colour(p / 100) for p in percent], height=0.7)
    ax.bar_label(bars, labels=[f"{p:.0f}%" for p in percent], padding=3)
    for line in (WORN_PERCENT, BROKEN_PERCENT):
        ax.axvline(line, color="grey", linewidth=0.8, linestyle=":")
    ax.set(xlim=(0, 110), xlabel="durability left (%)", title="Tools and armour")
    return fig


def paths(track: pd.DataFrame) -> Figure:
    """Each player's path seen from above (x east, z south, north up; a dot where they
    started, a square where they ended), and their height over the seconds tracked.

    Raises:
        ValueError: ``track`` lacks the columns ``mc.track()`` gives, or holds no snapshots.
    """
    _need(track, ("player", "seconds", "x", "y", "z"), "mc.track()")
    if track.empty:
        raise ValueError("the track holds no snapshots")
    colours = player_colours(str(p) for p in track["player"].unique())
    fig = _figure(4.2, 10.0)
    top, side = fig.subplots(1, 2, width_ratios=[1.2, 1])
    for name, rows in track.groupby("player", sort=True):
        colour = colours[str(name)]
        top.plot(rows["x"], rows["z"], color=colour, linewidth=2, label=str(name))
        top.plot(rows["x"].iloc[0], rows["z"].iloc[0], "o", color=colour)
        top.plot(rows["x"].iloc[-1], rows["z"].iloc[-1], "s", color=colour)
        side.plot(rows["seconds"], rows["y"], color=colour, linewidth=2, label=str(name))
    top.invert_yaxis()  # z grows to the south: north is up, as on the map
    top.set(xlabel="x (east)", ylabel="z (south)", title="Where they went", aspect="equal")
    top.margins(0.15)
    top.legend(frameon=False)
    side.set(xlabel="seconds", ylabel="y (height)", title="Height over time")
    for ax in (top, side):
        ax.grid(alpha=0.3)
    return fig
