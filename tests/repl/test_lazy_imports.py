"""Loading the extension imports none of the libraries its features need only when used:
pandas, rich, the widget stack of the live map and the interactive tables, matplotlib.
(benchmarks/bench_repl.py measures the time; this checks the imports in a fresh process.)"""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, os, sys
os.environ["MCBEWS_PORT"] = "0"
from IPython.testing.globalipapp import start_ipython
ip = start_ipython()
before = set(sys.modules)
ip.run_line_magic("load_ext", "mcbews_repl")
after = set(sys.modules)
ip.run_line_magic("unload_ext", "mcbews_repl")
print(json.dumps(sorted({m.split(".")[0] for m in after - before})))
"""
LAZY = {"pandas", "rich", "ipywidgets", "anywidget", "matplotlib", "numpy"}


def test_load_ext_imports_no_heavy_library() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          check=True, timeout=60)  # fmt: skip
    imported = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert "mcbews_repl" in imported  # the probe saw the load
    assert not imported & LAZY, imported & LAZY
