"""Block commands: setblock, testforblock, fill and clone on the terrain and its edits.

Every position is checked the way the game checks it: inside the dimension's height range
and in a loaded chunk (within the simulation distance of a player), else the command's
"outside of the world" string (facts.json: unloaded_block_is_outside_the_world). Commands
run in the dimension of whoever runs them. Block states may follow a block id
(``setblock 1 64 1 oak_log ["pillar_axis"="x"]``); without them a block gets its type's
default states (evidence/blocks.json).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any

from .cmdtypes import CommandError, CommandOutcome, Context, Handler
from .facts import CLONE_MAX_BLOCKS, FILL_MAX_BLOCKS, item_name, text
from .model import AIR
from .parse import Coord, Reader, split_top_level

__all__ = ["HANDLERS", "parse_states"]

Position = tuple[int, int, int]
Box = tuple[Position, Position]  # low and high corners, inclusive


def _block_pos(ctx: Context, coords: tuple[Coord, Coord, Coord]) -> Position:
    base = ctx.origin.location
    x, y, z = (c.resolve(b) for c, b in zip(coords, (base.x, base.y, base.z), strict=True))
    return math.floor(x), math.floor(y), math.floor(z)


def _block_id(r: Reader) -> str:
    token = r.word().lower()
    return token if ":" in token else f"minecraft:{token}"


def parse_states(body: str) -> dict[str, Any]:
    """``"pillar_axis"="x","open_bit"=true`` -> ``{"pillar_axis": "x", "open_bit": True}``."""
    states: dict[str, Any] = {}
    for part in split_top_level(body):
        key, sep, raw = part.partition("=")
        if not sep:
            key, sep, raw = part.partition(":")  # the older spelling
        key, raw = key.strip().strip('"'), raw.strip()
        if not sep or not key or not raw:
            raise ValueError(part)
        if raw.startswith('"'):
            states[key] = raw.strip('"')
        elif raw in ("true", "false"):
            states[key] = raw == "true"
        else:
            states[key] = int(raw)
    return states


def _block_spec(r: Reader) -> tuple[str, dict[str, Any] | None]:
    block = _block_id(r)
    saved = r.pos
    body = r.bracketed()
    if body is None:
        return block, None
    try:
        return block, parse_states(body)
    except ValueError:
        r.pos = saved
        raise r.fail() from None


def _box(a: Position, b: Position) -> Box:
    low = (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]))
    high = (max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2]))
    return low, high


def _volume(box: Box) -> int:
    return math.prod(h - low + 1 for low, h in zip(*box, strict=True))


def _positions(box: Box) -> Iterator[tuple[int, ...]]:
    low, high = box
    yield from itertools.product(*(range(low[i], high[i] + 1) for i in range(3)))


def _inside_world(ctx: Context, box: Box) -> bool:
    (x0, y0, z0), (x1, y1, z1) = box
    dim, world = ctx.origin.dimension, ctx.world
    ys_ok = world.in_height_range(dim, y0) and world.in_height_range(dim, y1)
    return ys_ok and world.box_loaded(dim, (x0, z0), (x1, z1))


def _pos(x: int, y: int, z: int) -> dict[str, int]:
    return {"x": x, "y": y, "z": z}


def setblock(ctx: Context, r: Reader) -> CommandOutcome:
    """``/setblock x y z <block> [states] [replace|destroy|keep]``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: the position is outside the world or unloaded, or nothing changed (a negative
            status code).
    """
    x, y, z = _block_pos(ctx, r.position())
    block, states = _block_spec(r)
    mode = r.choice("replace", "destroy", "keep") if not r.at_end() else "replace"
    r.end()
    if not _inside_world(ctx, ((x, y, z), (x, y, z))):
        raise CommandError(text("commands.setblock.outOfWorld"))
    world, dim = ctx.world, ctx.origin.dimension
    current = world.block(dim, x, y, z)
    same = current == block and (states is None or states == world.states(dim, x, y, z))
    if same or (mode == "keep" and current != AIR):
        raise CommandError(text("commands.setblock.noChange"))
    world.set_block(dim, x, y, z, block, states)
    return CommandOutcome(
        status_message=text("commands.setblock.success"), fields={"position": _pos(x, y, z)}
    )


def testforblock(ctx: Context, r: Reader) -> CommandOutcome:
    """``/testforblock x y z <block>``: whether that block is there.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: the position is outside the world or unloaded, or another block is there (a
            negative status code).
    """
    x, y, z = _block_pos(ctx, r.position())
    wanted = _block_id(r)
    r.rest()  # a data value or block states: accepted, not compared
    if not _inside_world(ctx, ((x, y, z), (x, y, z))):
        raise CommandError(text("commands.testforblock.outOfWorld"))
    actual = ctx.world.block(ctx.origin.dimension, x, y, z)
    where = {"position": _pos(x, y, z)}
    if actual != wanted:
        raise CommandError(
            text("commands.testforblock.failed.tile", x, y, z, item_name(actual),
                 item_name(wanted)),
            fields={"matches": False, **where},
        )  # fmt: skip
    return CommandOutcome(
        status_message=text("commands.testforblock.success", x, y, z),
        fields={"matches": True, **where},
    )


def _fill_target(mode: str, block: str, shell: bool) -> str | None:
    """What a /fill puts at one position: hollow clears the inside, outline leaves it."""
    if shell or mode not in ("hollow", "outline"):
        return block
    return AIR if mode == "hollow" else None


def fill(ctx: Context, r: Reader) -> CommandOutcome:
    """``/fill x1 y1 z1 x2 y2 z2 <block> [states] [mode]``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: the box is too large, outside the world or unloaded, or nothing changed (a
            negative status code).
    """
    box = _box(_block_pos(ctx, r.position()), _block_pos(ctx, r.position()))
    block, states = _block_spec(r)
    mode = r.choice("replace", "destroy", "keep", "hollow", "outline") if not r.at_end() else ""
    r.rest()  # an optional replace filter: accepted, not modelled
    volume = _volume(box)
    if volume > FILL_MAX_BLOCKS:
        raise CommandError(text("commands.fill.tooManyBlocks", volume, FILL_MAX_BLOCKS))
    if not _inside_world(ctx, box):
        raise CommandError(text("commands.fill.outOfWorld"))
    (lx, ly, lz), (hx, hy, hz) = box
    world, dim, changed = ctx.world, ctx.origin.dimension, 0
    for x, y, z in _positions(box):
        shell = x in (lx, hx) or y in (ly, hy) or z in (lz, hz)
        target = _fill_target(mode, block, shell)
        current = world.block(dim, x, y, z)
        if target is None or (current == target and not states):
            continue
        if mode == "keep" and current != AIR:
            continue
        world.set_block(dim, x, y, z, target, states if target == block else None)
        changed += 1
    if changed == 0:
        raise CommandError(text("commands.fill.failed"), fields={"fillCount": 0})
    return CommandOutcome(
        status_message=text("commands.fill.success", changed), fields={"fillCount": changed}
    )


def _overlap(a: Box, b: Box) -> bool:
    return all(a[0][i] <= b[1][i] and b[0][i] <= a[1][i] for i in range(3))


def clone(ctx: Context, r: Reader) -> CommandOutcome:
    """``/clone <from> <to> <destination> [mask] [mode]``.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: a box is too large, outside the world or unloaded, or the boxes overlap (a
            negative status code).
    """
    source = _box(_block_pos(ctx, r.position()), _block_pos(ctx, r.position()))
    low = _block_pos(ctx, r.position())
    mask = r.choice("replace", "masked", "filtered") if not r.at_end() else "replace"
    mode = r.choice("normal", "force", "move") if not r.at_end() else "normal"
    only = _block_id(r) if mask == "filtered" else None
    r.rest()  # a filter's data value or states: accepted, not compared
    size = [h - lo for lo, h in zip(*source, strict=True)]
    target: Box = (low, (low[0] + size[0], low[1] + size[1], low[2] + size[2]))
    volume = _volume(source)
    if volume > CLONE_MAX_BLOCKS:
        raise CommandError(text("commands.clone.tooManyBlocks", volume, CLONE_MAX_BLOCKS))
    if not (_inside_world(ctx, source) and _inside_world(ctx, target)):
        raise CommandError(text("commands.fill.outOfWorld"))
    if mode == "normal" and _overlap(source, target):
        raise CommandError(text("commands.clone.noOverlap"))
    copied = _copy(ctx, source, low, mask, only, move=mode == "move")
    if copied == 0:
        raise CommandError(text("commands.clone.failed"))
    return CommandOutcome(status_message=text("commands.clone.success", copied))


def _copy(ctx: Context, source: Box, low: Position, mask: str, only: str | None, move: bool) -> int:
    """Copy the source blocks (read first, so an overlap copies the original ones)."""
    world, dim = ctx.world, ctx.origin.dimension
    picked = []
    for x, y, z in _positions(source):
        block = world.block(dim, x, y, z)
        if (mask == "masked" and block == AIR) or (only is not None and block != only):
            continue
        picked.append(((x, y, z), block, world.states(dim, x, y, z)))
    if move:
        for (x, y, z), _, _ in picked:
            world.set_block(dim, x, y, z, AIR)
    offset = [low[i] - source[0][i] for i in range(3)]
    for (x, y, z), block, states in picked:
        world.set_block(dim, x + offset[0], y + offset[1], z + offset[2], block, states)
    return len(picked)


HANDLERS: dict[str, Handler] = {
    "setblock": setblock,
    "testforblock": testforblock,
    "fill": fill,
    "clone": clone,
}
