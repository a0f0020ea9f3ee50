"""How ``%mc`` reads a ``key=value`` argument: shared by every magic that takes one.

Its own module so that the magics' modules import it instead of each other.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["parse_value"]


def parse_value(text: str) -> Any:
    """``key=value`` values: JSON where it parses (numbers, true, lists), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text
