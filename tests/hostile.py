"""A hostile player for tests and soak runs: a name that sets the terminal's window title,
clears the screen and reverses the text after it, on the world's host, an item's name tag
and lore, and a pet's name tag; and the check that none of it reaches a screen.

In a session (terminal IPython, a notebook, a script's ``mc``)::

    await mc.simulate([HOSTILE, "Alex"])   # the host: the world's name, "Eve's game"
    mc.sim.edit(plant)                     # the item and the pet
    mc.sim.chat(HOSTILE, "hello " + HOSTILE)

then show anything and pass what the terminal or page received to :func:`leftovers`.
"""

from __future__ import annotations

import re
from pathlib import Path

from mcbews_repl.cleantext import clean_text
from mcbews_repl.sim import Entity, ItemStack, Vec3, WorldState

__all__ = ["HOSTILE", "OUR_COLOURS", "SESSION", "SHOWN", "leftovers", "plant"]

# Set the window title (OSC 0 ... BEL), clear the screen (CSI 2 J), reverse (U+202E).
HOSTILE = "\x1b]0;pwned\x07Eve\x1b[2J\u202e"
SHOWN = clean_text(HOSTILE)  # what a reader sees instead: "␛]0;pwned␇Eve␛[2J⟨U+202E⟩"
# Our own colours (rich's and the game text's SGR sequences): the only escapes allowed.
OUR_COLOURS = re.compile(r"\x1b\[[0-9;]*m")
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_ROOT = str(Path(__file__).resolve().parents[1])
# The lines a person would type to meet the hostile player (H), in IPython or a notebook.
SESSION = [
    f"import sys; sys.path.insert(0, {_ROOT!r})",
    "from tests.hostile import HOSTILE as H, plant",
    "await mc.simulate([H, 'Alex'])",
    "mc.sim.edit(plant)",
    "mc.sim.chat(H, 'hello ' + H)",
]


def plant(world: WorldState, name: str = HOSTILE) -> None:
    """The player ``name`` holds a sword with ``name`` as name tag and in its lore, and a
    wolf next to them carries ``name`` as its name tag."""
    sword = ItemStack("minecraft:diamond_sword", name_tag=name, lore=[f"once {name}"])
    world.players[name].inventory[0] = sword
    world.entities.append(Entity("minecraft:wolf", Vec3(3.0, 64.0, 3.0), name_tag=name))


def leftovers(received: str) -> str:
    """What of ``received`` must never reach a terminal or a page: every control character
    (newline and tab aside), C1 control, bidi control and lone surrogate, once our own
    colour sequences are taken out. Empty when the screen is safe."""
    return "".join(_UNSAFE.findall(OUR_COLOURS.sub("", received)))
