"""A chat-command bot: 'where' says where you are, 'build' puts red wool above your
head, 'bye' stops the bot."""

from mcbews_repl.mcpi.minecraft import Minecraft
import mcbews_repl.mcpi.block as block
import time

mc = Minecraft.create()
mc.events.clearAll()
mc.postToChat("Bot ready: type where, build or bye")

running = True
while running:
    for post in mc.events.pollChatPosts():
        words = post.message.lower().split()
        if not words:
            continue
        if words[0] == "where":
            p = mc.entity.getTilePos(post.entityId)
            mc.postToChat("You are at " + str(p.x) + " " + str(p.y) + " " + str(p.z))
        elif words[0] == "build":
            p = mc.entity.getTilePos(post.entityId)
            mc.setBlock(p.x, p.y + 3, p.z, block.WOOL.id, 14)
            mc.postToChat("Built red wool above you")
        elif words[0] == "bye":
            mc.postToChat("Bye!")
            running = False
        else:
            mc.postToChat("I don't know " + words[0])
    time.sleep(0.1)
