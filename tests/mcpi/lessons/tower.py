"""A tower of gold follows the player: wherever they stop, one goes up beside them."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block
import time

mc = Minecraft.create()
mc.postToChat("Walk around: a tower follows you")

TOWERS = 3
built = 0
last = None
while built < TOWERS:
    pos = mc.player.getTilePos()
    if pos != last:
        mc.setBlocks(pos.x + 1, pos.y, pos.z, pos.x + 1, pos.y + 4, pos.z, block.GOLD_BLOCK)
        mc.postToChat("Tower " + str(built + 1) + " built")
        built = built + 1
        last = pos
    time.sleep(0.1)

mc.postToChat("That's enough towers!")
