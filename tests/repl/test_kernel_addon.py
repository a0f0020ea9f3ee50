"""``%%mc capability`` and ``%mc addon`` as a notebook user sees them, read from a real kernel:
the confirmation, an error short and in the cell's lines (no traceback), --ts with Node and the
addon's toolchain and the message without them, the prototype list, export and deploy."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from mcbews_repl.repl.handle._addon_dev import ESBUILD

from .kernel import run_in_kernel
from .test_kernel_display import errors, texts

pytestmark = pytest.mark.slow  # real kernels

GREET = """%%mc capability greet
export default {
  name: "greet",
  description: "Says hello",
  params: { who: "string: whom to greet" },
  run(payload) {
    return { ok: true, result: { text: `hello ${payload.who}` } };
  },
};"""

TYPED = """%%mc capability typed --ts
interface Payload { who?: string }
export default {
  name: "typed",
  description: "Says hello, typed",
  params: { who: "string" },
  run(payload: Payload) {
    const who: string = payload.who ?? "nobody";
    return { ok: true, result: { text: `hi ${who}` } };
  },
};"""


def cells(folder: Path) -> dict[str, str]:
    return {
        "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
        "no_sim": GREET,
        "sim": "%mc sim",
        "define": GREET,
        "call": "%mc call greet who=Steve",
        "syntax": "%%mc capability greet\nexport default {\n  name: 'greet',\n"
        "  run() { 1 +; },\n};",
        "extra_brace": "%%mc capability greet\nexport default {\n  name: 'greet',\n};\n}",
        "still": "await mc.call('greet', who='Alex')",
        "typed": TYPED,
        "typed_call": "await mc.call('typed', who='Alex')",
        "list": "%mc addon",
        "bad_action": "%mc addon publish",
        "export": f"%mc addon export {folder}/out.mcaddon --with greet",
        "export_unknown": f"%mc addon export {folder}/x.mcaddon --with nothing_here",
        "deploy": f"%mc addon deploy {folder}",
        "remove": "%mc addon remove greet",
        "after": "mc.addon.prototypes",
    }


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    folder = tmp_path_factory.mktemp("addon")
    return run_in_kernel(cells(folder), timeout=120, allow_errors=True), folder


def short_error(cell: Any) -> str:
    [error] = errors(cell)
    shown = texts(cell)
    assert "Traceback" not in shown and "File " not in shown  # short: no Python frames
    return f"{error.ename}: {shown}"


def test_a_prototype_is_defined_and_called(shown: tuple[dict[str, Any], Path]) -> None:
    out, _ = shown
    assert "✔ greet is registered in the simulated world's addon (a prototype)" in texts(
        out["define"]
    )
    assert "%mc call greet who=…" in texts(out["define"])
    assert '"text": "hello Steve"' in texts(out["call"])


def test_without_the_simulated_world_it_says_what_to_do(shown: tuple[dict[str, Any], Path]) -> None:
    error = short_error(shown[0]["no_sim"])
    assert error.startswith("NotConnected")
    assert "start it with %mc sim" in error and "mc.addon.deploy()" in error


def test_a_syntax_error_is_short_and_names_the_cells_line(
    shown: tuple[dict[str, Any], Path],
) -> None:
    out, _ = shown
    error = short_error(out["syntax"])
    assert error.startswith("PrototypeError")
    assert "cell greet, line 4: SyntaxError" in error
    assert '"text": "hello Alex"' in texts(out["still"])  # the earlier version still answers
    extra = short_error(out["extra_brace"])
    assert "cell greet, at its end (a brace or bracket too many?): SyntaxError" in extra


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (the --ts compiler)")
def test_ts_compiles_with_the_addons_toolchain(shown: tuple[dict[str, Any], Path]) -> None:
    # make pytest runs `npm ci` first; with Node present a missing toolchain is a failure.
    assert ESBUILD.is_file(), f"{ESBUILD} is missing: run `cd addon && npm ci`"
    out, _ = shown
    assert not errors(out["typed"]), texts(out["typed"])
    assert '"text": "hi Alex"' in texts(out["typed_call"])


def test_prototypes_export_and_deploy(shown: tuple[dict[str, Any], Path]) -> None:
    out, folder = shown
    assert "'greet'" in texts(out["list"])
    assert "unknown action 'publish'" in texts(out["bad_action"])
    assert f"✔ wrote {folder}/out.mcaddon" in texts(out["export"])
    assert (folder / "out.mcaddon").is_file()
    missing = short_error(out["export_unknown"])
    assert "no prototype named nothing_here was defined in this session" in missing
    deployed = texts(out["deploy"])
    assert f"to {folder}/mcbews_bridge_bp" in deployed and "%mc /reload" in deployed
    assert (folder / "mcbews_bridge_bp" / "scripts" / "prototypes" / "greet.js").is_file()
    assert "Removed greet." in texts(out["remove"])
    assert "'greet'" not in texts(out["after"])


def test_ts_without_node_says_javascript_needs_nothing(tmp_path: Path) -> None:
    import os

    from tests.notebooks.test_notebooks import path_without_node

    saved = os.environ["PATH"]
    os.environ["PATH"] = path_without_node(tmp_path)
    try:
        out = run_in_kernel(
            {"load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl", "sim": "%mc sim",
             "typed": TYPED},
            timeout=90, allow_errors=True,
        )  # fmt: skip
    finally:
        os.environ["PATH"] = saved
    error = short_error(out["typed"])
    assert "--ts needs Node.js and the addon's toolchain" in error and "no node on PATH" in error
    assert "JavaScript needs nothing installed: drop --ts" in error
