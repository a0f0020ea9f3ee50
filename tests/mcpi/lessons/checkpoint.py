"""Save a checkpoint, blow a piece of the world away, build on the crater, then go back:
restoreCheckpoint puts back everything the program changed since saveCheckpoint."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block

mc = Minecraft.create()

pos = mc.player.getTilePos()
x0, y0, z0 = pos.x - 2, pos.y - 2, pos.z - 7
x1, y1, z1 = pos.x + 2, pos.y + 1, pos.z - 4

before = mc.getBlocks(x0, y0, z0, x1, y1, z1)
mc.saveCheckpoint()
mc.postToChat("Saved " + str(len(before)) + " blocks")

mc.setBlocks(x0, y0, z0, x1, y1, z1, block.AIR)
mc.postToChat("Boom! Gone: " + str(mc.getBlocks(x0, y0, z0, x1, y1, z1).count(0)) + " air")

for x in range(x0, x1 + 1):
    for z in range(z0, z1 + 1):
        mc.setBlock(x, y0, z, block.WOOL.id, (x + z) % 16)
mc.postToChat("A rainbow floor in the crater")

mc.restoreCheckpoint()

if mc.getBlocks(x0, y0, z0, x1, y1, z1) == before:
    mc.postToChat("Restored")
else:
    mc.postToChat("Not restored")
