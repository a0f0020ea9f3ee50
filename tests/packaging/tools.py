"""Building the sdist and wheel, and fresh virtual environments outside the checkout: what the
packaging tests and ``make wheel-smoke`` (tests/packaging/drive.py) share. Standard library
only, and the same on Windows (``Scripts`` instead of ``bin``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# Each a bound, not a timing claim (a busy 2-core machine; the mirror is local).
BUILD_SECONDS = 600
INSTALL_SECONDS = 900


def build_dists(outdir: Path) -> tuple[Path, Path]:
    """The sdist, and the wheel built from that sdist (``python -m build``), in ``outdir``.

    Building the wheel from the sdist, not from the checkout, proves the sdist holds
    everything the wheel needs.
    """
    outdir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(outdir), str(REPO)],
        check=True, capture_output=True, text=True, timeout=BUILD_SECONDS,
    )  # fmt: skip
    [sdist] = outdir.glob("mcbews_repl-*.tar.gz")
    [wheel] = outdir.glob("mcbews_repl-*.whl")
    return sdist, wheel


def venv_bin(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def venv_python(venv: Path) -> Path:
    return venv_bin(venv) / ("python.exe" if os.name == "nt" else "python")


def venv_command(venv: Path, name: str) -> Path:
    return venv_bin(venv) / (f"{name}.exe" if os.name == "nt" else name)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would reach back into the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    return {**env, "PYTHONNOUSERSITE": "1", **extra}


def make_venv(python: str | Path, venv: Path) -> Path:
    """A fresh virtual environment at ``venv`` (removed first); its python."""
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([str(python), "-m", "venv", str(venv)], check=True, timeout=300,
                   env=clean_env())  # fmt: skip
    return venv_python(venv)


def pip_install(venv: Path, *requirements: str) -> str:
    """``python -m pip install`` into ``venv``; what pip printed.

    Raises:
        subprocess.CalledProcessError: pip failed (its output is in the exception).
    """
    done = subprocess.run(
        [str(venv_python(venv)), "-m", "pip", "install", "--disable-pip-version-check",
         *requirements],
        capture_output=True, text=True, timeout=INSTALL_SECONDS, env=clean_env(),
    )  # fmt: skip
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    return done.stdout


def find_python(version: str) -> Path | None:
    """An interpreter of ``version`` ("3.12"): on PATH as python3.12 (and working: a pyenv
    shim for a version not selected fails), else under pyenv's versions folder."""
    for name in (f"python{version}", f"py -{version}"):
        words = name.split()
        found = shutil.which(words[0])
        if found is None:
            continue
        probe = subprocess.run(
            [found, *words[1:], "-c", "import sys; print(sys.executable)"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        if probe.returncode == 0 and probe.stdout.strip():
            return Path(probe.stdout.strip())
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"

    def release(path: Path) -> tuple[int, ...]:
        return tuple(int(part) if part.isdigit() else -1 for part in path.name.split("."))

    for candidate in sorted(root.glob(f"{version}.*"), key=release, reverse=True):
        python = candidate / "bin" / "python"
        if python.is_file():
            return python
    return None
