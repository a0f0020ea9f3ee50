"""The layering rules of DESIGN.md, checked on the source (an AST walk, no imports)."""

from __future__ import annotations

import ast
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
