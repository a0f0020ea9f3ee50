"""What a query answers: frozen values that say whether they are known, and why not.

Every answer keeps the command it came from, the game's status code and message. ``known``
is True only when the output had a shape the parser recognises; otherwise the value is
``None`` and ``reason`` is a stable word (below). An unknown is never turned into 0, an
empty list or False: a count that could not be read is not a count of nothing.

Reasons: ``no_target`` (nothing matched the name or selector), ``syntax_error``,
``not_permitted``, ``command_failed`` (any other failure status), ``output_unrecognized``
(a success whose text the parser does not know, e.g. another language), ``no_output``,
``out_of_world`` (a block outside the world or in an unloaded chunk), ``holder_mismatch``
(the answer names someone else), ``not_reported`` (the game acknowledged but gave no value).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..gameids import with_ids
from ..gametext import strip_codes
from ..optional import needs

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Ack",
    "Answer",
    "BlockCheck",
    "EntityList",
    "EntityRow",
    "ItemCount",
    "ObjectiveInfo",
    "ObjectiveList",
    "ObjectiveScores",
    "RegionScan",
    "Score",
    "ScoreChange",
    "ScoreList",
    "ScoreRead",
    "TagList",
    "TestFor",
]

ENTITY_COLUMNS = ["id", "dimension", "dimensionId", "x", "y", "z", "yaw"]


@dataclass(frozen=True, kw_only=True)
class Answer:
    """The evidence every answer carries."""

    command: str
    known: bool
    reason: str | None = None
    status_code: int | None = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Every field as a plain dict (JSON-ready), evidence included."""
        return asdict(self)

    def describe(self) -> str:
        """One line for a person: the value when known, else ``unknown (reason): message``."""
        return self._known_text() if self.known else f"unknown ({self.reason}): {self.message}"

    def _known_text(self) -> str:
        return self.message


@dataclass(frozen=True, kw_only=True)
class ItemCount(Answer):
    """How many of ``item`` (aux ``data``, -1: any) ``player`` holds; ``value`` None when
    the game's answer did not say."""

    player: str
    item: str
    data: int = -1
    value: int | None = None

    def _known_text(self) -> str:
        return f"{self.player} has {self.value} of {self.item}"


@dataclass(frozen=True, kw_only=True)
class TagList(Answer):
    """``count`` is the game's number; ``tags`` is the display text split, only when exact."""

    target: str
    count: int | None = None
    text: str = ""
    tags: tuple[str, ...] | None = None

    def _known_text(self) -> str:
        return f"{self.target} has {self.count} tag(s): {self.text or '—'}"


@dataclass(frozen=True)
class Score:
    """One score in a holder's listing: objective name, its display name, the value."""

    objective: str
    display_name: str
    value: int


@dataclass(frozen=True, kw_only=True)
class ScoreList(Answer):
    """Every score one holder has, as the game listed them."""

    holder: str
    scores: tuple[Score, ...] = ()

    def get(self, objective: str) -> Score | None:
        """The holder's :class:`Score` in ``objective``, or None when it has none there."""
        return next((s for s in self.scores if s.objective == objective), None)

    def _known_text(self) -> str:
        shown = ", ".join(f"{s.objective}={s.value}" for s in self.scores) or "no scores"
        return f"{self.holder}: {shown}"

    def to_dataframe(self) -> pd.DataFrame:
        """The scores as a table: holder, objective, display_name (without § codes), value.

        Raises:
            MissingDependency: pandas is not installed (the message names the extra).
        """
        with needs():
            import pandas as pd

        rows = [{"holder": self.holder, **asdict(s)} for s in self.scores]
        for row in rows:  # the table shows the words; the Score keeps its § codes
            row["display_name"] = strip_codes(row["display_name"])
        return pd.DataFrame(rows, columns=["holder", "objective", "display_name", "value"])


@dataclass(frozen=True, kw_only=True)
class ScoreRead(Answer):
    """One holder's score in one objective; ``found`` False is a known absence."""

    holder: str
    objective: str
    found: bool | None = None
    value: int | None = None

    def _known_text(self) -> str:
        if not self.found:
            return f"{self.holder} has no {self.objective} score"
        return f"{self.holder} [{self.objective}] = {self.value}"


@dataclass(frozen=True, kw_only=True)
class ScoreChange(Answer):
    """set/add/remove/operation: ``value`` when the game reported the new score."""

    operation: str
    holder: str
    objective: str
    value: int | None = None

    def _known_text(self) -> str:
        now = "not reported" if self.value is None else str(self.value)
        return f"{self.operation} {self.holder} [{self.objective}]: now {now}"


@dataclass(frozen=True, kw_only=True)
class Ack(Answer):
    """An action the game confirmed (objective add/remove/setdisplay, reset)."""

    operation: str

    @property
    def acknowledged(self) -> bool:
        """True when the game confirmed the action (the same as ``known``)."""
        return self.known


@dataclass(frozen=True)
class ObjectiveInfo:
    """One objective as listed: its name, display name and criterion (``dummy`` ...)."""

    name: str
    display_name: str
    criteria: str


