"""The base install (``pip install mcbews-repl``, no extra) in a fresh virtual environment
outside the checkout: what needs no optional library works, and each feature that needs one
says which extra to install; the installed package finds the files it points users to."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .tools import REPO, clean_env, make_venv, pip_install, venv_command

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

PROBE = """
import mcbews_repl
with mcbews_repl.start(port=0) as mc:
    mc.simulate().result(60)
    print("player:", mc.player("Steve").result(60).name)
    for name, call in [
        ("inventory", lambda: mc.inventory().result(60)),
        ("players", lambda: mc.players().result(60)),
        ("blocks", lambda: mc.blocks((0, 60, 0), (1, 61, 1)).result(60)),
    ]:
        try:
            call()
        except Exception as exc:
            print(f"{name}: {type(exc).__name__}: {exc}")
"""
REPL_HINT = 'it comes with the repl extra: python -m pip install "mcbews-repl[repl]"'


@pytest.fixture(scope="module")
def base_venv(dists: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("base") / "venv"
    make_venv(sys.executable, venv)
    pip_install(venv, str(dists[1]))
    return venv


def run(venv: Path, cwd: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*words], cwd=cwd, capture_output=True, text=True, timeout=180,
                          env=clean_env(HOME=str(cwd)))  # fmt: skip


def test_a_script_is_told_which_extra_each_feature_needs(base_venv: Path, tmp_path: Path) -> None:
    python = str(venv_command(base_venv, "python"))
    done = run(base_venv, tmp_path, python, "-c", PROBE)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines() == [
        "player: Steve",
        f"inventory: MissingDependency: pandas is needed here, which is not installed; {REPL_HINT}",
        f"players: MissingDependency: pandas is needed here, which is not installed; {REPL_HINT}",
        f"blocks: MissingDependency: numpy is needed here, which is not installed; {REPL_HINT}",
    ]


def test_lab_without_jupyterlab_names_the_lab_extra(base_venv: Path, tmp_path: Path) -> None:
    done = run(base_venv, tmp_path, str(venv_command(base_venv, "mcbews-repl")), "lab",
               str(tmp_path / "notes"), "--no-browser")  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "mcbews-repl: mcbews-repl lab needs jupyterlab, which is not installed; it comes with "
        'the lab extra: python -m pip install "mcbews-repl[lab]"'
    )
    assert not (tmp_path / "notes").exists()  # nothing copied before the check


def test_the_installed_package_points_to_its_own_files(base_venv: Path, tmp_path: Path) -> None:
    command = str(venv_command(base_venv, "mcbews-repl"))
    export = run(base_venv, tmp_path, command, "addon", "export")
    assert export.returncode == 0, export.stderr
    readme = Path(export.stdout.split("More in ")[1].split()[0])
    assert readme.is_relative_to(base_venv) and readme.is_file()
    assert readme.read_bytes() == (REPO / "addon" / "README.md").read_bytes()
    docs = run(base_venv, tmp_path, command, "docs", "windows")
    page = Path(docs.stdout.strip())
    assert docs.returncode == 0 and page.is_relative_to(base_venv) and page.is_file()
    demo = run(base_venv, tmp_path, command, "demo")
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "make" not in demo.stdout.splitlines()[-1]
