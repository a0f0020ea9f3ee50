"""Tool parameters and specs: one description serves the agent, the JSON Schema and the check.

A :class:`Param` knows its JSON type, default and range; a :class:`ToolSpec` renders itself
for ``describe()`` and as an OpenAI-style function definition, and :func:`check_arguments`
applies the same constraints to a call, so what the schema promises is what the tool does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..exceptions import McbewsError

__all__ = ["REQUIRED", "ArgumentProblem", "Param", "ToolSpec", "check_arguments"]

REQUIRED: Final = object()  # the default of a parameter that must be given
_JSON_TYPES: dict[str, type | tuple[type, ...]] = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
}


@dataclass(frozen=True)
class Param:
    """One tool parameter: its JSON Schema type, description, default and bounds."""

    name: str
    type: str  # a JSON Schema type: string, integer, number, boolean
    description: str
    default: Any = REQUIRED
    minimum: float | None = None
    maximum: float | None = None
    enum: tuple[Any, ...] | None = None
    pattern: str | None = None
    max_length: int | None = None

    @property
    def required(self) -> bool:
        """True when the parameter has no default."""
        return self.default is REQUIRED

    def schema(self) -> dict[str, Any]:
        """The parameter as a JSON Schema property (null allowed when the default is None)."""
        out: dict[str, Any] = {
            "type": self.type if self.required or self.default is not None else [self.type, "null"],
            "description": self.description,
        }
        for key, value in (
            ("minimum", self.minimum),
            ("maximum", self.maximum),
            ("pattern", self.pattern),
            ("maxLength", self.max_length),
        ):
            if value is not None:
                out[key] = value
        if self.enum is not None:
            out["enum"] = list(self.enum) + ([None] if self.default is None else [])
        if not self.required:
            out["default"] = self.default
        return out

    def describe(self) -> dict[str, Any]:
        """The parameter as :meth:`Tools.describe` lists it: name, required, schema."""
        shown = {k: v for k, v in self.schema().items() if k != "description"}
        return {
            "name": self.name,
            "required": self.required,
            **shown,
            "description": self.description,
        }


@dataclass(frozen=True)
class ToolSpec:
    """One tool of the catalogue: name, one-line summary, kind (observe or act),
    parameters and what it returns.
    """

    name: str
    summary: str
    kind: str  # "observe" reads the world; "act" changes it
    params: tuple[Param, ...] = ()
    returns: str = ""

    def parameters_schema(self) -> dict[str, Any]:
        """The parameters as one JSON Schema object (no extra properties)."""
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "required": [p.name for p in self.params if p.required],
            "additionalProperties": False,
        }

    def function(self) -> dict[str, Any]:
        """An OpenAI-style function definition whose ``parameters`` is a JSON Schema."""
        text = f"[{self.kind}] {self.summary} Returns: {self.returns}"
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": text,
                "parameters": self.parameters_schema(),
            },
        }

    def describe(self) -> dict[str, Any]:
        """The tool as :meth:`Tools.describe` lists it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "summary": self.summary,
            "params": [p.describe() for p in self.params],
            "returns": self.returns,
        }


class ArgumentProblem(McbewsError):
    """A tool argument breaks its schema: ``why``, and ``how_to`` say what to send."""

    def __init__(self, why: str, how_to: str) -> None:
        super().__init__(why)
        self.why = why
        self.how_to = how_to


def _check_value(param: Param, value: Any) -> None:
    kind = _JSON_TYPES[param.type]
    wrong_type = not isinstance(value, kind) or (
        param.type != "boolean" and isinstance(value, bool)
    )
    how = f"{param.name}: {param.type}" + (
        f" in {param.minimum:g}..{param.maximum:g}"
        if param.minimum is not None and param.maximum is not None
        else ""
    )
    if wrong_type:
        raise ArgumentProblem(
            f"{param.name} must be a {param.type}, got {type(value).__name__}", how
        )
    if param.enum is not None and value not in param.enum:
        raise ArgumentProblem(
            f"{param.name}={value!r} is not one of {list(param.enum)}",
            f"{param.name}: one of {list(param.enum)}",
        )
    if param.minimum is not None and value < param.minimum:
        raise ArgumentProblem(f"{param.name}={value!r} is below {param.minimum:g}", how)
    if param.maximum is not None and value > param.maximum:
        raise ArgumentProblem(f"{param.name}={value!r} is above {param.maximum:g}", how)
    if param.max_length is not None and len(value) > param.max_length:
        raise ArgumentProblem(f"{param.name} is longer than {param.max_length} characters", how)


def check_arguments(spec: ToolSpec, given: dict[str, Any]) -> dict[str, Any]:
    """The full argument set (defaults filled in), or :class:`ArgumentProblem`."""
    names = {p.name for p in spec.params}
    usage = ", ".join(f"{p.name}{'' if p.required else '?'}" for p in spec.params) or "none"
    unknown = sorted(set(given) - names)
    if unknown:
        raise ArgumentProblem(
            f"{spec.name} has no parameter {', '.join(unknown)}",
            f"parameters of {spec.name}: {usage}",
        )
    out: dict[str, Any] = {}
    for param in spec.params:
        if param.name not in given:
            if param.required:
                raise ArgumentProblem(
                    f"{spec.name} needs {param.name}", f"parameters of {spec.name}: {usage}"
                )
            out[param.name] = param.default
            continue
        value = given[param.name]
        if value is not None or param.required:
            _check_value(param, value)
        out[param.name] = value
    return out
