"""Chat commands: say, tell/msg/w, me, tellraw, scriptevent, getlocalplayername, closewebsocket.

Every line a player would see is also reported as a :class:`ChatLine` (the WebSocket
PlayerMessage event); lines run over the WebSocket come from the localised "External".
Like the game, ``say``, ``tell`` and ``me`` expand target selectors inside their message,
which is why the bridge escapes ``@`` in its payloads.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..sansio.wire import SCRIPTEVENT_MESSAGE_MAX_CHARS
from .commands import FAILED_TO_PARSE, CommandError, CommandResult, Context, Handler
from .model import ChatLine, Entity
from .parse import Reader

__all__ = ["EXTERNAL_SENDER", "HANDLERS", "SCRIPTEVENT_MESSAGE_MAX_CHARS"]

EXTERNAL_SENDER = "External"  # the English game's name for WebSocket-run commands (origin name)
_SELECTOR_IN_TEXT = re.compile(r"@[aprse](?:\[[^\]]*\])?")


def _sender(ctx: Context) -> str:
    return ctx.origin.name


def _expand(ctx: Context, text: str) -> str:
    """Replace selectors in a message with the names they match, as say/tell do."""

    def names(match: re.Match[str]) -> str:
        reader = Reader(match.group(0))
        try:
            found = ctx.targets(reader.target())
        except CommandError:
            return match.group(0)
        return ", ".join(e.name for e in found)

    return _SELECTOR_IN_TEXT.sub(names, text)


def _everyone(ctx: Context) -> list[Entity]:
    return list(ctx.world.players.values())


def say(ctx: Context, r: Reader) -> CommandResult:
    message = _expand(ctx, r.rest())
    if not message:
        raise r.fail("")
    sender = _sender(ctx)
    ctx.show(_everyone(ctx), f"[{sender}] {message}")
    ctx.effects.chat(ChatLine(sender, message, "say"))
    return CommandResult(status_message=message, fields={"message": message})


def me(ctx: Context, r: Reader) -> CommandResult:
    message = _expand(ctx, r.rest())
    sender = _sender(ctx)
    ctx.show(_everyone(ctx), f"* {sender} {message}")
    ctx.effects.chat(ChatLine(sender, message, "me"))
    return CommandResult(status_message=message)


def tell(ctx: Context, r: Reader) -> CommandResult:
    targets = ctx.targets(r.target(), players=True)
    message = _expand(ctx, r.rest())
    if not message:
        raise r.fail("")
    sender = _sender(ctx)
    for target in targets:
        ctx.show([target], f"{sender} whispers to you: {message}")
        ctx.effects.chat(ChatLine(sender, message, "tell", receiver=target.name))
    names = [t.name for t in targets]
    return CommandResult(
        status_message=f"Message sent to {', '.join(names)}",
        fields={"message": message, "recipient": names},
    )


def _rawtext(ctx: Context, value: Any) -> str:
    """Render the subset of rawtext the simulator understands: text, selector, rawtext."""
    if not isinstance(value, dict) or not isinstance(value.get("rawtext"), list):
        raise CommandError("Syntax error: expected a rawtext object", FAILED_TO_PARSE)
    parts: list[str] = []
    for part in value["rawtext"]:
        if not isinstance(part, dict):
            raise CommandError("Syntax error: rawtext entries must be objects", FAILED_TO_PARSE)
        if "text" in part:
            parts.append(str(part["text"]))
        elif "selector" in part:
            parts.append(_expand(ctx, str(part["selector"])))
        elif "translate" in part:
            parts.append(str(part["translate"]))
        elif "rawtext" in part:
            parts.append(_rawtext(ctx, part))
    return "".join(parts)


def tellraw(ctx: Context, r: Reader) -> CommandResult:
    targets = ctx.targets(r.target(), players=True)
    raw = r.rest()
    try:
        value = json.loads(raw)
    except ValueError:
        raise r.fail(raw[:1] or "") from None
    text = _rawtext(ctx, value)
    for target in targets:
        ctx.show([target], text)
        # The host's client reports tellraw output as a tell carrying the raw JSON.
        ctx.effects.chat(ChatLine(_sender(ctx), raw, "tell", receiver=target.name))
    return CommandResult(fields={"recipient": [t.name for t in targets]})


def scriptevent(ctx: Context, r: Reader) -> CommandResult:
    event_id = r.word()
    namespace, sep, name = event_id.partition(":")
    if not sep or not namespace or not name or namespace == "minecraft":
        raise CommandError(f"Script event id '{event_id}' must be of the form namespace:name")
    message = r.rest()
    if len(message) > SCRIPTEVENT_MESSAGE_MAX_CHARS:
        raise CommandError(
            f"Script event message is longer than {SCRIPTEVENT_MESSAGE_MAX_CHARS} characters"
        )
    ctx.effects.script_event(event_id, message, ctx.origin)
    return CommandResult(status_message="Script event sent")


def getlocalplayername(ctx: Context, r: Reader) -> CommandResult:
    r.end()
    name = ctx.world.local_player
    return CommandResult(status_message=name, fields={"localplayername": name})


def closewebsocket(ctx: Context, r: Reader) -> CommandResult:
    r.end()
    ctx.effects.close_websocket()
    return CommandResult(status_message="Closing websocket connection")


HANDLERS: dict[str, Handler] = {
    "say": say,
    "me": me,
    "tell": tell,
    "msg": tell,
    "w": tell,
    "tellraw": tellraw,
    "scriptevent": scriptevent,
    "getlocalplayername": getlocalplayername,
    "closewebsocket": closewebsocket,
}
