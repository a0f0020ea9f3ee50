"""Display glue: which renderer serves which type, the welcome text, pending results."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from typing import Any

from ...cleantext import clean_text
from ...exceptions import (
    BridgeStopped,
    CapabilityError,
    GameDisconnected,
    McbewsError,
    NotConnected,
    RequestTimeout,
)
from ...gateway import CommandResult, GameConnection
from ...optional import needs
from ...toolkit import Answer, ObjectiveScores, RegionScan
from ..handle import Minecraft, Recording, World, recording_fields
from ..runtime import Pending
from ..show import (
    PREVIEW_TYPE,
    REGION_TYPE,
    WRITE_TYPE,
    CallResult,
    GameText,
    PlayerSnapshot,
    Status,
    ansi,
    card_html,
    card_text,
    command_html,
    command_text,
    frame_html,
    frame_text,
    game_text_html,
    game_text_text,
    plain_markup,
    preview_html,
    preview_text,
    region_html,
    region_text,
    result_html,
    result_text,
    status_fields,
    write_html,
    write_text,
)

__all__ = [
    "BY_NAME",
    "RENDERERS",
    "display_pending",
    "error_text",
    "show_error",
    "show_welcome",
    "status_of",
]

TIPS = [
    "Cheats on, and you are an operator (the /connect command needs both; in Minecraft "
    "Education the world's host).",
    "The mcbews addon applied to the world: mcbews-repl addon export writes the stable pack, "
    "which needs no experiments (Bedrock 1.21.130+, Minecraft Education 1.21.132+).",
    "Windows: current Bedrock (the launcher's GDK build, 1.21.120 on) needs nothing more. "
    "The older Store (UWP) build and Minecraft Education from the Store need a loopback "
    "exemption once, in an admin shell: CheckNetIsolation LoopbackExempt -a "
    '-n="Microsoft.MinecraftUWP_8wekyb3d8bbwe" (Education: '
    '"Microsoft.MinecraftEducationEdition_8wekyb3d8bbwe").',
]


def _field_words(value: object) -> object:
    """A command's body field as words: a position as "x, y, z", a list as "a, b", other
    objects as "key: value" pairs; never a Python repr."""
    if isinstance(value, dict):
        if set(value) == {"x", "y", "z"}:
            return ", ".join(str(value[k]) for k in "xyz")
        return ", ".join(f"{k}: {_field_words(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(_field_words(v)) for v in value)
    return value


def _command_parts(r: CommandResult) -> tuple[str, bool, int, str, dict[str, Any]]:
    extra = {k: _field_words(v) for k, v in r.body.items()
             if k not in {"statusCode", "statusMessage"}}  # fmt: skip
    extra["time"] = f"{r.elapsed_seconds * 1000:.1f} ms"
    return r.command, r.ok, r.status_code, r.status_message, extra


def _pretty(fn: Callable[[Any], str]) -> Callable[[Any, Any, bool], None]:
    def printer(obj: Any, p: Any, cycle: bool) -> None:
        p.text(fn(obj))

    return printer


def status_of(mc: Minecraft) -> Status:
    return mc.status()


def _status_html(s: Status) -> str:
    return card_html("mcbews bridge", s.headline, status_fields(s))


def _status_text(s: Status) -> str:
    return card_text("mcbews bridge", s.headline, status_fields(s))


def _player_html(p: PlayerSnapshot) -> str:
    return card_html(p.name, p.subtitle(), p.card_fields())


def _player_text(p: PlayerSnapshot) -> str:
    return card_text(p.name, p.subtitle(), p.card_fields())


# The evidence every toolkit answer carries; the card shows it after the answer's own fields.
_EVIDENCE = ("command", "known", "reason", "status_code", "message")


def _answer_card(answer: Any) -> tuple[str, str, list[tuple[str, object]]]:
    """A toolkit answer (ItemCount, ScoreList ...) as a card: what it says, then the evidence."""
    rows: list[tuple[str, object]] = []
    if dataclasses.is_dataclass(answer):
        for f in dataclasses.fields(answer):
            value = getattr(answer, f.name)
            if f.name in _EVIDENCE or (isinstance(value, tuple) and value and
                                       dataclasses.is_dataclass(value[0])):  # fmt: skip
                continue  # nested rows: the headline and to_dataframe() show them
            rows.append((f.name.replace("_", " "), "—" if value is None else value))
    command = getattr(answer, "command", None)
    if command:
        rows += [("command", f"/{command}"), ("game said", getattr(answer, "message", ""))]
    verdict = "known" if answer.known else f"unknown: {getattr(answer, 'reason', None)}"
    return answer.describe(), f"{type(answer).__name__}, {verdict}", rows


def _answer_types() -> list[type]:
    """Every toolkit answer class: IPython's plain-text printer prefers a class's own
    dataclass ``__repr__`` to a printer registered for its base, so each is registered."""
    found: list[type] = [ObjectiveScores, RegionScan]
    pending: list[type] = [Answer]
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending += kind.__subclasses__()
    return found


def _no_html(value: Any) -> None:
    """No HTML form: the notebook shows the plain text (IPython leaves out a None)."""


def _answer_html(answer: Any) -> str:
    return card_html(*_answer_card(answer))


def _answer_text(answer: Any) -> str:
    return card_text(*_answer_card(answer))


RENDERERS: list[tuple[type, Callable[[Any], str | None], Callable[[Any, Any, bool], None]]] = [
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
    # A world's handle: its own status card in a notebook, the line its repr says elsewhere.
    (World, lambda world: _status_html(world.status()), _pretty(repr)),
    (PlayerSnapshot, _player_html, _pretty(_player_text)),
    (
        Recording,
        lambda r: card_html(*recording_fields(r)),
        _pretty(lambda r: card_text(*recording_fields(r))),
    ),
    (CallResult, result_html, _pretty(result_text)),
    (GameText, game_text_html, _pretty(game_text_text)),
    # The gateway's own repr names the game's player as the game sent it.
    (GameConnection, _no_html, _pretty(lambda c: clean_text(repr(c)))),
    *((kind, _answer_html, _pretty(_answer_text)) for kind in _answer_types()),
]


def _report_html(report: Any) -> str:
    from ...doctor import report_html

    return report_html(report)


def _report_text(report: Any) -> str:
    from ...doctor import report_text

    return report_text(report)


# Renderers of types registered by name: their modules (numpy, matplotlib, pandas, the
# doctor) load only when such a value is shown. A DataFrame shows through its view when it
# has one (show/_views.py) and exactly as pandas shows it otherwise; pandas 3 names its
# module "pandas".
BY_NAME: list[tuple[tuple[str, str], Callable[[Any], str], Callable[[Any, Any, bool], None]]] = [
    (REGION_TYPE, region_html, _pretty(region_text)),
    (WRITE_TYPE, write_html, _pretty(write_text)),
    (PREVIEW_TYPE, preview_html, _pretty(preview_text)),
    # The doctor loads when first run (handle/_diagnose.py), so its report does too.
    (("mcbews_repl.doctor.report", "DoctorReport"), _report_html, _pretty(_report_text)),
    *(
        ((module, "DataFrame"), frame_html, _pretty(frame_text))
        for module in ("pandas", "pandas.core.frame")
    ),
]


def display_pending(pending: Pending[Any]) -> None:
    """``mc.players()`` without ``await`` at the end of a cell: wait and show the result."""
    with needs():
        from IPython import get_ipython
        from IPython.display import display

    try:
        value = pending.result()
    except McbewsError as exc:
        # A display formatter's own failures become full tracebacks: show ours short here.
        show_error(get_ipython(), exc)
        return
    if value is not None:
        display(value)  # type: ignore[no-untyped-call]


def _hint(exc: BaseException) -> str:
    """What to do next, for the errors where the message alone does not say."""
    if isinstance(exc, BridgeStopped):
        return "Start it again with %mc serve."
    if isinstance(exc, NotConnected):
        return "Type the /connect line in Minecraft (%mc connect shows it), or run %mc sim."
    if isinstance(exc, GameDisconnected):
        return "The game left: type the /connect line again (or %mc sim), then retry."
    if isinstance(exc, RequestTimeout):
        return "See %mc events for what arrived; raise the timeout with timeout=..."
    if isinstance(exc, CapabilityError) and exc.code in _CAPABILITY_HINTS:
        return _CAPABILITY_HINTS[exc.code]
    return ""


_CAPABILITY_HINTS = {
    "UNSUPPORTED_CAPABILITY": "%mc caps lists what this world's addon offers.",
    "INVALID_REQUEST": "%mc caps lists each capability's parameters.",
}


def error_text(exc: BaseException) -> str:
    """One short red paragraph for our own errors: what happened, then what to do next."""
    hint = _hint(exc)
    # The message may quote the game (a player's name): cleaned like every rendering.
    body = f"[bold red]{type(exc).__name__}:[/] [red]{plain_markup(exc)}[/]"
    # No hard wrapping: the notebook or terminal wraps the message to its own width.
    return ansi(body + (f"\n[dim]{plain_markup(hint)}[/]" if hint else ""), wrap=False)


def show_error(shell: Any, exc: BaseException) -> None:
    """Show ``exc`` the way IPython shows an error, as one short message without traceback.

    ``_showtraceback`` is where IPython sends what it displays: a kernel turns it into an
    ``error`` output (red in JupyterLab and the classic notebook), a terminal prints it.
    """
    stb = [error_text(exc)]
    if shell is None:
        print(stb[0], file=sys.stderr)
        return
    shell._showtraceback(type(exc), exc, stb)


def show_welcome(mc: Minecraft) -> None:
    """How to connect: the /connect line, the tips, and the no-Minecraft way."""
    if "ipykernel" in sys.modules:
        with needs():
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
