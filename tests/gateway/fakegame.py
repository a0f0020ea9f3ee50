"""A fake Minecraft game client with the companion addon, for the gateway's tests.

It speaks the game's side of the wire on its own: plain ``websockets`` and ``json``, its
own chunk formatting and text frame parsing. It must not import anything from
``mcbews_repl`` (a test checks), or a bug in the bridge codec would hide on both sides.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.protocol import State

__all__ = ["FakeGame", "reassemble_text_frames"]

TOO_MANY = -2147418109  # the game's TooManyPendingRequests
SYNTAX_ERROR = -2147483648  # FailedToParseCommand
EVENT_VERSION = 17039360
BRIDGE_PLAYER = "MCBEWS_BRIDGE"
BRIDGE_REQ = "scriptevent mcbews:bridge_req "
PULL_REQ = "scriptevent mcbews:pull_req "
TEXT_RESP = "scriptevent mcbews:text_resp "
BULK = "scriptevent mcbews:bulk "  # a part of a large request: <id> <k> <i>/<n> <content>
BULK_EVENTS = {"c": BRIDGE_REQ, "p": PULL_REQ, "t": "scriptevent mcbews:tags_req "}
UNKNOWN_COMMAND = -2147483647  # CommandNotFound

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def _escape(json_text: str) -> str:
    # The addon escapes these so `tell` does not expand selectors or formatting codes.
    return json_text.replace("@", "\\u0040").replace("\u00a7", "\\u00a7")


def chunk_lines(channel: str, message_id: str, payload: str, size: int) -> list[str]:
    """``MCBEWS|<channel>|<id>|<i>/<n>|<content>`` lines, cut every ``size`` code points."""
    pieces = [payload[i : i + size] for i in range(0, len(payload), size)] or [""]
    total = len(pieces)
    return [f"MCBEWS|{channel}|{message_id}|{i}/{total}|{p}" for i, p in enumerate(pieces, 1)]


def reassemble_text_frames(frames: list[dict[str, Any]]) -> dict[str, str]:
    """The addon's view of text responses: id -> text, checking positions and totals."""
    by_id: dict[str, dict[int, str]] = {}
    totals: dict[str, int] = {}
    for frame in frames:
        assert totals.setdefault(frame["id"], frame["n"]) == frame["n"], "total changed"
        by_id.setdefault(frame["id"], {})[frame["i"]] = frame["c"]
    texts = {}
    for rid, parts in by_id.items():
        assert sorted(parts) == list(range(1, totals[rid] + 1)), f"missing frames of {rid}"
        texts[rid] = "".join(parts[i] for i in sorted(parts))
    return texts


