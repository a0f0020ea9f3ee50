"""Every public name of mcpi's own package (the test extra installs it) is in the facade,
and takes the same calls: a lesson written for mcpi finds each class, method and block
constant it uses where it looks for it, and its calls bind."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import mcbews_repl.mcpi.block as our_block
import mcbews_repl.mcpi.entity as our_entity
import mcbews_repl.mcpi.event as our_event
import mcbews_repl.mcpi.minecraft as our_minecraft
import mcbews_repl.mcpi.vec3 as our_vec3

mcpi_minecraft = pytest.importorskip("mcpi.minecraft")
mcpi_block = pytest.importorskip("mcpi.block")
mcpi_vec3 = pytest.importorskip("mcpi.vec3")
mcpi_event = pytest.importorskip("mcpi.event")
mcpi_entity = pytest.importorskip("mcpi.entity")

# The modules' own helpers that lessons never touch: mcpi's test function and the
# connection it dials (the facade has no socket of its own to the game).
NOT_LESSON_NAMES = {"testVec3", "Connection"}
PAIRS = [
    (mcpi_minecraft, our_minecraft),
    (mcpi_block, our_block),
    (mcpi_vec3, our_vec3),
    (mcpi_event, our_event),
    (mcpi_entity, our_entity),
]
# Made for a lesson, never by it: Minecraft.create() makes these, over mcpi's connection.
MADE_BY_CREATE = {"Minecraft", "CmdPositioner", "CmdEntity", "CmdPlayer", "CmdCamera",
                  "CmdEvents"}  # fmt: skip
# How many arguments past mcpi's own a *args call is tried with.
EXTRA_ARGUMENTS = 8


def public(module: ModuleType) -> dict[str, Any]:
    """The names a module defines for its users (not those it imports)."""
    out = {}
    for name, value in vars(module).items():
        if name.startswith("_") or name in NOT_LESSON_NAMES or inspect.ismodule(value):
            continue
        home = getattr(value, "__module__", module.__name__)
        if (inspect.isclass(value) or inspect.isfunction(value)) and not home.startswith("mcpi"):
            continue  # math's, and the like: imported, not mcpi's own
        out[name] = value
    return out


def members(cls: type) -> dict[str, Any]:
    return {
        name: value
        for name, value in inspect.getmembers(cls)
        if not name.startswith("_") and (callable(value) or isinstance(value, int))
    }


def accepts(func: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    try:
        inspect.signature(func).bind(*args, **kwargs)
    except TypeError:
        return False
    return True


def check_calls(theirs: Callable[..., Any], ours: Callable[..., Any], where: str) -> None:
    """Every call shape mcpi's function takes, ours takes: any number of positional
    arguments it binds, and each of its parameters by name."""
    sig = inspect.signature(theirs)
    params = list(sig.parameters.values())
    most = len(params) + EXTRA_ARGUMENTS
    for n in range(most + 1):
        args = [object()] * n
        if accepts(theirs, *args):
            assert accepts(ours, *args), f"{where}: mcpi takes {n} arguments {sig}, ours not"
    for p in params:
        if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is not p.empty:
            before = [object()] * params.index(p)
            assert accepts(ours, *before, **{p.name: object()}), f"{where}: {p.name}= {sig}"


def test_the_mcpi_package_is_the_one_checked() -> None:
    from importlib.metadata import version

    assert version("mcpi") == "1.2.1"  # the version block.py's constants are from


@pytest.mark.parametrize(("theirs", "ours"), PAIRS, ids=lambda m: m.__name__)
def test_every_public_name_is_in_the_facade(theirs: ModuleType, ours: ModuleType) -> None:
    missing = sorted(set(public(theirs)) - set(vars(ours)))
    assert missing == [], f"{ours.__name__} lacks {missing}"


@pytest.mark.parametrize(("theirs", "ours"), PAIRS, ids=lambda m: m.__name__)
def test_every_class_has_every_method_with_its_calls(theirs: ModuleType, ours: ModuleType) -> None:
    for name, value in public(theirs).items():
        mine = getattr(ours, name)
        if inspect.isfunction(value):
            check_calls(value, mine, f"{ours.__name__}.{name}")
        if not inspect.isclass(value):
            continue
        assert inspect.isclass(mine), name
        if name not in MADE_BY_CREATE:
            check_calls(value, mine, f"{name}()")
        for attr, member in members(value).items():
            where = f"{name}.{attr}"
            assert hasattr(mine, attr), f"{ours.__name__}.{where} is missing"
            ours_member = getattr(mine, attr)
            if isinstance(member, int):
                assert ours_member == member, where
            else:
                check_calls(member, ours_member, where)


def test_every_block_constant_has_its_number() -> None:
    for name, value in public(mcpi_block).items():
        if isinstance(value, mcpi_block.Block):
            ours = getattr(our_block, name)
            assert (ours.id, ours.data) == (value.id, value.data), name
            our_block.bedrock_block(ours.id, ours.data)  # each stands for a Bedrock block


def test_every_entity_type_has_its_number() -> None:
    for name, value in public(mcpi_entity).items():
        if isinstance(value, mcpi_entity.Entity):
            ours = getattr(our_entity, name)
            assert (ours.id, ours.name) == (value.id, value.name), name


def test_vec3_arithmetic_as_mcpi_does_it() -> None:
    for a, b in [((1, 2, 3), (4, -5, 6)), ((0.5, 0, -2), (1, 1, 1))]:
        for op in ("__add__", "__sub__"):
            t = getattr(mcpi_vec3.Vec3(*a), op)(mcpi_vec3.Vec3(*b))
            o = getattr(our_vec3.Vec3(*a), op)(our_vec3.Vec3(*b))
            assert (o.x, o.y, o.z) == (t.x, t.y, t.z), op
        t, o = mcpi_vec3.Vec3(*a) * 3, our_vec3.Vec3(*a) * 3
        assert (o.x, o.y, o.z) == (t.x, t.y, t.z)
        assert our_vec3.Vec3(*a).length() == pytest.approx(mcpi_vec3.Vec3(*a).length())
        for op in ("iround", "ifloor", "rotateLeft", "rotateRight"):
            t, o = mcpi_vec3.Vec3(*a), our_vec3.Vec3(*a)
            getattr(t, op)()
            getattr(o, op)()
            assert (o.x, o.y, o.z) == (t.x, t.y, t.z), op
        assert repr(our_vec3.Vec3(*a)) == repr(mcpi_vec3.Vec3(*a))
