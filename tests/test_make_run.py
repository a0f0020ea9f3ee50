"""``make run`` on a machine without a browser: the URL it prints opens the getting-started
notebook itself, not the Launcher; the notebooks' links to ../docs reach the docs; and it
installs only what running needs.

The test asks make for the command it would run (``make -n``), starts that JupyterLab on a
free port with no browser, and follows the printed URL.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .packaging.walkthrough import fetch, free_port

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]


def make_dry_run(target: str) -> list[str]:
    done = subprocess.run(
        ["make", "-n", "-W", "pyproject.toml", target],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )  # fmt: skip  (-W: as if pyproject.toml changed, so the install lines show too)
    return done.stdout.replace("\\\n", " ").splitlines()


def test_run_installs_what_running_needs_and_test_everything() -> None:
    run = " ".join(make_dry_run("run"))
    assert "install --quiet -e '.[lab]'" in run and "dev" not in run
    test = " ".join(make_dry_run("pytest"))
    assert "-e '.[dev,repl,lab]'" in test


def test_the_printed_url_opens_the_getting_started_notebook(tmp_path: Path) -> None:
    [line] = [line for line in make_dry_run("run") if "jupyter lab" in line]
    words = shlex.split(line)
    words[0] = str(Path(sys.executable).with_name("jupyter"))
    port = free_port()
    env = {
        **os.environ,
        "BROWSER": "false",  # a machine without a browser
        "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
    }
    server = subprocess.Popen(
        [*words, f"--port={port}", "--ServerApp.ip=127.0.0.1", "--allow-root"],
        cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        url = None
        deadline = time.monotonic() + 120
        assert server.stdout is not None
        while url is None and time.monotonic() < deadline:
            printed = server.stdout.readline()
            found = re.search(rf"http://127\.0\.0\.1:{port}/\S+", printed)
            url = found[0] if found else None
        assert url is not None, "JupyterLab printed no URL"
        assert re.fullmatch(
            rf"http://127\.0\.0\.1:{port}/lab/tree/notebooks/01_getting_started\.ipynb"
            r"\?token=\w+",
            url,
        )
        assert fetch(url) == 200  # JupyterLab prints the URL just before it listens
        token = url.split("token=")[1]
        api = f"http://127.0.0.1:{port}/api/contents"
        # The notebook is where the URL points, and notebook 05's ../docs links resolve.
        assert fetch(f"{api}/notebooks/01_getting_started.ipynb?token={token}") == 200
        assert fetch(f"{api}/docs/capabilities.md?token={token}") == 200
    finally:
        server.terminate()
        server.wait(30)
