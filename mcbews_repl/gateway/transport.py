"""Which way answers travel on one connection, found out when the game connects.

Three transports can carry the addon's answers and UI chat up (docs/protocol.md): the pull
transport (custom-command results; the stable pack and the beta pack), the chat transport
(the bridge player's ``tell @s``; the beta pack only) and the tags transport (page tags on
the connected player, read with ``tag @s list``; both packs). Pull and chat each rest on a
behaviour no public capture shows; tags rests only on captured steps, but is the slowest
(a round of 32 pages a tick). With ``transport="auto"`` pull is probed with
``list_capabilities`` first; when it does not answer, chat and tags side by side, and the
first of them in that order that answers is chosen. (Probing chat
after pull answered would only make the stable pack log that it ignored a chat request.) A
connection where none answers is probed again by its next call (a pack may have been applied
and ``/reload`` run since), and so is one whose chosen way stops answering: calls that time
out ``TRANSPORT_REPROBE_TIMEOUTS`` times in a row run the choice again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from ..exceptions import CapabilityError, CommandFailed, McbewsError, RequestTimeout
from ..limits import TRANSPORT_REPROBE_TIMEOUTS
from ..vocabulary import EventKind
from .settings import TransportMode

__all__ = [
    "NO_ANSWER_CODES",
    "ORDER",
    "Probe",
    "Transport",
    "TransportChoice",
    "TransportMode",
    "describe_transport",
]

_log = logging.getLogger("mcbews_repl.gateway")

Transport = Literal["pull", "chat", "tags"]
# The order of the probes: the fastest first, the one resting only on captured steps last.
ORDER: tuple[Transport, ...] = ("pull", "chat", "tags")
Probe = Callable[[], Awaitable[object]]

# How each transport carries answers, for the event log and the status panel.
_HOW = {
    "pull": "custom-command results (pull)",
    "chat": "the bridge player's chat (chat)",
    "tags": "tags on the connected player (tags)",
}


def describe_transport(transport: str | None) -> str:
    """A transport as a person reads it."""
    return _HOW.get(transport or "", "no transport: no addon answers")


@dataclass
class TransportChoice:
    """The transport of one connection, its probes' verdicts, and the wait for them."""

    mode: TransportMode
    probes: dict[Transport, Probe]
    record: Callable[..., object]
    chosen: Transport | None = None
    state: Literal["probing", "chosen", "none"] = "probing"
    verdicts: dict[str, str] = field(default_factory=dict)
    timeouts: int = 0  # calls in a row that got nothing readable on the chosen transport
    reprobes: int = 0
    _decided: asyncio.Event = field(default_factory=asyncio.Event)
    _tasks: set[asyncio.Task[object]] = field(default_factory=set)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def choose(self) -> Transport | None:
        """Probe (or take the forced mode) and decide; returns the transport or None."""
        async with self._lock:
            if self.mode != "auto":
                self.verdicts = {self.mode: "chosen by the transport setting"}
                return self._decide(self.mode)
            self._decided.clear()
            self.state = "probing"
            self.verdicts = {}
            self.timeouts = 0
            try:
                return self._decide(await self._probe_in_order())
            except asyncio.CancelledError:  # the call that asked gave up: none, for now
                self._decide(None)
                raise

    async def _probe_in_order(self) -> Transport | None:
        """Pull first; when it does not answer, the others side by side (a world where none
        answers waits one probe, not two), the first of them in order that answers."""
        first, *rest = ORDER
        if await self._spawn(first, self.probes[first]) == "answers":
            return first
        said = await asyncio.gather(*(self._spawn(name, self.probes[name]) for name in rest))
        return next((n for n, v in zip(rest, said, strict=True) if v == "answers"), None)

    def _spawn(self, name: Transport, probe: Probe) -> asyncio.Future[str]:
        async def run() -> str:
            self.verdicts[name] = "probing"
            verdict = await _verdict(probe)
            self.verdicts[name] = verdict
            return verdict

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _decide(self, transport: Transport | None) -> Transport | None:
        self.chosen = transport
        self.state = "chosen" if transport else "none"
        self._decided.set()
        self.record(
            EventKind.TRANSPORT,
            f"answers through {describe_transport(transport)}",
            transport=transport,
            verdicts=dict(self.verdicts),
        )
        _log.info("transport: %s (%s)", transport, self.verdicts)
        return transport

    async def wait(self) -> Transport | None:
        """The transport once decided; re-probes a connection where none answered."""
        await self._decided.wait()
        if self.state == "none":
            return await self.choose()
        return self.chosen

    async def try_each(self, probes: dict[Transport, Probe] | None = None) -> dict[str, str]:
        """Every way's verdict, each probed whatever the others showed (the doctor's "which
        work on this world"); the choice is left as it is."""
        chosen = probes if probes is not None else self.probes
        return {name: await _verdict(chosen[name]) for name in ORDER}

    def note(self, failed: bool) -> None:
        """A call on the chosen transport ended, ``failed`` when nothing readable came back (a
        timeout, or a reply that is no answer): after ``TRANSPORT_REPROBE_TIMEOUTS`` such calls
        in a row, every way is probed again (calls wait for the new choice)."""
        if not failed:
            self.timeouts = 0
            return
        self.timeouts += 1
        if self.mode != "auto" or self.state != "chosen":
            return
        if self.timeouts >= TRANSPORT_REPROBE_TIMEOUTS:
            self.reprobes += 1
            self._decided.clear()
            self.state = "probing"
            task = asyncio.ensure_future(self.choose())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    @property
    def decided(self) -> bool:
        """True once the connection's transport is chosen (or none works)."""
        return self._decided.is_set()

    def cancel(self) -> None:
        """Stop probes still running (the connection closed); the wait ends with None."""
        for task in list(self._tasks):
            task.cancel()
        if not self._decided.is_set():
            self.state = "none"
            self._decided.set()

    def explain(self) -> str:
        """Why no transport works, for the error a call raises."""
        said = "; ".join(f"{name}: {verdict}" for name, verdict in self.verdicts.items())
        return (
            f"no companion addon answers on this connection ({said}). Apply the mcbews "
            "bridge pack to the world (mcbews-repl addon export writes it; worlds without "
            "Beta APIs, Minecraft Education among them, need the stable pack), then reload "
            "the world or type /reload"
        )


async def _verdict(probe: Probe) -> str:
    """What one probe shows: ``answers``, or why not, in a few words."""
    try:
        await probe()
    except CapabilityError as exc:
        if exc.code in NO_ANSWER_CODES:  # ours: what came back was no answer at all
            return f"no readable answer ({exc.code})"
        return "answers"  # an answer, even a refusal, proves the way works
    except CommandFailed as exc:
        return f"refused by the game: {_first_sentence(exc.message)}"
    except RequestTimeout:
        return "no answer"
    except asyncio.CancelledError:
        return "stopped"
    except McbewsError as exc:
        return f"failed: {type(exc).__name__}"
    return "answers"


# The bridge's own codes for what came back without being an answer (a pull reply the game
# left empty, pages that do not fit): the way does not carry the addon's answers.
NO_ANSWER_CODES = ("MALFORMED_RESPONSE", "ANSWER_LOST")


def _first_sentence(text: str, limit: int = 80) -> str:
    """``Unknown command: mcbews:ask.`` out of the game's longer message."""
    head = text.split(". ", 1)[0].rstrip(".")
    return (head[: limit - 1] + "…" if len(head) > limit else head) + "."
