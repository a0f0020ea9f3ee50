"""How much the extension costs at start-up: import time and ``%load_ext`` wall time.

Each figure is the median of several fresh interpreter runs (the last row: fresh Jupyter
kernels, the way a user meets it, timed from before the import) ; caches are warm on disk but
nothing is imported yet. Target: loading the extension adds under 0.3 s to a warm
IPython start, and importing mcbews_repl pulls in neither pandas nor rich; nor
the widget libraries of the live map and the interactive tables.

    .venv/bin/python benchmarks/bench_repl.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from functools import partial
from typing import Any

RUNS = 5

# Modules that loading must not import (each only when its feature is used); a probe
# reports those a step imported that were not there before it (IPython itself imports
# matplotlib when it starts, for instance).
HEAVY = ("pandas", "rich", "ipywidgets", "anywidget", "matplotlib", "numpy")
LOADED = f"""
import sys
def loaded():
    return {{name for name in {HEAVY!r} if name in sys.modules}}
"""

IMPORT_PROBE = (
    LOADED
    + """
import time, json
before = loaded()
t = time.perf_counter(); import mcbews_repl; dt = time.perf_counter() - t
print(json.dumps({"s": dt, "new": sorted(loaded() - before)}))
"""
)

LOAD_PROBE = (
    LOADED
    + """
import json, time, os
os.environ["MCBEWS_PORT"] = "0"
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
before = loaded()
t = time.perf_counter(); ip.run_line_magic("load_ext", "mcbews_repl"); dt = time.perf_counter() - t
print(json.dumps({"s": dt, "new": sorted(loaded() - before)}))
ip.run_line_magic("unload_ext", "mcbews_repl")
"""
)

BASE_PROBE = (
    LOADED
    + """
import json, time
before = loaded()
t = time.perf_counter()
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
print(json.dumps({"s": time.perf_counter() - t, "new": sorted(loaded() - before)}))
"""
)


# The way a user meets it: a fresh Jupyter kernel, the first cell `%load_ext mcbews_repl`,
# timed from before the import (the kernel itself is started and idle first).
KERNEL_CELL = (
    LOADED
    + """
import json, time, os
os.environ["MCBEWS_PORT"] = "0"
before = loaded()
t = time.perf_counter(); get_ipython().run_line_magic("load_ext", "mcbews_repl")
print(json.dumps({"s": time.perf_counter() - t, "new": sorted(loaded() - before)}))
"""
)


def in_kernel(cell: str) -> list[dict[str, Any]]:
    from jupyter_client.manager import start_new_kernel

    out = []
    for _ in range(RUNS):
        manager, client = start_new_kernel(kernel_name="python3")
        try:
            printed: list[str] = []
            reply = client.execute_interactive(
                cell, timeout=120, output_hook=partial(_stdout, printed=printed)
            )
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"the cell failed in the kernel: {reply['content']}")
            out.append(json.loads("".join(printed).strip().splitlines()[-1]))
        finally:
            client.stop_channels()
            manager.shutdown_kernel(now=True)
    return out


def _stdout(message: dict[str, Any], printed: list[str]) -> None:
    if message["msg_type"] == "stream" and message["content"]["name"] == "stdout":
        printed.append(message["content"]["text"])


def run(probe: str) -> list[dict[str, Any]]:
    out = []
    for _ in range(RUNS):
        done = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, check=True
        )
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return out


def main() -> None:
    rows = [
        ("import mcbews_repl", run(IMPORT_PROBE)),
        ("IPython shell start (baseline)", run(BASE_PROBE)),
        ("%load_ext mcbews_repl", run(LOAD_PROBE)),
        ("first %load_ext mcbews_repl in a fresh Jupyter kernel", in_kernel(KERNEL_CELL)),
    ]
    print(f"| measurement (median of {RUNS} fresh processes) | seconds | imported by it, "
          f"of {', '.join(HEAVY)} |")  # fmt: skip
    print("|---|---:|---|")
    for name, results in rows:
        median = statistics.median(r["s"] for r in results)
        found = sorted({m for r in results for m in r["new"]})
        print(f"| {name} | {median:.3f} | {', '.join(found) or 'none'} |")
    for label, results in (("a warm IPython start", rows[2][1]), ("a fresh kernel", rows[3][1])):
        load = statistics.median(r["s"] for r in results)
        verdict = "PASS" if load < 0.3 else "FAIL"
        print(f"Target: %load_ext adds < 0.300 s to {label}: {load:.3f} s, {verdict}")


if __name__ == "__main__":
    main()
