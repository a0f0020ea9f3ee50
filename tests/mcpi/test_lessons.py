"""The lesson corpus (tests/mcpi/lessons/): classic mcpi programs, changed only in their
import line, each run as a real script that a simulated world connects to.

The world lives in this test's process, not in the lesson's: the lesson runs as
``python lesson.py`` with no argument, prints the ``/connect`` line as it would for a real
game (``MCBEWS_PORT=0``: on a free port), and the simulated world dials it as the game
would. So the test plays the player (walks, hits blocks, chats) and reads the world back
after the lesson from the world itself, never from what the lesson says it did. Positions
are the player's plus the lesson's offsets: how the lesson numbers them does not matter.
"""

from __future__ import annotations

import asyncio
import math
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from mcbews_repl.mcpi.minecraft import PORT_ENV, SIM_ENV
from mcbews_repl.sim import SimWorld

LESSONS = Path(__file__).parent / "lessons"
ROOT = Path(__file__).parents[2]  # the mcbews_repl the lessons import: this tree's
# A lesson starts Python, numpy and a bridge, waits for the world and runs its loops, on a
# busy 2-core machine: generous.
DEADLINE_SECONDS = 90.0
HOST = "Steve"  # the default world's host: the player whose game is connected
CONNECT_LINE = re.compile(r"/connect (\S+)")
_T = TypeVar("_T")


def wait_for(check: Callable[[], _T], what: str, lesson: Lesson | None = None) -> _T:
    end = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < end:
        if value := check():
            return value
        if lesson is not None and lesson.proc.poll() is not None:
            raise AssertionError(f"the lesson ended before {what}:\n{lesson.output()}")
        time.sleep(0.05)
    raise AssertionError(f"not within {DEADLINE_SECONDS} s: {what}")


