"""The package's face is light: importing a part of it loads that part and what it needs,
not the whole house; the names of ``mcbews_repl`` resolve when first used."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import mcbews_repl

HEAVY = ["asyncio", "websockets", "quickjs", "mcbews_repl.sim", "mcbews_repl.gateway",
         "mcbews_repl.repl", "IPython", "pandas"]  # fmt: skip


def modules_after(statement: str) -> set[str]:
    """The modules a fresh interpreter has loaded after ``statement``."""
    code = f"import sys, json\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout))


def loaded_after(statement: str) -> list[str]:
    """The heavy modules a fresh interpreter has loaded after ``statement``."""
    modules = modules_after(statement)
    return [name for name in HEAVY if name in modules]


@pytest.mark.parametrize(
    "statement",
    ["import mcbews_repl.sansio", "import mcbews_repl", "from mcbews_repl import McbewsError"],
)
def test_importing_the_core_loads_nothing_heavy(statement: str) -> None:
    assert loaded_after(statement) == []


def test_a_name_of_the_face_loads_its_part_when_used() -> None:
    assert loaded_after("import mcbews_repl; mcbews_repl.serve") == [
        "asyncio", "websockets", "mcbews_repl.gateway"
    ]  # fmt: skip


def test_every_exported_name_resolves_and_is_listed() -> None:
    for name in mcbews_repl.__all__:
        assert getattr(mcbews_repl, name) is not None
    assert set(mcbews_repl.__all__) <= set(dir(mcbews_repl))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = mcbews_repl.nope  # type: ignore[attr-defined]


# A package's face names its heavy parts too (other packages import them only through it),
# but loads each when the name is first used.
PARTS = [
    ("mcbews_repl.toolkit", "BlockRegion", ["numpy", "mcbews_repl.toolkit.region"]),
    ("mcbews_repl.capture", "ReplayGame", ["mcbews_repl.sim", "mcbews_repl.capture.replay"]),
    ("mcbews_repl.sansio", "decode_reply", ["mcbews_repl.sansio.pull"]),
]


@pytest.mark.parametrize(("package", "name", "heavy"), PARTS)
def test_a_face_loads_its_heavy_part_when_named(package: str, name: str, heavy: list[str]) -> None:
    assert set(heavy).isdisjoint(modules_after(f"import {package}"))
    assert set(heavy) <= modules_after(f"from {package} import {name}")


def test_a_lazy_face_names_what_it_has_and_refuses_the_rest() -> None:
    import mcbews_repl.toolkit as toolkit

    assert {"BlockRegion", "surface_png"} <= set(dir(toolkit))
    with pytest.raises(AttributeError, match=r"'mcbews_repl\.toolkit' has no attribute 'nope'"):
        _ = toolkit.nope  # type: ignore[attr-defined]
