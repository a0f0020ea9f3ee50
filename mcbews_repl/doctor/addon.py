"""Check 4, the addon answers: through whichever transport the connection chose, and why not.

Answers travel two ways (docs/protocol.md): as custom commands' results (pull; both packs)
and as the bridge player's chat (chat; the beta pack). Each rests on one thing no public
capture shows, and this check looks at both on the real game:

- pull: ``mcbews:pull <id> 1`` for an id nothing is kept under. The addon answers
  ``MCBEWS|NONE|...``; if that comes back as the command's ``statusMessage``, the game
  returns a custom command's message over the WebSocket. An unknown command means no mcbews
  pack runs; an empty message means the game does not return it; a failure, a failing script.
- chat, when the answer does not come and the bridge player is in the world (``testfor``):
  ``execute as MCBEWS_BRIDGE run tell @s <word>``. If that whisper arrives, the game reports
  the bridge player's chat and the addon itself did not answer; if not, the game keeps it
  from WebSocket subscribers.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Literal

from ..exceptions import CapabilityError, CommandFailed, RequestTimeout
from ..gateway import CommandResult, GameConnection, describe_transport
from ..sansio import NONE_REPLY, PULL_COMMAND
from ..toolkit import languages_writing
from ..vocabulary import Capability
from .report import Check

__all__ = ["AddonCheck", "ChatAfter", "PullProbe"]

NAME = "The addon answers"
_COMMAND_NOT_FOUND = -2147483647  # docs/protocol.md, status codes: command not found
ChatAfter = Callable[
    [str, Callable[[], Awaitable[CommandResult]], str | None],
    Awaitable[tuple[CommandResult, float | None]],
]


@dataclass(frozen=True)
class PullProbe:
    """What ``mcbews:pull`` showed: ``confirmed``, ``unknown``, ``empty`` or ``failed``."""

    verdict: Literal["confirmed", "unknown", "empty", "failed"]
    said: str

    @classmethod
    def of(cls, result: CommandResult) -> PullProbe:
        """What the pull command's answer says about the pull transport: confirmed
        (its message comes back), empty, unknown, or failed.
        """
        shown = f"{result.status_code}: {result.status_message!r}"
        if result.ok and result.status_message.startswith(f"{NONE_REPLY}|"):
            said = (
                f"A custom command's message came back as commandResponse.statusMessage "
                f"({PULL_COMMAND} answered {result.status_message!r}), as the pull transport "
                "assumes"
            )
            return cls("confirmed", said)
        # the game's "Unknown command" string in any of its languages
        unknown = bool(languages_writing("commands.generic.unknown", result.status_message))
        if result.status_code == _COMMAND_NOT_FOUND or unknown:
            return cls("unknown", f"{PULL_COMMAND} is an unknown command here ({shown})")
        if result.ok:
            said = (
                f"{PULL_COMMAND} ran (status {result.status_code}) but its message did not "
                f"come back as statusMessage ({result.status_message!r})"
            )
            return cls("empty", said)
        return cls("failed", f"{PULL_COMMAND} failed ({shown})")


class AddonCheck:
    """Runs check 4 on one game; ``chat_after`` waits for a chat line holding a word."""

    def __init__(
        self,
        game: GameConnection,
        chat_after: ChatAfter,
        *,
        command_wait: float,
        call_wait: float,
        capture: Callable[[], str],
    ) -> None:
        self.game = game
        self.chat_after = chat_after
        self.command_wait = command_wait
        self.call_wait = call_wait
        self.capture = capture

    async def run(self) -> Check:
        """Check 4: whether the pack answers (the pull probe, then a capability call), and
        then which of the ways answers can travel work on this world, each tried alone."""
        check = await self._answers()
        paths = await self.game.try_transports(self.call_wait)
        working = [name for name, verdict in paths.items() if verdict == "answers"]
        said = "; ".join(f"{name}: {verdict}" for name, verdict in paths.items())
        names = ", ".join(working) if working else "none"
        observed = (
            f"{check.observed.rstrip('.')}. Answer paths on this world: {said} (working: {names})"
        )
        next_step = check.next_step
        if check.verdict != "ok" and working:
            first = working[0]
            next_step = (
                f"answers can travel by {names} here: serve(transport='auto') (or "
                f"'{first}') uses it. {next_step}"
            ).strip()
        data = {**check.data, "paths": paths, "working_paths": working}
        return replace(check, observed=observed, next_step=next_step, data=data)

    async def _answers(self) -> Check:
        """Whether the pack answers, first over the pull transport, then with a capability
        call on the connection's transport; the verdict and what to do."""
        nobody = f"doctor{secrets.token_hex(4)}"  # nothing is kept under this id
        pull = PullProbe.of(await self._command(f"{PULL_COMMAND} {nobody} 1"))
        start = time.monotonic()
        try:
            result = await self.game.call(Capability.LIST_CAPABILITIES, timeout=self.call_wait)
        except CapabilityError as exc:
            silent = f"list_capabilities failed: {exc.code}: {exc.message}"
            if exc.code in ("UNSUPPORTED_CAPABILITY", "INVALID_REQUEST"):
                return Check(4, NAME, "failed", silent, _OLD_ADDON, {"pull": pull.verdict})
            return await self._why_not(pull, silent)
        except CommandFailed as exc:
            silent = f"list_capabilities failed: the game refused {exc.command}: {exc.message}"
            return await self._why_not(pull, silent)
        except RequestTimeout:
            return await self._why_not(pull, self._silent())
        millis = (time.monotonic() - start) * 1000
        caps = [str(c.get("name")) for c in result.get("capabilities", []) if isinstance(c, dict)]
        version, pack = _identity(result)
        which = (
            f"the {pack} pack, version {version}"
            if version
            else ("a pack that does not say its version (older than this package?)")
        )
        observed = (
            f"list_capabilities answered in {millis:.0f} ms through "
            f"{describe_transport(self.game.transport)}: {which}; {len(caps)} capabilities "
            f"({', '.join(caps)}). {pull.said}"
        )
        data = {"capabilities": caps, "version": version, "transport": self.game.transport}
        return Check(4, NAME, "ok", observed, "", {**data, "pull": pull.verdict})

    def _silent(self) -> str:
        verdicts = self.game.transport_verdicts
        if self.game.transport == "none" and verdicts:
            said = "; ".join(f"{name}: {verdict}" for name, verdict in verdicts.items())
            return f"list_capabilities got no answer (the bridge's probes on connect: {said})"
        return f"list_capabilities got no answer within {self.call_wait:g} s"

    async def _command(self, line: str) -> CommandResult:
        return await self.game.command(line, timeout=self.command_wait)

    async def _why_not(self, pull: PullProbe, silent: str) -> Check:
        data = {"pull": pull.verdict, "transport": self.game.transport}
        if pull.verdict == "failed":
            observed = f"{silent}. {pull.said}: the pack runs, but its script failed on it"
            return Check(4, NAME, "failed", observed, _SCRIPT_ERROR, data)
        if pull.verdict == "confirmed" and self.game.transport == "pull":
            observed = f"{silent}. {pull.said}, so answers can travel: the addon did not answer"
            return Check(4, NAME, "failed", observed, _SCRIPT_ERROR, data)
        bridge = self.game.proto.bridge_player
        present = await self._command(f"testfor {bridge}")
        if present.ok:
            chat = await self._chat_route(bridge)
            return _combined(silent, pull, chat, self.capture(), data)
        if pull.verdict == "empty":
            observed = f"{silent}. {pull.said}: {_NO_MESSAGES}"
            return Check(4, NAME, "failed", observed, self._share(_NO_MESSAGES_NEXT), data)
        observed = f"{silent}. {pull.said}, and the beta pack's player {bridge} is not in the world"
        return Check(4, NAME, "failed", observed, _NO_PACK, data)

    async def _chat_route(self, bridge: str) -> tuple[bool | None, str]:
        """Whether the bridge player's whisper reaches this connection (None: unknown)."""
        word = f"mcbews-doctor-{secrets.token_hex(3)}"
        whisper = f"execute as {bridge} run tell @s {word}"
        ran, millis = await self.chat_after(word, lambda: self._command(whisper), bridge)
        if millis is not None:
            return True, f"a whisper made by {bridge} reached this connection in {millis:.0f} ms"
        if not ran.ok:
            return None, f"a whisper by {bridge} could not be made ({ran.status_message})"
        return False, f"a whisper made by {bridge} never arrived"

    def _share(self, what: str) -> str:
        return f"{what}; please share {self.capture()} in a bug report: it shows exactly this"


