"""The games' side of the soak benchmark, run by ``bench_soak.py`` as a child process.

``python benchmarks/soak_games.py URL [--seed N]`` starts several simulated worlds
(``SimWorld``: the real addon in QuickJS) that connect to the bridge at ``URL``, stay a
while, leave and come back, while their players type into the addon's chat panel. A
hostile peer waits for orders on stdin, one phase a line (``hostile``, ``chats``,
``junk``, ``ui``, ``leave``); each finished phase is answered on stdout as
``done <phase> <json>``. ``stop`` closes everything and answers with the worlds' tallies.

``--stable good`` and ``--stable storm`` each run instead one world that never leaves, in a
process of its own so that nothing played elsewhere slows it: the good world
(``?world=good``), whose command round trips the bridge's process measures during each
attack, and the storm world (``?world=storm``), whose big block reads the bridge cancels
again and again. The attacks after the
hostile peer's (``uibytes``, ``tokens``, ``chatflood``, ``halfopen``) come from
``attacks.py`` and ``bench_admission.py`` and are played from this process too, as a
peer on the network would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import resource
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from attacks import chat_flood, ui_chat_pull_flood
from bench_admission import (
    STRANGERS,
    hold_half_open,
    knock,
    right_token_connects,
    wrong_token_flood,
)
from websockets.asyncio.client import ClientConnection, connect

from mcbews_repl.sim import SimWorld

WORLDS = 4
BRIDGE_PLAYER = "MCBEWS_BRIDGE"
HOSTILE_PLAYER = "Mallory"
MIB = 1024 * 1024
WORDS = ["the", "quick", "creeper", "jumps", "over", "a", "lazy", "pig", "near", "lava"]
# How long a world stays connected, and stays away, in seconds (each drawn at random).
STAY_SECONDS = (3.0, 40.0)
AWAY_SECONDS = (0.3, 3.0)
# The attacks after the hostile peer's: how hard, and for how long.
UI_FLOOD_GAMES, UI_FLOOD_MESSAGES, UI_FLOOD_BYTES = 3, 64, 2 * MIB
TOKEN_FLOOD_SECONDS, TOKEN_FLOOD_PARALLEL = 10.0, 32
FLOODING_HOLDERS, FLOOD_CHATS, FLOOD_CHAT_BYTES = 5, 1200, 8000
HALF_OPEN_SOCKETS, HALF_OPEN_SECONDS = 1100, 8.0
FLOODED_HOME = "127.0.0.7"  # a machine whose game connects while it and 500 others guess


class Attacks:
    """The attacks a peer on the network makes, one phase each (see the module's text)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.port = int(url.rsplit(":", 1)[1].split("/", 1)[0])

    async def phase(self, name: str) -> dict[str, Any]:
        step: Callable[[], Awaitable[dict[str, Any]]] = getattr(self, f"_{name}")
        return await step()

    async def _uibytes(self) -> dict[str, Any]:
        """Games whose addons keep 2 MiB UI chat messages for the slow callback."""
        tallies = await asyncio.gather(*(
            ui_chat_pull_flood(f"{self.url}?ui{k}", messages=UI_FLOOD_MESSAGES,
                               message_bytes=UI_FLOOD_BYTES, player=f"Flood{k}")
            for k in range(UI_FLOOD_GAMES)
        ))  # fmt: skip
        return {"games": UI_FLOOD_GAMES, "pages_served": sum(t["pages_served"] for t in tallies)}

    async def _tokens(self) -> dict[str, Any]:
        """Wrong tokens from 500 addresses, while a game connects again from one of them
        (a machine whose game connected before the flood began)."""
        home = self.url + "?visitor"
        proved = await right_token_connects(home, FLOODED_HOME, 1)  # its game came before
        flood = asyncio.create_task(
            wrong_token_flood(self.url, [*STRANGERS, FLOODED_HOME], TOKEN_FLOOD_SECONDS,
                              TOKEN_FLOOD_PARALLEL)
        )  # fmt: skip
        await asyncio.sleep(1.0)
        took = await right_token_connects(home, FLOODED_HOME, 5)
        statuses = await flood
        refused = sum(t is None for t in took)
        return {"statuses": {str(k): v for k, v in statuses.items()}, "game_refused": refused,
                "proved": proved[0] is not None,
                "game_connects_ms": [round(t * 1000) for t in took if t is not None]}  # fmt: skip

    async def _chatflood(self) -> dict[str, Any]:
        """Five token holders flood chat at once."""
        await asyncio.gather(*(
            chat_flood(f"{self.url}?holder{k}", chats=FLOOD_CHATS, chat_bytes=FLOOD_CHAT_BYTES,
                       player=f"Holder{k}")
            for k in range(FLOODING_HOLDERS)
        ))  # fmt: skip
        return {"holders": FLOODING_HOLDERS, "chats_each": FLOOD_CHATS}

    async def _halfopen(self) -> dict[str, Any]:
        """Sockets that open and never ask, more than the bridge's descriptors."""
        held = await hold_half_open(self.port, HALF_OPEN_SOCKETS, HALF_OPEN_SECONDS)
        return {"sockets": HALF_OPEN_SOCKETS, **dict(held)}


def chat_frame(sender: str, message: str) -> str:
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360}
    body = {"message": message, "receiver": "", "sender": sender, "type": "chat"}
    return json.dumps({"header": header, "body": body})


