"""Display glue: which renderer serves which type, the welcome text, pending results."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ..exceptions import CapabilityError, McbewsError, NotConnected, RequestTimeout
from ..gateway import CommandResult
from .handle import Minecraft, Status
from .render import ansi, card_html, card_text, command_html, command_text
from .runtime import Pending
from .tables import PlayerSnapshot

__all__ = ["RENDERERS", "display_pending", "error_text", "show_welcome", "status_of"]

TIPS = [
    "Cheats on, and you are an operator (the /connect command needs both).",
    "Experiments → Beta APIs on, and the mcbews addon applied to the world "
    "(export it with: mcbews-repl addon export).",
    "Windows (Store/UWP) Minecraft needs a loopback exemption once, in an admin shell: "
    'CheckNetIsolation LoopbackExempt -a -n="Microsoft.MinecraftUWP_8wekyb3d8bbwe"',
]


def _command_parts(r: CommandResult) -> tuple[str, bool, int, str, dict[str, Any]]:
    extra = {k: v for k, v in r.body.items() if k not in {"statusCode", "statusMessage"}}
    extra["time"] = f"{r.elapsed_seconds * 1000:.1f} ms"
    return r.command, r.ok, r.status_code, r.status_message, extra


def _pretty(fn: Callable[[Any], str]) -> Callable[[Any, Any, bool], None]:
    def printer(obj: Any, p: Any, cycle: bool) -> None:
        p.text(fn(obj))

    return printer


def status_of(mc: Minecraft) -> Status:
    return mc.status()


def _status_fields(s: Status) -> list[tuple[str, object]]:
    fields: list[tuple[str, object]] = [("listening", s.url), ("connect with", s.connect_command)]
    if not s.connections:
        fields.append(("games", "none yet (no Minecraft? run %mc sim)"))
    for c in s.connections:
        lock = " 🔒" if c["encrypted"] else ""
        fields.append(
            (
                f"game #{c['id']}",
                f"{c['player'] or '?'} from {c['peer']}{lock}, {c['pending']} pending",
            )
        )
    fields += s.limits
    fields += [(f"#{e.cursor} {e.kind}", e.summary) for e in s.recent]
    return fields


def _status_html(s: Status) -> str:
    return card_html("mcbews bridge", f"{len(s.connections)} game(s) connected", _status_fields(s))


def _status_text(s: Status) -> str:
    return card_text("mcbews bridge", f"{len(s.connections)} game(s) connected", _status_fields(s))


def _player_html(p: PlayerSnapshot) -> str:
    return card_html(p.name, str(p.data.get("id", "")), p.card_fields())


def _player_text(p: PlayerSnapshot) -> str:
    return card_text(p.name, str(p.data.get("id", "")), p.card_fields())


RENDERERS: list[tuple[type, Callable[[Any], str], Callable[[Any, Any, bool], None]]] = [
    (
        CommandResult,
        lambda r: command_html(*_command_parts(r)),
        _pretty(lambda r: command_text(*_command_parts(r))),
    ),
    (Status, _status_html, _pretty(_status_text)),
    (
        Minecraft,
        lambda mc: _status_html(mc.status()),
        _pretty(lambda mc: _status_text(mc.status())),
    ),
    (PlayerSnapshot, _player_html, _pretty(_player_text)),
]


def display_pending(pending: Pending[Any]) -> None:
    """``mc.players()`` without ``await`` at the end of a cell: wait and show the result."""
    from IPython.display import display

    value = pending.result()
    if value is not None:
        display(value)  # type: ignore[no-untyped-call]


def error_text(exc: BaseException) -> str:
    """One readable paragraph for our own errors, with what to do next."""
    hint = ""
    if isinstance(exc, NotConnected):
        hint = "Type the /connect line in Minecraft, or run %mc sim for a simulated world."
    elif isinstance(exc, RequestTimeout):
        hint = "See %mc events for what arrived; raise the timeout with timeout=..."
    elif isinstance(exc, CapabilityError):
        hint = "%mc caps lists what this world's addon offers."
    name = type(exc).__name__ if isinstance(exc, McbewsError) else "Error"
    body = f"[bold red]{name}:[/] {_escape(str(exc))}"
    return ansi(body + (f"\n[dim]{_escape(hint)}[/]" if hint else ""))


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def show_welcome(mc: Minecraft) -> None:
    """How to connect: the /connect line, the tips, and the no-Minecraft way."""
    if "ipykernel" in sys.modules:
        from IPython.display import HTML, display

        tips = "".join(f"<li>{t}</li>" for t in TIPS)
        display(
            HTML(  # type: ignore[no-untyped-call]
                "<div style='font-family:sans-serif'><b>mcbews bridge ready.</b> In Minecraft type:"
                f"<pre style='font-size:1.1em'>{mc.connect_command}</pre><ul>{tips}</ul>"
                "No Minecraft? Run <code>%mc sim</code> for a simulated world. "
                "Then try <code>await mc.players()</code> or <code>%mc?</code>.</div>"
            )
        )
        return
    print(f"mcbews bridge ready. In Minecraft type:\n\n    {mc.connect_command}\n")
    for tip in TIPS:
        print(f"  - {tip}")
    print("\nNo Minecraft? Run %mc sim for a simulated world. Then try await mc.players() or %mc?")
