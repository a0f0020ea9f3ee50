"""Agent-facing tools: ``await tools.call(name, **kwargs)`` never raises.

The rules of docs/toolkit.md, "Agent tools": parameters are keyword-only and described up
front; every result carries a short ``describe``; a failure is data (``{"ok": false, "why",
"how_to"}``), never a traceback; lists are bounded and say ``total`` and ``truncated``. The
tools observe and act; they never decide (no tool picks a target, a route or a policy for
the agent).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from ..gateway import Bridge
from .catalogue import CATALOGUE
from .context import ChatContexts
from .results import exception_failure, failure
from .schema import ArgumentProblem, ToolSpec, check_arguments
from .tool_bodies import ToolBodies

__all__ = ["CONVENTIONS", "TIPS", "Tools"]

CONVENTIONS = {
    "coordinates": "x and z are horizontal, y is height; block positions are whole numbers",
    "known": "known=false means the answer could not be read; the value is null, never a guess",
    "bounded": "lists stop at 'limit'; 'truncated' says there was more, 'total' how much",
    "dimension": "commands run in the connected player's dimension",
}
TIPS = [
    "Start with status and players to learn who is online and where.",
    "A chat event's context_id reads that player's state at the moment they spoke; read it "
    "early, it expires.",
    "Tools report what the world is and do what they are told; deciding is the caller's job.",
    "Acting tools change the world: check with an observing tool before and after.",
]


class Tools(ToolBodies):
    """The tool surface over one bridge (and optionally the chat-context store)."""

    def __init__(
        self, bridge: Bridge, *, contexts: ChatContexts | None = None, timeout: float | None = None
    ) -> None:
        super().__init__(bridge, contexts=contexts, timeout=timeout)
        self._specs = {spec.name: spec for spec in CATALOGUE}

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        """The catalogue: one :class:`ToolSpec` per tool (name, summary, parameters)."""
        return CATALOGUE

    def describe(self) -> dict[str, Any]:
        """Every tool with its parameters, plus conventions and tips: read this first."""
        tools = [s.describe() for s in CATALOGUE]
        return {
            "tools": tools,
            "count": len(tools),
            "conventions": CONVENTIONS,
            "tips": TIPS,
            "describe": f"{len(tools)} tools; call(name, **kwargs)",
        }

    def json_schemas(self) -> list[dict[str, Any]]:
        """The catalogue as JSON Schema function definitions for an LLM harness."""
        return [spec.function() for spec in CATALOGUE]

    def export_json(self) -> str:
        """:meth:`json_schemas` as indented JSON text, for a file an LLM harness reads."""
        return json.dumps(self.json_schemas(), indent=2)

    async def call(self, name: str, /, **kwargs: Any) -> dict[str, Any]:
        """Run tool ``name``; always returns a dict with ``ok`` and ``describe``.

        Never raises: an unknown tool, arguments that break the tool's schema, and every
        error the tool meets (not connected, timeouts, the game's refusals) come back as
        ``{"ok": False, "why": ..., "how_to": ...}``.
        """
        spec = self._specs.get(name) if isinstance(name, str) else None
        if spec is None:
            return failure(
                f"there is no tool {name!r}",
                "call describe() for the tool list",
                available=sorted(self._specs),
            )
        try:
            args = check_arguments(spec, kwargs)
            body: Callable[..., Awaitable[dict[str, Any]]] = getattr(self, f"tool_{name}")
            result = await body(**args)
        except ArgumentProblem as problem:
            result = failure(problem.why, problem.how_to)
        except Exception as exc:  # an agent must never see a traceback: a failure is data
            result = exception_failure(exc)
        return {"tool": name, **result}
