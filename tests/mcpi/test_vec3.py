"""mcpi's Vec3 arithmetic (mcpi's own vec3 test, and the rest of its methods)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.mcpi.vec3 import Vec3

ints = st.integers(-1000, 1000)


def test_mcpis_own_checks() -> None:
    it = Vec3(1, -2, 3)
    assert (it.x, it.y, it.z) == (1, -2, 3)
    clone = it.clone()
    assert it == clone
    it.x += 1
    assert it != clone
    a, b = Vec3(10, -3, 4), Vec3(-7, 1, 2)
    c = a + b
    assert c - a == b
    assert c - b == a
    assert a + a == a * 2
    assert a - a == Vec3(0, 0, 0)
    assert a + (-a) == Vec3(0, 0, 0)
    assert eval(repr(it)) == it


@given(ints, ints, ints, ints, ints, ints)
def test_arithmetic_is_per_coordinate(x: int, y: int, z: int, u: int, v: int, w: int) -> None:
    a, b = Vec3(x, y, z), Vec3(u, v, w)
    assert list(a + b) == [x + u, y + v, z + w]
    assert list(a - b) == [x - u, y - v, z - w]
    assert list(a * 3) == [3 * x, 3 * y, 3 * z]
    assert (a < b) == ((x, y, z) < (u, v, w))


def test_in_place_and_rounding_and_turning() -> None:
    a = Vec3(1, 2, 3)
    a += Vec3(1, 1, 1)
    a -= Vec3(0, 0, 2)
    a *= 2
    assert a == Vec3(4, 6, 4)
    assert Vec3(3, 4, 0).length() == 5.0
    assert Vec3(3, 4, 0).lengthSqr() == 25.0
    r = Vec3(1.6, -0.4, 2.5)
    r.iround()
    assert r == Vec3(2, 0, 3)
    f = Vec3(1.9, 2.2, -0.5)
    f.ifloor()
    assert f == Vec3(1, 2, 0)
    t = Vec3(1, 0, 0)
    t.rotateLeft()
    assert t == Vec3(0, 0, -1)
    t.rotateRight()
    assert t == Vec3(1, 0, 0)
    x, y, z = Vec3(7, 8, 9)
    assert (x, y, z) == (7, 8, 9)
