"""An unsupported Python fails at once, saying which versions work and how to pick one; the
extras resolve without pip searching for the package itself; the versions the package
claims are the ones ``make wheel-smoke`` installs it on."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from .tools import REPO, find_python

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]
# A bound, not a timing claim: the check runs before any venv or pip; without it, pip's
# resolver ran for over five minutes on Python 3.10 with nothing printed.
FAIL_FAST_SECONDS = 60


def make_variable(name: str) -> str:
    done = subprocess.run(["make", "-s", "--no-print-directory", f"print-{name}"], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=True)  # fmt: skip
    return done.stdout.strip()


def run_make(tmp_path: Path, *words: str) -> subprocess.CompletedProcess[str]:
    """``make`` with its venv in ``tmp_path``; the whole process group is killed if it
    outlives the bound (an old make would be deep in pip by then)."""
    with subprocess.Popen(
        ["make", *words, f"VENV={tmp_path / 'venv'}"], cwd=REPO, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    ) as make:  # fmt: skip
        try:
            out, err = make.communicate(timeout=FAIL_FAST_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            make.communicate()
            raise
    return subprocess.CompletedProcess(make.args, make.returncode, out, err)


def names(extra: str) -> set[str]:
    return {re.split(r"[<>=\[ ;]", requirement)[0] for requirement in EXTRAS[extra]}


def test_lab_spells_out_its_libraries_and_holds_all_of_repl() -> None:
    assert not [r for r in EXTRAS["lab"] if r.startswith("mcbews-repl")]
    assert names("repl") <= names("lab")
    assert {"jupyterlab", "matplotlib", "anywidget"} <= names("lab")


@pytest.mark.parametrize("target", ["run", "test"])
def test_a_python_older_than_supported_fails_before_pip(tmp_path: Path, target: str) -> None:
    """The real Python 3.10 of this machine when there is one; the mechanism is tested
    below with any interpreter."""
    old = find_python("3.10")
    if old is None:
        pytest.skip("no Python 3.10 on this machine")
    done = run_make(tmp_path, target, f"PYTHON={old}")
    assert done.returncode != 0
    assert not (tmp_path / "venv").exists()  # stopped before making the venv
    assert "pip" not in done.stdout
    message = " ".join(done.stderr.split())
    assert f"mcbews_repl needs Python 3.11 or newer; {old} is Python 3.10." in message
    assert "Tested: 3.11, 3.12, 3.13." in message
    assert f"Pick one: make {target} PYTHON=python3.12" in message


def test_the_check_reads_the_interpreter_it_is_given(tmp_path: Path) -> None:
    done = run_make(tmp_path, "run", "PYTHON_MIN=3.99", f"PYTHON={sys.executable}")
    assert done.returncode != 0 and not (tmp_path / "venv").exists()
    assert "mcbews_repl needs Python 3.99 or newer" in done.stderr


def test_the_versions_claimed_are_the_versions_smoke_tested() -> None:
    tested = make_variable("SMOKE_PYTHONS").split()
    assert tested == ["3.11", "3.12", "3.13"]
    assert make_variable("PYTHON_MIN") == tested[0]
    assert PYPROJECT["project"]["requires-python"] == f">={tested[0]}"
    claimed = [
        c.rsplit(" :: ", 1)[1]
        for c in PYPROJECT["project"]["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert claimed == tested
