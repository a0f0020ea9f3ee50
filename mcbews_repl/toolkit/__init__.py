"""The world-exploration toolkit: typed queries and scoreboards over the bridge's commands.

```python
from mcbews_repl.toolkit import Scoreboard, WorldQueries

q = WorldQueries(mc)                      # mc: the Bridge from serve()
n = await q.item_count("Steve", "minecraft:diamond")
n.known, n.value, n.reason                # a count, or None and why; never a guessed 0
```

Nothing here imports IPython or pandas at module level; ``to_dataframe()`` imports pandas.
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
from .world import Scoreboard, WorldQueries

__all__ = [
    "Ack",
    "BlockCheck",
    "EntityList",
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
    "WorldQueries",
]
