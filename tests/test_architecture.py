"""The layering rules of docs/architecture.md, checked on the source (an AST walk, no imports)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mcbews_repl"

# sansio is pure: no I/O, no clock, no threads, no logging.
SANSIO_FORBIDDEN = {
    "asyncio",
    "socket",
    "threading",
    "time",
    "logging",
    "websockets",
    "selectors",
    "subprocess",
}
# Neither sansio nor gateway may pull in the REPL's heavy or interactive dependencies.
CORE_FORBIDDEN = {"IPython", "ipykernel", "pandas", "rich", "matplotlib"}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # resolve relative imports against the file's package
                parts = path.relative_to(PACKAGE.parent).with_suffix("").parts[: -node.level]
                base = ".".join(parts + ((base,) if base else ()))
            names.add(base)
    return names


def modules_of(layer: str) -> dict[Path, set[str]]:
    root = PACKAGE / layer
    return {p: imported_modules(p) for p in root.rglob("*.py")} if root.exists() else {}


def top(name: str) -> str:
    return name.split(".")[0]


def test_sansio_is_pure() -> None:
    found = modules_of("sansio")
    assert found, "the sansio package must exist"
    for path, names in found.items():
        bad = {n for n in names if top(n) in SANSIO_FORBIDDEN | CORE_FORBIDDEN}
        assert not bad, f"{path.name} imports {bad}"
        upward = {
            n
            for n in names
            if n.startswith(("mcbews_repl.gateway", "mcbews_repl.repl", "mcbews_repl.sim"))
        }
        assert not upward, f"{path.name} imports upward: {upward}"


# The house's single sources the core may share: each is standard library only itself.
STDLIB_LEAVES = {
    "mcbews_repl.exceptions",
    "mcbews_repl.game_events",
    "mcbews_repl.lazy",
    "mcbews_repl.limits",
    "mcbews_repl.vocabulary",
}


def outside_the_standard_library(names: set[str], inside: str) -> set[str]:
    """The imports in ``names`` that are neither the standard library, nor ``inside``'s own
    modules, nor one of the package's standard-library-only leaves."""
    return {
        n
        for n in names
        if top(n) not in sys.stdlib_module_names
        and n != inside
        and not n.startswith(inside + ".")
        and n not in STDLIB_LEAVES
    }


def test_sansio_needs_only_the_standard_library() -> None:
    # The protocol core and nothing else: presentation (the game's colour codes, gametext.py)
    # lives beside the skins, and the shared leaves it uses need nothing beyond the stdlib.
    for path, names in modules_of("sansio").items():
        bad = outside_the_standard_library(names, "mcbews_repl.sansio")
        assert not bad, f"sansio/{path.name} imports {bad}"
    for leaf in STDLIB_LEAVES:
        path = PACKAGE / (leaf.rsplit(".", 1)[1] + ".py")
        bad = outside_the_standard_library(imported_modules(path), leaf)
        assert not bad, f"{path.name} imports {bad}"


def test_gateway_does_not_import_repl_or_sim() -> None:
    for path, names in modules_of("gateway").items():
        bad = {
            n
            for n in names
            if top(n) in CORE_FORBIDDEN or n.startswith(("mcbews_repl.repl", "mcbews_repl.sim"))
        }
        assert not bad, f"{path.name} imports {bad}"


def test_simulator_does_not_reuse_the_bridge_codec_or_its_constants() -> None:
    # The simulator plays the game and the addon; sharing the codec would hide bugs, and
    # borrowing the bridge's limits (sansio.wire) would hide a wrong one: its game facts
    # come from its own evidence corpus (sim/facts.py).
    for path, names in modules_of("sim").items():
        bad = {n for n in names if n.startswith(("mcbews_repl.sansio", "mcbews_repl.gateway"))}
        assert not bad, f"{path.name} imports {bad}"


def test_the_rule_checker_sees_relative_imports() -> None:
    names = imported_modules(PACKAGE / "sansio" / "connection.py")
    assert "mcbews_repl.sansio.chunks" in names


