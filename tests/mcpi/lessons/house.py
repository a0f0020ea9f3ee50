"""A house beside the player: stone walls, a door, glass windows, a plank roof."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block

mc = Minecraft.create()

pos = mc.player.getTilePos()
x, y, z = pos.x + 3, pos.y, pos.z
width, height, depth = 7, 4, 6

# a solid stone box, then hollow it out
mc.setBlocks(x, y, z, x + width - 1, y + height - 1, z + depth - 1, block.STONE)
mc.setBlocks(x + 1, y, z + 1, x + width - 2, y + height - 1, z + depth - 2, block.AIR)

# a door in the front wall, two blocks high
mc.setBlock(x + 3, y, z, block.AIR)
mc.setBlock(x + 3, y + 1, z, block.AIR)

# windows either side of the door
mc.setBlock(x + 1, y + 1, z, block.GLASS)
mc.setBlock(x + 5, y + 1, z, block.GLASS)

# a flat roof of planks
for rx in range(x, x + width):
    for rz in range(z, z + depth):
        mc.setBlock(rx, y + height, rz, block.WOOD_PLANKS)

mc.postToChat("Your house is ready!")
