"""What ``mc.call(...)`` gives back, and how it shows.

A :class:`CallResult` is the capability's answer, a ``dict`` like any other (index it, dump
it as JSON, compare it), that also knows which capability gave it. Shown at the end of a
cell, the answers of the shipped capabilities read as what they are: player cards, the
inventory table, the capability list, a command's outcome, a block read's summary. Any
other answer (a capability you are prototyping) shows as a JSON tree that folds, never as
a dict repr. An answer whose shape is not what its capability usually gives also falls
back to the tree.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...cleantext import clean_text, escape_html
from ...gameids import id_columns, short_id, with_ids
from ...gametext import to_html
from ...optional import needs
from ...vocabulary import Capability
from ._render import card_html, card_text
from ._style import MUTED as _MUTED
from ._tables import caps_frame, clean_rows, inventory_frame, player_rows
from ._views import frame_html, frame_text, tag

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CallResult", "result_html", "result_text", "tree_html", "tree_text"]

# A JSON tree of at most this many values shows unfolded; a larger one opens two levels.
OPEN_VALUES = 60
OPEN_LEVELS = 2
# Items of one list or object shown before "… N more" (the data keeps them all).
ITEMS_SHOWN = 50
_KEY = "color:var(--jp-mirror-editor-property-color, #1f6feb)"
_NUMBER = "color:var(--jp-mirror-editor-number-color, #098658)"
_STRING = "color:var(--jp-mirror-editor-string-color, #a31515)"
_KEYWORD = "color:var(--jp-mirror-editor-keyword-color, #8250df)"


class CallResult(dict[str, Any]):
    """A capability's answer (a plain ``dict``) and ``capability``, the name it answered."""

    def __init__(self, capability: str, answer: Mapping[str, Any]) -> None:
        super().__init__(answer)
        self.capability = capability


# --- the JSON tree ------------------------------------------------------------------------


def _scalar_html(value: object) -> str:
    if isinstance(value, str):
        return f"<span style='{_STRING}'>&quot;{to_html(value)}&quot;</span>"
    if isinstance(value, bool) or value is None:
        return f"<span style='{_KEYWORD}'>{json.dumps(value)}</span>"
    return f"<span style='{_NUMBER}'>{escape_html(json.dumps(value))}</span>"


