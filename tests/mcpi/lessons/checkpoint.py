"""Save a piece of the world, blow it away, and put it back: the blocks are saved with
getBlocks and restored with setBlock."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block

mc = Minecraft.create()

pos = mc.player.getTilePos()
x0, y0, z0 = pos.x - 2, pos.y - 2, pos.z - 7
x1, y1, z1 = pos.x + 2, pos.y + 1, pos.z - 4

saved = mc.getBlocks(x0, y0, z0, x1, y1, z1)
mc.postToChat("Saved " + str(len(saved)) + " blocks")

mc.setBlocks(x0, y0, z0, x1, y1, z1, block.AIR)
mc.postToChat("Boom! Gone: " + str(mc.getBlocks(x0, y0, z0, x1, y1, z1).count(0)) + " air")

i = 0
for y in range(y0, y1 + 1):
    for x in range(x0, x1 + 1):
        for z in range(z0, z1 + 1):
            mc.setBlock(x, y, z, saved[i])
            i = i + 1

if mc.getBlocks(x0, y0, z0, x1, y1, z1) == saved:
    mc.postToChat("Restored")
else:
    mc.postToChat("Not restored")
