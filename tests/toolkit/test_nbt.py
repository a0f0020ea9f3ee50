"""Little-endian NBT: every tag type read back as written (its type too), the bytes laid out
as the format says, and hostile bytes (cut short, lengths past the end, deep nesting, junk)
refused with a StructureError that says where, bounded, never another exception."""

from __future__ import annotations

import contextlib
import struct
from array import array
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.exceptions import StructureError
from mcbews_repl.toolkit import nbt
from mcbews_repl.toolkit.nbt import Byte, Float, IntArray, Long, LongArray, Short, TagList


def typed(value: Any) -> Any:
    """A value with each tag's type spelled out, so equal means the same file."""
    if isinstance(value, TagList):
        return ("List", value.kind, [typed(v) for v in value])
    if isinstance(value, dict):
        return ("Compound", {k: typed(v) for k, v in value.items()})
    if isinstance(value, float) and value != value:
        return (type(value).__name__, "nan")
    return (type(value).__name__, value)


def ints(bits: int) -> st.SearchStrategy[int]:
    return st.integers(min_value=-(1 << (bits - 1)), max_value=(1 << (bits - 1)) - 1)


scalars = st.one_of(
    ints(8).map(Byte), ints(16).map(Short), ints(32), ints(64).map(Long),
    st.floats(width=32).map(Float), st.floats(), st.binary(max_size=20),
    st.text(max_size=20), st.lists(ints(32), max_size=5).map(lambda v: IntArray(v)),
    st.lists(ints(64), max_size=5).map(lambda v: LongArray(v)),
)  # fmt: skip
number_lists = st.one_of(
    st.lists(ints(8), max_size=8).map(lambda v: TagList(TagList.BYTE, array("b", v))),
    st.lists(ints(32), max_size=8).map(TagList.ints),
    st.lists(ints(64), max_size=8).map(lambda v: TagList(TagList.LONG, array("q", v))),
)
values = st.recursive(
    st.one_of(scalars, number_lists),
    lambda inner: st.one_of(
        st.dictionaries(st.text(max_size=8), inner, max_size=4),
        st.lists(st.dictionaries(st.text(max_size=4), inner, max_size=3), max_size=3).map(
            lambda v: TagList(TagList.COMPOUND, v)
        ),
        st.lists(st.text(max_size=5), max_size=4).map(lambda v: TagList(TagList.STRING, v)),
    ),
    max_leaves=20,
)
roots = st.dictionaries(st.text(max_size=8), values, max_size=5)


@given(roots, st.text(max_size=10))
def test_any_value_reads_back_as_written_with_its_types(root: dict[str, Any], name: str) -> None:
    data = nbt.encode(root, name)
    got_name, got = nbt.decode(data)
    assert got_name == name
    assert typed(got) == typed(root)
    assert nbt.encode(got, name) == data  # the same file again


def test_the_bytes_are_the_formats_little_endian_layout() -> None:
    data = nbt.encode({"n": 1, "s": "é", "b": True, "l": TagList.ints([2, -1])})
    assert data == (
        b"\x0a\x00\x00"  # a compound named ""
        + b"\x03\x01\x00n" + struct.pack("<i", 1)
        + b"\x08\x01\x00s\x02\x00" + "é".encode()
        + b"\x01\x01\x00b\x01"
        + b"\x09\x01\x00l\x03" + struct.pack("<iii", 2, 2, -1)
        + b"\x00"
    )  # fmt: skip


def test_a_plain_list_takes_its_items_type_and_an_empty_one_is_a_list_of_end() -> None:
    _, got = nbt.decode(nbt.encode({"a": ["x", "y"], "e": []}))
    assert got["a"] == TagList(TagList.STRING, ["x", "y"]) and got["e"].kind == TagList.END


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ({"x": 1 << 40}, "does not fit an NBT Int"),
        ({"x": Byte(200)}, "does not fit an NBT Byte"),
        ({"x": [1, "a"]}, "one type"),
        ({"x": object()}, "no NBT tag holds"),
        ({"x": "a" * 70_000}, "at most 65,535 bytes"),
        ({"x": TagList(TagList.INT, ["a"])}, "holds 'a'"),
    ],
)
def test_what_no_tag_holds_is_refused_when_written(value: dict[str, Any], says: str) -> None:
    with pytest.raises(StructureError, match=says):
        nbt.encode(value)


def test_nesting_deeper_than_the_bound_is_refused_both_ways() -> None:
    deep: dict[str, Any] = {}
    for _ in range(nbt.DEPTH_MAX + 2):
        deep = {"d": deep}
    with pytest.raises(StructureError, match="deeper than"):
        nbt.encode(deep)
    raw = b"\x0a\x00\x00" + b"\x0a\x01\x00d" * (nbt.DEPTH_MAX + 2) + b"\x00" * (nbt.DEPTH_MAX + 3)
    with pytest.raises(StructureError, match="deeper than"):
        nbt.decode(raw)


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        (b"", "cut short"),
        (b"\x03\x00\x00", "does not start with a compound"),
        (b"\x0a\x00\x00\x03\x01\x00n\x01", "cut short"),
        (b"\x0a\x00\x00\x0e\x00\x00", "tag type 14"),
        (b"\x0a\x00\x00\x07\x01\x00b\xff\xff\xff\xff\x00", "length -1"),
        (b"\x0a\x00\x00\x09\x01\x00l\x0a\xff\xff\xff\x7f\x00", "past its end"),
        (b"\x0a\x00\x00\x09\x01\x00l\x03\xff\xff\xff\x7f\x00", "cut short"),
        (b"\x0a\x00\x00\x09\x01\x00l\x00\x05\x00\x00\x00\x00", "End tags"),
        (b"\x0a\x00\x00\x00junk", "after its end"),
    ],
)
def test_hostile_bytes_say_what_is_wrong(raw: bytes, says: str) -> None:
    with pytest.raises(StructureError, match=says):
        nbt.decode(raw)


def test_a_string_that_is_not_utf8_is_kept_byte_for_byte() -> None:
    # The game stores binary in String tags: an entity's StorageKey in a structure file is
    # eight bytes (Mojang/minecraft-creator-tools' vanilla_gametest structures hold them).
    raw = b"\x0a\x00\x00\x08\x0a\x00StorageKey\x08\x00\xfa\x00\x00\x00\x06\x00\x00\x00\x00"
    name, root = nbt.decode(raw)
    assert name == "" and len(root["StorageKey"]) == 8
    assert nbt.encode(root) == raw
    with pytest.raises(StructureError, match="not text"):
        nbt.encode({"s": "\ud800"})


def test_more_values_than_the_bound_are_refused() -> None:
    count = nbt.VALUES_MAX + 1
    raw = b"\x0a\x00\x00\x09\x01\x00l\x0a" + struct.pack("<i", count) + b"\x00" * count + b"\x00"
    with pytest.raises(StructureError, match="more than"):
        nbt.decode(raw)


@settings(max_examples=300)
@given(st.binary(max_size=200))
def test_any_bytes_read_or_refused_never_another_error(raw: bytes) -> None:
    with contextlib.suppress(StructureError):
        nbt.decode(raw)


@given(roots, st.data())
def test_cut_or_flipped_bytes_are_read_or_refused(root: dict[str, Any], data: Any) -> None:
    raw = nbt.encode(root)
    cut = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
    with pytest.raises(StructureError):
        nbt.decode(raw[:cut])
    at = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
    flipped = raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1 :]
    with contextlib.suppress(StructureError):
        nbt.decode(flipped)
