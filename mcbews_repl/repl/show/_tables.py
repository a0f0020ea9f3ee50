"""Capability answers and the event log as pandas DataFrames (pandas imported lazily)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...gameids import id_columns, with_ids
from ...gametext import strip_codes
from ...optional import needs
from ._views import tag

if TYPE_CHECKING:
    import pandas as pd

    from ...gateway import LogEntry
    from ...toolkit import EntityList

__all__ = [
    "EQUIPMENT_SLOTS",
    "PlayerSnapshot",
    "caps_frame",
    "clean_rows",
    "entities_frame",
    "events_frame",
    "inventory_frame",
    "player_rows",
    "players_frame",
    "track_frame",
    "track_rows",
]

EQUIPMENT_SLOTS = ("head", "chest", "legs", "feet", "offhand")
# What the addon reports per stack (mc.inventory(raw=True)); the default frame names the
# item as every table names ids (gameids.py: item, itemId) and holds counts as whole numbers.
INVENTORY_COLUMNS = [
    "player",
    "slot",
    "typeId",
    "amount",
    "maxAmount",
    "nameTag",
    "lore",
    "enchantments",
    "damage",
    "maxDurability",
    "durability",
]
WHOLE_NUMBER_COLUMNS = ("amount", "maxAmount", "damage", "maxDurability")
EVENT_COLUMNS = ["time", "kind", "connection", "player", "summary"]
# Each id column is the short name, with the full id after it (gameids.py).
ENTITY_COLUMNS = id_columns(["id", "type", "name", "dimension", "x", "y", "z", "yaw"],
                            "type", "dimension")  # fmt: skip
_WHERE = ["dimension", "dimensionId", "x", "y", "z", "yaw"]
TRACK_COLUMNS = ["time", "seconds", "player", *_WHERE, "health"]
# How each dimension reads in a sentence ("Survival in the overworld").
_DIMENSION_WORDS = {"overworld": "the overworld", "nether": "the Nether", "the_end": "the End"}


def clean_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Table cells hold the words without their § formatting codes (the data keeps them)."""
    return [{k: strip_codes(v) if isinstance(v, str) else v for k, v in r.items()} for r in rows]


def _players(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    players = result.get("players")
    if isinstance(players, list):
        return [p for p in players if isinstance(p, dict)]
    return [dict(result)] if "name" in result else []


@dataclass(frozen=True)
class PlayerSnapshot:
    """One player as the addon saw them; renders as a card, ``.to_series()`` for pandas."""

    name: str
    data: dict[str, Any] = field(repr=False)

    def row(self) -> dict[str, Any]:
        """The player as one table row: name, id, where, facing, health, game mode, level,
        xp, selected slot, sneaking, sleeping and tags (a column each, as ``mc.players()``)."""
        d = self.data
        loc, rot = d.get("location") or {}, d.get("rotation") or {}
        health, xp = d.get("health") or {}, d.get("xp") or {}
        row = {
            "name": self.name,
            "id": d.get("id"),
            "dimension": d.get("dimension"),
            "x": loc.get("x"),
            "y": loc.get("y"),
            "z": loc.get("z"),
            "yaw": rot.get("yaw"),
            "pitch": rot.get("pitch"),
            "health": health.get("current"),
            "maxHealth": health.get("max"),
            "gameMode": d.get("gameMode"),
            "level": d.get("level"),
            "xp": xp.get("total"),
            "selectedSlot": d.get("selectedSlot"),
            "sneaking": d.get("sneaking"),
            "sleeping": d.get("sleeping"),
            "tags": ", ".join(d.get("tags") or []),
        }
        return with_ids(row, "dimension")

    def subtitle(self) -> str:
        """What the card says under the name: the game mode and the dimension."""
        r = self.row()
        dimension = r["dimension"] or "an unknown dimension"
        where = _DIMENSION_WORDS.get(dimension, dimension)
        return f"{r['gameMode'] or 'in a game mode not told'} in {where}"

    def card_fields(self) -> list[tuple[str, object]]:
        """The (label, value) rows the player's card shows."""
        r = self.row()
        where = f"{r['x']:.1f}, {r['y']:.1f}, {r['z']:.1f}" if r["x"] is not None else "?"
        return [
            ("where", f"{where} in {r['dimension']}"),
            ("facing", f"yaw {r['yaw']}, pitch {r['pitch']}"),
            ("health", f"{r['health']} / {r['maxHealth']}"),
            ("game mode", r["gameMode"]),
            ("level", f"{r['level']} ({r['xp']} xp)"),
            ("selected slot", r["selectedSlot"]),
            ("tags", r["tags"] or "—"),
            ("entity id", r["id"]),
        ]

    def to_series(self) -> pd.Series[Any]:
        """:meth:`row` as a pandas Series named after the player."""
        with needs():
            import pandas as pd

        return pd.Series(self.row(), name=self.name)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]


def player_rows(result: Mapping[str, Any]) -> list[PlayerSnapshot]:
    """A player snapshot answer (one player, or a ``players`` list): a snapshot each."""
    return [PlayerSnapshot(str(p.get("name", "?")), p) for p in _players(result)]


