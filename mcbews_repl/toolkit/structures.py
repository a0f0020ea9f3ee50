"""``.mcstructure`` files: Bedrock's own structure format, read and written from Python.

A structure file is one little-endian NBT compound (docs/toolkit.md, "Structures", cites
the layout): ``format_version`` 1, ``size`` [x, y, z], ``structure`` with ``block_indices``
(two layers of palette indices in x-slowest, z-fastest order, ``-1`` for no block), the
``entities``, and ``palette.default`` holding ``block_palette`` (``name``, ``states``,
``version`` each) and ``block_position_data`` (block entities by index), and
``structure_world_origin``. :class:`Structure` holds one with numpy arrays indexed
``[x, y, z]``; it is also a region :func:`~mcbews_repl.toolkit.writes.write_blocks` takes
(its palette's first entry ``<keep>`` stands for ``-1``), so loading one into a world is a
``set_blocks`` and its answer says what was written.

What a file holds beyond the first layer of blocks (the second layer's water in waterlogged
blocks, entities, block entities such as a chest's items) is kept, read and written back
unchanged, and counted by :meth:`Structure.not_placed`: ``set_blocks`` places blocks only.

A file written here cannot be loaded by ``/structure load`` over the WebSocket: that command
reads the world's own store (``/structure save`` puts one there), not a file on this machine.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ..exceptions import InvalidArgument, StructureError
from ..gameids import short_id
from . import nbt
from .boxes import OUT_OF_WORLD, UNLOADED
from .writes import KEEP, _origin

if TYPE_CHECKING:
    from .region import BlockRegion

__all__ = [
    "BLOCK_VERSION",
    "STRUCTURE_BLOCKS_MAX",
    "STRUCTURE_FILE_BYTES_MAX",
    "Structure",
    "read_structure",
    "structure_command_line",
    "write_structure",
]

# The block version a palette entry carries when this module made it (entries read from a
# file keep theirs): the value bedrock-wiki's mcstructure page names as current
# (docs/toolkit.md, "Structures", cites it).
BLOCK_VERSION: Final = 17959425
# The largest structure read or made, in blocks: four times the game's own save limit of
# 64 x 256 x 64 (the same page), which the game loads past too. Two
# layers of int32 indices of this many blocks are 32 MiB.
STRUCTURE_BLOCKS_MAX: Final = 4 * 64 * 256 * 64
# The largest file read, in bytes: two layers at four bytes a block of the largest
# structure, and as much again for palettes, entities and block entities.
STRUCTURE_FILE_BYTES_MAX: Final = 2 * (2 * 4 * STRUCTURE_BLOCKS_MAX)
FORMAT_VERSION: Final = 1  # "Currently always set to 1" (bedrock-wiki)
_UNKNOWN = (UNLOADED, OUT_OF_WORLD, KEEP)

Entry = tuple[str, dict[str, Any]]


@dataclass(frozen=True, eq=False)
class Structure:
    """A structure: ``blocks[x, y, z]`` indexes ``entries`` (``-1``: no block, left as is).

    ``water`` is the second layer (``-1`` almost everywhere; the water of a waterlogged
    block). ``versions`` holds each entry's block version, ``entities`` and
    ``block_data`` (``block_position_data``) the NBT as read, and ``world_origin`` where the
    structure was saved from.
    """

    blocks: np.ndarray[Any, np.dtype[np.int32]]
    entries: tuple[Entry, ...]
    water: np.ndarray[Any, np.dtype[np.int32]] | None = None
    versions: tuple[int, ...] = ()
    entities: tuple[dict[str, Any], ...] = ()
    block_data: dict[str, Any] = field(default_factory=dict)
    world_origin: tuple[int, int, int] = (0, 0, 0)

    # --- as a region to write -------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int, int]:
        """The box's extent along x, y, z."""
        sx, sy, sz = self.blocks.shape
        return int(sx), int(sy), int(sz)

    @property
    def ids(self) -> np.ndarray[Any, np.dtype[np.int64]]:
        """``blocks + 1``, indexing :attr:`palette` (what ``set_blocks`` reads)."""
        out: np.ndarray[Any, np.dtype[np.int64]] = self.blocks.astype(np.int64) + 1
        return out

    @property
    def palette(self) -> tuple[Any, ...]:
        """``<keep>`` (no block), then each entry as ``(name, states)``."""
        return (KEEP, *self.entries)

    @property
    def voids(self) -> int:
        """Positions with no block: loading leaves them as they are."""
        return int((self.blocks < 0).sum())

    def not_placed(self) -> dict[str, int]:
        """What the file holds that writing its blocks does not place, by what it is."""
        water = 0 if self.water is None else int((self.water >= 0).sum())
        counts = {"waterlogged": water, "entities": len(self.entities),
                  "block entities": len(self.block_data)}  # fmt: skip
        return {what: n for what, n in counts.items() if n}

    def describe(self) -> str:
        """One line: the size, how many kinds of block and what writing it leaves out."""
        sx, sy, sz = self.size
        line = f"{sx}x{sy}x{sz} structure: {len(self.entries)} kinds of block"
        if self.voids:
            line += f", {self.voids:,} positions with no block"
        left = self.not_placed()
        if left:
            line += "; not placed by a write: " + ", ".join(f"{n:,} {w}" for w, n in left.items())
        return line

    def __repr__(self) -> str:
        return f"<Structure {self.describe()}>"

    # --- from a read ----------------------------------------------------------------------
    @classmethod
    def from_region(cls, region: BlockRegion) -> Structure:
        """The blocks of a region as a structure (its states too when it was read with
        ``states=True``; without, each block's default states). Unknown positions (unloaded,
        outside the world) become positions with no block.

        Raises:
            StructureError: the region is larger than STRUCTURE_BLOCKS_MAX.
        """
        _fits(region.size)
        if region.state_ids is not None and region.state_palette is not None:
            ids, entries = region.state_ids, [(b, dict(s)) for b, s in region.state_palette]
        else:
            ids, entries = region.ids, [(b, {}) for b in region.palette]
        keep = [i for i, (name, _) in enumerate(entries) if name not in _UNKNOWN]
        remap = np.full(len(entries), -1, dtype=np.int32)
        remap[keep] = np.arange(len(keep), dtype=np.int32)
        blocks = remap[ids.astype(np.int64)]
        return cls(blocks, tuple(entries[i] for i in keep), np.full_like(blocks, -1),
                   (BLOCK_VERSION,) * len(keep), world_origin=region.origin)  # fmt: skip

    # --- NBT ------------------------------------------------------------------------------
    def to_nbt(self) -> dict[str, Any]:
        """The file's root compound."""
        water = self.water if self.water is not None else np.full_like(self.blocks, -1)
        versions = self.versions or (BLOCK_VERSION,) * len(self.entries)
        palette = [
            {"name": name, "states": {k: _state_tag(name, k, v) for k, v in states.items()},
             "version": version if isinstance(version, nbt.Long) else int(version)}
            for (name, states), version in zip(self.entries, versions, strict=True)
        ]  # fmt: skip
        layers = [_int_list(a) for a in (self.blocks, water)]
        return {
            "format_version": FORMAT_VERSION,
            "size": nbt.TagList.ints(self.size),
            "structure": {
                "block_indices": nbt.TagList(nbt.TagList.LIST, layers),
                "entities": nbt.TagList(nbt.TagList.COMPOUND, list(self.entities)),
                "palette": {"default": {
                    "block_palette": nbt.TagList(nbt.TagList.COMPOUND, palette),
                    "block_position_data": dict(self.block_data),
                }},
            },
            "structure_world_origin": nbt.TagList.ints(self.world_origin),
        }  # fmt: skip

    @classmethod
    def from_nbt(cls, root: Mapping[str, Any]) -> Structure:
        """A structure from a file's root compound.

        Raises:
            StructureError: a required tag is missing or of the wrong type, the size is
                over STRUCTURE_BLOCKS_MAX, or an index is outside the palette.
        """
        _want(root, "format_version", int)
        size = _ints(_want(root, "size", nbt.TagList), "size", 3)
        if min(size) < 1:
            raise StructureError(f"size {size} is not a box: every side is at least 1")
        _fits((size[0], size[1], size[2]))
        body = _want(root, "structure", dict)
        default = _want(_want(body, "palette", dict), "default", dict, "palette.")
        listed = _want(default, "block_palette", nbt.TagList, "palette.default.")
        pairs = [_entry(item, i) for i, item in enumerate(listed)]
        entries, versions = [e for e, _ in pairs], [v for _, v in pairs]
        layers = _want(body, "block_indices", nbt.TagList)
        if layers.kind != nbt.TagList.LIST or len(layers) != 2:
            raise StructureError("block_indices is not a list of two layers")
        volume = size[0] * size[1] * size[2]
        blocks, water = (_layer(layer, n, volume, len(entries), size) for n, layer in
                         enumerate(layers))  # fmt: skip
        entities = body.get("entities", nbt.TagList(nbt.TagList.COMPOUND))
        if not isinstance(entities, nbt.TagList) or any(not isinstance(e, dict) for e in entities):
            raise StructureError("entities is not a list of compounds")
        data = default.get("block_position_data", {})
        if not isinstance(data, dict):
            raise StructureError("palette.default.block_position_data is not a compound")
        origin = root.get("structure_world_origin")
        where = _ints(origin, "structure_world_origin", 3) if origin is not None else (0, 0, 0)
        return cls(blocks, tuple(entries), water, tuple(versions), tuple(entities), dict(data),
                   (where[0], where[1], where[2]))  # fmt: skip


