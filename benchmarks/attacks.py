"""Attacks a peer with the right token can make, as coroutines any benchmark can run.

Each plays a game over plain ``websockets`` and ``json`` (nothing of the bridge's own
code, so a misreading of the wire on one side cannot hide on the other) and returns a
tally. ``bench_bounds.py`` runs them; ``bench_soak.py`` or any other script may too:

- :func:`ui_chat_pull_flood`: a game whose addon answers the pull transport and keeps
  ``messages`` UI chat messages of ``message_bytes`` each for ``mcbews:poll`` (2 MiB, the
  most its store takes, 256 of them), served page by page until ``leave`` is set.
- :func:`ui_chat_chunk_flood`: the same over the chat transport: UI chat messages as
  ``MCBEWS|UI_CHAT`` chunks from the bridge player, each of ``message_bytes``.
- :func:`ui_chat_id_flood`: one-chunk UI chat messages whose ids are half a megabyte each.
- :func:`chat_flood`: ``chats`` chat messages of ``chat_bytes`` each, as fast as the socket
  takes them.
- :func:`hostile_capture`: a capture file whose second line nests ``depth`` deep, or is
  ``line_bytes`` long, written a block at a time (for ``mcbews-repl replay``).

``python benchmarks/attacks.py URL ui-pull --games 3`` runs the pull flood from another
process (so that the bridge's resident memory is its own): it prints ``drained`` once
every game's messages were polled, leaves when a line arrives on stdin, then prints
``left`` and a JSON tally.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

__all__ = [
    "Game",
    "chat_flood",
    "hostile_capture",
    "ui_chat_chunk_flood",
    "ui_chat_id_flood",
    "ui_chat_pull_flood",
]

MIB = 1024 * 1024
BRIDGE_PLAYER = "MCBEWS_BRIDGE"
PAGE_BYTES = 1024  # the pull transport's page (docs/protocol.md)
CHUNK_CODE_POINTS = 256  # the chat transport's chunk (docs/protocol.md)
EVENT_VERSION = 17039360
UNKNOWN_COMMAND = -2147483647


def chat_frame(sender: str, message: str, kind: str = "chat") -> str:
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": EVENT_VERSION}
    body = {"message": message, "receiver": "", "sender": sender, "type": kind}
    return json.dumps({"header": header, "body": body}, ensure_ascii=False)


class Game:
    """A game with the right token: it answers every command ``ok``, ``getlocalplayername``
    with its player, and, with ``pull``, the pull transport's custom commands from a
    store of its own (UI chat waiting for ``mcbews:poll``)."""

    def __init__(self, url: str, player: str, *, pull: bool = False) -> None:
        self.url = url
        self.player = player
        self.pull = pull
        self.kept: dict[str, list[str]] = {}  # message id -> its pages
        self.waiting: list[str] = []  # UI chat ids for mcbews:poll, oldest first
        self.tally: Counter[str] = Counter()
        self.drained = asyncio.Event()  # every UI chat message was polled, and then EMPTY
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def ws(self) -> ClientConnection:
        assert self._ws is not None, "connect() first"
        return self._ws

    async def connect(self) -> Game:
        self._ws = await connect(self.url, max_size=None, compression=None)
        self._reader = asyncio.create_task(self._answer())
        return self

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()

    def keep_ui_chat(self, message_id: str, player: str, text: str) -> None:
        body = json.dumps({"player": player, "message": text})
        self.kept[message_id] = [
            body[i : i + PAGE_BYTES] for i in range(0, len(body), PAGE_BYTES)
        ] or [""]
        self.waiting.append(message_id)

    async def _answer(self) -> None:
        async for raw in self.ws:
            frame = json.loads(raw)
            header = frame["header"]
            if header.get("messagePurpose") != "commandRequest":
                continue
            body = self._run(str(frame["body"].get("commandLine", "")))
            reply = {"messagePurpose": "commandResponse", "requestId": header["requestId"]}
            await self.ws.send(json.dumps({"header": {**reply, "version": 1}, "body": body}))

    def _run(self, line: str) -> dict[str, Any]:
        words = line.split(" ")
        if line == "getlocalplayername":
            return {"statusCode": 0, "statusMessage": self.player, "localplayername": self.player}
        if not words[0].startswith("mcbews:"):
            return {"statusCode": 0, "statusMessage": "ok"}
        if not self.pull:
            return {"statusCode": UNKNOWN_COMMAND, "statusMessage": f"Unknown command: {words[0]}"}
        self.tally[words[0]] += 1
        return {"statusCode": 0, "statusMessage": self._pull_reply(words)}

    def _pull_reply(self, words: list[str]) -> str:
        if words[0] == "mcbews:ask":  # the transport probe: list_capabilities, answered
            request = json.loads(bytes.fromhex(words[1]).decode("ascii"))
            answer = json.dumps({"ok": True, "result": {"capabilities": []}})
            return f"MCBEWS|ANSWER|{request['request_id']}|1/1|{answer}"
        if words[0] == "mcbews:poll":
            if not self.waiting:
                if self.kept or self.tally["mcbews:poll"] > 1:
                    self.drained.set()
                return "MCBEWS|EMPTY"
            return self._page(self.waiting.pop(0), 1)
        if words[0] == "mcbews:pull":
            return self._page(words[1], int(words[2]))
        return f"MCBEWS|NONE|{words[1] if len(words) > 1 else 'x'}|unknown"

    def _page(self, message_id: str, index: int) -> str:
        pages = self.kept.get(message_id)
        if pages is None or not 1 <= index <= len(pages):
            return f"MCBEWS|NONE|{message_id}|unknown"
        self.tally["pages_served"] += 1
        return f"MCBEWS|UI|{message_id}|{index}/{len(pages)}|{pages[index - 1]}"


async def ui_chat_pull_flood(
    url: str,
    *,
    messages: int = 256,
    message_bytes: int = 2 * MIB,
    player: str = "Mallory",
    leave: asyncio.Event | None = None,
    drained: asyncio.Event | None = None,
) -> dict[str, Any]:
    """Queue ``messages`` UI chat messages of about ``message_bytes`` for ``mcbews:poll`` and
    serve their pages; set ``drained`` once all were polled, leave when ``leave`` is set
    (at once when it is None). Returns the pull commands answered and pages served."""
    game = Game(url, player, pull=True)
    text = "x" * (message_bytes - 64)  # the JSON around it makes up the rest
    for k in range(messages):
        game.keep_ui_chat(f"u{k}t1", player, text)
    await game.connect()
    try:
        await game.drained.wait()
        if drained is not None:
            drained.set()
        if leave is not None:
            await leave.wait()
    finally:
        await game.close()
    return dict(game.tally)


async def ui_chat_chunk_flood(
    url: str,
    *,
    messages: int = 300,
    message_bytes: int = 32_000,
    player: str = "Mallory",
) -> dict[str, Any]:
    """Send ``messages`` UI chat messages over the chat transport, each of about
    ``message_bytes`` of JSON in chunks of 256 code points from the bridge player. The
    caller keeps the connection's game (``Game``) answering meanwhile; returns chunks sent."""
    game = await Game(url, player).connect()
    sent = 0
    try:
        body = json.dumps({"player": player, "message": "c" * (message_bytes - 40)})
        pieces = [body[i : i + CHUNK_CODE_POINTS] for i in range(0, len(body), CHUNK_CODE_POINTS)]
        for k in range(messages):
            for i, piece in enumerate(pieces, start=1):
                line = f"MCBEWS|UI_CHAT|flood{k}|{i}/{len(pieces)}|{piece}"
                await game.ws.send(chat_frame(BRIDGE_PLAYER, line, "tell"))
                sent += 1
    finally:
        await game.close()
    return {"chunks": sent, "messages": messages}


