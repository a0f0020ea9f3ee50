"""The installed wheel as a user meets it. tests/packaging/drive.py (``make wheel-smoke``) runs
this file with the python of a fresh virtual environment that has ``mcbews-repl[lab]``
installed from the wheel, from a folder outside the checkout, beside a copy of
walkthrough.py. It uses the standard library and what the wheel installed, nothing else.

    python smoke.py HOME PIP_LOG

It checks: the package and the kernel are the environment's own; in a real kernel, the
extension loads, ``%mc sim`` connects the simulated world, an inventory is a DataFrame shown
as a table, ``mc.map()`` is the live map's widget; ``mcbews-repl addon export`` writes a
pack; ``mcbews-repl lab`` serves the notebooks and the docs they link to; docs/windows.md,
read from the installed package, reads as what its commands print (the pip step against
PIP_LOG). It prints one line per check and exits non-zero on the first that fails.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import walkthrough  # type: ignore[import-not-found]  # copied beside this file

PREFIX = Path(sys.prefix).resolve()
BIN = Path(sys.executable).parent
COMMAND = BIN / ("mcbews-repl.exe" if os.name == "nt" else "mcbews-repl")
# A bound for a cell (a busy machine), not a timing claim.
CELL_SECONDS = 120


def say(check: str) -> None:
    print(f"ok  {check}", flush=True)


def home_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    return {**env, "HOME": str(home), "USERPROFILE": str(home), "MCBEWS_PORT": "0",
            "JUPYTER_CONFIG_DIR": str(home / ".jupyter"),
            "JUPYTER_DATA_DIR": str(home / ".jupyter-data"),
            "JUPYTER_RUNTIME_DIR": str(home / ".jupyter-runtime"),
            "IPYTHONDIR": str(home / ".ipython")}  # fmt: skip


def execute(client: Any, code: str) -> list[dict[str, Any]]:
    """Run one cell; its outputs (stream, display_data, execute_result, error) in order."""
    msg_id = client.execute(code)
    outputs: list[dict[str, Any]] = []
    while True:
        msg = client.get_iopub_msg(timeout=CELL_SECONDS)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind in {"stream", "display_data", "execute_result", "error"}:
            outputs.append({"output_type": kind, **content})
        if kind == "status" and content["execution_state"] == "idle":
            return outputs


def shown(outputs: list[dict[str, Any]], mime: str = "text/plain") -> str:
    """Everything the cell showed as ``mime`` (streams count as text/plain)."""
    parts = [o.get("text", "") for o in outputs if o["output_type"] == "stream"]
    if mime != "text/plain":
        parts = []
    parts += [str(o.get("data", {}).get(mime, "")) for o in outputs if "data" in o]
    return "\n".join(parts)


def cell(client: Any, code: str) -> list[dict[str, Any]]:
    outputs = execute(client, code)
    errors = [o for o in outputs if o["output_type"] == "error"]
    assert not errors, f"{code!r} failed: {errors[0]['ename']}: {errors[0]['evalue']}"
    return outputs


def kernel_checks(home: Path) -> None:
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3", env=home_env(home), cwd=str(home))
    try:
        where = shown(cell(client, "import sys, mcbews_repl\nprint(sys.prefix)\n"
                                   "print(mcbews_repl.__file__)"))  # fmt: skip
        prefix, package = (Path(line).resolve() for line in where.split())
        assert prefix == PREFIX and package.is_relative_to(PREFIX), where
        say("a real kernel of this environment, with the package installed in it")
        welcome = shown(cell(client, "%load_ext mcbews_repl"), "text/html")
        assert "mcbews bridge ready" in welcome, welcome
        say("%load_ext mcbews_repl shows the /connect line")
        status = shown(cell(client, "%mc sim"))
        assert "1 game connected" in status, status
        say("%mc sim connects the simulated world")
        table = shown(cell(client, "inventory = await mc.inventory()\ninventory"), "text/html")
        assert "<table" in table and "Steve" in table, table[:500]
        frame = shown(cell(client, "print(type(inventory).__name__, len(inventory) > 0)"))
        assert frame.strip() == "DataFrame True", frame
        say("await mc.inventory() is a DataFrame, shown as a table")
        mime = "application/vnd.jupyter.widget-view+json"
        views = [
            o["data"][mime] for o in cell(client, "m = mc.map()\nm") if mime in o.get("data", {})
        ]
        assert len(views) == 1 and views[0]["model_id"], views
        cell(client, "m.stop()")
        say("mc.map() is the live map's widget")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def cli_checks(home: Path) -> None:
    env = home_env(home)
    helped = subprocess.run([str(COMMAND), "lab", "--help"], capture_output=True, text=True,
                            env=env, timeout=60)  # fmt: skip
    assert helped.returncode == 0 and "usage: mcbews-repl lab" in helped.stdout, helped
    say("mcbews-repl lab --help")
    packs = home / "packs"
    packs.mkdir()
    done = subprocess.run([str(COMMAND), "addon", "export", str(packs)], capture_output=True,
                          text=True, env=env, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(packs / "mcbews_bridge.mcaddon") as pack:
        assert any(n.endswith("manifest.json") for n in pack.namelist())
    readme = Path(done.stdout.split("More in ")[1].split()[0])
    assert readme.is_relative_to(PREFIX) and readme.is_file(), done.stdout
    say("mcbews-repl addon export writes the pack and points to the installed addon README")
    folder = home / "class"
    server, url = walkthrough.start_lab(
        [str(COMMAND), "lab", str(folder), "--no-browser", f"--port={walkthrough.free_port()}"],
        env, home,
    )  # fmt: skip
    try:
        assert "/lab/tree/notebooks/01_getting_started.ipynb" in url, url
        for relative in ("notebooks/01_getting_started.ipynb", "docs/capabilities.md"):
            assert walkthrough.contents_status(url, relative) == 200, relative
    finally:
        walkthrough.stop(server)
    say("mcbews-repl lab serves the copied notebooks and the docs they link to")


def walkthrough_check(home: Path, pip_log: Path) -> None:
    from mcbews_repl import bundled

    page = bundled.page("windows").read_text(encoding="utf-8")

    def install(step: walkthrough.Step) -> list[str]:
        printed = pip_log.read_text(encoding="utf-8").splitlines()
        if walkthrough.matches(walkthrough.page_lines(step.shown), printed):
            return []
        return [f"{step.command}: the page shows {step.shown}, pip printed {printed[-3:]}"]

    ana = home / "ana"
    ana.mkdir()
    problems = walkthrough.replay(page, COMMAND, ana, bundled.root(), home_env(ana), install)
    assert not problems, "\n\n".join(problems)
    say("docs/windows.md, as installed, reads as what its commands print")


def main(argv: list[str]) -> int:
    home, pip_log = Path(argv[1]), Path(argv[2])
    home.mkdir(parents=True, exist_ok=True)
    kernel_checks(home)
    cli_checks(home)
    walkthrough_check(home, pip_log)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
