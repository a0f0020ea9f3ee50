"""The colour of each wool, concrete and terracotta block: pixel art's palette
(:func:`~mcbews_repl.toolkit.shapes.pixel_art`) and the colour pictures of regions draw them in.

``block_colours.json`` holds them: each the mean sRGB of the opaque pixels of the block's
texture in the game's resource pack (Mojang/bedrock-samples, the commit the file names;
``tools/gen_palette.py`` makes it). Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from ..exceptions import InvalidArgument

__all__ = ["FAMILIES", "block_colours"]

FAMILIES = ("wool", "concrete", "terracotta")  # the palettes pixel_art's palette= names


@cache
def _colours_file() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("block_colours.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def block_colours(palette: str | Sequence[str] = FAMILIES) -> dict[str, tuple[int, int, int]]:
    """Each block of the named families (``"wool"``, ``"concrete"``, ``"terracotta"``, or
    several) and its colour as ``(r, g, b)``: the mean of its texture in the game's resource
    pack (``block_colours.json`` names the commit of Mojang/bedrock-samples it is from).

    Raises:
        InvalidArgument: ``palette`` names no family, or one that is not among them.
    """
    names = (palette,) if isinstance(palette, str) else tuple(palette)
    unknown = [n for n in names if n not in FAMILIES]
    if not names or unknown or not all(isinstance(n, str) for n in names):
        raise InvalidArgument(
            "palette", palette, "is not a family of coloured blocks",
            f"one or more of {', '.join(map(repr, FAMILIES))}, or {{block: (r, g, b)}}",
        )  # fmt: skip
    blocks = _colours_file()["blocks"]
    return {block: (int(e["rgb"][0]), int(e["rgb"][1]), int(e["rgb"][2]))
            for block, e in blocks.items() if e["family"] in names}  # fmt: skip
