"""Agent-facing tools: ``await tools.call(name, **kwargs)`` never raises.

The rules of docs/toolkit.md, "Agent tools": parameters are keyword-only and described up
front; every result carries a short ``describe``; a failure is data (``{"ok": false, "why",
"how_to"}``), never a traceback; lists are bounded and say ``total`` and ``truncated``. The
tools observe and act; they never decide (no tool picks a target, a route or a policy for
the agent).
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

from ..exceptions import Refused
from ..gateway import Bridge
from .catalogue import CATALOGUE
from .context import ChatContexts
from .guard import AuditEntry, Guard, GuardedBridge
from .results import exception_failure, failure, refusal
from .schema import ArgumentProblem, ToolSpec, check_arguments
from .tool_bodies import ToolBodies

__all__ = ["AUDIT_ARGUMENT_CHARS", "CONVENTIONS", "TIPS", "Tools", "audit_arguments"]

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
    """The tool surface over one bridge (and optionally the chat-context store).

    With a ``guard`` (:class:`~.guard.Guard`) every call is judged by its policy first and
    audited, and every line and capability the tools send passes it too (a building tool's
    blocks its caps and protected regions); ``world`` names the world in the audit;
    ``builders`` holds each world's building history for the undo tool (by connection id:
    pass the same dict to every ``Tools`` of a session). Without a guard the tools do what
    they are told: the caller is the operator (``mc.tools`` and ``mcbews-repl mcp`` always
    pass a guard).
    """

    def __init__(
        self,
        bridge: Bridge,
        *,
        contexts: ChatContexts | None = None,
        timeout: float | None = None,
        guard: Guard | None = None,
        world: str | None = None,
        builders: dict[int, Any] | None = None,
    ) -> None:
        seen = bridge if guard is None else GuardedBridge(bridge, guard)
        super().__init__(seen, contexts=contexts, timeout=timeout, builders=builders)
        self._specs = {spec.name: spec for spec in CATALOGUE}
        self.guard = guard
        self.world = world

    def _check_build(self, count: int, low: tuple[int, ...], high: tuple[int, ...]) -> None:
        """The guard's caps (per call, per minute) and protected regions for a building
        tool's ``count`` blocks in ``low``..``high``.

        Raises:
            Refused: a rule refuses it; nothing was sent.
        """
        if self.guard is not None:
            self.guard.check_blocks(count, [(low, high)])

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

    def anthropic_schemas(self) -> list[dict[str, Any]]:
        """The catalogue as Anthropic-style tool definitions: ``name``, ``description``,
        ``input_schema`` (the same JSON Schema as :meth:`json_schemas`' ``parameters``)."""
        out = []
        for spec in CATALOGUE:
            function = spec.function()["function"]
            out.append({"name": spec.name, "description": function["description"],
                        "input_schema": function["parameters"]})  # fmt: skip
        return out

    async def answer(self, call: dict[str, Any]) -> dict[str, Any]:
        """Run one tool call as a model asked for it, and the message that answers it.

        ``call`` is an OpenAI-style tool call (``{"id", "type": "function", "function":
        {"name", "arguments": "<JSON text>"}}``; the answer is ``{"role": "tool",
        "tool_call_id", "content"}``) or an Anthropic-style ``tool_use`` block (``{"type":
        "tool_use", "id", "name", "input"}``; the answer is a ``tool_result`` block with
        ``is_error``). ``content`` is the result as JSON text. Never raises: a call of
        neither shape, or arguments that are not a JSON object, are answered as failures.
        """
        if not isinstance(call, dict):
            call = {}
        if call.get("type") == "tool_use":
            given = call.get("input")
            result = await self._call_with(call.get("name"), given)
            return {"type": "tool_result", "tool_use_id": call.get("id"),
                    "content": json.dumps(result, ensure_ascii=False, default=repr),
                    "is_error": not result.get("ok")}  # fmt: skip
        found = call.get("function")
        function: dict[str, Any] = found if isinstance(found, dict) else {}
        text = function.get("arguments")
        try:
            given = json.loads(text) if isinstance(text, str) and text.strip() else {}
        except ValueError as exc:
            given = exc
        result = await self._call_with(function.get("name"), given)
        return {"role": "tool", "tool_call_id": call.get("id"),
                "content": json.dumps(result, ensure_ascii=False, default=repr)}  # fmt: skip

    async def _call_with(self, name: object, given: object) -> dict[str, Any]:
        if isinstance(given, ValueError):
            return failure(f"the arguments are not JSON: {given}", "send a JSON object")
        if given is None:
            given = {}
        if not isinstance(given, dict) or not all(isinstance(k, str) for k in given):
            return failure("the arguments are not a JSON object", "send a JSON object")
        return await self.call(name if isinstance(name, str) else repr(name), **given)

    async def call(self, name: str, /, **kwargs: Any) -> dict[str, Any]:
        """Run tool ``name``; always returns a dict with ``ok`` and ``describe``.

        Never raises: an unknown tool, arguments that break the tool's schema, and every
        error the tool meets (not connected, timeouts, the game's refusals) come back as
        ``{"ok": False, "why": ..., "how_to": ...}``.
        """
        spec = self._specs.get(name) if isinstance(name, str) else None
        if spec is None:
            result = failure(
                f"there is no tool {str(name)[:60]!r}",
                "call describe() for the tool list",
                available=sorted(self._specs),
            )
            self._audit(str(name)[:60], kwargs, "invalid", result, time.monotonic())
            return result
        started, verdict, blocks = time.monotonic(), "allowed", 0
        try:
            args = check_arguments(spec, kwargs)
            # The guard reserves the blocks a command writes as it judges it (parallel
            # calls cannot all pass the minute's cap); a failed command gives them back.
            blocks = self.guard.check_tool(name, spec.kind, args) if self.guard else 0
            body: Callable[..., Awaitable[dict[str, Any]]] = getattr(self, f"tool_{name}")
            result = await body(**args)
        except ArgumentProblem as problem:
            verdict, result = "invalid", failure(problem.why, problem.how_to)
        except Refused as refused:
            verdict, result = "refused", refusal(refused)
        except Exception as exc:  # an agent must never see a traceback: a failure is data
            result = exception_failure(exc)
        if self.guard is not None and blocks and not result.get("ok"):
            self.guard.release(blocks)
        result = {"tool": name, **result}
        self._audit(name, kwargs, verdict, result, started)
        return result

    def _audit(
        self,
        name: str,
        kwargs: dict[str, Any],
        verdict: str,
        result: dict[str, Any],
        started: float,
    ) -> None:
        if self.guard is None:
            return
        kept: dict[str, Any] = {
            k: result[k] for k in ("ok", "describe", "why", "refused_by") if k in result
        }
        entry = AuditEntry(
            at=time.time(), tool=name, arguments=audit_arguments(kwargs), world=self.world,
            verdict=verdict, refused_by=result.get("refused_by"),
            why=result.get("why") if verdict != "allowed" else None, result=kept,
            elapsed=round(time.monotonic() - started, 6),
        )  # fmt: skip
        self.guard.record(entry)


# The longest argument the audit keeps whole, in characters (a string's length, or the
# JSON text of a list or table): above every tool's own maximum (set_blocks' runs: 32,768),
# so every call a tool could run is kept as it was, to replay. A longer value (a call the
# tool refused as too long) is kept as its length, its SHA-256 and its first 200 characters.
AUDIT_ARGUMENT_CHARS: Final = 65536
AUDIT_ARGUMENTS_KEPT: Final = 64  # arguments kept of one call (a tool has at most 12)


def audit_arguments(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The arguments as the audit keeps them: JSON values whole up to
    :data:`AUDIT_ARGUMENT_CHARS`; a longer one as ``{"omitted", "characters", "sha256",
    "start"}``; a value that is not JSON as its ``repr`` (as long)."""
    out: dict[str, Any] = {}
    for key, value in list(kwargs.items())[:AUDIT_ARGUMENTS_KEPT]:
        if isinstance(value, str):
            text = value
        else:
            try:
                text = json.dumps(value, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError):
                value = text = repr(value)
        if len(text) > AUDIT_ARGUMENT_CHARS:
            value = {"omitted": "longer than the audit keeps", "characters": len(text),
                     "sha256": hashlib.sha256(text.encode("utf-8", "replace")).hexdigest(),
                     "start": text[:200]}  # fmt: skip
        out[str(key)[:64]] = value
    return out