def test_capture_and_doctor_stay_below_the_repl() -> None:
    # Recording, replay and the doctor run from plain asyncio code and the shell; only the
    # doctor's terminal table may use rich (imported when a table is asked for).
    for layer, allowed in (("capture", set()), ("doctor", {"rich"})):
        found = modules_of(layer)
        assert found, f"the {layer} package must exist"
        for path, names in found.items():
            bad = {
                n
                for n in names
                if (top(n) in CORE_FORBIDDEN and top(n) not in allowed)
                or n.startswith("mcbews_repl.repl")
            }
            assert not bad, f"{layer}/{path.name} imports {bad}"


# --- import cycles ---------------------------------------------------------------------------
# Every import counts, those inside functions too (an import moved into a function hides a
# cycle, it does not remove it). Imports under ``if TYPE_CHECKING:`` never run and may
# point back: an annotation is not an import-order dependency.


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree: ast.AST) -> set[int]:
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            hidden.update(id(sub) for child in node.body for sub in ast.walk(child))
    return hidden


def _run_time_imports(
    path: Path, name: str, known: set[str], type_only_too: bool = False
) -> set[str]:
    """The package's modules ``path`` imports when it runs (``from pkg import module`` is
    an import of that module, ``from pkg import name`` one of the package); with
    ``type_only_too``, those under ``if TYPE_CHECKING:`` as well."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden = set() if type_only_too else _type_only(tree)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package[: len(package) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
    return found & known


def import_graph(root: Path, type_only_too: bool = False) -> dict[str, set[str]]:
    paths = {_module_name(p, root): p for p in root.rglob("*.py")}
    known = set(paths)
    return {
        name: _run_time_imports(path, name, known, type_only_too) - {name}
        for name, path in paths.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while (top_of := stack.pop()) != node:
                group.append(top_of)
            group.append(node)
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_back() -> None:
    assert cycles(import_graph(PACKAGE)) == []


def test_the_cycle_checker_finds_a_cycle_hidden_in_a_function(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .a import thing\n")
    (pkg / "sub" / "a.py").write_text("def f():\n    from . import b\nthing = 1\n")
    (pkg / "sub" / "b.py").write_text("from .. import sub\n")
    (pkg / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub import a\n"
    )
    assert cycles(import_graph(pkg)) == [["pkg.sub", "pkg.sub.a", "pkg.sub.b"]]
    assert import_graph(pkg)["pkg.typed"] == set()


# --- test markers ----------------------------------------------------------------------------
# `make test-fast` skips the tests marked slow or browser; a new test module that starts a real
# kernel, terminal, notebook or browser must say so, or the fast loop silently slows down.
SLOW_TOOLS = {"pexpect", "nbclient", "playwright", "tests.repl.kernel", "jupyter_client"}


def test_tests_that_start_kernels_terminals_or_browsers_are_marked() -> None:
    tests_root = PACKAGE.parent / "tests"
    unmarked = []
    for path in sorted(tests_root.rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        names = {
            name.split(".async_api")[0].split(".sync_api")[0] for name in imported_modules(path)
        }
        if names & SLOW_TOOLS and "pytest.mark.slow" not in text:
            unmarked.append(str(path.relative_to(tests_root)))
        if "playwright" in {top(n) for n in names} and "pytest.mark.browser" not in text:
            unmarked.append(f"{path.relative_to(tests_root)} (browser)")
    assert unmarked == []


# --- the notebook skin's wings -------------------------------------------------------------
# repl/ is three wings on the runtime thread: ipython/ on top, handle/ under it, show/ at the
# bottom, runtime.py and interrupts.py below all three. A wing imports only downward; a
# type-only import counts too (an annotation that points up is a dependency all the same).
REPL = "mcbews_repl.repl"
WINGS = ("ipython", "handle", "show")  # top first
BASE = {f"{REPL}.runtime", f"{REPL}.interrupts"}


def place_in_repl(name: str) -> str | None:
    """The wing a module of ``mcbews_repl.repl`` belongs to, "base", or None (elsewhere)."""
    if name in BASE:
        return "base"
    for wing in WINGS:
        if name == f"{REPL}.{wing}" or name.startswith(f"{REPL}.{wing}."):
            return wing
    return None


def repl_imports() -> dict[str, set[str]]:
    """Every module of repl/ and what it imports (the package's own names, type-only too)."""
    root = PACKAGE / "repl"
    return {_module_name(p, PACKAGE): imported_modules(p) for p in root.rglob("*.py")}


def arrows_up(imports: dict[str, set[str]]) -> list[str]:
    """Each import from a wing, or the base, into a wing above it."""
    order = {"base": 0, "show": 1, "handle": 2, "ipython": 3}
    found = []
    for module, names in imports.items():
        here = place_in_repl(module)
        for name in names:
            there = place_in_repl(name)
            if here is not None and there is not None and order[there] > order[here]:
                found.append(f"{module} -> {name}")
    return sorted(found)


def around_the_face(imports: dict[str, set[str]]) -> list[str]:
    """Each import of a wing's private module from outside that wing: between wings (and
    from the rest of the package) only the wing's ``__init__`` is its API."""
    found = []
    for module, names in imports.items():
        for name in names:
            wing = place_in_repl(name)
            if wing in WINGS and name != f"{REPL}.{wing}" and place_in_repl(module) != wing:
                found.append(f"{module} -> {name}")
    return sorted(found)


def test_each_wing_imports_only_downward() -> None:
    imports = repl_imports()
    assert {place_in_repl(m) for m in imports} >= {*WINGS, "base"}, "the wings must exist"
    assert arrows_up(imports) == []


def test_a_wing_is_reached_only_through_its_init() -> None:
    imports = repl_imports()
    outside = PACKAGE.rglob("*.py")
    imports |= {_module_name(p, PACKAGE): imported_modules(p) for p in outside
                if "repl" not in p.relative_to(PACKAGE).parts[:1]}  # fmt: skip
    assert around_the_face(imports) == []


def test_the_wing_rules_see_a_broken_import() -> None:
    show, handle = f"{REPL}.show._tables", f"{REPL}.handle._calls"
    assert arrows_up({show: {f"{REPL}.handle"}}) == [f"{show} -> {REPL}.handle"]
    assert arrows_up({f"{REPL}.runtime": {f"{REPL}.show._views"}}) != []
    assert arrows_up({handle: {f"{REPL}.show"}}) == []
    assert around_the_face({handle: {f"{REPL}.show._tables"}}) == [
        f"{handle} -> {REPL}.show._tables"
    ]
    assert around_the_face({handle: {f"{REPL}.handle._core"}}) == []


def test_the_handle_wing_imports_no_ipython_at_module_level() -> None:
    # Scripts (mcbews_repl.start()) use the handle without IPython; the renderings reach
    # IPython's display inside the functions that show something.
    for path in (PACKAGE / "repl" / "handle").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        names = {a.name for n in top_level if isinstance(n, ast.Import) for a in n.names}
        names |= {n.module or "" for n in top_level if isinstance(n, ast.ImportFrom)}
        assert not {n for n in names if top(n) == "IPython"}, path.name


def every_import_graph(root: Path) -> dict[str, set[str]]:
    """The package's own modules each module imports, type-only imports included."""
    return import_graph(root, type_only_too=True)


def test_no_circle_even_through_type_only_imports() -> None:
    # The doctor's report and view, the gateway connection's parts and the region's
    # picture once closed circles through their annotations; a protocol or the name the
    # observers are handed now stands where each pointed back.
    assert cycles(every_import_graph(PACKAGE)) == []


def test_the_circle_checker_counts_type_only_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import thing\n"
    )
    assert cycles(every_import_graph(pkg)) == [["pkg.a", "pkg.b"]]


