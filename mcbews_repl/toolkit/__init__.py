"""The world-exploration toolkit: typed queries, scoreboards, chat-moment contexts, signed
event forwarding and an agent-facing tool surface, all over the bridge's commands and the
addon's capabilities.

```python
from mcbews_repl.toolkit import Scoreboard, Tools, WorldQueries

q = WorldQueries(mc)                      # mc: the Bridge from serve()
n = await q.item_count("Steve", "minecraft:diamond")
n.known, n.value, n.reason                # a count, or None and why; never a guessed 0
tools = Tools(mc)
await tools.call("entities", entity_type="minecraft:cow", limit=5)   # never raises
```

Nothing here imports IPython or pandas at module level; ``to_dataframe()`` imports pandas.
``read_blocks`` returns a ``BlockRegion``, which needs numpy: it and its pictures load when
first named, as does ``write_blocks`` (``mc.set_blocks``), which writes one back, and ``Structure``
with ``read_structure``/``write_structure`` (``.mcstructure`` files).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_names
from .answers import (
    Ack,
    Answer,
    BlockCheck,
    EntityList,
    ItemCount,
    ObjectiveList,
    ObjectiveScores,
    RegionScan,
    ScoreChange,
    ScoreList,
    ScoreRead,
    TagList,
    TestFor,
)
from .blocks import read_blocks, split_box
from .boxes import Box
from .catalogue import CATALOGUE
from .colours import block_colours
from .context import ChatContexts, ContextBundle
from .gamestrings import languages_writing
from .gamestrings import read as read_game_text
from .gamestrings import strings as game_strings
from .guard import POLICY_KEYS, RULES, AuditEntry, Guard, GuardedBridge, Policy, Region, Rule
from .live import LiveEvents
from .tools import AUDIT_ARGUMENT_CHARS, Tools, audit_arguments
from .webhook import EventForwarder, sign, verify_signature
from .world import Scoreboard, WorldQueries

if TYPE_CHECKING:
    from .preview import WritePreview, preview_write
    from .region import BlockRegion
    from .regionplot import picture_png, shown_figure, surface_png
    from .shapes import (
        BlockSpec,
        PixelArt,
        Shape,
        cuboid,
        cylinder,
        line,
        pixel_art,
        sphere,
    )
    from .structures import Structure, read_structure, structure_command_line, write_structure
    from .undo import Builder, check_force
    from .writes import KEEP, PlannedWrite, WriteResult, plan_write, send_write, write_blocks

# The region and its pictures need numpy (and matplotlib): they load when first named, so
# the toolkit (and %load_ext, which uses it) loads without them.
_LAZY = {
    "BlockRegion": ".region",
    "picture_png": ".regionplot",
    "shown_figure": ".regionplot",
    "surface_png": ".regionplot",
    "BlockSpec": ".shapes",
    "PixelArt": ".shapes",
    "Shape": ".shapes",
    "pixel_art": ".shapes",
    "cuboid": ".shapes",
    "cylinder": ".shapes",
    "line": ".shapes",
    "sphere": ".shapes",
    "Structure": ".structures",
    "read_structure": ".structures",
    "structure_command_line": ".structures",
    "write_structure": ".structures",
    "WritePreview": ".preview",
    "preview_write": ".preview",
    "Builder": ".undo",
    "check_force": ".undo",
    "KEEP": ".writes",
    "PlannedWrite": ".writes",
    "WriteResult": ".writes",
    "plan_write": ".writes",
    "send_write": ".writes",
    "write_blocks": ".writes",
}

__all__ = [
    "AUDIT_ARGUMENT_CHARS",
    "CATALOGUE",
    "KEEP",
    "POLICY_KEYS",
    "RULES",
    "Ack",
    "Answer",
    "AuditEntry",
    "BlockCheck",
    "BlockRegion",
    "BlockSpec",
    "Box",
    "Builder",
    "ChatContexts",
    "ContextBundle",
    "EntityList",
    "EventForwarder",
    "Guard",
    "GuardedBridge",
    "ItemCount",
    "LiveEvents",
    "ObjectiveList",
    "ObjectiveScores",
    "PixelArt",
    "PlannedWrite",
    "Policy",
    "Region",
    "RegionScan",
    "Rule",
    "ScoreChange",
    "ScoreList",
    "ScoreRead",
    "Scoreboard",
    "Shape",
    "Structure",
    "TagList",
    "TestFor",
    "Tools",
    "WorldQueries",
    "WritePreview",
    "WriteResult",
    "audit_arguments",
    "block_colours",
    "check_force",
    "cuboid",
    "cylinder",
    "game_strings",
    "languages_writing",
    "line",
    "picture_png",
    "pixel_art",
    "plan_write",
    "preview_write",
    "read_blocks",
    "read_game_text",
    "read_structure",
    "send_write",
    "shown_figure",
    "sign",
    "sphere",
    "split_box",
    "structure_command_line",
    "surface_png",
    "verify_signature",
    "write_blocks",
    "write_structure",
]

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
