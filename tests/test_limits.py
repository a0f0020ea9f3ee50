"""limits.py is the one place every bound of the bridge's own is named: Settings takes its
defaults from it and docs/gateway.md ("Limits") lists the same table."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from mcbews_repl.gateway import Settings
from mcbews_repl.limits import BOUNDS, KIB, MIB, Bound

DOC = Path(__file__).resolve().parent.parent / "docs" / "gateway.md"


def limits_table() -> dict[str, list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Limits\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:-1] for line in section.splitlines() if line.startswith("| `")]
    return {cells[0].strip().strip("`"): [c.strip() for c in cells[1:]] for cells in rows}


def shown(bound: Bound) -> str:
    """The default as the docs write it: sizes in MiB/KiB, numbers with thousands commas."""
    value = bound.value
    if bound.unit == "bytes" and value >= KIB:
        return f"{value // MIB} MiB" if value % MIB == 0 else f"{value // KIB} KiB"
    return f"{value:,g}" if isinstance(value, float) else f"{value:,}"


def test_every_bound_is_documented_with_its_default_and_setting() -> None:
    table = limits_table()
    assert set(table) == set(BOUNDS)
    for name, bound in BOUNDS.items():
        default, setting, why = table[name]
        assert default.startswith(shown(bound) + " ") or default == shown(bound), name
        assert setting == ("yes" if bound.setting else "no"), name
        assert why and bound.reason, name


def test_settings_take_their_defaults_from_the_bounds() -> None:
    defaults = {f.name: f.default for f in fields(Settings)}
    for bound in BOUNDS.values():
        if bound.setting is not None:
            assert defaults[bound.setting] == bound.value, bound.name


def test_every_bound_says_why() -> None:
    for bound in BOUNDS.values():
        assert len(bound.reason) > 40 and re.fullmatch(r"[a-z_]+", bound.name), bound.name


def test_the_repl_settings_of_a_gateway_setting_default_to_it() -> None:
    """%config McbewsRepl.<name> and serve(<name>=...) start from the same number."""
    from mcbews_repl.repl.ipython._config import McbewsRepl

    defaults = {f.name: f.default for f in fields(Settings)}
    traits = McbewsRepl.class_traits(config=True)
    shared = set(traits) & set(defaults)
    assert {"max_connections", "max_connections_per_address", "command_timeout"} <= shared
    for name in shared:
        assert traits[name].default_value == defaults[name], name
