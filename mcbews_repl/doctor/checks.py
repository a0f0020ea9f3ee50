"""The doctor's checks, in their fixed order, against one connected game.

1. The connection: address, encrypted or not (and how), the event header version seen.
2. Commands answer: ``list`` a few times, the players online, round trips p50 / p95.
3. Events flow: a ``tellraw @s`` whose echo must come back as a PlayerMessage.
4. The addon answers: ``list_capabilities`` through the transport the connection chose,
   and what each transport's own assumption shows on this game (addon.py): a missing pack,
   Beta APIs off, a failing script, a game that does not return a custom command's
   message, and one that keeps the bridge player's chat from WebSocket subscribers.
5. Text display: a short ``send_text`` to the host (there is no acknowledgement to wait for).
6. Optional (``probe_limits``): the largest command line and frame the game accepts.

Each check reads only what the gateway offers (commands, calls, the event log), so the
same sequence runs in a notebook, at the IPython prompt and from ``mcbews-repl doctor``.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ..exceptions import (
    GameDisconnected,
    McbewsError,
    NotConnected,
    RequestTimeout,
)
from ..gateway import Bridge, CommandResult, GameConnection, LogEntry
from ..toolkit import languages_writing
from ..vocabulary import EventKind
from .addon import AddonCheck
from .probe import probe_limits
from .report import Check

__all__ = ["CHECK_NAMES", "ENCRYPTION_REQUIRED", "Doctor", "Waits"]

ENCRYPTION_REQUIRED = -2147418107  # docs/protocol.md, status codes: encryption required
_TEXT = "mcbews doctor: if you can read this, text from the notebook reaches you."
_ROUND_TRIPS = 5  # `list` commands timed for check 2


@dataclass(frozen=True)
class Waits:
    """How long each check waits (seconds): short, since a working game answers in ms."""

    command: float = 5.0
    event: float = 3.0
    call: float = 5.0
    probe: float = 2.0


def _nonce() -> str:
    return f"mcbews-doctor-{secrets.token_hex(3)}"


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


class Doctor:
    """Runs the checks on ``connection`` (one of ``bridge``'s) and collects them."""

    def __init__(
        self,
        bridge: Bridge,
        connection: GameConnection,
        *,
        probe: bool = False,
        waits: Waits | None = None,
        capture: Callable[[], str] = lambda: "this doctor's capture",
    ) -> None:
        self.bridge = bridge
        self.game = connection
        self.probe = probe
        self.waits = waits or Waits()
        self.capture = capture  # names the capture file in advice (known once saved)

    async def run(self) -> list[Check]:
        """Every check in order; a game that leaves midway fails the checks still to come."""
        done: list[Check] = []
        try:
            done.append(await self.commands())
            if done[0].verdict == "failed":
                skipped = "skipped: commands do not work (check 2)"
                done += [Check(n, name, "unsure", skipped) for n, name in _LATER]
            else:
                done += [await self.events(), await self.addon()]
                done.append(await self.text(done[-1].verdict == "ok"))
            done.append(await self.limits() if self.probe else self._limits_not_run())
        except (GameDisconnected, NotConnected) as exc:
            seen = {c.number for c in done}
            gone = f"not run: the game closed the connection ({exc})"
            again = "type /connect again, then run the doctor again"
            done += [
                Check(n, name, "failed", gone, again)
                for n, name in CHECK_NAMES[1:]
                if n not in seen
            ]
        return [self.connection(), *done]

    # --- waiting for chat ------------------------------------------------------------------

    async def _chat_after(
        self, nonce: str, send: Callable[[], Awaitable[CommandResult]], sender: str | None = None
    ) -> tuple[CommandResult, float | None]:
        """Run ``send`` and wait for a chat entry of this game holding ``nonce``: the command's
        result and the milliseconds until the chat came (None: it never did)."""
        arrived: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        start = time.monotonic()

        def listen(entry: LogEntry) -> None:
            data = entry.data
            mine = entry.kind == EventKind.CHAT and entry.connection == self.game.id
            said = mine and nonce in str(data.get("message"))
            if said and sender in (None, data.get("sender")) and not arrived.done():
                arrived.set_result((time.monotonic() - start) * 1000)

        remove = self.bridge.log.add_listener(listen)
        try:
            result = await send()
            if not result.ok:
                return result, None
            try:
                return result, await asyncio.wait_for(asyncio.shield(arrived), self.waits.event)
            except TimeoutError:
                return result, None
        finally:
            remove()

    # --- 1. the connection -----------------------------------------------------------------

    def connection(self) -> Check:
        """Check 1: who is connected, whether encrypted, and whether the game named its
        player; only reads what the handshake learnt, sends nothing."""
        game = self.game
        how = game.encryption
        if how is not None:
            secure = f"encrypted ({how.form}, AES-256-{how.mode})"
        elif self.bridge.settings.encrypt is False:
            secure = "not encrypted (this bridge does not encrypt: encrypt=False)"
        else:
            secure = "not encrypted (the game did not offer it)"
        version = game.protocol_version
        seen = f"event header version {version}" if version else "no event seen yet"
        who = f"local player {game.local_player}" if game.local_player else "local player unknown"
        observed = f"{game.peer}, {secure}, {seen}, {who}"
        data = {"peer": game.peer, "encrypted": game.encrypted, "event_version": version}
        if game.local_player is None:
            advice = "the game did not say who its player is (getlocalplayername): see check 2"
            return Check(1, "The connection", "unsure", observed, advice, data)
        return Check(1, "The connection", "ok", observed, "", data)

    # --- 2. commands -----------------------------------------------------------------------

    async def commands(self) -> Check:
        """Check 2: ``/list`` a few times; failed if it is refused or unanswered, else the
        round trip's p50 and p95 in milliseconds.

        Raises:
            GameDisconnected: the game went away during the check (:meth:`run` turns it
                into failed checks).
            NotConnected: the connection was already gone.
        """
        name = "Commands answer"
        times: list[float] = []
        first: CommandResult | None = None
        try:
            for _ in range(_ROUND_TRIPS):
                result = await self.game.command("list", timeout=self.waits.command)
                first = first or result
                if not result.ok:
                    return self._command_failed(result)
                times.append(result.elapsed_seconds * 1000)
        except RequestTimeout:
            observed = f"/list got no answer within {self.waits.command:g} s"
            return Check(2, name, "failed", observed, _SILENT_GAME)
        assert first is not None
        online = first.status_message.replace("\n", " ")
        p50, p95 = _percentile(times, 0.5), _percentile(times, 0.95)
        language, said = game_language(first.status_message)
        observed = (
            f"{online}; round trip p50 {p50:.1f} ms, p95 {p95:.1f} ms ({len(times)} commands); "
            f"{said}"
        )
        data = {"p50_ms": p50, "p95_ms": p95, "language": language}
        return Check(2, name, "ok", observed, "", data)

    def _command_failed(self, result: CommandResult) -> Check:
        observed = f"/list answered {result.status_code}: {result.status_message}"
        if result.status_code == ENCRYPTION_REQUIRED:
            advice = (
                "this world requires encrypted WebSockets and this session is not encrypted: "
                "restart the bridge with encryption on (%mc serve --encrypt auto, the "
                "default; serve(encrypt='auto')), or turn off Settings > General > "
                "Require Encrypted Websockets in the game"
            )
        else:
            advice = "cheats must be on and the player who typed /connect must be an operator"
        data = {"status": result.status_code}
        return Check(2, "Commands answer", "failed", observed, advice, data)

    # --- 3. events -------------------------------------------------------------------------

    async def events(self) -> Check:
        """Check 3: ``/tellraw`` to the player and wait for its echo as a PlayerMessage.

        Raises:
            RequestTimeout: the game did not answer the ``/tellraw`` in time.
            GameDisconnected: the game went away during the check (:meth:`run` turns it
                into failed checks).
            NotConnected: the connection was already gone.
        """
        name, nonce = "Events flow", _nonce()
        raw = f'{{"rawtext":[{{"text":"mcbews doctor: checking events ({nonce})"}}]}}'
        result, millis = await self._chat_after(
            nonce, lambda: self.game.command(f"tellraw @s {raw}", timeout=self.waits.command)
        )
        if not result.ok:
            observed = f"/tellraw answered {result.status_code}: {result.status_message}"
            return Check(3, name, "unsure", observed, "events could not be tested")
        if millis is None:
            observed = (
                f"/tellraw @s ran (status {result.status_code}) but no PlayerMessage came "
                f"back within {self.waits.event:g} s"
            )
            advice = "the subscription to PlayerMessage may have failed: type /connect again"
            return Check(3, name, "failed", observed, advice)
        observed = f"the /tellraw echo came back as a PlayerMessage in {millis:.0f} ms"
        return Check(3, name, "ok", observed, "", {"ms": millis})

    # --- 4. the addon (addon.py) -------------------------------------------------------

    async def addon(self) -> Check:
        """Check 4: whether the behaviour pack is there and answers (doctor/addon.py).

        Raises:
            GameDisconnected: the game went away during the check (:meth:`run` turns it
                into failed checks).
            NotConnected: the connection was already gone.
        """
        check = AddonCheck(
            self.game,
            self._chat_after,
            command_wait=self.waits.command,
            call_wait=self.waits.call,
            capture=self.capture,
        )
        return await check.run()

    # --- 5. text ---------------------------------------------------------------------------

    async def text(self, addon_answers: bool) -> Check:
        """Check 5: send a line to the player's addon panel; "unsure" at best, since the
        protocol has no acknowledgement (``addon_answers``: check 4 passed)."""
        name, player = "Text display", self.game.local_player
        if not player:
            return Check(5, name, "unsure", "no local player to send to", "type /connect again")
        try:
            frames = await self.game.send_text(player, _TEXT)
        except McbewsError as exc:
            return Check(5, name, "failed", f"send_text failed: {exc}", "see check 2")
        observed = f"sent to {player} in {frames} frame(s); the protocol has no acknowledgement"
        advice = f'sent; look at the game: {player} should see "{_TEXT}"'
        if not addon_answers:
            advice += " (the addon did not answer check 4, so it will likely not show)"
        return Check(5, name, "unsure", observed, advice, {"frames": frames})

    # --- 6. limits -------------------------------------------------------------------------

    def _limits_not_run(self) -> Check:
        return Check(6, "Command limits", "unsure", "not probed (optional)", _PROBE_ADVICE)

    async def limits(self) -> Check:
        """Check 6 (with ``probe``): the largest command line and frame the game accepts;
        a game that closes the connection on a probe is reported in the check, not raised."""
        found = await probe_limits(self.game, self.waits.probe)
        return Check(6, "Command limits", found.verdict, found.observed, found.advice, found.data)


_SILENT_GAME = (
    "is the world paused (a menu open)? Close it; then check that cheats are on and that "
    "the player who typed /connect is an operator"
)
_PROBE_ADVICE = (
    "--probe-limits (probe_limits=True) finds the largest command line and frame the game "
    "accepts; the game may close the connection"
)
CHECK_NAMES = [
    (1, "The connection"),
    (2, "Commands answer"),
    (3, "Events flow"),
    (4, "The addon answers"),
    (5, "Text display"),
    (6, "Command limits"),
]
_LATER = CHECK_NAMES[2:5]


def game_language(list_answer: str) -> tuple[str, str]:
    """The game's language as its ``/list`` answer shows it (the language file's
    ``commands.players.list`` in each of the 29 languages), and how the doctor says it:
    ``("zh_CN", "the game writes in zh_CN")``; several languages when their files write it
    alike; ``"unknown"`` when no language's string is the answer."""
    codes = languages_writing("commands.players.list", list_answer, whole=False)
    if not codes:
        return "unknown", "the game's language is unknown (its /list answer is no language's)"
    if len(codes) == 1:
        return codes[0], f"the game writes in {codes[0]}"
    either = " or ".join(codes)
    return either, f"the game writes in {either} (their /list answers are alike)"