async def ui_chat_id_flood(
    url: str, *, messages: int = 300, id_chars: int = 500_000, player: str = "Mallory"
) -> dict[str, Any]:
    """``messages`` one-chunk UI chat messages whose ids are ``id_chars`` long (each frame
    under the bridge's 1 MiB): ids are kept as keys, so they must be bounded too."""
    game = await Game(url, player).connect()
    try:
        for k in range(messages):
            line = f"MCBEWS|UI_CHAT|{k}-{'i' * id_chars}|1/1|{{}}"
            await game.ws.send(chat_frame(BRIDGE_PLAYER, line, "tell"))
    finally:
        await game.close()
    return {"messages": messages, "id_chars": id_chars}


async def chat_flood(
    url: str,
    *,
    chats: int = 1200,
    chat_bytes: int = 8000,
    player: str = "Mallory",
    game: Game | None = None,
) -> dict[str, Any]:
    """``chats`` chat messages of ``chat_bytes`` each from ``player`` (on ``game``'s
    connection if given, else a new one, closed afterwards); returns how many were sent."""
    own = game is None
    game = game or await Game(url, player).connect()
    try:
        for k in range(chats):
            await game.ws.send(chat_frame(player, f"{k} " + "w" * chat_bytes))
    finally:
        if own:
            await game.close()
    return {"chats": chats, "chat_bytes": chat_bytes}


def hostile_capture(path: Path, *, depth: int = 0, line_bytes: int = 0) -> Path:
    """A capture whose header is fine and whose second line nests ``depth`` deep or, with
    ``line_bytes``, is one frame that long; written a block at a time."""
    header = {"type": "header", "format": "mcbews-capture", "version": 1, "package": "x"}
    with open(path, "wb") as out:
        out.write(json.dumps({**header, "started": 0.0}).encode() + b"\n")
        if depth:
            out.write(b'{"type":"call","request":' + b"[" * depth + b"]" * depth + b"}\n")
        if line_bytes:
            out.write(b'{"type":"frame","t":0,"conn":1,"dir":"in","text":"')
            block = b"x" * MIB
            for _ in range(line_bytes // MIB):
                out.write(block)
            out.write(b'"}\n')
    return path


async def _main(url: str, games: int, messages: int, message_bytes: int) -> None:
    leave, loop = asyncio.Event(), asyncio.get_running_loop()
    drained = [asyncio.Event() for _ in range(games)]
    floods = [
        asyncio.ensure_future(
            ui_chat_pull_flood(
                url,
                messages=messages,
                message_bytes=message_bytes,
                player=f"Mallory{n}",
                leave=leave,
                drained=drained[n],
            )
        )
        for n in range(games)
    ]
    await asyncio.gather(*(d.wait() for d in drained))
    print("drained", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)
    leave.set()
    tallies = await asyncio.gather(*floods)
    print("left", json.dumps(tallies), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="The UI chat flood over pull, from a process")
    parser.add_argument("url")
    parser.add_argument("attack", choices=["ui-pull"])
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--messages", type=int, default=256)
    parser.add_argument("--bytes", type=int, default=2 * MIB, dest="message_bytes")
    args = parser.parse_args()
    asyncio.run(_main(args.url, args.games, args.messages, args.message_bytes))


if __name__ == "__main__":
    main()
