"""``python -m mcbews_repl.repl.ipython``: print the README's ``%mc`` table (a maintainer's
helper; a test fails when the README's copy differs)."""

from ._usage import markdown_table

print(markdown_table())
