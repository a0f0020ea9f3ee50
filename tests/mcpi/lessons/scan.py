"""A copy machine: scan the blocks beside the player with getBlocks and build the same
again ten blocks higher; say how many solid blocks it found."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block

mc = Minecraft.create()

pos = mc.player.getTilePos()
x0, y0, z0 = pos.x + 3, pos.y, pos.z - 2
x1, y1, z1 = pos.x + 6, pos.y + 2, pos.z + 2

ids = mc.getBlocks(x0, y0, z0, x1, y1, z1)

# getBlocks lists y, then x, then z, each from its lowest
solid = 0
i = 0
for y in range(y0, y1 + 1):
    for x in range(x0, x1 + 1):
        for z in range(z0, z1 + 1):
            mc.setBlock(x, y + 10, z, ids[i])
            if ids[i] != block.AIR.id:
                solid = solid + 1
            i = i + 1

mc.postToChat("Copied " + str(len(ids)) + " blocks, " + str(solid) + " solid")