def _combined(
    silent: str, pull: PullProbe, chat: tuple[bool | None, str], capture: str, data: dict[str, str]
) -> Check:
    """The bridge player is in the world: what its whisper showed decides."""
    reaches, said = chat
    if reaches:
        observed = f"{silent}. {pull.said}; {said}, so answers can travel: the addon did not answer"
        return Check(4, NAME, "failed", observed, _SCRIPT_ERROR, data)
    observed = (
        f"{silent}. {pull.said}. The beta pack runs (its bridge player is in the world) but "
        f"its chat does not reach the WebSocket: {said}. This game does not report the bridge "
        "player's `tell @s` to WebSocket subscribers, the step of the chat transport no "
        "public capture confirms"
    )
    advice = f"please share {capture} in a bug report: it shows exactly this"
    if pull.verdict != "confirmed":
        advice = f"the stable pack answers without chat (mcbews-repl addon export); {advice}"
    return Check(4, NAME, "failed" if reaches is False else "unsure", observed, advice, data)


def _identity(result: dict[str, object]) -> tuple[str | None, str]:
    """The addon's version and pack, as list_capabilities reports them (newer packs do)."""
    addon = result.get("addon")
    if not isinstance(addon, dict) or not addon.get("version"):
        return None, "?"
    return str(addon["version"]), str(addon.get("pack") or "?")


_OLD_ADDON = (
    "an older or another addon: export this package's pack (mcbews-repl addon export) and import it"
)
_NO_PACK = (
    "no mcbews pack runs in this world. Apply the stable pack (mcbews-repl addon export, "
    "open mcbews_bridge.mcaddon, add the behavior pack to the world; it needs no "
    "experiments). If you applied the beta pack, turn on Experiments > Beta APIs: without "
    "them the game does not load it at all. Then reopen the world (or /reload) and type "
    "/connect again"
)
_NO_MESSAGES = (
    "this game does not return a custom command's message over the WebSocket, which the "
    "pull transport rests on (assumed: no public capture shows it)"
)
_NO_MESSAGES_NEXT = (
    "the beta pack with Beta APIs on can answer by chat instead (mcbews-repl addon export --beta)"
)
_SCRIPT_ERROR = (
    "a script error in the addon? Turn on the content log (Settings > Creator > Enable "
    "Content Log GUI) and look for mcbews errors; if the pack is older than this package, "
    "export it again (mcbews-repl addon export) and re-import it"
)
