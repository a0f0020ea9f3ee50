"""matplotlib charts of the notebook's frames, in the players' map colours (docs/repl.md):
``items_by_player(inventory)``, ``durability(inventory)`` and ``paths(track)``."""

from __future__ import annotations

from .show import durability, items_by_player, paths

__all__ = ["durability", "items_by_player", "paths"]
