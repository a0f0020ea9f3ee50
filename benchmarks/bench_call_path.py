"""The path of one call through the bridge's own files, traced function by function.

    .venv/bin/python benchmarks/bench_call_path.py [--show]

One bridge, one quiet game on loopback that answers at once (a few lines below play it:
``getlocalplayername``, a capability asked with ``mcbews:ask`` answered in one page, a
capability asked with ``scriptevent mcbews:bridge_req`` answered by one chat chunk of the
bridge player). While exactly one call is in flight, ``sys.setprofile`` sees every Python
function the process enters; only the bridge's own files count (``mcbews_repl/``: not the
simulated world, asyncio or websockets). For each call the table gives

* functions: functions of the bridge entered, a coroutine resumed counted again;
* file changes: entries into a function whose file is not the file of the nearest bridge
  function below it on the stack (a resumption from the event loop counts as one);
* files: the distinct files the call went through;
* connection.py: how many of those file changes enter ``gateway/connection.py``.

The figures are counts, not times: the same code gives the same table on any machine.
docs/architecture.md ("The path of one capability call") quotes them before and after a
change. ``--show`` prints each call's path as the sequence of files it entered.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from websockets.asyncio.client import connect

import mcbews_repl

PACKAGE = Path(mcbews_repl.__file__).resolve().parent
SKIPPED = ("sim",)  # the simulated world plays the game: not the bridge's path
BRIDGE_PLAYER = "MCBEWS_BRIDGE"
ANSWER = '{"ok":true,"result":{"players":[{"name":"Steve"}]}}'


def _frame(purpose: str, request_id: str, body: dict[str, Any]) -> str:
    header = {"messagePurpose": purpose, "requestId": request_id, "version": 1}
    return json.dumps({"header": header, "body": body}, separators=(",", ":"))


def _chat(message: str) -> str:
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360}
    body = {"message": message, "receiver": "", "sender": BRIDGE_PLAYER, "type": "tell"}
    return json.dumps({"header": header, "body": body}, separators=(",", ":"))


def _answers(line: str) -> tuple[str, str | None]:
    """What the game says to ``line``: the result message, and a chat line to send after."""
    if line.startswith("mcbews:ask "):
        request = json.loads(bytes.fromhex(line.split(" ", 1)[1]))
        return f"MCBEWS|ANSWER|{request['request_id']}|1/1|{ANSWER}", None
    if line.startswith("scriptevent mcbews:bridge_req "):
        request = json.loads(line.split(" ", 2)[2])
        return "", f"MCBEWS|BRIDGE|{request['request_id']}|1/1|{ANSWER}"
    return "ok", None


async def quiet_game(url: str) -> None:
    """Answer every command at once, capability requests on either transport included."""
    async with connect(url, compression=None) as ws:
        async for message in ws:
            frame = json.loads(message)
            header, body = frame["header"], frame["body"]
            if header["messagePurpose"] != "commandRequest":
                continue
            line = body["commandLine"]
            said, chat = _answers(line)
            reply = {"statusCode": 0, "statusMessage": said, "localplayername": "Steve"}
            await ws.send(_frame("commandResponse", header["requestId"], reply))
            if chat is not None:
                await ws.send(_chat(chat))


@dataclass
class CallPath:
    """What one call entered: the bridge's files in order, and the counts of the table."""

    functions: int = 0
    changes: int = 0
    entries: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)

    def row(self, name: str) -> str:
        connection = self.entries.get("gateway/connection.py", 0)
        counts = (self.functions, self.changes, len(self.entries), connection)
        return f"| {name} | " + " | ".join(map(str, counts)) + " |"


def _ours(frame: FrameType | None, files: dict[str, str | None]) -> str | None:
    """The bridge file of ``frame``'s code (relative to the package), or None."""
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    if filename not in files:
        path = Path(filename).resolve()
        inside = path.is_relative_to(PACKAGE)
        relative = path.relative_to(PACKAGE).as_posix() if inside else None
        files[filename] = None if relative is None or relative.startswith(SKIPPED) else relative
    return files[filename]


def _below(frame: FrameType, files: dict[str, str | None]) -> str | None:
    """The file of the nearest bridge function under ``frame`` on the stack."""
    caller = frame.f_back
    while caller is not None:
        found = _ours(caller, files)
        if found is not None:
            return found
        caller = caller.f_back
    return None


async def traced(work: Callable[[], Awaitable[object]]) -> CallPath:
    """Run ``work`` once with the profiler on; what it entered."""
    path, files = CallPath(), {}

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        here = _ours(frame, files)
        if here is None:
            return
        path.functions += 1
        if _below(frame, files) != here:
            path.changes += 1
            path.entries[here] = path.entries.get(here, 0) + 1
            path.order.append(here)

    sys.setprofile(profile)
    try:
        await work()
    finally:
        sys.setprofile(None)
    return path


async def measure() -> dict[str, CallPath]:
    """One command, one pull call and one chat call, each traced on a warm connection."""
    paths: dict[str, CallPath] = {}
    for transport in ("pull", "chat"):
        async with mcbews_repl.serve(port=0, transport=transport, poll_interval=3600.0) as mc:
            game = asyncio.ensure_future(quiet_game(mc.url))
            await mc.wait_connected(timeout=10)
            for _ in range(3):  # warm: the first calls fill caches and import lazily
                await mc.command("say hi")
                await mc.call("get_player_snapshot", target="@s")
            if transport == "pull":
                paths["a command (`mc.command`)"] = await traced(lambda: mc.command("say hi"))
            paths[f"a capability call, {transport} transport"] = await traced(
                lambda: mc.call("get_player_snapshot", target="@s")
            )
            game.cancel()
    return paths


def table(paths: dict[str, CallPath]) -> str:
    lines = [
        "| one call | functions | file changes | files | connection.py entries |",
        "|---|---|---|---|---|",
    ]
    lines += [path.row(name) for name, path in paths.items()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print each call's files in order")
    args = parser.parse_args()
    paths = asyncio.run(measure())
    print(table(paths))
    if args.show:
        for name, path in paths.items():
            print(f"\n{name}:\n  " + " -> ".join(path.order))


if __name__ == "__main__":
    main()
