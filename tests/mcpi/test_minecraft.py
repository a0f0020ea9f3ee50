"""Every mcpi call of the facade against the simulated world (running the real addon)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mcbews_repl.exceptions import (
    CheckpointIncomplete,
    CommandFailed,
    NoBedrockEqual,
    NothingToUndo,
    UnknownBlockId,
)
from mcbews_repl.mcpi import block
from mcbews_repl.mcpi import minecraft as facade
from mcbews_repl.mcpi.block import Block
from mcbews_repl.mcpi.minecraft import Minecraft
from mcbews_repl.mcpi.vec3 import Vec3
from mcbews_repl.sim.facts import UNFIXED_SPAWN_Y
from mcbews_repl.sim.model import Vec3 as SimVec3

DEADLINE_SECONDS = 20.0


def wait_for(check: Callable[[], Any], what: str) -> Any:
    end = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < end:
        if value := check():
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {DEADLINE_SECONDS} s: {what}")


@pytest.fixture(scope="module")
def mc() -> Iterator[Minecraft]:
    """The simulated world in its own coordinates (the spawn's are tested below)."""
    world = Minecraft.create(sim=True, coordinates="absolute")
    yield world
    world.close()


@pytest.fixture
def spawn_at(mc: Minecraft) -> Iterator[Callable[[float, float, float], None]]:
    """Set what the simulated world answers as its spawn; the default again afterwards."""
    options = mc._mc.sim.raw.api.options  # one attribute set: what the next read answers
    before = options.spawn

    def move(x: float, y: float, z: float) -> None:
        options.spawn = SimVec3(x, y, z)

    yield move
    options.spawn = before


def test_create_twice_joins_the_same_world(mc: Minecraft) -> None:
    again = Minecraft.create(sim=True, coordinates="absolute")
    mc.setBlock(2, 90, 2, block.GOLD_BLOCK)
    assert again.getBlock(2, 90, 2) == block.GOLD_BLOCK.id  # a read writes what waits first


def test_set_and_get_a_block_with_its_data(mc: Minecraft) -> None:
    mc.setBlock(0, 80, 0, block.WOOL.id, 14)
    mc.setBlock(Vec3(1, 80, 0), block.WOOL.withData(15))
    assert mc.getBlock(0, 80, 0) == 35
    assert mc.getBlockWithData(0, 80, 0) == Block(35, 14)
    assert mc.getBlockWithData(1.7, 80.2, 0.9) == Block(35, 15)  # floored, as mcpi's
    mc.setBlock(1, 80, 0, block.STAINED_GLASS.id, 11)
    assert mc.getBlockWithData(1, 80, 0) == Block(95, 11)


def test_the_last_set_of_a_position_wins(mc: Minecraft) -> None:
    for data in range(16):
        mc.setBlock(5, 80, 5, block.WOOL.id, data)
    assert mc.getBlockWithData(5, 80, 5) == Block(35, 15)


def test_set_blocks_and_get_blocks_in_raspberryjuices_order(mc: Minecraft) -> None:
    mc.setBlocks(10, 80, 10, 11, 81, 11, block.STONE)
    mc.setBlock(11, 80, 10, block.DIRT)  # x 1, y 0, z 0
    mc.setBlock(10, 81, 11, block.SAND)  # x 0, y 1, z 1
    ids = mc.getBlocks(11, 81, 11, 10, 80, 10)  # corners in any order
    # y, then x, then z: (y0 x0 z0) (y0 x0 z1) (y0 x1 z0) (y0 x1 z1) (y1 x0 z0) ...
    assert ids == [1, 1, 3, 1, 1, 12, 1, 1]


def test_a_write_waits_no_longer_than_the_timer(mc: Minecraft) -> None:
    mc.setBlock(20, 80, 20, block.DIAMOND_BLOCK)
    handle = mc._mc  # reads through the handle do not flush the batch

    def written() -> bool:
        region = handle.blocks((20, 80, 20), (20, 80, 20)).result()
        return region.block(20, 80, 20) == "minecraft:diamond_block"

    wait_for(written, "the batched block written by the timer")


def test_get_height(mc: Minecraft) -> None:
    ground = mc.getHeight(30, 30)
    mc.setBlocks(30, ground + 1, 30, 30, ground + 5, 30, block.BRICK_BLOCK)
    assert mc.getHeight(30, 30) == ground + 5


def test_player_positions_and_facing(mc: Minecraft) -> None:
    mc.player.setTilePos(3, 100, 4)
    assert mc.player.getTilePos() == Vec3(3, 100, 4)
    mc.player.setPos(3.25, 101, 4.75)
    pos = mc.player.getPos()
    assert (pos.x, pos.y, pos.z) == pytest.approx((3.25, 101, 4.75))
    yaw, pitch = mc.player.getRotation(), mc.player.getPitch()
    d = mc.player.getDirection()
    assert d.length() == pytest.approx(1.0)
    assert d.y == pytest.approx(-math.sin(math.radians(pitch)))
    assert d.z == pytest.approx(math.cos(math.radians(yaw)) * math.cos(math.radians(pitch)))


def test_entities_are_players_by_id(mc: Minecraft) -> None:
    ids = mc.getPlayerEntityIds()
    host = mc.getPlayerEntityId(mc._conn.local_player or "")
    assert host in ids
    mc.entity.setTilePos(host, 7, 100, 7)
    assert mc.entity.getTilePos(host) == Vec3(7, 100, 7)
    assert mc.entity.getRotation(host) == mc.player.getRotation()
    with pytest.raises(NoBedrockEqual, match="positions of players only"):
        mc.entity.getPos(12345)
    with pytest.raises(LookupError, match="no player 'Nobody'"):
        mc.getPlayerEntityId("Nobody")


def test_chat_posts_are_polled_once(mc: Minecraft) -> None:
    mc.events.clearAll()
    mc.postToChat("Hello, Minecraft!")  # our own post is not a player's
    mc._mc.sim.chat(mc._conn.local_player, "hi bot")
    posts = wait_for(mc.events.pollChatPosts, "the player's chat line")
    assert [p.message for p in posts] == ["hi bot"]
    assert posts[0].entityId == mc.getPlayerEntityId(mc._conn.local_player or "")
    assert mc.events.pollChatPosts() == []


def test_post_to_chat_shows_the_text(mc: Minecraft) -> None:
    cursor = mc._mc.bridge.log.last_cursor
    mc.postToChat("x" * 1000)  # longer than one command line: several lines
    said = [e.data["command"] for e in mc._mc.bridge.events(cursor) if e.kind == "command"]
    assert len(said) == 3 and all(line.startswith("tellraw @a ") for line in said)


def test_what_bedrock_has_not_says_so(mc: Minecraft) -> None:
    with pytest.raises(NoBedrockEqual, match="nametags_visible"):
        mc.setting("nametags_visible", True)
    with pytest.raises(NoBedrockEqual, match="auto-jump"):
        mc.player.setting("autojump", False)
    # /immutableworld is Bedrock's equal; the simulated world does not know it
    with pytest.raises(CommandFailed, match="immutableworld"):
        mc.setting("world_immutable", True)


def test_camera_calls_do_nothing(mc: Minecraft) -> None:
    cursor = mc._mc.bridge.log.last_cursor
    mc.camera.setNormal()
    mc.camera.setFixed()
    mc.camera.setFollow(1)
    mc.camera.setPos(1, 2, 3)
    assert mc._mc.bridge.events(cursor) == []


def test_an_unknown_block_is_refused_before_anything_is_sent(mc: Minecraft) -> None:
    with pytest.raises(UnknownBlockId, match="999 is not an mcpi block id"):
        mc.setBlock(0, 80, 0, 999)
    with pytest.raises(UnknownBlockId, match="no data value 16"):
        mc.setBlocks(0, 80, 0, 1, 80, 1, block.WOOL.id, 16)
    with pytest.raises(TypeError, match="setBlock takes x, y, z, id"):
        mc.setBlock(0, 80, 0)


def test_a_block_newer_than_the_numbering_reads_as_an_error(mc: Minecraft) -> None:
    mc._mc.set_blocks((40, 80, 40), [[["minecraft:deepslate"]]]).result()
    with pytest.raises(UnknownBlockId, match="deepslate has no mcpi block id"):
        mc.getBlock(40, 80, 40)


def test_an_origin_moves_every_coordinate(mc: Minecraft) -> None:
    moved = Minecraft.create(sim=True, origin=(12, 10, -6))
    moved.setBlock(0, 70, 0, block.GLASS)
    assert mc.getBlock(12, 80, -6) == block.GLASS.id
    moved.player.setTilePos(0, 90, 0)
    assert mc.player.getTilePos() == Vec3(12, 100, -6)
    assert moved.player.getTilePos() == Vec3(0, 90, 0)


def test_a_second_world_on_the_bridge_is_not_written(mc: Minecraft) -> None:
    handle = mc._mc
    handle.simulate(worlds=1).result()  # a class of one more world joins the same bridge
    other = handle.bridge.connections[-1]
    assert other is not mc._conn
    mc.setBlock(8, 80, 8, block.OBSIDIAN)
    assert mc.getBlock(8, 80, 8) == block.OBSIDIAN.id
    region = handle.blocks((8, 80, 8), (8, 80, 8), connection=other.id).result()
    assert region.block(8, 80, 8) != "minecraft:obsidian"


def test_block_hits_of_every_player_are_polled_once_with_their_face(mc: Minecraft) -> None:
    mc.events.clearAll()
    mc._mc.sim.hit_block("Alex", 2, 63, 2, "North")  # not the connected client: the addon
    hits = wait_for(mc.events.pollBlockHits, "Alex's block hit")
    (hit,) = hits
    assert (hit.pos.x, hit.pos.y, hit.pos.z, hit.face) == (2, 63, 2, 2)  # mcpi: 2 is north
    assert hit.entityId == mc.getPlayerEntityId("Alex")
    assert mc.events.pollBlockHits() == []


def test_the_port_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcbews_repl.mcpi import minecraft

    monkeypatch.delenv(minecraft.PORT_ENV, raising=False)
    assert minecraft._env_port() == minecraft.DEFAULT_PORT
    monkeypatch.setenv(minecraft.PORT_ENV, "0")  # any free one (tests/mcpi/test_lessons.py)
    assert minecraft._env_port() == 0
    monkeypatch.setenv(minecraft.PORT_ENV, "port")
    with pytest.raises(ValueError, match="MCBEWS_PORT='port' is not a port"):
        minecraft._env_port()


def test_turning_the_player(mc: Minecraft) -> None:
    mc.player.setTilePos(3, 100, 4)
    mc.player.setRotation(90)
    mc.player.setPitch(30)
    assert (mc.player.getRotation(), mc.player.getPitch()) == pytest.approx((90, 30))
    assert mc.player.getTilePos() == Vec3(3, 100, 4)  # turned where it stands
    mc.player.setDirection(Vec3(0, -1, 1))  # south and down
    assert (mc.player.getRotation(), mc.player.getPitch()) == pytest.approx((0, 45))
    d = mc.player.getDirection()
    assert (d.x, d.y, d.z) == pytest.approx((0, -math.sqrt(0.5), math.sqrt(0.5)))
    alex = mc.getPlayerEntityId("Alex")
    mc.entity.setRotation(alex, -90)
    assert mc.entity.getRotation(alex) == pytest.approx(-90)
    assert mc.entity.getName(alex) == "Alex"
    with pytest.raises(ValueError, match="needs a direction"):
        mc.player.setDirection(0, 0, 0)


def test_a_players_own_events_leave_the_others(mc: Minecraft) -> None:
    mc.events.clearAll()
    host = mc._conn.local_player or ""
    mc._mc.sim.hit_block("Alex", 2, 63, 2, "Up")
    mc._mc.sim.hit_block(host, 1, 63, 1, "Up")
    alex = mc.getPlayerEntityId("Alex")
    wait_for(lambda: len(mc._collect() or mc._hits_seen) >= 2, "both block hits")
    (mine,) = mc.player.pollBlockHits()
    assert (mine.pos.x, mine.pos.z) == (1, 1)
    (theirs,) = mc.entity.pollBlockHits(alex)
    assert theirs.entityId == alex
    assert mc.events.pollBlockHits() == []
    mc._mc.sim.chat(host, "mine")
    wait_for(lambda: mc._collect() or mc._chats_seen, "the host's chat line")
    assert mc.entity.pollChatPosts(alex) == []
    mc.entity.clearEvents(alex)
    assert [p.message for p in mc.player.pollChatPosts()] == ["mine"]
    mc.player.clearEvents()


def test_raspberryjuices_entity_calls_say_what_bedrock_has(mc: Minecraft) -> None:
    for call in (
        lambda: mc.spawnEntity(0, 80, 0, 92),
        mc.getEntityTypes,
        mc.getEntities,
        mc.removeEntities,
        lambda: mc.player.getEntities(5),
        lambda: mc.entity.removeEntities(1, 5, 92),
    ):
        with pytest.raises(NoBedrockEqual, match="Java Edition numbers"):
            call()
    with pytest.raises(NoBedrockEqual, match="selects an entity by its id"):
        mc.removeEntity(1)
    with pytest.raises(NoBedrockEqual, match="sign's text"):
        mc.setSign(0, 80, 0, 63, 0, "hello")
    for poll in (mc.events.pollProjectileHits, mc.player.pollProjectileHits):
        with pytest.raises(NoBedrockEqual, match="no projectile hit"):
            poll()


# --- coordinates from the world spawn (RaspberryJuice's default) ----------------------------


def test_set_block_at_zero_lands_at_the_spawn(mc: Minecraft) -> None:
    lesson = Minecraft.create(sim=True)  # as a lesson makes it: no arguments
    assert mc._mc.sim.raw.api.options.spawn.to_dict() == {"x": 0.0, "y": 64.0, "z": 0.0}
    lesson.setBlock(0, 0, 0, block.GOLD_BLOCK)
    lesson.setBlock(1, 2, -3, block.IRON_BLOCK)
    assert mc.getBlock(0, 64, 0) == block.GOLD_BLOCK.id  # the world's own coordinates
    assert mc.getBlock(1, 66, -3) == block.IRON_BLOCK.id
    assert lesson.getBlock(0, 0, 0) == block.GOLD_BLOCK.id


def test_every_position_in_and_out_counts_from_the_spawn(
    mc: Minecraft, spawn_at: Callable[[float, float, float], None]
) -> None:
    spawn_at(20, 90, -30)  # in the chunks loaded around the players
    lesson = Minecraft.create(sim=True)
    lesson.setBlocks(0, 0, 0, 1, 1, 1, block.STONE)
    lesson.setBlock(1, 0, 0, block.DIRT)
    assert mc.getBlocks(20, 90, -30, 21, 91, -29) == [1, 1, 3, 1, 1, 1, 1, 1]
    assert lesson.getBlocks(0, 0, 0, 1, 1, 1) == [1, 1, 3, 1, 1, 1, 1, 1]
    assert lesson.getBlockWithData(1, 0, 0) == Block(3, 0)
    assert lesson.getHeight(0, 0) == mc.getHeight(20, -30) - 90 == 1
    lesson.player.setTilePos(2, 5, 3)
    assert mc.player.getTilePos() == Vec3(22, 95, -27)
    assert lesson.player.getTilePos() == Vec3(2, 5, 3)
    lesson.player.setPos(2.25, 6, 3.75)
    pos = lesson.player.getPos()
    assert (pos.x, pos.y, pos.z) == pytest.approx((2.25, 6, 3.75))
    host = lesson.getPlayerEntityId(mc._conn.local_player or "")
    lesson.entity.setTilePos(host, -1, 0, -1)
    assert lesson.entity.getTilePos(host) == Vec3(-1, 0, -1)
    assert mc.entity.getTilePos(host) == Vec3(19, 90, -31)
    lesson.events.clearAll()
    mc._mc.sim.hit_block("Alex", 21, 91, -29, "Up")
    (hit,) = wait_for(lesson.events.pollBlockHits, "Alex's block hit")
    assert (hit.pos.x, hit.pos.y, hit.pos.z, hit.face) == (1, 1, 1, 1)


def test_a_spawn_without_a_fixed_height_stands_on_the_ground_there(
    mc: Minecraft, spawn_at: Callable[[float, float, float], None]
) -> None:
    spawn_at(6, UNFIXED_SPAWN_Y, 10)  # a new world's: the game finds the height
    ground = mc.getHeight(6, 10)
    lesson = Minecraft.create(sim=True)
    assert lesson.getHeight(0, 0) == -1  # (0, 0, 0) is the block above the ground
    lesson.setBlock(0, 0, 0, block.GLOWSTONE_BLOCK)
    assert mc.getBlock(6, ground + 1, 10) == block.GLOWSTONE_BLOCK.id
    # what the lesson built there does not move it for the next create() of this program
    assert Minecraft.create(sim=True).getBlock(0, 0, 0) == block.GLOWSTONE_BLOCK.id


def test_a_spawn_whose_height_cannot_be_found_says_what_to_do(
    mc: Minecraft, spawn_at: Callable[[float, float, float], None]
) -> None:
    spawn_at(100000, UNFIXED_SPAWN_Y, 0)  # far from every player: not loaded
    with pytest.raises(UnknownBlockId, match=r"no player is near it.*/setworldspawn"):
        Minecraft.create(sim=True)
    far = Minecraft.create(sim=True, coordinates="absolute")  # the way out it names
    assert far.getBlock(0, 63, 0) == mc.getBlock(0, 63, 0)


def test_absolute_coordinates_by_the_environment(
    mc: Minecraft, spawn_at: Callable[[float, float, float], None], monkeypatch: Any
) -> None:
    spawn_at(30, 70, 30)
    monkeypatch.setenv(facade.COORDINATES_ENV, "absolute")
    Minecraft.create(sim=True).setBlock(30, 70, 30, block.MELON)
    monkeypatch.setenv(facade.COORDINATES_ENV, "spawn")
    assert Minecraft.create(sim=True).getBlock(0, 0, 0) == block.MELON.id


def test_coordinates_that_are_neither_say_which_there_are() -> None:
    with pytest.raises(ValueError, match=r"'spawn' .* or 'absolute' .*not 'relative'"):
        Minecraft.create(sim=True, coordinates="relative")
    with pytest.raises(ValueError, match="coordinates or origin, not both"):
        Minecraft.create(sim=True, coordinates="absolute", origin=(1, 2, 3))


def test_coordinates_from_the_environment_that_are_neither_name_the_variable(
    monkeypatch: Any,
) -> None:
    monkeypatch.setenv(facade.COORDINATES_ENV, "Relative")
    with pytest.raises(ValueError, match="not MCBEWS_MCPI_COORDINATES='relative'"):
        Minecraft.create(sim=True)  # refused before any bridge or world is started


def another_world(mc: Minecraft) -> Minecraft:
    """A world of its own on the same bridge (one more simulated world joins it)."""
    handle = mc._mc
    handle.simulate(worlds=1).result()
    return Minecraft(handle, handle.bridge.connections[-1])


CHECKPOINT_BOX = (-30, 79, 20, -23, 84, 27)  # ground and sky, near the players


def test_a_restored_checkpoint_reads_back_as_it_was(mc: Minecraft) -> None:
    x0, y0, z0, x1, y1, z1 = CHECKPOINT_BOX
    mc.setBlocks(x0, y0, z0, x1, y0, z1, block.GRASS)
    mc.setBlock(x0, y0 + 1, z0, block.WOOL.id, 14)  # still waiting when the mark is set
    mc.saveCheckpoint()
    at_checkpoint = mc.getBlocks(*CHECKPOINT_BOX)
    assert mc.getBlockWithData(x0, y0 + 1, z0) == Block(35, 14)  # before the mark: stays
    for x in range(x0, x1 + 1):  # a loop of setBlock, batched
        for z in range(z0, z1 + 1):
            mc.setBlock(x, y0 + 2, z, block.WOOL.id, (x + z) % 16)
    mc.setBlocks(x0, y0, z0, x0 + 3, y1, z0 + 3, block.TNT)  # over the first build
    mc.setBlock(x0, y0 + 1, z0, block.WOOL.id, 1)  # waiting when restoreCheckpoint comes
    assert mc.getBlocks(*CHECKPOINT_BOX) != at_checkpoint
    mc.restoreCheckpoint()
    assert mc.getBlocks(*CHECKPOINT_BOX) == at_checkpoint
    assert mc.getBlockWithData(x0, y0 + 1, z0) == Block(35, 14)  # its data value too
    # The checkpoint stays: build again, and restore goes back to the same point.
    mc.setBlocks(*CHECKPOINT_BOX, block.GLASS)
    mc.restoreCheckpoint()
    assert mc.getBlocks(*CHECKPOINT_BOX) == at_checkpoint


def test_a_second_checkpoint_replaces_the_first(mc: Minecraft) -> None:
    mc.setBlock(-20, 90, 20, block.STONE)
    mc.saveCheckpoint()
    mc.setBlock(-20, 90, 20, block.GOLD_BLOCK)
    mc.saveCheckpoint()  # as on the Pi: the later save is the point restore goes back to
    mc.setBlock(-20, 90, 20, block.DIAMOND_BLOCK)
    mc.restoreCheckpoint()
    assert mc.getBlock(-20, 90, 20) == block.GOLD_BLOCK.id


def test_what_the_program_did_not_write_is_not_put_back(mc: Minecraft) -> None:
    mc.setBlocks(-18, 90, 20, -17, 90, 20, block.AIR)
    mc.saveCheckpoint()
    mc.setBlock(-18, 90, 20, block.BRICK_BLOCK)
    mc._command("setblock -17 90 20 gold_block")  # a command (or a player), not the facade
    mc.restoreCheckpoint()
    assert mc.getBlock(-18, 90, 20) == block.AIR.id
    assert mc.getBlock(-17, 90, 20) == block.GOLD_BLOCK.id


def test_restore_with_no_checkpoint_says_to_save_one(mc: Minecraft) -> None:
    fresh = another_world(mc)
    fresh.setBlock(0, 90, 0, block.STONE)
    with pytest.raises(NothingToUndo, match=r"no checkpoint is saved.*saveCheckpoint\(\) first"):
        fresh.restoreCheckpoint()
    assert fresh.getBlock(0, 90, 0) == block.STONE.id  # nothing was taken back


def test_writes_the_undo_history_dropped_are_counted_never_silently(mc: Minecraft) -> None:
    fresh = another_world(mc)
    builder = fresh._mc._builder(fresh._conn)
    fresh.setBlocks(0, 90, 0, 2, 90, 0, block.AIR)
    fresh.saveCheckpoint()
    fresh.setBlock(0, 90, 0, block.STONE)
    fresh.flush()
    fresh.setBlock(1, 90, 0, block.STONE)
    fresh.flush()
    fresh._mc.undo(connection=fresh._conn.id).result()  # the notebook's mc.undo(): the newest
    kept = builder.history.nbytes  # one 1x1x1 write
    bound, builder.history.max_bytes = builder.history.max_bytes, kept + 1
    try:
        fresh.setBlock(2, 90, 0, block.STONE)  # drops the oldest to make room
        fresh.flush()
        with pytest.raises(CheckpointIncomplete) as info:
            fresh.restoreCheckpoint()
    finally:
        builder.history.max_bytes = bound
    assert (info.value.restored, info.value.lost) == (1, 2)
    assert "put back 1 of the 3 block writes" in str(info.value)
    assert "undo_max_bytes" in str(info.value)
    assert fresh.getBlocks(0, 90, 0, 2, 90, 0) == [block.STONE.id, 0, 0]  # the lost one stays
    fresh.restoreCheckpoint()  # nothing since: nothing to put back, nothing lost