# --- packages reached through their faces --------------------------------------------------
# One package of mcbews_repl reaches another only through that package's ``__init__`` (its
# API, docs/architecture.md "The API"), at module level and inside functions, type-only
# imports too; a heavy part is a name the face resolves on first use (mcbews_repl/lazy.py),
# not a reason to reach into a module. In repl/, which has no API of its own, each wing's
# ``__init__`` is the face. The honest exceptions, each with its reason:
PACKAGES = ("addon", "capture", "doctor", "gateway", "repl", "sansio", "sim", "toolkit")
AROUND_THE_FACE = {
    ("mcbews_repl.cli", "mcbews_repl.doctor.cli"): "a package's own command line, reached "
    "by `mcbews-repl doctor` only when it runs; not part of the doctor's API",
    ("mcbews_repl.cli", "mcbews_repl.capture.cli"): "a package's own command line, reached "
    "by `mcbews-repl redact`/`replay` only when they run; not part of the capture's API",
}


def package_of(name: str) -> str | None:
    """The package of mcbews_repl a module belongs to, or None (a top-level module)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in PACKAGES else None


def face_of(name: str) -> str:
    """The ``__init__`` through which other packages reach ``name``: its package's, or in
    repl/ its wing's (repl's own modules, ``runtime``, ``charts`` ..., are each their own)."""
    package = package_of(name)
    if package == "repl":
        wing = place_in_repl(name)
        return f"{REPL}.{wing}" if wing in WINGS else name
    return f"mcbews_repl.{package}"


def between_packages(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Each import (importer, imported module) from one package, or a top-level module,
    into another package."""
    return sorted(
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if package_of(target) not in (None, package_of(module))
    )


