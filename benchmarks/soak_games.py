"""The games' side of the soak benchmark, run by ``bench_soak.py`` as a child process.

``python benchmarks/soak_games.py URL [--seed N]`` starts several simulated worlds
(``SimWorld``: the real addon in QuickJS) that connect to the bridge at ``URL``, stay a
while, leave and come back, while their players type into the addon's chat panel. A
hostile peer waits for orders on stdin, one phase a line (``hostile``, ``chats``,
``junk``, ``ui``, ``leave``); each finished phase is answered on stdout as
``done <phase> <json>``. ``stop`` closes everything and answers with the worlds' tallies.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from mcbews_repl.sim import SimWorld

WORLDS = 4
BRIDGE_PLAYER = "MCBEWS_BRIDGE"
HOSTILE_PLAYER = "Mallory"
MIB = 1024 * 1024
WORDS = ["the", "quick", "creeper", "jumps", "over", "a", "lazy", "pig", "near", "lava"]
# How long a world stays connected, and stays away, in seconds (each drawn at random).
STAY_SECONDS = (3.0, 40.0)
AWAY_SECONDS = (0.3, 3.0)


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

        async def knock() -> int:
            try:
                async with connect(wrong, local_addr=("127.0.0.3", 0)):
                    return 101
            except InvalidStatus as exc:
                return exc.response.status_code

        answers = await asyncio.gather(*(knock() for _ in range(count)))
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
    hostile, reader = Hostile(url), await orders()
    while (phase := (await reader.readline()).decode().strip()) not in ("", "stop"):
        result = await hostile.phase(phase)
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
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # stdout carries the answers
    asyncio.run(games(args.url, args.seed))


if __name__ == "__main__":
    main()
