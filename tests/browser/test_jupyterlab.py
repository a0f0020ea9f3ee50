"""A real browser runs the getting-started notebook in JupyterLab.

JupyterLab starts on a free port (on a copy of notebooks/, so autosave cannot touch the
committed files), Debian's Chromium opens the notebook through Playwright, runs every cell,
and the rendered inventory table must appear. A screenshot lands in test-artifacts/.
Without /usr/bin/chromium the test is skipped, unless MCBEWS_REQUIRE_BROWSER is set
(.ci/run sets it after installing Chromium), in which case it fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
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


LAB_ROOTS: dict[str, Path] = {}  # the folder each JupyterLab serves, by URL
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# The doctor's card, as the docs show it (docs/images/doctor.png is this test's screenshot).
DOCTOR_CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "%mc sim",
    "%mc doctor --capture doctor.jsonl",  # the kernel runs in the lab's temporary copy
]
# A notebook of mistakes: our error must show as a short red message, in the browser.
ERROR_CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "%mc sim",
    "%mc call no_such_cap",
]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp_path = tmp_path_factory.mktemp("lab")
    if not CHROMIUM.exists():
        if os.environ.get("MCBEWS_REQUIRE_BROWSER"):
            pytest.fail("MCBEWS_REQUIRE_BROWSER is set but /usr/bin/chromium is missing")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    shutil.copytree(REPO / "notebooks", tmp_path / "notebooks")
    # Start from empty outputs, so whatever the page shows was produced by this run.
    for path in (tmp_path / "notebooks").glob("*.ipynb"):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nbformat.write(nb, path)
    # Written now, opened later: the getting-started screenshot shows only the notebooks.
    for name, sources in (("mistakes", ERROR_CELLS), ("doctor", DOCTOR_CELLS)):
        cells = [nbformat.v4.new_code_cell(c) for c in sources]
        book = nbformat.v4.new_notebook(cells=cells, metadata={"kernelspec": KERNELSPEC})
        nbformat.write(book, tmp_path / f"{name}.ipynb")
    port = free_port()
    jupyter = Path(sys.executable).with_name("jupyter")
    env = {
        **os.environ,
        "MCBEWS_PORT": "0",
        "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
    }
    server = subprocess.Popen(
        [
            str(jupyter),
            "lab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--allow-root",
            "--LabApp.expose_app_in_browser=True",
            f"--ServerApp.root_dir={tmp_path / 'notebooks'}",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    LAB_ROOTS[url] = tmp_path / "notebooks"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise AssertionError("JupyterLab did not start")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()


# A cold JupyterLab, kernel and Chromium on a busy 2-core machine can take a while.
@contextlib.contextmanager
def notebook_page(url: str, failure_shot: str) -> Iterator[Any]:
    """Chromium on ``url`` with all cells started; a screenshot if the block fails."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            run_all(page, url)
            yield page
        except Exception:
            page.screenshot(path=str(ARTIFACTS / failure_shot))
            raise
        finally:
            browser.close()


