"""The simulated world's evidence corpus (mcbews_repl/sim/evidence/), read as plain JSON.

Tests compare the simulated world, the bridge's decoder and the toolkit's parsers with it.
Nothing here goes through ``mcbews_repl.sim.facts``: the strings are filled by this file's
own small filler, so a test does not check the simulated world's code against itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

EVIDENCE = Path(__file__).resolve().parents[1] / "mcbews_repl" / "sim" / "evidence"


def read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EVIDENCE / f"{name}.json").read_text(encoding="utf-8"))
    return data


CAPTURES: dict[str, dict[str, Any]] = {c["id"]: c for c in read("captures")["captures"]}
LANGS: dict[str, dict[str, str]] = read("lang")["languages"]
LANG: dict[str, str] = LANGS["en_US"]
FACTS: dict[str, Any] = read("facts")
SOURCES: dict[str, Any] = read("sources")


def lang(key: str, *args: object, language: str = "en_US") -> str:
    """The language file's string with its placeholders filled in: ``%s``/``%d`` in order,
    ``%1$s`` by position, and ``%1``, ``%2d``, ``%2$`` by the position they name (facts.json
    behaviours.lang_placeholders). A key the language's file lacks is the English one, as
    in the game."""
    template = LANGS[language].get(key, LANG[key])
    out, auto, at = [], 0, 0
    for match in re.finditer(r"%%|%(\d+)\$?([sdf]?)|%([sdf])", template):
        out.append(template[at : match.start()])
        at = match.end()
        if match.group(0) == "%%":
            out.append("%")
            continue
        if match.group(1):
            value = args[int(match.group(1)) - 1]
        else:
            value, auto = args[auto], auto + 1
        out.append(str(value))
    return "".join(out) + template[at:]


def exact(capture_id: str) -> Any:
    """A fresh copy of what the capture recorded (tests may fill its placeholders)."""
    return json.loads(json.dumps(CAPTURES[capture_id]["exact"]))
