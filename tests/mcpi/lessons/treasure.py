"""A treasure hunt: a diamond block is hidden near the player; hit blocks to find it."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block
import math
import random
import time

mc = Minecraft.create()

pos = mc.player.getTilePos()
tx = pos.x + random.choice([-5, -4, 4, 5])
tz = pos.z + random.randint(-5, 5)
ty = mc.getHeight(tx, tz)
mc.setBlock(tx, ty, tz, block.DIAMOND_BLOCK)

mc.events.clearAll()
mc.postToChat("Hit blocks with your sword to find the treasure!")

found = False
while not found:
    for hit in mc.events.pollBlockHits():
        x, y, z = hit.pos.x, hit.pos.y, hit.pos.z
        if (x, y, z) == (tx, ty, tz):
            mc.postToChat("You found the treasure!")
            mc.setBlock(tx, ty, tz, block.GOLD_BLOCK)
            found = True
        else:
            away = math.sqrt((x - tx) ** 2 + (y - ty) ** 2 + (z - tz) ** 2)
            mc.postToChat("Not here: " + str(round(away)) + " blocks away")
    time.sleep(0.1)
