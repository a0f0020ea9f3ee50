"""World commands: time, weather, setblock, testforblock and fill on the sparse block map."""

from __future__ import annotations

import itertools
import math

from .commands import CommandError, CommandResult, Context, Handler
from .facts import text
from .model import display_name
from .parse import Coord, Reader

__all__ = ["FILL_MAX_BLOCKS", "HANDLERS", "TICKS_PER_DAY"]

TICKS_PER_DAY = 24000
FILL_MAX_BLOCKS = 32768  # the game's /fill volume limit
_WORLD_Y_MIN, _WORLD_Y_MAX = -64, 319  # overworld build limits since 1.18
_TIME_NAMES = {"day": 1000, "noon": 6000, "sunset": 12000, "night": 13000, "midnight": 18000,
               "sunrise": 23000}  # fmt: skip


def time(ctx: Context, r: Reader) -> CommandResult:
    action = r.choice("set", "add", "query")
    world = ctx.world
    if action == "query":
        what = r.choice("daytime", "gametime", "day")
        r.end()
        value = {
            "daytime": world.time_of_day,
            "gametime": world.absolute_time,
            "day": world.absolute_time // TICKS_PER_DAY,
        }[what]
        return CommandResult(
            status_message=text(f"commands.time.query.{what}", value), fields={"data": value}
        )
    token = r.word()
    r.end()
    amount = _TIME_NAMES.get(token.lower())
    if amount is None:
        try:
            amount = int(token)
        except ValueError:
            r.pos -= len(token)
            raise r.fail(token) from None
    if action == "add":
        world.time_of_day = (world.time_of_day + amount) % TICKS_PER_DAY
        return CommandResult(status_message=text("commands.time.added", amount))
    world.time_of_day = amount % TICKS_PER_DAY
    return CommandResult(status_message=text("commands.time.set", amount))


def weather(ctx: Context, r: Reader) -> CommandResult:
    state = r.choice("clear", "rain", "thunder", "query")
    if state == "query":
        r.end()
        return CommandResult(status_message=text("commands.weather.query", ctx.world.weather))
    r.integer(optional=True)  # duration: accepted, weather does not change on its own here
    r.end()
    ctx.world.weather = state
    return CommandResult(status_message=text(f"commands.weather.{state}"))


def _block_pos(ctx: Context, coords: tuple[Coord, Coord, Coord]) -> tuple[int, int, int]:
    base = ctx.origin.location
    x, y, z = (c.resolve(b) for c, b in zip(coords, (base.x, base.y, base.z), strict=True))
    return math.floor(x), math.floor(y), math.floor(z)


def _block_id(r: Reader) -> str:
    token = r.word().lower()
    return token if ":" in token else f"minecraft:{token}"


def setblock(ctx: Context, r: Reader) -> CommandResult:
    x, y, z = _block_pos(ctx, r.position())
    block = _block_id(r)
    mode = r.choice("replace", "destroy", "keep") if not r.at_end() else "replace"
    r.end()
    if not _WORLD_Y_MIN <= y <= _WORLD_Y_MAX:
        raise CommandError(text("commands.setblock.outOfWorld"))
    dim = ctx.origin.dimension
    current = ctx.world.block(dim, x, y, z)
    if current == block or (mode == "keep" and current != "minecraft:air"):
        raise CommandError(text("commands.setblock.noChange"))
    _put(ctx, (dim, x, y, z), block)
    return CommandResult(
        status_message=text("commands.setblock.success"), fields={"position": _pos(x, y, z)}
    )


def testforblock(ctx: Context, r: Reader) -> CommandResult:
    x, y, z = _block_pos(ctx, r.position())
    wanted = _block_id(r)
    r.rest()  # a data value or block states: accepted, not modelled
    if not _WORLD_Y_MIN <= y <= _WORLD_Y_MAX:
        raise CommandError(text("commands.testforblock.outOfWorld"))
    actual = ctx.world.block(ctx.origin.dimension, x, y, z)
    where = {"position": _pos(x, y, z)}
    if actual != wanted:
        raise CommandError(
            text("commands.testforblock.failed.tile", x, y, z, display_name(actual),
                 display_name(wanted)),
            fields={"matches": False, **where},
        )  # fmt: skip
    return CommandResult(
        status_message=text("commands.testforblock.success", x, y, z),
        fields={"matches": True, **where},
    )


def _put(ctx: Context, key: tuple[str, int, int, int], block: str) -> None:
    if block == "minecraft:air":
        ctx.world.blocks.pop(key, None)
    else:
        ctx.world.blocks[key] = block


def _pos(x: int, y: int, z: int) -> dict[str, int]:
    return {"x": x, "y": y, "z": z}


def _fill_target(mode: str, block: str, shell: bool) -> str | None:
    """What a /fill puts at one position: hollow clears the inside, outline leaves it."""
    if shell or mode not in ("hollow", "outline"):
        return block
    return "minecraft:air" if mode == "hollow" else None


def fill(ctx: Context, r: Reader) -> CommandResult:
    a = _block_pos(ctx, r.position())
    b = _block_pos(ctx, r.position())
    block = _block_id(r)
    mode = r.choice("replace", "destroy", "keep", "hollow", "outline") if not r.at_end() else ""
    r.rest()  # an optional replace filter: accepted, not modelled
    lo = [min(p, q) for p, q in zip(a, b, strict=True)]
    hi = [max(p, q) for p, q in zip(a, b, strict=True)]
    volume = math.prod(h - low + 1 for low, h in zip(lo, hi, strict=True))
    if volume > FILL_MAX_BLOCKS:
        raise CommandError(text("commands.fill.tooManyBlocks", volume, FILL_MAX_BLOCKS))
    if lo[1] < _WORLD_Y_MIN or hi[1] > _WORLD_Y_MAX:
        raise CommandError(text("commands.fill.outOfWorld"))
    dim, changed = ctx.origin.dimension, 0
    for x, y, z in itertools.product(*(range(low, h + 1) for low, h in zip(lo, hi, strict=True))):
        shell = x in (lo[0], hi[0]) or y in (lo[1], hi[1]) or z in (lo[2], hi[2])
        target = _fill_target(mode, block, shell)
        current = ctx.world.block(dim, x, y, z)
        if target is None or current == target:
            continue
        if mode == "keep" and current != "minecraft:air":
            continue
        _put(ctx, (dim, x, y, z), target)
        changed += 1
    if changed == 0:
        raise CommandError(text("commands.fill.success", 0), fields={"fillCount": 0})
    return CommandResult(
        status_message=text("commands.fill.success", changed), fields={"fillCount": changed}
    )


HANDLERS: dict[str, Handler] = {
    "time": time,
    "weather": weather,
    "setblock": setblock,
    "testforblock": testforblock,
    "fill": fill,
}
