"""The show wing: every rendering of the notebook skin (cards, tables, views, widgets,
maps, charts, progress bars, the status panel). It imports nothing of the ``handle`` or
``ipython`` wings; pandas, rich, matplotlib and the widgets load inside the functions that
need them. These names are its API; its modules are private."""

from __future__ import annotations

from ._charts import durability, items_by_player, paths
from ._livemap import MIN_EVERY_SECONDS, LiveMap, StaticMap, widgets_available
from ._mapdraw import MapPoint, MapSnapshot
from ._previewview import PREVIEW_TYPE, preview_html, preview_text
from ._progress import Bar, blocks_bar, progress_bar, samples_bar, until_cancelled
from ._regionview import REGION_TYPE, region_html, region_text
from ._render import (
    GameText,
    ansi,
    card_html,
    card_text,
    command_html,
    command_text,
    game_text_html,
    game_text_text,
    plain_markup,
)
from ._results import CallResult, result_html, result_text
from ._status import Status, status_fields, world_sentence
from ._table_widget import table_widget
from ._tables import (
    PlayerSnapshot,
    caps_frame,
    clean_rows,
    entities_frame,
    events_frame,
    inventory_frame,
    player_rows,
    players_frame,
    track_frame,
    track_rows,
)
from ._views import frame_html, frame_text, tag, world_view
from ._writeview import WRITE_TYPE, write_html, write_text

__all__ = [
    "MIN_EVERY_SECONDS",
    "PREVIEW_TYPE",
    "REGION_TYPE",
    "WRITE_TYPE",
    "Bar",
    "CallResult",
    "GameText",
    "LiveMap",
    "MapPoint",
    "MapSnapshot",
    "PlayerSnapshot",
    "StaticMap",
    "Status",
    "ansi",
    "blocks_bar",
    "caps_frame",
    "card_html",
    "card_text",
    "clean_rows",
    "command_html",
    "command_text",
    "durability",
    "entities_frame",
    "events_frame",
    "frame_html",
    "frame_text",
    "game_text_html",
    "game_text_text",
    "inventory_frame",
    "items_by_player",
    "paths",
    "plain_markup",
    "player_rows",
    "players_frame",
    "preview_html",
    "preview_text",
    "progress_bar",
    "region_html",
    "region_text",
    "result_html",
    "result_text",
    "samples_bar",
    "status_fields",
    "table_widget",
    "tag",
    "track_frame",
    "track_rows",
    "until_cancelled",
    "widgets_available",
    "world_sentence",
    "world_view",
    "write_html",
    "write_text",
]
