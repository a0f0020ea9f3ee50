"""Little-endian NBT, the binary tag format of Bedrock's files (``.mcstructure`` among them).

Standard library only. A file is one named compound; :func:`decode` gives its name and its
value, :func:`encode` makes the bytes again. Each tag type has one Python type, so a value
read and written back is the same file:

==============  =====================================  ==============================
tag             Python                                 written from
==============  =====================================  ==============================
Byte (1)        :class:`Byte` (an ``int``)             ``Byte(1)``, ``True``/``False``
Short (2)       :class:`Short`                         ``Short(3)``
Int (3)         ``int``                                ``3``
Long (4)        :class:`Long`                          ``Long(3)``
Float (5)       :class:`Float` (a ``float``)           ``Float(0.5)``
Double (6)      ``float``                              ``0.5``
Byte array (7)  ``bytes``                              ``bytes``, ``bytearray``
String (8)      ``str`` (UTF-8, at most 65,535 bytes)  ``str``
List (9)        :class:`TagList` (``kind``, items)     a ``TagList``, or a list of one type
Compound (10)   ``dict`` (``str`` keys)                ``dict``
Int array (11)  :class:`IntArray` (a ``tuple``)        ``IntArray(...)``
Long array (12) :class:`LongArray`                     ``LongArray(...)``
==============  =====================================  ==============================

A list of numbers (bytes, shorts, ints, longs, floats, doubles) holds an ``array.array``:
four bytes an int in memory as in the file, so a structure's block indices stay compact.

Reading never trusts the bytes: a file cut short, a length past its end, a nesting deeper
than :data:`DEPTH_MAX` or more values than :data:`VALUES_MAX` raise
:class:`~mcbews_repl.exceptions.StructureError` saying where; nothing else escapes. Writing a
value no tag holds (an int over 32 bits, a list of mixed types) raises it too.

A string's bytes that are not UTF-8 are kept, as Python's ``surrogateescape`` does, and
written back as they were: the game stores binary in String tags (an entity's
``StorageKey`` in a structure, eight bytes, as in Mojang's own gametest structures).
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from ..exceptions import StructureError

__all__ = [
    "DEPTH_MAX",
    "VALUES_MAX",
    "Byte",
    "Float",
    "IntArray",
    "Long",
    "LongArray",
    "Short",
    "TagList",
    "decode",
    "encode",
]

# How deep compounds and lists may nest. A structure's own tags nest four deep and entity
# or block-entity data a few more; Java Edition's reader stops at 512 (NbtAccounter). 256
# keeps the recursive reader well inside Python's default recursion limit of 1,000.
DEPTH_MAX: Final = 256
# How many values a file may hold outside lists of numbers (tags, strings, compound
# entries): each costs tens of bytes of Python objects, so this bounds what a hostile file
# of empty compounds (one byte each) can make the reader hold to about 100 MB.
VALUES_MAX: Final = 1_000_000

END, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BYTES, STRING, LIST, COMPOUND, INTS, LONGS = range(13)
_NAMES = ("End", "Byte", "Short", "Int", "Long", "Float", "Double", "ByteArray", "String",
          "List", "Compound", "IntArray", "LongArray")  # fmt: skip
_SCALAR = {BYTE: "<b", SHORT: "<h", INT: "<i", LONG: "<q", FLOAT: "<f", DOUBLE: "<d"}
_ARRAY_CODE = {BYTE: "b", SHORT: "h", INT: "i", LONG: "q", FLOAT: "f", DOUBLE: "d"}
_BITS = {BYTE: 8, SHORT: 16, INT: 32, LONG: 64}
_SWAP = sys.byteorder == "big"  # array.array holds the machine's order; the files little


class Byte(int):
    """An NBT Byte (-128..127); Bedrock writes a boolean block state as one."""

    __slots__ = ()


class Short(int):
    """An NBT Short (16 bits)."""

    __slots__ = ()


class Long(int):
    """An NBT Long (64 bits)."""

    __slots__ = ()


class Float(float):
    """An NBT Float (32 bits; a plain ``float`` is a Double)."""

    __slots__ = ()


class IntArray(tuple[int, ...]):
    """An NBT Int array."""

    __slots__ = ()


class LongArray(tuple[int, ...]):
    """An NBT Long array."""

    __slots__ = ()


@dataclass(frozen=True, eq=False)
class TagList:
    """An NBT List: every item of one tag ``kind`` (``TagList.INT``, ...)."""

    kind: int
    items: list[Any] | array[Any] = field(default_factory=list)

    END, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE = END, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE
    STRING, LIST, COMPOUND = STRING, LIST, COMPOUND

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Any:
        return iter(self.items)

    def __getitem__(self, index: int) -> Any:
        return self.items[index]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TagList):
            return NotImplemented
        return self.kind == other.kind and list(self.items) == list(other.items)

    def __repr__(self) -> str:
        return f"TagList({_NAMES[self.kind]}, {list(self.items)!r})"

    @classmethod
    def ints(cls, values: Iterable[int]) -> TagList:
        """A list of Ints held compactly (``array('i')``)."""
        return cls(INT, array("i", values))


# --- reading --------------------------------------------------------------------------------


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = memoryview(data)
        self.at = 0
        self.values = 0

    def take(self, n: int, what: str) -> memoryview:
        if n < 0 or self.at + n > len(self.data):
            raise StructureError(
                f"the NBT is cut short: {what} needs {n} bytes at byte {self.at}, "
                f"{len(self.data) - self.at} are left"
            )
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def count(self, n: int) -> None:
        self.values += n
        if self.values > VALUES_MAX:
            raise StructureError(f"the NBT holds more than {VALUES_MAX:,} values: not read")

    def scalar(self, kind: int) -> Any:
        fmt = _SCALAR[kind]
        return struct.unpack(fmt, self.take(struct.calcsize(fmt), _NAMES[kind]))[0]

    def length(self, what: str) -> int:
        n = int(self.scalar(INT))
        if n < 0:
            raise StructureError(f"the NBT's {what} at byte {self.at - 4} has length {n}")
        return n

    def string(self) -> str:
        n = struct.unpack("<H", self.take(2, "a string's length"))[0]
        raw = self.take(n, "a string")
        return bytes(raw).decode("utf-8", "surrogateescape")

    def kind(self) -> int:
        kind = self.take(1, "a tag type")[0]
        if kind > LONGS:
            raise StructureError(f"the NBT's tag type {kind} at byte {self.at - 1} is unknown")
        return int(kind)

    def value(self, kind: int, depth: int) -> Any:
        self.count(1)
        if kind in _SCALAR:
            got = self.scalar(kind)
            wrap = {BYTE: Byte, SHORT: Short, LONG: Long, FLOAT: Float}.get(kind)
            return wrap(got) if wrap is not None else got
        if kind == BYTES:
            return bytes(self.take(self.length("byte array"), "a byte array"))
        if kind == STRING:
            return self.string()
        if kind in (INTS, LONGS):
            n, size = self.length(_NAMES[kind]), 4 if kind == INTS else 8
            raw = self.take(n * size, _NAMES[kind])
            self.count(n)
            items = struct.unpack(f"<{n}{'i' if kind == INTS else 'q'}", raw)
            return IntArray(items) if kind == INTS else LongArray(items)
        if depth >= DEPTH_MAX:
            raise StructureError(f"the NBT nests deeper than {DEPTH_MAX} at byte {self.at}")
        if kind == LIST:
            return self.list(depth)
        if kind == COMPOUND:
            return self.compound(depth)
        raise StructureError(f"the NBT has an End tag where a value belongs (byte {self.at})")

    def list(self, depth: int) -> TagList:
        kind, n = self.kind(), self.length("list")
        if kind in _ARRAY_CODE:
            size = struct.calcsize(_SCALAR[kind])
            items: array[Any] = array(_ARRAY_CODE[kind])
            items.frombytes(self.take(n * size, f"a list of {n} {_NAMES[kind]}"))
            if _SWAP:
                items.byteswap()
            return TagList(kind, items)
        if kind == END and n:
            raise StructureError(f"the NBT's list at byte {self.at} holds {n} End tags")
        if n > len(self.data) - self.at:  # every item takes at least one byte
            raise StructureError(f"the NBT's list of {n:,} at byte {self.at} is past its end")
        return TagList(kind, [self.value(kind, depth + 1) for _ in range(n)])

    def compound(self, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while (kind := self.kind()) != END:
            name = self.string()
            out[name] = self.value(kind, depth + 1)
        return out


def decode(data: bytes) -> tuple[str, dict[str, Any]]:
    """The root compound's name and value from a whole NBT file's bytes.

    Raises:
        StructureError: the bytes are not one little-endian NBT compound (the message says
            what and at which byte), or break a bound.
    """
    reader = _Reader(data)
    if reader.kind() != COMPOUND:
        raise StructureError("the NBT does not start with a compound tag")
    name = reader.string()
    value = reader.compound(0)
    if reader.at != len(data):
        raise StructureError(f"the NBT has {len(data) - reader.at} bytes after its end")
    return name, value


# --- writing --------------------------------------------------------------------------------


def _kind_of(value: Any) -> int:
    kinds = ((bool, BYTE), (Byte, BYTE), (Short, SHORT), (Long, LONG), (int, INT),
             (Float, FLOAT), (float, DOUBLE), (bytes | bytearray, BYTES), (str, STRING),
             (TagList | list, LIST), (Mapping, COMPOUND), (IntArray, INTS),
             (LongArray, LONGS))  # fmt: skip
    for cls, kind in kinds:
        if isinstance(value, cls):
            return kind
    raise StructureError(f"no NBT tag holds a {type(value).__name__} ({value!r:.40})")


def _as_list(value: TagList | list[Any]) -> TagList:
    if isinstance(value, TagList):
        return value
    kinds = {_kind_of(v) for v in value}
    if len(kinds) > 1:
        raise StructureError(f"an NBT list holds one type, not {sorted(_NAMES[k] for k in kinds)}")
    return TagList(kinds.pop() if kinds else END, value)


def _check(kind: int, value: Any) -> None:
    if kind in _BITS:
        bits = _BITS[kind]
        if not -(1 << (bits - 1)) <= int(value) < 1 << (bits - 1):
            raise StructureError(f"{value} does not fit an NBT {_NAMES[kind]} ({bits} bits)")


class _Writer:
    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def string(self, text: str) -> None:
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError as exc:
            shown = f"{exc.object[exc.start]!r}"
            raise StructureError(f"an NBT string holds {shown}: not text") from exc
        if len(raw) > 0xFFFF:
            raise StructureError(f"an NBT string is at most 65,535 bytes, not {len(raw):,}")
        self.parts += [struct.pack("<H", len(raw)), raw]

    def scalar(self, kind: int, value: Any) -> None:
        _check(kind, value)
        self.parts.append(struct.pack(_SCALAR[kind], value))

    def value(self, kind: int, value: Any, depth: int) -> None:
        if depth > DEPTH_MAX:
            raise StructureError(f"the value nests deeper than {DEPTH_MAX}")
        if kind in _SCALAR:
            self.scalar(kind, value)
        elif kind == BYTES:
            self.parts += [struct.pack("<i", len(value)), bytes(value)]
        elif kind == STRING:
            self.string(value)
        elif kind in (INTS, LONGS):
            code = "i" if kind == INTS else "q"
            for v in value:
                _check(INT if kind == INTS else LONG, v)
            self.parts.append(struct.pack(f"<i{len(value)}{code}", len(value), *value))
        elif kind == LIST:
            self.list(_as_list(value), depth)
        else:
            self.compound(value, depth)

    def list(self, items: TagList, depth: int) -> None:
        self.parts += [bytes([items.kind]), struct.pack("<i", len(items))]
        if items.kind in _ARRAY_CODE and isinstance(items.items, array):
            try:
                packed = array(_ARRAY_CODE[items.kind], items.items)
            except (OverflowError, TypeError) as exc:
                raise StructureError(f"a list of NBT {_NAMES[items.kind]}: {exc}") from None
            if _SWAP:
                packed.byteswap()
            self.parts.append(packed.tobytes())
            return
        for item in items:
            if _kind_of(item) != items.kind:
                raise StructureError(f"an NBT list of {_NAMES[items.kind]} holds {item!r:.40}")
            self.value(items.kind, item, depth + 1)

    def compound(self, value: Mapping[str, Any], depth: int) -> None:
        for name, item in value.items():
            if not isinstance(name, str):
                raise StructureError(f"an NBT compound's keys are strings, not {name!r:.40}")
            kind = _kind_of(item)
            self.parts.append(bytes([kind]))
            self.string(name)
            self.value(kind, item, depth + 1)
        self.parts.append(bytes([END]))


def encode(value: Mapping[str, Any], name: str = "") -> bytes:
    """One NBT file: the compound ``value`` named ``name`` (Bedrock's files use "").

    Raises:
        StructureError: a value no tag holds, out of its tag's range, or nested too deep.
    """
    writer = _Writer()
    writer.parts.append(bytes([COMPOUND]))
    writer.string(name)
    writer.compound(value, 0)
    return b"".join(writer.parts)
