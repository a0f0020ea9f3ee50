"""What the browser tests share: a Jupyter front end (JupyterLab or Jupyter Notebook 7) served
on a copy of notebooks/, a page on one notebook with every cell run, and what its outputs show.

The server runs on a free port on a copy of the notebooks without outputs (so autosave
cannot touch the committed files, and what the page shows is made by this run), with no
Node on PATH (none is needed). Notebook 7 is built from JupyterLab's own parts, so the same
page API (``window.jupyterapp``, its commands and CSS classes) drives both.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.notebooks.test_notebooks import path_without_node

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
VIEWPORT = {"width": 1100, "height": 1000}  # a laptop with JupyterLab's file browser open
# Flags for a headless Chromium in a closed network, as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
# JupyterLab asks about its news feed in a corner of the page (and of every screenshot);
# and it skips rendering cells far out of view, whose text then reads as empty. Notebook 7
# reads the same settings.
SETTINGS = {
    "apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    "notebook-extension/tracker": {"windowingMode": "none"},
}
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
# What a widget that cannot be drawn shows instead, in JupyterLab's and Notebook 7's words.
WIDGET_ERRORS = ("Error displaying widget", "Click to show javascript error")


@dataclass(frozen=True)
class App:
    """One front end: its ``jupyter`` command, the class exposing the app to the page, and
    where a notebook's page is."""

    command: str
    app_class: str
    tree: str  # the notebook's URL path below the server's
    query: str = ""

    def url_of(self, server: str, path: str) -> str:
        return f"{server}/{self.tree}/{path}{self.query}"


LAB = App("lab", "LabApp", "lab/tree", "?reset")
NOTEBOOK7 = App("notebook", "JupyterNotebookApp", "notebooks")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_chromium() -> None:
    if not CHROMIUM.exists():
        if os.environ.get("MCBEWS_REQUIRE_BROWSER"):
            pytest.fail("MCBEWS_REQUIRE_BROWSER is set but /usr/bin/chromium is missing")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")


def prepare(root: Path, scratch: dict[str, list[str]]) -> None:
    """The notebooks without outputs, the settings, and ``scratch`` notebooks (a name and
    its cells each) in notebooks/scratch/."""
    shutil.copytree(REPO / "notebooks", root / "notebooks")
    for path in (root / "notebooks").glob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nbformat.write(nb, path)
    for name, values in SETTINGS.items():
        path = (
            root / "cfg" / "lab" / "user-settings" / "@jupyterlab" / f"{name}.jupyterlab-settings"
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")
    folder = root / "notebooks" / "scratch"
    folder.mkdir()
    for name, sources in scratch.items():
        cells = [nbformat.v4.new_code_cell(c) for c in sources]
        book = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC})
        nbformat.write(book, folder / f"{name}.ipynb")


@contextlib.contextmanager
def jupyter_server(app: App, root: Path, scratch: dict[str, list[str]]) -> Iterator[str]:
    """``jupyter lab`` or ``jupyter notebook`` on a prepared copy in ``root``; its URL."""
    require_chromium()
    prepare(root, scratch)
    port = free_port()
    jupyter = Path(sys.executable).with_name("jupyter")
    env = {
        **os.environ,
        "MCBEWS_PORT": "0",
        "JUPYTER_CONFIG_DIR": str(root / "cfg"),
        "JUPYTER_DATA_DIR": str(root / "data"),
        "JUPYTER_RUNTIME_DIR": str(root / "rt"),
        "PATH": path_without_node(root / "path"),  # no node, npm or npx: none is needed
    }
    server = subprocess.Popen(
        [str(jupyter), app.command, "--no-browser", f"--port={port}", "--ServerApp.ip=127.0.0.1",
         "--IdentityProvider.token=", "--ServerApp.password=", "--allow-root",
         f"--{app.app_class}.expose_app_in_browser=True",
         f"--ServerApp.root_dir={root / 'notebooks'}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for_server(url, app)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


def wait_for_server(url: str, app: App) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{url}/api/status", timeout=1)
            return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"jupyter {app.command} did not start")


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def notebook_page(browser: Any, url: str, failure_shot: str) -> Iterator[Any]:
    """A page on the notebook at ``url`` with every cell run; a screenshot if the block
    fails. The notebook's kernel is shut down afterwards (each runs a bridge and a world)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport=VIEWPORT)
    try:
        run_all(page, url)
        yield page
    except Exception:
        page.screenshot(path=str(ARTIFACTS / failure_shot))
        raise
    finally:
        page.evaluate("() => window.jupyterapp.serviceManager.sessions.shutdownAll()")
        page.close()


def run_all(page: Any, url: str) -> None:
    """Open a notebook that has not run yet, run all its cells and wait until they ran."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.goto(url)
    page.wait_for_selector(f"{PANEL} .jp-Notebook", timeout=120_000)
    assert page.locator(f"{PANEL} .jp-OutputArea-output").count() == 0  # nothing ran yet
    select = page.locator(".jp-Dialog button", has_text="Select")
    with contextlib.suppress(PlaywrightTimeout):  # the front end may ask for a kernel
        select.click(timeout=10_000)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.commands.isEnabled('notebook:run-all-cells')",
        timeout=120_000,
    )
    # Start the run without waiting for its promise: it settles only when all cells ran.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(
        """(panel) => {
            const prompts = [...document.querySelectorAll(panel + ' .jp-InputPrompt')]
                .map((e) => e.textContent);
            const code = document.querySelectorAll(panel + ' .jp-CodeCell').length;
            return prompts.filter((t) => /\\[\\d+\\]/.test(t)).length === code;
        }""",
        arg=PANEL,
        timeout=300_000,
    )
    # A widget (the live map) draws a moment after its cell ran: give every output area
    # time to show something; one that never does still fails the emptiness check.
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(
            """(panel) => [...document.querySelectorAll(panel + ' .jp-OutputArea-output')]
                .every((e) => e.innerText.trim()
                    || e.querySelector('img, svg, canvas, table, progress'))""",
            arg=PANEL,
            timeout=30_000,
        )


