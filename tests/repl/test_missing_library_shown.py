"""In a real kernel without pandas, what needs it says, as the cell's short red error, which
extra to install; what does not need it still works."""

from __future__ import annotations

import re

import pytest

from .kernel import run_in_kernel

pytestmark = pytest.mark.slow


def test_a_cell_that_needs_pandas_names_the_extra() -> None:
    cells = run_in_kernel(
        {
            "load": "import sys\nsys.modules['pandas'] = None  # as if not installed\n"
            "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
            "sim": "%mc sim",
            "player": "p = await mc.player('Steve')\nprint(p.name)",
            "inventory": "await mc.inventory()",
        },
        allow_errors=True,
    )
    assert [o.text for o in cells["player"].outputs if o.output_type == "stream"] == ["Steve\n"]
    [error] = [o for o in cells["inventory"].outputs if o.output_type == "error"]
    assert error.ename == "MissingDependency"
    [shown] = error.traceback  # one short message, no traceback
    assert re.sub(r"\x1b\[[0-9;]*m", "", shown) == (
        "MissingDependency: pandas is needed here, which is not installed; it comes with the "
        'repl extra: python -m pip install "mcbews-repl[repl]"'
    )