def run_all(page: Any, url: str) -> None:
    """Open a notebook that has not run yet and start running all its cells."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(url)
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    assert page.locator(".jp-OutputArea-output").count() == 0  # nothing ran yet
    select = page.locator(".jp-Dialog button", has_text="Select")
    with contextlib.suppress(PlaywrightTimeout):  # JupyterLab may ask for a kernel
        select.click(timeout=10_000)
    page.wait_for_function(
        "() => window.jupyterapp && window.jupyterapp.commands.isEnabled('notebook:run-all-cells')",
        timeout=120_000,
    )
    # Start the run without waiting for its promise: it settles only when all cells ran.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


@pytest.mark.timeout(400)
def test_getting_started_runs_in_a_browser(lab: str) -> None:
    shot = ARTIFACTS / "jupyterlab-getting-started.png"
    url = f"{lab}/lab/tree/01_getting_started.ipynb"
    with notebook_page(url, "jupyterlab-failure.png") as page:
        table = page.locator(".jp-OutputArea table", has_text="Excalibur").first
        table.wait_for(timeout=240_000)
        table.scroll_into_view_if_needed()
        page.screenshot(path=str(shot))
        assert "minecraft:diamond_sword" in table.inner_text()
        assert page.locator(".jp-OutputArea", has_text="Unknown command: fly").count() >= 1
    assert shot.stat().st_size > 10_000


@pytest.mark.timeout(400)
def test_our_errors_show_as_a_short_red_message_in_jupyterlab(lab: str) -> None:
    folder = LAB_ROOTS[lab] / "scratch"  # a folder the first screenshot does not show
    folder.mkdir(exist_ok=True)
    shutil.copy(LAB_ROOTS[lab].parent / "mistakes.ipynb", folder)
    url = f"{lab}/lab/tree/scratch/mistakes.ipynb"
    with notebook_page(url, "jupyterlab-mistakes-failure.png") as page:
        error = page.locator(".jp-OutputArea-output", has_text="CapabilityError:").first
        error.wait_for(timeout=240_000)
        error.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-error.png"))
        text = error.inner_text()
        assert "no such capability: no_such_cap" in text
        assert "%mc caps lists what this world's addon offers." in text
        assert "Traceback" not in text and len(text.strip().splitlines()) <= 2
        colour = error.locator("span", has_text="CapabilityError:").first.evaluate(
            "e => getComputedStyle(e).color"
        )
    red, green, blue = (int(v) for v in colour[colour.index("(") + 1 : -1].split(",")[:3])
    assert red > 150 and green < 120 and blue < 120, colour  # it shows red


def dismiss_news(page: Any) -> None:
    """Answer JupyterLab's first-run question about news, if it is showing."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    no = page.locator(".jp-toast-button", has_text="No").first
    with contextlib.suppress(PlaywrightTimeout):
        no.click(timeout=5_000)
        no.wait_for(state="hidden", timeout=5_000)


# Draws a character with an element's font in a canvas; a glyph no font has is drawn as the
# same box as U+FFFF (a noncharacter), so comparing the two tells whether it renders.
GLYPH_RENDERS = """(element, glyph) => {
    const style = getComputedStyle(element);
    const canvas = document.createElement('canvas');
    canvas.width = 48; canvas.height = 48;
    const pen = canvas.getContext('2d');
    const draw = (text) => {
        pen.clearRect(0, 0, 48, 48);
        pen.font = `${style.fontWeight} 28px ${style.fontFamily}`;
        pen.fillText(text, 6, 36);
        return pen.getImageData(0, 0, 48, 48).data.join(',');
    };
    const shown = draw(glyph);
    return shown !== draw('\\uFFFF') && shown !== draw(' ');
}"""


@pytest.mark.timeout(400)
def test_the_doctor_card_reads_well_in_jupyterlab(lab: str) -> None:
    folder = LAB_ROOTS[lab] / "doctor-check"  # a folder the first screenshot does not show
    folder.mkdir(exist_ok=True)
    shutil.copy(LAB_ROOTS[lab].parent / "doctor.ipynb", folder)
    # A workspace of its own: the lab would otherwise reopen the notebooks of the tests
    # before, and the first .jp-Notebook on the page would be a hidden tab's.
    url = f"{lab}/lab/workspaces/doctor/tree/doctor-check/doctor.ipynb"
    with notebook_page(url, "jupyterlab-doctor-failure.png") as page:
        card = page.locator(".jp-OutputArea-output .mcbews-doctor").first
        card.wait_for(timeout=240_000)
        dismiss_news(page)  # JupyterLab's "notified about news?" toast covers the card
        card.scroll_into_view_if_needed()
        card.screenshot(path=str(ARTIFACTS / "jupyterlab-doctor.png"))
        text = card.inner_text()
        results = card.locator("td b")
        shown = [results.nth(i).inner_text() for i in range(results.count())]
        renders = {
            glyph: card.evaluate(GLYPH_RENDERS, glyph) for glyph in ("\u2713", "\u2717", "?")
        }
        font = card.evaluate("e => getComputedStyle(e).fontFamily")
    assert shown == ["\u2713 ok"] * 4 + ["? unsure"] * 2, shown
    assert "4 of 6 checks ok, nothing failed" in text and "doctor.jsonl (redacted)" in text
    assert (folder / "doctor.jsonl").exists()
    assert renders == {"\u2713": True, "\u2717": True, "?": True}, (renders, font)
    assert font and font != "serif"  # JupyterLab's content font, not the browser's default
    assert (ARTIFACTS / "jupyterlab-doctor.png").stat().st_size > 10_000