def _count(value: object) -> int:
    if isinstance(value, dict):
        return 1 + sum(_count(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_count(v) for v in value)
    return 1


def _node_html(key: str | None, value: object, depth: int, opened: int) -> str:
    label = f"<span style='{_KEY}'>{escape_html(key)}</span>: " if key is not None else ""
    if not isinstance(value, dict | list):
        return f"<div>{label}{_scalar_html(value)}</div>"
    items = list(value.items()) if isinstance(value, dict) else list(enumerate(value))
    noun = "key" if isinstance(value, dict) else "item"
    if not items:
        empty = "{}" if isinstance(value, dict) else "[]"
        return f"<div>{label}<span style='{_MUTED}'>{empty}</span></div>"
    size = f"{len(items)} {noun}{'s' * (len(items) != 1)}"
    children = "".join(_node_html(str(k), v, depth + 1, opened) for k, v in items[:ITEMS_SHOWN])
    if len(items) > ITEMS_SHOWN:
        children += f"<div style='{_MUTED}'>… {len(items) - ITEMS_SHOWN} more</div>"
    state = " open" if depth < opened else ""
    return (
        f"<details{state}><summary>{label}<span style='{_MUTED}'>{size}</span></summary>"
        f"<div style='margin-left:1.4em'>{children}</div></details>"
    )


def tree_html(title: str, value: object) -> str:
    """A JSON value as a tree that folds: small ones open, larger ones to two levels."""
    opened = 1_000 if _count(value) <= OPEN_VALUES else OPEN_LEVELS
    tree = _node_html(None, value, 0, opened)
    return (
        "<div style='font-family:var(--jp-code-font-family, monospace);font-size:0.9em'>"
        f"<div style='{_MUTED}'>{escape_html(title)}</div>{tree}</div>"
    )


def tree_text(title: str, value: object) -> str:
    """A JSON value indented, for a terminal (cleaned: JSON escapes C0 controls, not C1 or
    bidi ones)."""
    return clean_text(f"{title}\n{json.dumps(value, indent=2, ensure_ascii=False, default=str)}")


# --- known capabilities -------------------------------------------------------------------


def _cards(result: CallResult, card: Callable[..., str]) -> list[str]:
    """One card per player in a snapshot answer (ValueError: none, not a snapshot)."""
    cards = [card(p.name, p.subtitle(), p.card_fields()) for p in player_rows(result)]
    if not cards:
        raise ValueError("no players in the answer")
    return cards


def _players_html(result: CallResult) -> str:
    cards = "".join(_cards(result, card_html))
    return f"<div style='display:flex;flex-wrap:wrap;gap:8px'>{cards}</div>"


def _players_text(result: CallResult) -> str:
    return "\n".join(_cards(result, card_text))


def _command_fields(result: CallResult) -> tuple[str, str, list[tuple[str, object]]]:
    successes = int(result["successCount"])
    fields: list[tuple[str, object]] = [("command", result.get("command")),
                                        ("successes", successes)]  # fmt: skip
    if result.get("error"):
        fields.append(("error", result["error"]))
    verdict = "failed" if result.get("error") else f"{successes} success(es)"
    return f"run_world_command: {verdict}", "the addon ran it inside the world", fields


def _blocks_fields(result: CallResult) -> tuple[str, str, list[tuple[str, object]]]:
    palette = [short_id(p) for p in result["palette"]]
    kinds = ", ".join(palette[:12]) + (f" … {len(palette) - 12} more" if len(palette) > 12 else "")
    fields: list[tuple[str, object]] = [
        ("dimension", result.get("dimension")),
        ("origin", result.get("origin")),
        ("size", result.get("size")),
        ("palette", kinds),
        ("runs", len(result.get("runs") or [])),
        ("arrays", "mc.blocks(corner1, corner2) reads any box as numpy arrays"),
    ]
    return f"get_blocks: {result['count']} blocks", "one part of a block read", fields


def _card(fields: Callable[[CallResult], tuple[str, str, list[tuple[str, object]]]],
          render: Callable[..., str]) -> Callable[[CallResult], str]:  # fmt: skip
    return lambda result: render(*fields(result))


_KNOWN: dict[str, tuple[Callable[[CallResult], str], Callable[[CallResult], str]]] = {
    Capability.GET_PLAYER_SNAPSHOT: (_players_html, _players_text),
    Capability.GET_INVENTORY_SNAPSHOT: (
        lambda r: frame_html(inventory_frame(r)),
        lambda r: frame_text(inventory_frame(r)),
    ),
    Capability.LIST_CAPABILITIES: (
        lambda r: frame_html(caps_frame(r)),
        lambda r: frame_text(caps_frame(r)),
    ),
    Capability.DESCRIBE_ENTITIES: (
        lambda r: frame_html(_described(r)),
        lambda r: frame_text(_described(r)),
    ),
    Capability.RUN_WORLD_COMMAND: (
        _card(_command_fields, card_html),
        _card(_command_fields, card_text),
    ),
    Capability.GET_BLOCKS: (_card(_blocks_fields, card_html), _card(_blocks_fields, card_text)),
}


def _described(result: CallResult) -> pd.DataFrame:
    with needs():
        import pandas as pd

    rows = [with_ids({"id": e["id"], "type": e.get("typeId"), "name": e.get("nameTag") or None},
                     "type") for e in result["entities"] if e]  # fmt: skip
    columns = id_columns(["id", "type", "name"], "type")
    return tag(pd.DataFrame(clean_rows(rows), columns=columns), "entities")


def _shown(result: CallResult, form: int, tree: Callable[[str, object], str]) -> str:
    """The capability's own rendering (``form`` 0: HTML, 1: text), else the JSON tree."""
    known = _KNOWN.get(result.capability)
    if known is not None:
        try:
            return known[form](result)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # not the shape this capability usually answers: show the data itself
    return tree(f"{result.capability} answered", dict(result))


def result_html(result: CallResult) -> str:
    """The answer as its capability's card or table; anything else as a JSON tree."""
    return _shown(result, 0, tree_html)


def result_text(result: CallResult) -> str:
    """The answer as terminal text: its capability's card or table, else a JSON tree."""
    return _shown(result, 1, tree_text)
