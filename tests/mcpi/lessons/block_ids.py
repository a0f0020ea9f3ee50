"""The numeric-id classics: a rainbow of wool (35, 0-15) and of stained glass (95, 0-15),
TNT (46), a wooden slab (126) and an activator rail (157), read back with their data."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block

mc = Minecraft.create()

pos = mc.player.getTilePos()
x, y, z = pos.x - 8, pos.y + 5, pos.z + 6

for colour in range(16):
    mc.setBlock(x + colour, y, z, 35, colour)
    mc.setBlock(x + colour, y + 1, z, block.STAINED_GLASS.id, colour)

mc.setBlock(x, y + 2, z, 46)
mc.setBlock(x + 1, y + 2, z, 126)
mc.setBlock(x + 2, y + 2, z, 157)

black = mc.getBlockWithData(x + 15, y, z)
glass = mc.getBlockWithData(x + 11, y + 1, z)
mc.postToChat("wool 15 reads " + str(black.id) + ":" + str(black.data))
mc.postToChat("glass 11 reads " + str(glass.id) + ":" + str(glass.data))
mc.postToChat("tnt reads " + str(mc.getBlock(x, y + 2, z)))