# --- files ----------------------------------------------------------------------------------


def write_structure(path: str | os.PathLike[str], structure: Structure) -> Path:
    """Write ``structure`` to a ``.mcstructure`` file; the path written.

    Raises:
        StructureError: the file cannot be written (the message names it and why).
    """
    target = Path(path).expanduser()
    data = nbt.encode(structure.to_nbt())
    try:
        target.write_bytes(data)
    except OSError as exc:
        raise StructureError(f"{target}: cannot be written ({exc.strerror or exc})") from exc
    return target


def read_structure(path: str | os.PathLike[str]) -> Structure:
    """The structure a ``.mcstructure`` file holds.

    Raises:
        StructureError: the file cannot be read, is over STRUCTURE_FILE_BYTES_MAX, or is not
            a structure (the message names the file and what is wrong).
    """
    source = Path(path).expanduser()
    try:
        with source.open("rb") as handle:
            data = handle.read(STRUCTURE_FILE_BYTES_MAX + 1)
    except OSError as exc:
        raise StructureError(f"{source}: cannot be read ({exc.strerror or exc})") from exc
    if len(data) > STRUCTURE_FILE_BYTES_MAX:
        raise StructureError(
            f"{source}: over {STRUCTURE_FILE_BYTES_MAX:,} bytes, larger than any structure read"
        )
    try:
        return Structure.from_nbt(nbt.decode(data)[1])
    except StructureError as exc:
        raise StructureError(f"{source}: {exc}") from None