def outputs(page: Any) -> list[dict[str, Any]]:
    """Each output area of the notebook: its text, whether it draws something, and whether
    it fits (a friendly table's scroll width within its box)."""
    found: list[dict[str, Any]] = page.evaluate(
        """(panel) => [...document.querySelectorAll(panel + ' .jp-OutputArea-output')]
            .map((e) => ({
                text: e.innerText.trim(),
                draws: !!e.querySelector('img, svg, canvas, table, progress'),
                overflow: [...e.querySelectorAll('.mcbews-table')]
                    .map((t) => t.scrollWidth - t.clientWidth),
            }))""",
        PANEL,
    )
    return found


def check_reads_well(page: Any) -> list[dict[str, Any]]:
    """What every notebook must show: outputs, none empty, no traceback, no widget that
    could not be drawn, every friendly table within the page; the outputs read."""
    shown = outputs(page)
    assert shown, "no output at all"
    empty = [k for k, out in enumerate(shown) if not out["text"] and not out["draws"]]
    assert not empty, f"empty output areas: {empty}"
    for out in shown:
        assert "Traceback" not in out["text"], out["text"][:400]
        assert not any(error in out["text"] for error in WIDGET_ERRORS), out["text"][:400]
        assert all(extra <= 1 for extra in out["overflow"]), out["text"][:200]
    return shown


def column(page: Any, table: Any, header: str) -> list[str]:
    headers = [h.strip(" \n▲▼") for h in table.locator("thead th").all_inner_texts()]
    at = headers.index(header)
    cells: list[str] = table.evaluate(
        "(t, at) => [...t.querySelectorAll('tbody tr')].map((r) => r.children[at].innerText)",
        at,
    )
    return cells


def run_cell(page: Any, code: str) -> None:
    """Type a new cell at the end of the notebook and run it, as a reader would."""
    page.evaluate(
        """async (code) => {
            const app = window.jupyterapp;
            const notebook = app.shell.currentWidget.content;
            notebook.activeCellIndex = notebook.widgets.length - 1;
            await app.commands.execute('notebook:insert-cell-below');
            notebook.activeCell.model.sharedModel.setSource(code);
            await app.commands.execute('notebook:run-cell');
        }""",
        code,
    )


# Each map picture of the page: whether it is the live map's or its static copy, whether a
# reader sees it, and the players it labels (SVG text: no innerText).
MAPS = """(panel) => [...document.querySelectorAll(
        panel + ' .mcbews-live-map, ' + panel + ' .mcbews-map-fallback')]
    .map((e) => ({
        live: e.classList.contains('mcbews-live-map'),
        seen: e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden',
        players: [...e.querySelectorAll('g.player text')].map((t) => t.textContent),
    }))"""


def maps(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(MAPS, PANEL)
    return found


def check_the_live_map_draws_once(page: Any) -> Any:
    """The live map is drawn by its widget, labelling both players; its static copy (for a
    front end that cannot draw the widget) is on the page but not seen. The live map."""
    page.wait_for_function(
        "(panel) => document.querySelector(panel + ' .mcbews-live-map g.player')", arg=PANEL
    )
    first = [m for m in maps(page)][:2]
    assert [m["live"] for m in first] == [True, False], first  # the widget, then its copy
    assert first[0]["seen"] and first[0]["players"] == ["Steve", "Alex"], first
    assert not first[1]["seen"] and first[1]["players"] == ["Steve", "Alex"], first
    return page.locator(f"{PANEL} .mcbews-live-map").first


def wait_for_alex(page: Any, where: str) -> None:
    """Until the live map shows Alex at ``where`` (it refreshes on a timer), within a minute."""
    page.wait_for_function(
        "([sel, where]) => document.querySelector(sel)?.getAttribute('data-where') === where",
        arg=[f"{PANEL} .mcbews-live-map g.player[data-name='Alex']", where],
        timeout=60_000,
    )


def explore_alex(page: Any) -> Any:
    """The first explore table, its player picked as Alex: only Alex's rows left. The table."""
    table = page.locator(f"{PANEL} .mcbews-explore").first
    table.scroll_into_view_if_needed()
    table.locator("select[data-column='player']").select_option("Alex")
    players = set(table.locator("tbody tr td:first-child").all_inner_texts())
    assert players == {"Alex"}, players
    return table