@dataclass(frozen=True, kw_only=True)
class ObjectiveList(Answer):
    """Every objective of the world, as the game listed them."""

    objectives: tuple[ObjectiveInfo, ...] = ()

    def _known_text(self) -> str:
        return f"{len(self.objectives)} objective(s): " + (
            ", ".join(o.name for o in self.objectives) or "none"
        )


@dataclass(frozen=True, kw_only=True)
class TestFor(Answer):
    """Whether a selector matched; ``names`` is display text, not identities."""

    __test__ = False  # not a pytest test class despite the name

    selector: str
    matched: bool | None = None
    names: tuple[str, ...] = ()

    def _known_text(self) -> str:
        return (
            f"{self.selector} matched {', '.join(self.names)}"
            if self.matched
            else (f"{self.selector} matched nothing")
        )


@dataclass(frozen=True)
class EntityRow:
    """One entity from ``querytarget``: its unique id, dimension, position and yaw."""

    id: str
    dimension: str
    x: float
    y: float
    z: float
    yaw: float


@dataclass(frozen=True, kw_only=True)
class EntityList(Answer):
    """``complete`` is False when more entities matched than ``limit`` allowed."""

    selector: str
    entities: tuple[EntityRow, ...] = ()
    limit: int = 0
    complete: bool | None = None

    def _known_text(self) -> str:
        more = "" if self.complete else f" (limit {self.limit} reached; more exist)"
        return f"{len(self.entities)} entit(ies) for {self.selector}{more}"

    def to_dataframe(self) -> pd.DataFrame:
        """The entities as a table: id, dimension, dimensionId, x, y, z, yaw.

        Raises:
            MissingDependency: pandas is not installed (the message names the extra).
        """
        with needs():
            import pandas as pd

        rows = [with_ids(asdict(e), "dimension") for e in self.entities]  # gameids.py
        return pd.DataFrame(rows, columns=ENTITY_COLUMNS)


@dataclass(frozen=True, kw_only=True)
class BlockCheck(Answer):
    """``matches`` None: unknown (out of the world, unloaded, unrecognised output).

    ``actual`` is the game's *display* name of what is there when it says (e.g. "Stone").
    """

    x: int
    y: int
    z: int
    block: str
    matches: bool | None = None
    actual: str | None = None

    def _known_text(self) -> str:
        if self.matches:
            return f"{self.block} at {self.x},{self.y},{self.z}"
        return f"not {self.block} at {self.x},{self.y},{self.z}: {self.actual or 'other'}"


@dataclass(frozen=True)
class RegionScan:
    """``testforblock`` over a small box: how many positions hold ``block``, known or not."""

    origin: tuple[int, int, int]
    size: tuple[int, int, int]
    block: str
    checks: tuple[BlockCheck, ...]

    @property
    def matched(self) -> int:
        """How many positions hold the block."""
        return sum(1 for c in self.checks if c.matches)

    @property
    def unknown(self) -> int:
        """How many positions could not be read (out of the world, unloaded, unrecognised)."""
        return sum(1 for c in self.checks if c.matches is None)

    @property
    def known(self) -> bool:
        """True when every position was read."""
        return self.unknown == 0

    def describe(self) -> str:
        """One line for a person: how many positions matched, how many are unknown."""
        return (
            f"{self.matched} of {len(self.checks)} position(s) hold {self.block}; "
            f"{self.unknown} unknown"
        )

    def rows(self) -> list[dict[str, Any]]:
        """One dict per position: x, y, z, matches (None: unknown), actual, reason."""
        keys = ("x", "y", "z", "matches", "actual", "reason")
        return [{k: getattr(c, k) for k in keys} for c in self.checks]

    def to_dataframe(self) -> pd.DataFrame:
        """:meth:`rows` as a table.

        Raises:
            MissingDependency: pandas is not installed (the message names the extra).
        """
        with needs():
            import pandas as pd

        return pd.DataFrame(self.rows(), columns=["x", "y", "z", "matches", "actual", "reason"])


@dataclass(frozen=True)
class ObjectiveScores:
    """Every tracked holder's score in one objective, read holder by holder.

    ``unknown`` lists the holders whose scores could not be read; ``truncated`` is True
    when more holders were tracked than the read was allowed to visit (``total`` of them).
    """

    objective: str
    scores: tuple[tuple[str, int], ...]
    total: int | None
    truncated: bool
    unknown: tuple[str, ...] = ()
    reason: str | None = None

    @property
    def known(self) -> bool:
        """True when the holders were listed, every one was read and none was left out."""
        return self.total is not None and not self.unknown and not self.truncated

    def describe(self) -> str:
        """One line for a person: how many scores, and whether the read was cut short."""
        if self.total is None:
            return f"[{self.objective}] unknown ({self.reason})"
        cut = f", first {self.total} holders only" if self.truncated else ""
        gaps = f", {len(self.unknown)} unreadable" if self.unknown else ""
        return f"[{self.objective}] {len(self.scores)} score(s){cut}{gaps}"

    def to_dataframe(self) -> pd.DataFrame:
        """The scores as a table: holder, value.

        Raises:
            MissingDependency: pandas is not installed (the message names the extra).
        """
        with needs():
            import pandas as pd

        rows = [{"holder": h, "value": v} for h, v in self.scores]
        return pd.DataFrame(rows, columns=["holder", "value"])
