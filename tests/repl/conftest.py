from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from IPython.terminal.interactiveshell import TerminalInteractiveShell
from IPython.testing.globalipapp import start_ipython


def shell_instance() -> Any:
    """The test shell; start_ipython() gives it only on its first call in a process."""
    return start_ipython() or TerminalInteractiveShell.instance()


@pytest.fixture(scope="module")
def shell() -> Iterator[Any]:
    """A real InteractiveShell with the extension loaded and a simulated world connected."""
    ip = shell_instance()
    ip.run_line_magic("config", "McbewsRepl.port = 0")
    ip.run_line_magic("load_ext", "mcbews_repl")
    ip.run_line_magic("mc", "sim")
    yield ip
    ip.run_line_magic("unload_ext", "mcbews_repl")
