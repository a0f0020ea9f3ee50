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
``read_blocks`` returns a ``BlockRegion`` (``toolkit.region``, which needs numpy).
"""

from __future__ import annotations

from .answers import (
    Ack,
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
from .blocks import read_blocks
from .context import ChatContexts, ContextBundle
from .tools import Tools
from .webhook import EventForwarder, sign, verify_signature
from .world import Scoreboard, WorldQueries

__all__ = [
    "Ack",
    "BlockCheck",
    "ChatContexts",
    "ContextBundle",
    "EntityList",
    "EventForwarder",
    "ItemCount",
    "ObjectiveList",
    "ObjectiveScores",
    "RegionScan",
    "ScoreChange",
    "ScoreList",
    "ScoreRead",
    "Scoreboard",
    "TagList",
    "TestFor",
    "Tools",
    "WorldQueries",
    "read_blocks",
    "sign",
    "verify_signature",
]
