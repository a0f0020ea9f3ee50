"""mcpi's API on Bedrock and Minecraft Education: a lesson written for mcpi (Minecraft Pi,
RaspberryJuice) changes only its import line::

    from mcbews_repl.mcpi.minecraft import Minecraft
    from mcbews_repl.mcpi import block

    mc = Minecraft.create()          # prints the /connect line; sim=True: no game needed
    mc.postToChat("Hello, Minecraft!")
    pos = mc.player.getTilePos()
    mc.setBlock(pos.x, pos.y - 1, pos.z, block.WOOL.withData(15))

The modules are laid out as mcpi's: :mod:`.minecraft`, :mod:`.block`, :mod:`.vec3`,
:mod:`.event`, :mod:`.entity`. numpy is needed (the ``repl`` or ``lab`` extra brings it).
What differs on Bedrock, and why: docs/mcpi.md.
"""

from __future__ import annotations

__all__: list[str] = []
