"""The notebook skin, in three wings that only import downward, on top of the runtime thread:

* ``ipython/``: the extension, its settings, the ``%mc`` magics, completion, formatters;
* ``handle/``: the ``mc`` API for notebooks and scripts (no IPython at module level);
* ``show/``: every rendering (cards, tables, widgets, maps, charts);
* ``runtime.py`` and ``interrupts.py`` below them: the bridge's own thread, and Interrupt
  Kernel reaching a call that waits on it.

Each wing's ``__init__`` is its API and its modules are private (``_name.py``);
``charts`` is the one module users import by name (``from mcbews_repl.repl import charts``).
The rules are checked by ``tests/test_architecture.py`` (docs/architecture.md).
"""
