"""How much the extension costs at start-up: import time and ``%load_ext`` wall time.

Each figure is the median of several fresh interpreter runs (so caches are warm on disk but
nothing is imported yet). Target (issue 6): loading the extension adds under 0.3 s to a warm
IPython start, and importing mcbews_repl pulls in neither pandas nor rich.

    .venv/bin/python benchmarks/bench_repl.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

RUNS = 5

IMPORT_PROBE = """
import sys, time, json
t = time.perf_counter(); import mcbews_repl; dt = time.perf_counter() - t
print(json.dumps({"s": dt, "pandas": "pandas" in sys.modules, "rich": "rich" in sys.modules}))
"""

LOAD_PROBE = """
import json, time, os
os.environ["MCBEWS_PORT"] = "0"
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
t = time.perf_counter(); ip.run_line_magic("load_ext", "mcbews_repl"); dt = time.perf_counter() - t
import sys
print(json.dumps({"s": dt, "pandas": "pandas" in sys.modules, "rich": "rich" in sys.modules}))
ip.run_line_magic("unload_ext", "mcbews_repl")
"""

BASE_PROBE = """
import json, time
t = time.perf_counter()
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
print(json.dumps({"s": time.perf_counter() - t, "pandas": False, "rich": False}))
"""


def run(probe: str) -> list[dict[str, float]]:
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
    print(
        f"| measurement (median of {RUNS} fresh processes) | seconds | pandas imported "
        "| rich imported |"
    )
    print("|---|---:|---|---|")
    for name, results in rows:
        median = statistics.median(r["s"] for r in results)
        print(
            f"| {name} | {median:.3f} | {any(r['pandas'] for r in results)} "
            f"| {any(r['rich'] for r in results)} |"
        )
    load = statistics.median(r["s"] for r in rows[2][1])
    verdict = "PASS" if load < 0.3 else "FAIL"
    print(f"\nTarget: %load_ext adds < 0.300 s to a warm IPython start: {load:.3f} s, {verdict}")


if __name__ == "__main__":
    main()
