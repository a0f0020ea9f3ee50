"""The handle wing: the ``mc`` API for notebooks and scripts (calls, worlds, each,
classroom, simulated worlds, addon development, events, watchers, recordings). It draws
through the ``show`` wing and imports nothing of the ``ipython`` wing, nor IPython at module
level. These names are its API; its modules are private."""

from __future__ import annotations

from ._classroom import class_names, classroom_world
from ._connections import Connection
from ._events import WorldEvent
from ._fanout import snapshot_everyone
from ._launch import listen, start
from ._minecraft import SHIPPED_CAPABILITIES, CallbackFailure, Minecraft, UiMessage
from ._recording import Recording, recording_fields
from ._simulate import SimHandle, make_world
from ._world import World

# Either handle: mc itself, or mc bound to one world (what %mc --world NAME talks to).
AnyHandle = Minecraft | World

__all__ = [
    "SHIPPED_CAPABILITIES",
    "AnyHandle",
    "CallbackFailure",
    "Connection",
    "Minecraft",
    "Recording",
    "SimHandle",
    "UiMessage",
    "World",
    "WorldEvent",
    "class_names",
    "classroom_world",
    "listen",
    "make_world",
    "recording_fields",
    "snapshot_everyone",
    "start",
]
