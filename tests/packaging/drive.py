"""``make wheel-smoke``: the wheel, installed as a user installs it, on each Python the
package claims.

Builds the sdist and the wheel once (the wheel from the sdist); then, for each version, a
fresh virtual environment in a temporary folder outside the checkout, ``pip install
"WHEEL[lab]"``, and tests/packaging/smoke.py run from there with that environment's python.
Also checks that Python 3.10, which the package does not support, is refused at once.
Prints a table of the times; exits non-zero if anything failed (the folder is kept then).

    python -m tests.packaging.drive 3.11 3.12 3.13
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .tools import (
    build_dists,
    clean_env,
    find_python,
    make_venv,
    pip_install,
    venv_python,
)

HERE = Path(__file__).resolve().parent
# A bound for the whole smoke script on one Python (a busy machine), not a timing claim.
SMOKE_SECONDS = 900
# pip must refuse an unsupported Python within this (it once searched for minutes).
REFUSE_SECONDS = 120


def smoke(version: str, wheel: Path, work: Path) -> tuple[str, float, float]:
    """One version: make the venv, install, run the smoke script; (result, install s, smoke s)."""
    python = find_python(version)
    if python is None:
        return "no such Python here", 0.0, 0.0
    venv = work / f"venv-{version}"
    make_venv(python, venv)
    pip_install(venv, "--upgrade", "pip")  # as docs/windows.md says to
    started = time.monotonic()
    log = work / f"pip-{version}.log"
    log.write_text(pip_install(venv, f"{wheel}[lab]"), encoding="utf-8")
    installed = time.monotonic() - started
    run = work / f"run-{version}"
    run.mkdir()
    for name in ("smoke.py", "walkthrough.py"):
        shutil.copyfile(HERE / name, run / name)
    started = time.monotonic()
    done = subprocess.run([str(venv_python(venv)), str(run / "smoke.py"), str(run / "home"),
                           str(log)], cwd=run, env=clean_env(), timeout=SMOKE_SECONDS,
                          capture_output=True, text=True)  # fmt: skip
    print(f"--- Python {version} ({python})\n{done.stdout}{done.stderr}", flush=True)
    return ("ok" if done.returncode == 0 else "FAILED"), installed, time.monotonic() - started


def refused(wheel: Path, work: Path) -> tuple[str, float]:
    """Python 3.10: pip, updated as docs/windows.md says, must say at once that the package
    needs a newer Python. (The pip that comes with 3.10, 23.0, backtracks for minutes.)"""
    python = find_python("3.10")
    if python is None:
        return "skipped: no Python 3.10 here", 0.0
    venv = work / "venv-3.10"
    make_venv(python, venv)
    pip_install(venv, "--upgrade", "pip")
    started = time.monotonic()
    done = subprocess.run([str(venv_python(venv)), "-m", "pip", "install", f"{wheel}[lab]"],
                          capture_output=True, text=True, timeout=REFUSE_SECONDS,
                          env=clean_env())  # fmt: skip
    seconds = time.monotonic() - started
    said = "requires a different Python" in done.stdout + done.stderr
    return ("refused, as it should be" if done.returncode and said else "FAILED"), seconds


def main(versions: list[str]) -> int:
    work = Path(tempfile.mkdtemp(prefix="mcbews-wheel-smoke-"))
    started = time.monotonic()
    _, wheel = build_dists(work / "dist")
    print(f"built {wheel.name} in {time.monotonic() - started:.0f} s", flush=True)
    rows = [(v, *smoke(v, wheel, work)) for v in versions]
    refusal, refusal_seconds = refused(wheel, work)
    total = time.monotonic() - started
    print("\n| Python | result | pip install [lab] | smoke |\n|---|---|---|---|")
    for version, result, installed, smoked in rows:
        print(f"| {version} | {result} | {installed:.0f} s | {smoked:.0f} s |")
    print(f"| 3.10 | {refusal} | {refusal_seconds:.0f} s | - |")
    print(f"\nmake wheel-smoke: {total:.0f} s in all (building included)")
    failed = [r for r in rows if r[1] != "ok"] or refusal == "FAILED"
    if failed:
        print(f"kept for a look: {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