def ui_chat_line(message_id: str, player: str, text: str) -> str:
    payload = json.dumps({"player": player, "message": text}).replace("@", "\\u0040")
    return f"MCBEWS|UI_CHAT|{message_id}|1/1|{payload}"


def junk_frames() -> list[str | bytes]:
    stray = {"header": {"messagePurpose": "commandResponse", "requestId": "stray"}, "body": {}}
    return [
        "not json",
        b"\x00\x01binary",
        "[1, 2, 3]",
        "{" * 50_000,
        json.dumps({"header": {"messagePurpose": "ws:unknown"}, "body": {}}),
        json.dumps(stray),
        json.dumps({"pad": "z" * (MIB + 100)}),  # over the bridge's 1 MiB frame limit
    ]


class Hostile:
    """A peer with the right token: it answers commands and sends everything else wrong."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def ws(self) -> ClientConnection:
        assert self._ws is not None, "the hostile phase comes first"
        return self._ws

    async def phase(self, name: str) -> dict[str, Any]:
        step: Callable[[], Awaitable[dict[str, Any]]] = getattr(self, f"_{name}")
        return await step()

    async def _hostile(self) -> dict[str, Any]:
        self._ws = await connect(self.url + "?hostile", max_size=None, compression=None)
        self._reader = asyncio.create_task(self._answer())
        return {"connected": True}

    async def _answer(self) -> None:
        async for raw in self.ws:
            frame = json.loads(raw)
            header = frame["header"]
            if header.get("messagePurpose") not in ("commandRequest", "subscribe"):
                continue
            body: dict[str, Any] = {"statusCode": 0, "statusMessage": "ok"}
            if frame["body"].get("commandLine") == "getlocalplayername":
                body["localplayername"] = HOSTILE_PLAYER
            reply_header: dict[str, Any] = {"messagePurpose": "commandResponse", "version": 1}
            reply_header["requestId"] = header["requestId"]
            await self.ws.send(json.dumps({"header": reply_header, "body": body}))

    async def _chats(self) -> dict[str, Any]:
        big = "x" * 1_000_000  # one frame just under the bridge's 1 MiB frame limit
        senders = [HOSTILE_PLAYER] * 7 + ["Steve", "External", BRIDGE_PLAYER]
        for k in range(150):
            await self.ws.send(chat_frame(senders[k % len(senders)], big))
        return {"chats": 150, "chars_each": len(big)}

    async def _junk(self) -> dict[str, Any]:
        knocks = asyncio.create_task(self._wrong_tokens(30))
        junk = junk_frames()
        for k in range(200):
            await self.ws.send(junk[k % len(junk)])
        sent = 200 + await self._send_chats(self._floods()) + await self._send_chats(self._spoofs())
        return {"frames": sent, "wrong_token_answers": await knocks}

    @staticmethod
    def _floods() -> list[tuple[str, str]]:
        """Partial UI chat streams, chunks of answers nobody asked for, bad positions."""
        lines = [f"MCBEWS|UI_CHAT|flood{k}|1/128|" + "f" * 200 for k in range(2000)]
        lines += [f"MCBEWS|BRIDGE|unknown{k}|1/2|{{}}" for k in range(1000)]
        lines += [f"MCBEWS|UI_CHAT|bad{k}|{k + 5}/3|x" for k in range(500)]
        return [(BRIDGE_PLAYER, line) for line in lines]

    @staticmethod
    def _spoofs() -> list[tuple[str, str]]:
        """Bridge chunks from a player, the game's own echo, an unknown channel."""
        chats = [("Steve", ui_chat_line(f"spoof{k}", "Steve", "hi")) for k in range(300)]
        chats += [(("External", "外部")[k % 2], f"echo {k}") for k in range(300)]
        chats += [(BRIDGE_PLAYER, f"MCBEWS|NOPE|{k}|1/1|x") for k in range(300)]
        return chats

    async def _send_chats(self, chats: list[tuple[str, str]]) -> int:
        for sender, message in chats:
            await self.ws.send(chat_frame(sender, message))
        return len(chats)

    async def _wrong_tokens(self, count: int) -> dict[str, int]:
        """Guesses from another source address, all at once; their HTTP answers."""
        wrong = self.url.rsplit("/", 1)[0] + "/0badc0de"

        answers = await asyncio.gather(*(knock(wrong, "127.0.0.3") for _ in range(count)))
        return dict(Counter(str(status) for status in answers))

    async def _ui(self) -> dict[str, Any]:
        lines = [
            (BRIDGE_PLAYER, ui_chat_line(f"m{k}", HOSTILE_PLAYER, f"spam {k}")) for k in range(5000)
        ]
        return {"ui_chats": await self._send_chats(lines)}

    async def _leave(self) -> dict[str, Any]:
        await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        return {"left": True}