class FakeGame:
    """One game client. Answers commands, runs capabilities, records what it was sent."""

    def __init__(
        self,
        url: str,
        *,
        player: str = "Steve",
        max_in_flight: int = 100,
        reply_delay: float = 0.0,
        chunk_chars: int = 40,
        order: str = "forward",
        duplicate: bool = False,
        local_address: str | None = None,
        pull: bool = False,
        page_chars: int = 50,
    ) -> None:
        self.url = url
        self.local_address = local_address  # the source address to dial from
        self.player = player
        self.max_in_flight = max_in_flight
        self.reply_delay = reply_delay
        self.chunk_chars = chunk_chars
        self.order = order
        self.duplicate = duplicate
        self.capabilities: dict[str, Handler] = {}
        self.silent: set[str] = set()  # capabilities the "addon" never answers
        # The pull commands (docs/protocol.md), answered by this fake's own little store.
        self.pull = pull
        self.page_chars = page_chars
        self.chat_transport = True  # False: the "addon" never answers by chat
        self.deferred: set[str] = set()  # capabilities answered WAIT first, then kept
        self.kept: dict[str, tuple[str, list[str]]] = {}  # id -> (kind, pages)
        self.ui_waiting: list[str] = []
        self.answering: set[str] = set()  # request ids answered WAIT and not kept yet
        self.subscriptions: list[str] = []
        self.commands: list[str] = []
        self.bulk_parts: dict[str, dict[int, str]] = {}  # a large request's parts, by id
        self.frame_sizes: list[int] = []  # UTF-8 bytes of every frame received, as sent
        self.executed: Counter[str] = Counter()
        self.text_frames: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_seen_in_flight = 0
        self.rejected = 0
        self.ws: ClientConnection | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> FakeGame:
        source = {"local_addr": (self.local_address, 0)} if self.local_address else {}
        self.ws = await connect(self.url, compression=None, max_size=None, **source)
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self.ws is not None and self.ws.state is not State.CLOSED:
            await self.ws.close()
        for task in [*self._tasks, *([self._reader] if self._reader else [])]:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    # --- what the game sends ---------------------------------------------------------------

    async def send_raw(self, frame: str | bytes) -> None:
        assert self.ws is not None
        await self.ws.send(frame)

    async def chat(self, sender: str, message: str, kind: str = "chat") -> None:
        header = {"eventName": "PlayerMessage", "messagePurpose": "event"}
        header["version"] = EVENT_VERSION  # type: ignore[assignment]
        body = {"message": message, "receiver": "", "sender": sender, "type": kind}
        await self.send_raw(json.dumps({"header": header, "body": body}))

    async def bridge_chunks(self, channel: str, message_id: str, payload: str) -> None:
        lines = chunk_lines(channel, message_id, payload, self.chunk_chars)
        if self.order == "reverse":
            lines.reverse()
        elif self.order == "shuffle":
            random.Random(7).shuffle(lines)
        if self.duplicate:
            lines = [line for line in lines for _ in (0, 1)]
        for line in lines:
            await self.chat(BRIDGE_PLAYER, line, "tell")

    async def ui_chat(self, player: str, message: str, message_id: str = "ui1") -> None:
        payload = _escape(json.dumps({"player": player, "message": message}, ensure_ascii=False))
        await self.bridge_chunks("UI_CHAT", message_id, payload)

    async def _respond(self, purpose: str, request_id: str, body: dict[str, Any]) -> None:
        header = {"messagePurpose": purpose, "requestId": request_id, "version": 1}
        await self.send_raw(json.dumps({"header": header, "body": body}, ensure_ascii=False))

    # --- what the game receives --------------------------------------------------------------

    async def _read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            raw = message.encode("utf-8") if isinstance(message, str) else message
            self.frame_sizes.append(len(raw))
            frame = json.loads(message)
            header, body = frame["header"], frame["body"]
            if header["messagePurpose"] == "subscribe":
                self.subscriptions.append(body["eventName"])
            elif header["messagePurpose"] == "commandRequest":
                await self._on_command(header["requestId"], body["commandLine"])

    async def _on_command(self, request_id: str, line: str) -> None:
        self.commands.append(line)
        if self.in_flight >= self.max_in_flight:
            self.rejected += 1
            message = "Too many commands have been requested, wait for one to be done"
            await self._respond(
                "error", request_id, {"statusCode": TOO_MANY, "statusMessage": message}
            )
            return
        if line.startswith("hang"):
            self.in_flight += 1  # never answered, like a command stuck in the game
            return
        self.in_flight += 1
        self.max_seen_in_flight = max(self.max_seen_in_flight, self.in_flight)
        task = asyncio.create_task(self._run(request_id, line))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, request_id: str, line: str) -> None:
        if self.reply_delay:
            await asyncio.sleep(self.reply_delay)
        self.in_flight -= 1
        if line.startswith("fail"):
            body = {"statusCode": SYNTAX_ERROR, "statusMessage": f'Syntax error: "{line}"'}
            await self._respond("commandResponse", request_id, body)
            return
        if line.startswith("mcbews:"):
            await self._respond("commandResponse", request_id, self._pull_command(line))
            return
        self.executed[line] += 1
        body: dict[str, Any] = {"statusCode": 0, "statusMessage": f"ran {line}"}
        if line == "getlocalplayername":
            body["localplayername"] = self.player
        if line.startswith(TEXT_RESP):
            self.text_frames.append(json.loads(line[len(TEXT_RESP) :]))
        await self._respond("commandResponse", request_id, body)
        if line.startswith(BULK):
            joined = self._bulk_part(line[len(BULK) :])
            if joined is None:
                return
            line = joined
        if line.startswith(BRIDGE_REQ) and self.chat_transport:
            await self._run_capability(json.loads(line[len(BRIDGE_REQ) :]))
        if line.startswith(PULL_REQ) and self.pull:
            request = json.loads(line[len(PULL_REQ) :])
            self._keep("ANSWER", request["request_id"], self._answer(request))

    def _bulk_part(self, message: str) -> str | None:
        """Keep one part; the whole request's line once every part is there."""
        rid, kind, counts, content = message.split(" ", 3)
        index, total = (int(n) for n in counts.split("/"))
        parts = self.bulk_parts.setdefault(rid, {})
        parts[index] = content
        if len(parts) < total:
            return None
        del self.bulk_parts[rid]
        return BULK_EVENTS[kind] + "".join(parts[i] for i in range(1, total + 1))

    async def _run_capability(self, request: dict[str, Any]) -> None:
        name, rid = request["capability"], request["request_id"]
        if name in self.silent:
            return
        payload = _escape(json.dumps(self._answer(request), ensure_ascii=False))
        await self.bridge_chunks("BRIDGE", rid, payload)

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        name = request["capability"]
        handler = self.capabilities.get(name)
        if handler is None:
            error = {"code": "UNSUPPORTED_CAPABILITY", "message": f"no capability {name}"}
            answer: dict[str, Any] = {"ok": False, "error": error}
        else:
            answer = handler(request["payload"])
        return answer

    # --- the pull commands -----------------------------------------------------------------

    def _pull_command(self, line: str) -> dict[str, Any]:
        words = line.split(" ")
        if not self.pull:
            message = f"Unknown command: {words[0]}. Please check that the command exists"
            return {"statusCode": UNKNOWN_COMMAND, "statusMessage": message}
        self.executed[words[0]] += 1
        if words[0] == "mcbews:ask":
            request = json.loads(bytes.fromhex(words[1]).decode("ascii"))
            rid = request["request_id"]
            if request["capability"] in self.silent:
                return {"statusCode": 0, "statusMessage": f"MCBEWS|WAIT|{rid}"}
            if request["capability"] in self.deferred:
                self.deferred.discard(request["capability"])
                self.answering.add(rid)
                asyncio.get_running_loop().call_later(
                    0.01, self._keep, "ANSWER", rid, self._answer(request)
                )
                return {"statusCode": 0, "statusMessage": f"MCBEWS|WAIT|{rid}"}
            self._keep("ANSWER", rid, self._answer(request))
            return {"statusCode": 0, "statusMessage": self._page(rid, 1)}
        if words[0] == "mcbews:pull":
            return {"statusCode": 0, "statusMessage": self._page(words[1], int(words[2]))}
        if words[0] == "mcbews:poll":
            message = self._page(self.ui_waiting.pop(0), 1) if self.ui_waiting else "MCBEWS|EMPTY"
            return {"statusCode": 0, "statusMessage": message}
        return {"statusCode": UNKNOWN_COMMAND, "statusMessage": f"Unknown command: {words[0]}"}

    def _keep(self, kind: str, message_id: str, answer: dict[str, Any] | str) -> None:
        text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        size = self.page_chars
        pages = [text[i : i + size] for i in range(0, len(text), size)] or [""]
        self.kept[message_id] = (kind, pages)
        self.answering.discard(message_id)

    def _page(self, message_id: str, index: int) -> str:
        if message_id in self.answering:
            return f"MCBEWS|WAIT|{message_id}"
        if message_id not in self.kept:
            return f"MCBEWS|NONE|{message_id}|unknown"
        kind, pages = self.kept[message_id]
        if not 1 <= index <= len(pages):
            return f"MCBEWS|NONE|{message_id}|no_page"
        return f"MCBEWS|{kind}|{message_id}|{index}/{len(pages)}|{pages[index - 1]}"

    def pull_ui_chat(self, player: str, message: str, message_id: str = "u1t1") -> None:
        """A player's panel message, kept for mcbews:poll (the pull transport's UI chat)."""
        self._keep("UI", message_id, {"player": player, "message": message})
        self.ui_waiting.append(message_id)
