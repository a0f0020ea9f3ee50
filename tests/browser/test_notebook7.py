"""A real browser runs every notebook in Jupyter Notebook 7 (``jupyter notebook``) and reads
the rendered page, as tests/browser/test_jupyterlab.py does in JupyterLab (the same server
set-up and page readers: tests/browser/jupyter.py).

Notebook 7 opens one notebook a page, without JupyterLab's file browser; each notebook runs
all its cells and must read well: outputs in every area, none an error or a traceback, no
widget that could not be drawn, every friendly table within the page. The live map of the
exploring notebook is drawn by its widget, once (its static copy hidden), and follows a
``tp`` typed into a new cell; the explore table filters by player. Screenshots land in
test-artifacts/ (``notebook7-*.png``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .jupyter import (
    ARTIFACTS,
    NOTEBOOK7,
    NOTEBOOKS,
    check_reads_well,
    check_the_live_map_draws_once,
    chromium,
    explore_alex,
    jupyter_server,
    notebook_page,
    run_cell,
    wait_for_alex,
)

# Chromium driving Notebook 7: outside `make test-fast`.
pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def notebook7(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with jupyter_server(NOTEBOOK7, tmp_path_factory.mktemp("notebook7"), {}) as url:
        yield url


@pytest.fixture(scope="module")
def browser(notebook7: str) -> Iterator[Any]:
    with chromium() as started:
        yield started


def check_02(page: Any) -> None:
    live = check_the_live_map_draws_once(page)
    live.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "notebook7-live-map.png"))
    run_cell(page, "await mc.command('tp Alex 30 64 20')")
    live.scroll_into_view_if_needed()  # back on screen: the map looks again
    wait_for_alex(page, "30.5, 64, 20.5")


CHECKS = {"02": check_02, "03": explore_alex}


@pytest.mark.timeout(400)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_notebook_reads_well_in_notebook_7(browser: Any, notebook7: str, name: str) -> None:
    url = NOTEBOOK7.url_of(notebook7, name)
    with notebook_page(browser, url, f"notebook7-failure-{name[:2]}.png") as page:
        assert page.locator(".jp-NotebookPanel").count() == 1  # Notebook 7: one a page
        check_reads_well(page)
        CHECKS.get(name[:2], lambda page: None)(page)
        if name.startswith("01"):
            page.screenshot(path=str(ARTIFACTS / "notebook7-getting-started.png"))