class LiveSim:
    """A simulated world on a loop thread of its own; its world is touched only there."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

        async def make() -> SimWorld:
            world = SimWorld()  # the game's own clock: 20 ticks a second
            await world.start()
            return world

        self.sim = self.run(make())

    def run(self, coro: Coroutine[Any, Any, _T]) -> _T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(DEADLINE_SECONDS)

    def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        return self.sim.call_threadsafe(fn, *args).result(DEADLINE_SECONDS)

    def block(self, x: int, y: int, z: int) -> str:
        return self.call(self.sim.world.block, "overworld", x, y, z)

    def set_block(self, x: int, y: int, z: int, name: str) -> None:
        self.call(self.sim.world.set_block, "overworld", x, y, z, name)

    def tile(self, player: str = HOST) -> tuple[int, int, int]:
        loc = self.call(lambda: self.sim.world.players[player].location)
        return math.floor(loc.x), math.floor(loc.y), math.floor(loc.z)

    def said(self, text: str, player: str = HOST) -> list[str]:
        """The lines ``player`` was shown that hold ``text``."""
        return [line for line in self.call(self.sim.inbox, player) if text in line]

    def close(self) -> None:
        try:
            self.run(self.sim.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(DEADLINE_SECONDS)
            self.loop.close()


class Lesson:
    """``python <lesson>.py`` in a folder of its own, its output read line by line."""

    def __init__(self, name: str, cwd: Path, env: dict[str, str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self.proc = subprocess.Popen(
            [sys.executable, str(LESSONS / f"{name}.py")],
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
        )
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def output(self) -> str:
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return "\n".join(self.seen)

    def connect_url(self) -> str:
        def found() -> str | None:
            match = CONNECT_LINE.search(self.output())
            return f"ws://{match.group(1)}" if match else None

        return wait_for(found, "the /connect line", self)

    def finish(self) -> str:
        """Wait for the lesson to end; it must end well. Its output."""
        end = time.monotonic() + DEADLINE_SECONDS
        while self.proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        if self.proc.poll() is None:
            self.proc.kill()
            raise AssertionError(f"the lesson did not end:\n{self.output()}")
        self.reader.join(DEADLINE_SECONDS)  # the last lines, once the pipe closes
        out = self.output()
        assert self.proc.returncode == 0, out
        return out


def lesson_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != SIM_ENV}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONUNBUFFERED"] = "1"
    env[PORT_ENV] = "0"  # any free port: the /connect line says which
    env.update(extra)
    return env


@pytest.fixture
def world() -> Iterator[LiveSim]:
    live = LiveSim()
    yield live
    live.close()


@pytest.fixture
def play(world: LiveSim, tmp_path: Path) -> Iterator[Callable[[str], Lesson]]:
    """Start a lesson and connect the world to it, as a player typing /connect."""
    started: list[Lesson] = []

    def start(name: str) -> Lesson:
        lesson = Lesson(name, tmp_path, lesson_env())
        started.append(lesson)
        world.run(world.sim.connect(lesson.connect_url()))
        return lesson

    yield start
    for lesson in started:
        if lesson.proc.poll() is None:
            lesson.proc.kill()
            lesson.proc.wait(DEADLINE_SECONDS)


def test_every_lesson_changes_only_its_import_line() -> None:
    scripts = sorted(LESSONS.glob("*.py"))
    # A lesson runs with its folder first on sys.path: no name the standard library has.
    assert not {s.stem for s in scripts} & sys.stdlib_module_names
    for script in scripts:
        code = script.read_text(encoding="utf-8")
        assert "from mcbews_repl.mcpi.minecraft import Minecraft\n" in code, script.name
        assert "import mcbews_repl.mcpi.block as block\n" in code, script.name
        classic = code.replace("mcbews_repl.mcpi", "mcpi")
        assert "mcbews_repl" not in classic, script.name  # nothing else of ours is used


def test_the_house_stands_beside_the_player(world: LiveSim, play: Any) -> None:
    px, py, pz = world.tile()
    lesson = play("house")
    out = lesson.finish()
    assert "/connect" in out  # what a teacher sees: the line to type in Minecraft
    x, y, z = px + 3, py, pz
    assert world.said("Your house is ready!")
    for dx in range(7):
        for dy in range(4):
            for dz in range(6):
                wall = dx in (0, 6) or dz in (0, 5)
                expect = "minecraft:stone" if wall else "minecraft:air"
                if (dx, dz) == (3, 0) and dy in (0, 1):
                    expect = "minecraft:air"  # the door
                if (dx, dy, dz) in ((1, 1, 0), (5, 1, 0)):
                    expect = "minecraft:glass"
                assert world.block(x + dx, y + dy, z + dz) == expect, (dx, dy, dz)
            assert world.block(x + dx, y + 4, z + dz) == "minecraft:oak_planks"


def test_a_tower_follows_the_player(world: LiveSim, play: Any) -> None:
    lesson = play("tower")
    stops = [world.tile(), (-3, 64, -3), (3, 64, -3)]

    def tower_at(x: int, y: int, z: int) -> bool:
        return all(world.block(x + 1, y + h, z) == "minecraft:gold_block" for h in range(5))

    wait_for(lambda: world.said("a tower follows you"), "the lesson's greeting", lesson)
    wait_for(lambda: tower_at(*stops[0]), "the first tower, where the player stands", lesson)
    for x, y, z in stops[1:]:
        world.call(world.sim.walk, HOST, x + 0.5, y, z + 0.5)
        wait_for(lambda x=x, y=y, z=z: tower_at(x, y, z), f"a tower at {x, y, z}", lesson)
    lesson.finish()
    assert world.said("That's enough towers!")
    assert len(world.said("built")) == 3


def test_a_treasure_hunt_by_block_hits(world: LiveSim, play: Any) -> None:
    px, py, pz = world.tile()
    lesson = play("treasure")
    wait_for(lambda: world.said("find the treasure"), "the lesson's greeting", lesson)

    def treasure() -> tuple[int, int, int] | None:
        for x in range(px - 5, px + 6):
            for z in range(pz - 5, pz + 6):
                for y in range(py - 8, py + 8):
                    if world.block(x, y, z) == "minecraft:diamond_block":
                        return x, y, z
        return None

    tx, ty, tz = wait_for(treasure, "the diamond block hidden near the player", lesson)
    assert world.block(tx, ty + 1, tz) == "minecraft:air"  # on top, as getHeight found it
    # A miss first: the stone under the player's feet (the treasure is 4 or more away).
    world.call(world.sim.hit_block, HOST, px, py - 1, pz, "Up")
    wait_for(lambda: world.said("Not here:"), "the lesson's answer to a miss", lesson)
    world.call(world.sim.hit_block, HOST, tx, ty, tz, "Up")
    lesson.finish()
    assert world.said("You found the treasure!")
    assert world.block(tx, ty, tz) == "minecraft:gold_block"


def test_a_chat_bot_answers_commands(world: LiveSim, play: Any) -> None:
    px, py, pz = world.tile()
    lesson = play("chatbot")
    wait_for(lambda: world.said("Bot ready"), "the bot's greeting", lesson)
    world.call(world.sim.chat, HOST, "where")
    (where,) = wait_for(lambda: world.said("You are at "), "the answer to where", lesson)
    assert re.fullmatch(r".*You are at -?\d+ -?\d+ -?\d+", where), where
    world.call(world.sim.chat, HOST, "dance")
    wait_for(lambda: world.said("I don't know dance"), "the answer to an unknown word", lesson)
    world.call(world.sim.chat, HOST, "build")
    wait_for(lambda: world.said("Built red wool"), "the answer to build", lesson)
    world.call(world.sim.chat, HOST, "bye")
    lesson.finish()
    assert world.said("Bye!")
    assert world.block(px, py + 3, pz) == "minecraft:red_wool"


def test_a_get_blocks_scan_copies_the_box(world: LiveSim, play: Any) -> None:
    px, py, pz = world.tile()
    box = [(x, y, z) for y in range(py, py + 3) for x in range(px + 3, px + 7)
           for z in range(pz - 2, pz + 3)]  # fmt: skip
    # A pattern no symmetry hides: another order of the list builds another copy.
    pattern = ["minecraft:gold_block", "minecraft:diamond_block", "minecraft:iron_block",
               "minecraft:glass", "minecraft:bookshelf", "minecraft:obsidian"]  # fmt: skip
    for i, (x, y, z) in enumerate(box):
        if i % 4 != 3:
            world.set_block(x, y, z, pattern[(i * 7) % len(pattern)])
    before = {p: world.block(*p) for p in box}
    lesson = play("scan")
    lesson.finish()
    for (x, y, z), name in before.items():
        assert world.block(x, y + 10, z) == name, (x, y, z)
    solid = sum(name != "minecraft:air" for name in before.values())
    assert world.said(f"Copied {len(box)} blocks, {solid} solid")


def test_a_saved_piece_of_the_world_is_restored(world: LiveSim, play: Any) -> None:
    px, py, pz = world.tile()
    box = [(x, y, z) for x in range(px - 2, px + 3) for y in range(py - 2, py + 2)
           for z in range(pz - 7, pz - 3)]  # fmt: skip
    world.set_block(px, py, pz - 5, "minecraft:gold_block")  # something to blow away
    before = {p: world.block(*p) for p in box}
    assert len(set(before.values())) >= 3  # ground, air and gold: a real piece of world
    lesson = play("checkpoint")
    lesson.finish()
    assert world.said(f"Saved {len(box)} blocks")
    assert world.said(f"Boom! Gone: {len(box)} air")
    assert world.said("A rainbow floor in the crater")
    assert world.said("Restored") and not world.said("Not restored")
    assert {p: world.block(*p) for p in box} == before


def test_the_numeric_id_classics(world: LiveSim, play: Any) -> None:
    px, py, pz = world.tile()
    lesson = play("block_ids")
    lesson.finish()
    x, y, z = px - 8, py + 5, pz + 6
    # Bedrock's own names: mcpi 95 is stained glass (Bedrock's legacy 95 is invisible
    # bedrock), 126 a wooden slab, 157 an activator rail.
    wool = ["white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
            "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black"]  # fmt: skip
    for colour, name in enumerate(wool):
        assert world.block(x + colour, y, z) == f"minecraft:{name}_wool"
        assert world.block(x + colour, y + 1, z) == f"minecraft:{name}_stained_glass"
    assert world.block(x, y + 2, z) == "minecraft:tnt"
    assert world.block(x + 1, y + 2, z) == "minecraft:oak_slab"
    assert world.block(x + 2, y + 2, z) == "minecraft:activator_rail"
    assert world.said("wool 15 reads 35:15")
    assert world.said("glass 11 reads 95:11")
    assert world.said("tnt reads 46")


@pytest.mark.parametrize("name", ["house", "block_ids"])
def test_a_lesson_runs_on_its_own_simulated_world(name: str, tmp_path: Path) -> None:
    """``MCBEWS_MCPI_SIM=1``: the lesson connects a simulated world of its own, no game and
    no /connect; it runs to its end."""
    lesson = Lesson(name, tmp_path, lesson_env(**{SIM_ENV: "1"}))
    out = lesson.finish()
    assert "/connect" not in out