# --- checks ---------------------------------------------------------------------------------


def _int_list(values: np.ndarray[Any, Any]) -> nbt.TagList:
    items: array[int] = array("i")
    items.frombytes(np.ascontiguousarray(values, dtype=np.int32).tobytes())
    return nbt.TagList(nbt.TagList.INT, items)


def _fits(size: tuple[int, int, int]) -> None:
    volume = size[0] * size[1] * size[2]
    if volume > STRUCTURE_BLOCKS_MAX:
        raise StructureError(
            f"a {size[0]}x{size[1]}x{size[2]} structure is {volume:,} blocks, over the "
            f"{STRUCTURE_BLOCKS_MAX:,} read or made here"
        )


def _want(parent: Mapping[str, Any], key: str, kind: type, where: str = "") -> Any:
    value = parent.get(key)
    if value is None:
        raise StructureError(f"{where}{key} is missing")
    if not isinstance(value, kind) or isinstance(value, nbt.Byte | nbt.Short | nbt.Long):
        raise StructureError(f"{where}{key} is not {_KIND_WORDS.get(kind, kind.__name__)}")
    return value


_KIND_WORDS = {int: "an Int", dict: "a compound", nbt.TagList: "a list", str: "a string"}


def _ints(value: Any, what: str, n: int) -> tuple[int, ...]:
    if not isinstance(value, nbt.TagList) or value.kind != nbt.TagList.INT or len(value) != n:
        raise StructureError(f"{what} is not a list of {n} Ints")
    return tuple(int(v) for v in value)


