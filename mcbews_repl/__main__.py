"""``python -m mcbews_repl`` is the same as the ``mcbews-repl`` command."""

from .cli import main

raise SystemExit(main())