def players_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A player snapshot answer as a DataFrame: a row per player, as
    :meth:`PlayerSnapshot.row` gives it."""
    with needs():
        import pandas as pd

    rows = clean_rows([p.row() for p in player_rows(result)])
    columns = list(PlayerSnapshot("", {}).row())
    return tag(pd.DataFrame(rows, columns=columns), "players")


def _item_row(player: str, slot: object, item: Mapping[str, Any]) -> dict[str, Any]:
    durability = item.get("durability") or {}
    enchants = item.get("enchantments") or []
    damage, most = durability.get("damage"), durability.get("max")
    return {
        "player": player,
        "slot": slot,
        "typeId": item.get("typeId"),
        "amount": item.get("amount"),
        "maxAmount": item.get("maxAmount"),
        "nameTag": item.get("nameTag"),
        "lore": " / ".join(item.get("lore") or []) or None,
        "enchantments": ", ".join(f"{e.get('id')} {e.get('level')}" for e in enchants) or None,
        "damage": damage,
        "maxDurability": most,
        "durability": (1 - damage / most) if damage is not None and most else None,
    }


def inventory_frame(result: Mapping[str, Any], *, raw: bool = False) -> pd.DataFrame:
    """One row per occupied slot; equipment rows use the slot names (head, chest ...).

    The default frame names the item as every table names ids: ``item`` (the short name,
    without ``minecraft:``) and ``itemId`` (the full id); it holds counts as whole numbers
    and shows through the inventory view. ``raw`` gives the addon's fields alone (its
    ``typeId``), shown as pandas shows any frame.
    """
    with needs():
        import pandas as pd

    rows: list[dict[str, Any]] = []
    for player in _players(result):
        name = str(player.get("name", "?"))
        rows += [_item_row(name, s.get("slot"), s) for s in player.get("slots") or []]
        equipment = player.get("equipment") or {}
        rows += [_item_row(name, k, equipment[k]) for k in EQUIPMENT_SLOTS if equipment.get(k)]
    frame = pd.DataFrame(clean_rows(rows), columns=INVENTORY_COLUMNS)
    if raw:
        return frame
    named = [with_ids({"item": item}, "item") for item in frame["typeId"]]
    frame = frame.drop(columns="typeId")
    frame.insert(2, "item", [n["item"] for n in named])
    frame.insert(3, "itemId", [n["itemId"] for n in named])
    for column in WHOLE_NUMBER_COLUMNS:
        frame[column] = frame[column].astype("Int64")
    return tag(frame, "inventory")


def caps_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """The addon's capability list as a DataFrame: name, description and params, and a
    ``kind`` column (shipped or prototype) once a prototype is among them."""
    with needs():
        import pandas as pd

    listed = [c for c in result.get("capabilities") or [] if isinstance(c, dict)]
    rows = [
        {
            "name": c.get("name"),
            "description": c.get("description"),
            "params": ", ".join(f"{k}: {v}" for k, v in (c.get("params") or {}).items()) or "—",
            "kind": "prototype" if c.get("prototype") is True else "shipped",
        }
        for c in listed
    ]
    # The kind column appears once a prototype is defined (mc.addon), to tell them apart.
    columns = ["name", "description", "params"]
    if any(c.get("prototype") is True for c in listed):
        columns.append("kind")
    return tag(pd.DataFrame(clean_rows(rows), columns=columns), "capabilities")


def events_frame(entries: Iterable[LogEntry], players: Mapping[int, str]) -> pd.DataFrame:
    """One row per log entry, indexed by its cursor (what ``mc.events(since=...)`` takes)."""
    with needs():
        import pandas as pd

    entries = list(entries)
    rows = [
        {
            "time": dt.datetime.fromtimestamp(e.at),
            "kind": e.kind,
            "connection": e.connection,
            "player": e.data.get("player")
            or e.data.get("sender")
            or (players.get(e.connection) if e.connection is not None else None),
            "summary": e.summary,
        }
        for e in entries
    ]
    index = pd.Index([e.cursor for e in entries], name="cursor", dtype="int64")
    return tag(pd.DataFrame(clean_rows(rows), columns=EVENT_COLUMNS, index=index), "events")


def entities_frame(found: EntityList, described: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """querytarget's rows with each entity's type and name (from ``describe_entities``)."""
    with needs():
        import pandas as pd

    rows = []
    for e in found.entities:
        info = described.get(e.id) or {}
        where = {"dimension": e.dimension, "x": e.x, "y": e.y, "z": e.z, "yaw": e.yaw}
        row = {"id": e.id, "type": info.get("typeId"), "name": info.get("nameTag") or None,
               **where}  # fmt: skip
        rows.append(with_ids(row, "type", "dimension"))
    return tag(pd.DataFrame(clean_rows(rows), columns=ENTITY_COLUMNS), "entities")


def track_rows(
    result: Mapping[str, Any], at: float, seconds: float, wanted: set[str] | None = None
) -> list[dict[str, Any]]:
    """One snapshot of every player (or those ``wanted``) as rows of a track."""
    rows = []
    for snapshot in player_rows(result):
        if wanted is not None and snapshot.name not in wanted:
            continue
        row = snapshot.row()
        where = {k: row[k] for k in TRACK_COLUMNS[3:]}  # dimension, dimensionId ... health
        when = {"time": dt.datetime.fromtimestamp(at), "seconds": round(seconds, 3)}
        rows.append({**when, "player": snapshot.name, **where})
    return rows


def track_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Where players were over time: one row per player and snapshot, oldest first."""
    with needs():
        import pandas as pd

    frame = pd.DataFrame(clean_rows(rows), columns=TRACK_COLUMNS)
    frame["time"] = pd.to_datetime(frame["time"])
    return tag(frame, "track")
