"""A simulated Minecraft Bedrock world that runs the real addon and connects like the game.

    async with SimWorld(fast=True) as sim:
        await sim.connect(mc.url)       # what /connect <url> does in the game
        sim.ui_chat("Steve", "hello")   # Steve types into the addon's chat panel
        sim.chat("Alex", "hi all")      # Alex types in the game's own chat
        sim.inbox("Steve")              # everything Steve has been shown

It plays the game and the addon: it never imports the bridge (``mcbews_repl.sansio``, its
wire constants included, or the gateway), so a misreading on one side cannot hide behind
the same misreading on the other. Its game facts (strings, status codes, limits, event
shapes) come from its own evidence corpus, ``sim/evidence/`` (see ``facts``).
"""

from __future__ import annotations

from .cli import cli_main
from .client import dial, hang_up
from .commands import CommandOutcome, Interpreter
from .defaults import default_world, make_player
from .facts import ENGLISH, languages
from .model import ChatLine, Enchantment, Entity, ItemStack, Objective, Player, Vec3, WorldState
from .simworld import Edition, Pack, SimWorld
from .wsencrypt import GameCipher, HandshakeRefused, accept_key_exchange, parse_enable_encryption

__all__ = [
    "ENGLISH",
    "ChatLine",
    "CommandOutcome",
    "Edition",
    "Enchantment",
    "Entity",
    "GameCipher",
    "HandshakeRefused",
    "Interpreter",
    "ItemStack",
    "Objective",
    "Pack",
    "Player",
    "SimWorld",
    "Vec3",
    "WorldState",
    "accept_key_exchange",
    "cli_main",
    "default_world",
    "dial",
    "hang_up",
    "languages",
    "make_player",
    "parse_enable_encryption",
]