def around_package_faces(graph: dict[str, set[str]]) -> list[str]:
    """Each import into another package that names one of its modules instead of its face,
    and is not listed in ``AROUND_THE_FACE``."""
    return [
        f"{module} -> {target}"
        for module, target in between_packages(graph)
        if target != face_of(target) and (module, target) not in AROUND_THE_FACE
    ]


def test_packages_reach_each_other_only_through_their_faces() -> None:
    assert around_package_faces(every_import_graph(PACKAGE)) == []


def test_every_listed_exception_is_still_an_import() -> None:
    graph = every_import_graph(PACKAGE)
    assert [pair for pair in AROUND_THE_FACE if pair[1] not in graph[pair[0]]] == []


def test_the_face_rule_sees_an_import_around_a_face(tmp_path: Path) -> None:
    root = tmp_path / "mcbews_repl"
    for package in ("sansio", "toolkit", "capture"):
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "sansio" / "wire.py").write_text("NAME = 1\n")
    (root / "toolkit" / "ok.py").write_text("from ..sansio import NAME\n")
    (root / "toolkit" / "top.py").write_text("from ..sansio.wire import NAME\n")
    (root / "capture" / "late.py").write_text("def f():\n    from ..sansio import wire\n")
    (root / "capture" / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import mcbews_repl.sansio.wire\n"
    )
    assert around_package_faces(every_import_graph(root)) == [
        "mcbews_repl.capture.late -> mcbews_repl.sansio.wire",
        "mcbews_repl.capture.typed -> mcbews_repl.sansio.wire",
        "mcbews_repl.toolkit.top -> mcbews_repl.sansio.wire",
    ]
    # repl/'s faces are its wings; the listed exceptions pass
    assert around_package_faces({"mcbews_repl": {f"{REPL}.handle", f"{REPL}.charts"}}) == []
    assert around_package_faces({"mcbews_repl": {f"{REPL}.handle._core"}}) != []
    assert around_package_faces({a: {b} for a, b in AROUND_THE_FACE}) == []


def test_capture_plays_the_game_side_only_with_the_sims_client() -> None:
    # The replay stands where the game stands, so it speaks with the simulated world's game
    # side (its client and ws:encrypt half, written apart from sansio and gateway); no other
    # part of capture uses the sim, and the sim uses nothing of capture.
    graph = every_import_graph(PACKAGE)
    users = {m for m, targets in graph.items() if package_of(m) == "capture"
             and any(package_of(t) == "sim" for t in targets)}  # fmt: skip
    assert users == {"mcbews_repl.capture.replay"}
    assert graph["mcbews_repl.capture.replay"] & {m for m in graph if package_of(m) == "sim"} == {
        "mcbews_repl.sim"
    }
    assert not any(
        package_of(t) == "capture" for m, ts in graph.items() if package_of(m) == "sim" for t in ts
    )
