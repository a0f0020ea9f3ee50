"""How much the extension costs at start-up: import time and ``%load_ext`` wall time.

Each figure is the median of several fresh interpreter runs (so caches are warm on disk but
nothing is imported yet). Target: loading the extension adds under 0.3 s to a warm
IPython start, and importing mcbews_repl pulls in neither pandas nor rich; nor
the widget libraries of the live map and the interactive tables.

    .venv/bin/python benchmarks/bench_repl.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
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
    ]
    print(f"| measurement (median of {RUNS} fresh processes) | seconds | imported by it, "
          f"of {', '.join(HEAVY)} |")  # fmt: skip
    print("|---|---:|---|")
    for name, results in rows:
        median = statistics.median(r["s"] for r in results)
        found = sorted({m for r in results for m in r["new"]})
        print(f"| {name} | {median:.3f} | {', '.join(found) or 'none'} |")
    load = statistics.median(r["s"] for r in rows[2][1])
    verdict = "PASS" if load < 0.3 else "FAIL"
    print(f"\nTarget: %load_ext adds < 0.300 s to a warm IPython start: {load:.3f} s, {verdict}")


if __name__ == "__main__":
    main()