def _entry(item: Any, index: int) -> tuple[Entry, int]:
    where = f"block_palette[{index}]"
    if not isinstance(item, dict):
        raise StructureError(f"{where} is not a compound")
    name = _want(item, "name", str, where + ".")
    states = item.get("states", {})
    if not isinstance(states, dict):
        raise StructureError(f"{where}.states is not a compound")
    version = item.get("version", BLOCK_VERSION)
    # An Int in files the game saves now; a Long in older ones (Mojang's own gametest
    # structures in minecraft-creator-tools' samplecontent, version 17760256): kept as read.
    if not isinstance(version, int) or isinstance(version, nbt.Byte | nbt.Short):
        raise StructureError(f"{where}.version is not an Int or a Long")
    return (name, {k: _state_value(where, k, v) for k, v in states.items()}), (
        version if isinstance(version, nbt.Long) else int(version)
    )


def _state_value(where: str, key: str, value: Any) -> bool | int | str:
    """A state as the Script API gives it: a Byte is a boolean (wiki: "bytes for boolean
    values"), an Int a number, a String an enum value."""
    if isinstance(value, nbt.Byte):
        return bool(value)
    if isinstance(value, str) or (type(value) is int):
        return value
    raise StructureError(
        f"{where}.states.{key} is {type(value).__name__}: not a Byte, Int or String"
    )


def _state_tag(name: str, key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return nbt.Byte(value)
    if isinstance(value, int | str):
        return int(value) if isinstance(value, int) else value
    raise StructureError(
        f"{short_id(name)}'s state {key}={value!r:.40} is not a boolean, whole number or text"
    )


def _layer(layer: Any, n: int, volume: int, entries: int,
           size: tuple[int, ...]) -> np.ndarray[Any, np.dtype[np.int32]]:  # fmt: skip
    what = ("first", "second")[n]
    if not isinstance(layer, nbt.TagList) or layer.kind not in (nbt.TagList.INT, nbt.TagList.END):
        raise StructureError(f"block_indices' {what} layer is not a list of Ints")
    if len(layer) != volume:
        raise StructureError(
            f"block_indices' {what} layer holds {len(layer):,} indices; size "
            f"{size[0]}x{size[1]}x{size[2]} needs {volume:,}"
        )
    items = layer.items if isinstance(layer.items, array) else array("i", layer.items)
    flat = np.frombuffer(items, dtype=np.int32).copy()
    bad = (flat < -1) | (flat >= entries)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise StructureError(
            f"block_indices' {what} layer has index {int(flat[at])} at {at}: the palette has "
            f"{entries} entries (-1 is no block)"
        )
    return flat.reshape(size[0], size[1], size[2])


# --- the world's own store: /structure ------------------------------------------------------

# A structure's name in the world's store: letters, digits and _ - . / with one namespace
# colon at most ("house", "mystructure:house"); quoted in the command line, so nothing in it
# can end the argument.
_NAME_CHARS: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:"
)
NAME_CHARS_MAX: Final = 64  # long enough for any namespace:path a pack uses; our own bound
SAVE_MODES: Final = (
    "disk",
    "memory",
)  # the command's saveMode: the world's file, or until it closes


def structure_command_line(action: str, name: str, *points: Any, save_mode: str = "disk") -> str:
    """The ``/structure`` line (without the slash) that saves, loads or deletes ``name`` in
    the world's own store: ``("save", name, corner1, corner2)``, ``("load", name, origin)``
    or ``("delete", name)``.

    Raises:
        InvalidArgument: an unknown action, a name outside the characters above, or the
            wrong number of points for the action.
    """
    wanted = {"save": 2, "load": 1, "delete": 0}
    if action not in wanted:
        raise InvalidArgument("action", action, "is not one /structure takes here",
                              "save, load or delete")  # fmt: skip
    if (
        not name
        or len(name) > NAME_CHARS_MAX
        or not set(name) <= _NAME_CHARS
        or name.count(":") > 1
    ):
        raise InvalidArgument(
            "name", name, "is not a structure name",
            f"up to {NAME_CHARS_MAX} letters, digits and _ - . / with one namespace colon at most",
        )  # fmt: skip
    if len(points) != wanted[action]:
        shapes = {"save": "corner1, corner2", "load": "origin", "delete": "no point"}
        raise InvalidArgument("points", points, f"do not fit {action}", shapes[action])
    if save_mode not in SAVE_MODES:
        raise InvalidArgument("save_mode", save_mode, "is not a save mode", " or ".join(SAVE_MODES))
    where = " ".join(" ".join(str(v) for v in _origin(p)) for p in points)
    line = f'structure {action} "{name}"' + (f" {where}" if where else "")
    return line + (f" {save_mode}" if action == "save" else "")