async def world_chaos(
    sim: SimWorld, url: str, rng: random.Random, stop: asyncio.Event, stats: Counter[str]
) -> None:
    """Connect, stay a while (or until the bridge closes us), leave, come back."""
    while not stop.is_set():
        try:
            await sim.connect(url)
        except Exception:  # refused or unreachable: a game would show an error and retry
            stats["connect_failed"] += 1
            await asyncio.sleep(1)
            continue
        stats["connects"] += 1
        waits = [asyncio.create_task(sim.wait_disconnected()), asyncio.create_task(stop.wait())]
        await asyncio.wait(waits, timeout=rng.uniform(*STAY_SECONDS), return_when="FIRST_COMPLETED")
        for wait in waits:
            wait.cancel()
        await sim.disconnect()
        if not stop.is_set():
            await asyncio.sleep(rng.uniform(*AWAY_SECONDS))


async def typing(
    sims: list[SimWorld], rng: random.Random, stop: asyncio.Event, stats: Counter[str]
) -> None:
    """Players type into the addon's chat panel now and then."""
    while not stop.is_set():
        await asyncio.sleep(rng.uniform(0.1, 0.6))
        sim = rng.choice(sims)
        if sim.client is None or sim.client.closed.is_set():
            continue
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 40)))
        try:
            sim.ui_chat(rng.choice(["Steve", "Alex"]), text)
            stats["ui_chats_typed"] += 1
        except RuntimeError:
            stats["ui_chats_refused"] += 1


async def orders() -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def stable(url: str, name: str) -> None:
    """A world that never leaves (``good`` or ``storm``), connected until stdin says stop."""
    worlds = {name: SimWorld(fast=True, seed=99 if name == "good" else 98)}
    for name, sim in worlds.items():
        await sim.start()
        await sim.connect(f"{url}?world={name}")
    reader = await orders()
    while (await reader.readline()).decode().strip() not in ("", "stop"):
        pass
    for sim in worlds.values():
        await sim.close()
    print("done stop {}", flush=True)


async def games(url: str, seed: int) -> None:
    rng, stop, stats = random.Random(seed), asyncio.Event(), Counter[str]()
    sims = [SimWorld(fast=True, seed=k) for k in range(WORLDS)]
    for sim in sims:
        await sim.start()
    tasks = [
        asyncio.create_task(
            world_chaos(sim, f"{url}?world={k}", random.Random(seed + k), stop, stats)
        )
        for k, sim in enumerate(sims)
    ]
    tasks.append(asyncio.create_task(typing(sims, rng, stop, stats)))
    hostile, attacks, reader = Hostile(url), Attacks(url), await orders()
    while (phase := (await reader.readline()).decode().strip()) not in ("", "stop"):
        player = attacks if hasattr(attacks, f"_{phase}") else hostile
        result = await player.phase(phase)
        print(f"done {phase} {json.dumps(result)}", flush=True)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for sim in sims:
        await sim.close()
    print(f"done stop {json.dumps(dict(stats))}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("url")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--stable", choices=["good", "storm"], help="one world that never leaves")
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # stdout carries the answers
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the half-open sockets' share
    asyncio.run(stable(args.url, args.stable) if args.stable else games(args.url, args.seed))


if __name__ == "__main__":
    main()
