"""Chat commands: say, tell/msg/w, me, tellraw, title, titleraw, scriptevent,
getlocalplayername, closewebsocket, and a player's plain chat (:func:`player_chat`).

Every line a player would see is also reported as a :class:`ChatLine` (the WebSocket
PlayerMessage event); lines run over the WebSocket come from the localised "External".
Like the game, ``say``, ``tell`` and ``me`` expand target selectors inside their message,
which is why the bridge escapes ``@`` in its payloads. Wording, body fields and event
shapes come from the evidence corpus (``facts``): a say event reads ``[Steve] hello``, a
tellraw event is a ``tell`` carrying the raw JSON and a line break, ``tell`` answers
``You whisper to Alex: hi``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .cmdtypes import (
    FAILED_TO_PARSE,
    CommandError,
    CommandOutcome,
    Context,
    Effects,
    Handler,
    show,
)
from .facts import EXTERNAL_SENDER, SCRIPTEVENT_MESSAGE_MAX_CHARS, SCRIPTEVENT_SENT, text
from .model import ChatLine, Entity, WorldState
from .parse import Reader

__all__ = ["EXTERNAL_SENDER", "HANDLERS", "player_chat"]

_SELECTOR_IN_TEXT = re.compile(r"@[aprse](?:\[[^\]]*\])?")


def _sender(ctx: Context) -> str:
    return ctx.origin.name


def _expand(ctx: Context, message: str) -> str:
    """Replace selectors in a message with the names they match, as say/tell do."""

    def names(match: re.Match[str]) -> str:
        reader = Reader(match.group(0))
        try:
            found = ctx.targets(reader.target())
        except CommandError:
            return match.group(0)
        return ", ".join(e.name for e in found)

    return _SELECTOR_IN_TEXT.sub(names, message)


def _everyone(world: WorldState) -> list[Entity]:
    return list(world.players.values())


def player_chat(world: WorldState, effects: Effects, player: str, message: str) -> None:
    """``player`` types ``message`` in chat: everyone sees ``<player> message``, and the
    WebSocket gets a PlayerMessage of type ``chat`` with an empty receiver."""
    if player not in world.players:
        raise ValueError(f"no player named {player!r} in the world: {', '.join(world.players)}")
    show(_everyone(world), text("chat.type.text", player, message))
    effects.chat(ChatLine(player, message, "chat"))


def say(ctx: Context, r: Reader) -> CommandOutcome:
    """``/say <message>``: everyone sees ``[sender] message``; a PlayerMessage of type say.

    Raises:
        CommandSyntaxError: the message is empty.
    """
    message = _expand(ctx, r.rest())
    if not message:
        raise r.fail("")
    announced = text("chat.type.announcement", _sender(ctx), message)
    show(_everyone(ctx.world), announced)
    ctx.effects.chat(ChatLine(_sender(ctx), announced, "say"))
    return CommandOutcome(status_message=None, fields={"message": message})


def me(ctx: Context, r: Reader) -> CommandOutcome:
    """``/me <action>``: everyone sees ``* sender action``; a PlayerMessage of type me."""
    message = _expand(ctx, r.rest())
    sender = _sender(ctx)
    show(_everyone(ctx.world), text("chat.type.emote", sender, message))
    ctx.effects.chat(ChatLine(sender, message, "me"))
    return CommandOutcome(status_message=None)


def tell(ctx: Context, r: Reader) -> CommandOutcome:
    """``/tell <target> <message>`` (``/w``, ``/msg``): a whisper to each target.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no player matched the target (a negative status code).
    """
    targets = ctx.targets(r.target(), players=True)
    message = _expand(ctx, r.rest())
    if not message:
        raise r.fail("")
    sender = _sender(ctx)
    for target in targets:
        show([target], text("commands.message.display.incoming", sender, message))
        ctx.effects.chat(ChatLine(sender, message, "tell", receiver=target.name))
    names = [t.name for t in targets]
    outgoing = [text("commands.message.display.outgoing", name, message) for name in names]
    return CommandOutcome(
        status_message="\n".join(outgoing), fields={"message": message, "recipient": names}
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


def tellraw(ctx: Context, r: Reader) -> CommandOutcome:
    """``/tellraw <target> <raw json>``: show the text to each target.

    Raises:
        CommandSyntaxError: the arguments do not parse (the game's "Syntax error" answer).
        CommandError: no player matched the target, or the JSON is not raw text (a negative status
            code).
    """
    targets = ctx.targets(r.target(), players=True)
    raw = r.rest()
    try:
        value = json.loads(raw)
    except ValueError:
        raise r.fail(raw[:1] or "") from None
    shown = _rawtext(ctx, value)
    for target in targets:
        show([target], shown)
        # The game reports tellraw as a tell carrying the raw JSON and a line break.
        ctx.effects.chat(ChatLine(_sender(ctx), raw + "\n", "tell", receiver=target.name))
    return CommandOutcome(status_message=None, fields={"recipient": [t.name for t in targets]})


def scriptevent(ctx: Context, r: Reader) -> CommandOutcome:
    """``/scriptevent <namespace:id> [message]``: fire the event for the addon's
    scripts.

    Raises:
        CommandSyntaxError: the arguments do not parse.
        CommandError: the id has no namespace (or ``minecraft:``), or the message is too
            long.
    """
    event_id = r.word()
    namespace, sep, name = event_id.partition(":")
    if not sep or not namespace or not name or namespace == "minecraft":
        raise CommandError(text("commands.scriptevent.invalidNamespace"))
    message = r.rest()
    if len(message) > SCRIPTEVENT_MESSAGE_MAX_CHARS:
        raise CommandError(
            text("commands.scriptevent.messageSizeExceed", SCRIPTEVENT_MESSAGE_MAX_CHARS)
        )
    ctx.effects.script_event(event_id, message, ctx.origin)
    # Captured in English on a zh_CN client: not a language-file string (facts.json).
    return CommandOutcome(status_message=SCRIPTEVENT_SENT % event_id)


# /title's display modes; the ones that take text, and the ones that take none.
_TITLE_TEXT_MODES = ("title", "subtitle", "actionbar")
_TITLE_BARE_MODES = ("clear", "reset")


def _title_targets(ctx: Context, r: Reader) -> tuple[list[Entity], str | None]:
    """The targets and the mode of ``/title`` and ``/titleraw``; None for a mode without
    text (clear, reset) or ``times``, which show nothing."""
    targets = ctx.targets(r.target(), players=True)
    mode = r.word().lower()
    if mode in _TITLE_BARE_MODES:
        r.end()
        return targets, None
    if mode == "times":
        for _ in range(3):
            r.integer()
        r.end()
        return targets, None
    if mode not in _TITLE_TEXT_MODES:
        raise r.fail(mode)
    return targets, mode


def _report_title(ctx: Context, targets: list[Entity], message: str) -> None:
    """A PlayerMessage of type title for each target, as tell does (facts.json title_event,
    assumed: the type is a peer library's, no body is captured)."""
    for target in targets:
        ctx.effects.chat(ChatLine(_sender(ctx), message, "title", receiver=target.name))


def title(ctx: Context, r: Reader) -> CommandOutcome:
    """``/title <target> title|subtitle|actionbar <text>`` (and ``clear``, ``reset``,
    ``times <in> <stay> <out>``): show a title; each shown text is reported as a
    PlayerMessage of type title.

    Raises:
        CommandSyntaxError: the arguments do not parse.
        CommandError: no player matched the target.
    """
    targets, mode = _title_targets(ctx, r)
    if mode is not None:
        message = _expand(ctx, r.rest())
        if not message:
            raise r.fail("")
        show(targets, message)
        _report_title(ctx, targets, message)
    return CommandOutcome(status_message=text("commands.title.success"))


def titleraw(ctx: Context, r: Reader) -> CommandOutcome:
    """``/titleraw <target> title|subtitle|actionbar <raw json>``: as ``/title`` with raw
    text; the event carries the raw JSON, as tellraw's does.

    Raises:
        CommandSyntaxError: the arguments do not parse.
        CommandError: no player matched the target, or the JSON is not raw text.
    """
    targets, mode = _title_targets(ctx, r)
    if mode is not None:
        raw = r.rest()
        try:
            value = json.loads(raw)
        except ValueError:
            raise r.fail(raw[:1] or "") from None
        shown = _rawtext(ctx, value)
        show(targets, shown)
        _report_title(ctx, targets, raw)
    return CommandOutcome(status_message=text("commands.titleraw.success"))


def getlocalplayername(ctx: Context, r: Reader) -> CommandOutcome:
    """``/getlocalplayername``: the name of the player who typed /connect.

    Raises:
        CommandSyntaxError: anything follows the command.
    """
    r.end()
    name = ctx.world.local_player
    return CommandOutcome(status_message=name, fields={"localplayername": name})


def closewebsocket(ctx: Context, r: Reader) -> CommandOutcome:
    """``/closewebsocket``: the game closes the WebSocket connection.

    Raises:
        CommandSyntaxError: anything follows the command.
    """
    r.end()
    ctx.effects.close_websocket()
    return CommandOutcome(status_message="Closing websocket connection")


HANDLERS: dict[str, Handler] = {
    "say": say,
    "me": me,
    "tell": tell,
    "msg": tell,
    "w": tell,
    "tellraw": tellraw,
    "title": title,
    "titleraw": titleraw,
    "scriptevent": scriptevent,
    "getlocalplayername": getlocalplayername,
    "closewebsocket": closewebsocket,
}
