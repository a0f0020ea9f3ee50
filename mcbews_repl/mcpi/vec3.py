"""mcpi's ``Vec3``: a mutable x, y, z with mcpi's arithmetic (``+``, ``-``, ``*`` a number,
unary ``-``, ``clone``, ``iround``, ``ifloor``, ``rotateLeft``, ``rotateRight``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["Vec3"]


class Vec3:
    """A position or a direction, as mcpi's: ``Vec3(1, 2, 3) + Vec3(0, 1, 0)``."""

    __hash__ = None  # type: ignore[assignment]  # mutable, as mcpi's

    def __init__(self, x: Any = 0, y: Any = 0, z: Any = 0) -> None:
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, rhs: Vec3) -> Vec3:
        c = self.clone()
        c += rhs
        return c

    def __iadd__(self, rhs: Vec3) -> Vec3:
        self.x += rhs.x
        self.y += rhs.y
        self.z += rhs.z
        return self

    def __sub__(self, rhs: Vec3) -> Vec3:
        return self + (-rhs)

    def __isub__(self, rhs: Vec3) -> Vec3:
        return self.__iadd__(-rhs)

    def __mul__(self, k: float) -> Vec3:
        c = self.clone()
        c *= k
        return c

    def __rmul__(self, k: float) -> Vec3:
        return self * k

    def __imul__(self, k: float) -> Vec3:
        self.x *= k
        self.y *= k
        self.z *= k
        return self

    def __neg__(self) -> Vec3:
        return Vec3(-self.x, -self.y, -self.z)

    def length(self) -> float:
        """The vector's length."""
        return math.sqrt(self.lengthSqr())

    def lengthSqr(self) -> float:
        """The length squared."""
        return float(self.x * self.x + self.y * self.y + self.z * self.z)

    def clone(self) -> Vec3:
        """A copy."""
        return Vec3(self.x, self.y, self.z)

    def _key(self) -> tuple[Any, Any, Any]:
        return (self.x, self.y, self.z)

    def __eq__(self, rhs: object) -> bool:
        return isinstance(rhs, Vec3) and self._key() == rhs._key()

    def __lt__(self, rhs: Vec3) -> bool:  # x, then y, then z: mcpi's __cmp__ order
        return self._key() < rhs._key()

    def __le__(self, rhs: Vec3) -> bool:
        return self._key() <= rhs._key()

    def __gt__(self, rhs: Vec3) -> bool:
        return self._key() > rhs._key()

    def __ge__(self, rhs: Vec3) -> bool:
        return self._key() >= rhs._key()

    def __repr__(self) -> str:
        return f"Vec3({self.x},{self.y},{self.z})"

    def __iter__(self) -> Iterator[Any]:
        return iter((self.x, self.y, self.z))

    def _map(self, func: Callable[[Any], Any]) -> None:
        self.x, self.y, self.z = func(self.x), func(self.y), func(self.z)

    def iround(self) -> None:
        """Round each coordinate in place (mcpi's ``int(v + 0.5)``)."""
        self._map(lambda v: int(v + 0.5))

    def ifloor(self) -> None:
        """Truncate each coordinate in place (mcpi's ``int(v)``)."""
        self._map(int)

    def rotateLeft(self) -> None:
        """Turn a quarter left about the y axis, in place."""
        self.x, self.z = self.z, -self.x

    def rotateRight(self) -> None:
        """Turn a quarter right about the y axis, in place."""
        self.x, self.z = -self.z, self.x
