"""One measurement of ``bench_peers.py``: a fresh server process and a fresh emulated game.

The server program prints ``{"event": "listening", "url": ...}``; the game connects its
connections to that URL; the server measures and prints ``{"event": "result", ...}``; the
game is then asked for its counts (answered, refused, peak in flight). Anything that goes
wrong (a crash, a hang, a bad line) comes back as ``{"error": ...}`` so that the table shows
it instead of the run stopping.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
GAME = HERE / "emulated_game.mjs"
STARTUP_SECONDS = 60.0  # a first import can be slow on a loaded machine
STDERR_TAIL = 600


@dataclass(frozen=True)
class Server:
    """A server under test: how to start its program, and the window the caller adds."""

    key: str
    label: str
    argv: tuple[str, ...]
    caller_window: int = 0  # 0: the library windows commands itself
    bursts_only: bool = False  # a variant that differs only when commands pile up


@dataclass(frozen=True)
class Job:
    mode: str  # seq | burst | rss
    commands: int
    connections: int = 1
    delay_ms: float = 0.0
    timeout_s: float = 180.0


class Failed(Exception):
    pass


async def _line(process: asyncio.subprocess.Process, timeout: float, event: str) -> dict[str, Any]:
    assert process.stdout is not None
    while True:
        raw = await asyncio.wait_for(process.stdout.readline(), timeout)
        if not raw:
            raise Failed(f"exited (code {await process.wait()}) before '{event}'")
        try:
            message: dict[str, Any] = json.loads(raw)
        except ValueError:
            continue  # a library's own print()
        if message.get("event") == event:
            return message


async def _spawn(argv: Sequence[str], env: dict[str, str], stderr: Path) -> Any:
    with stderr.open("wb") as err:
        return await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
            env=env,
            start_new_session=True,  # its own process group: stopped whole, nothing left over
        )


async def _stop(process: Any) -> None:
    if process is None or process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    await process.wait()


def _tail(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return text[-STDERR_TAIL:]


async def _measure(server: Server, job: Job, env: dict[str, str], logs: Path) -> dict[str, Any]:
    config = {
        "mode": job.mode,
        "commands": job.commands,
        "connections": job.connections,
        "window": server.caller_window,
    }
    game_config = {"url": "", "connections": job.connections, "delayMs": job.delay_ms}
    serving = game = None
    try:
        serving = await _spawn([*server.argv, json.dumps(config)], env, logs / "server.err")
        listening = await _line(serving, STARTUP_SECONDS, "listening")
        game_config["url"] = listening["url"]
        game = await _spawn(["node", str(GAME), json.dumps(game_config)], env, logs / "game.err")
        await _line(game, STARTUP_SECONDS, "connected")
        result = await _line(serving, job.timeout_s, "result")
        game.stdin.write(b"report\n")
        await game.stdin.drain()
        result["game"] = await _line(game, 10.0, "report")
        return result
    except (Failed, TimeoutError, OSError, ValueError) as exc:
        what = "timed out" if isinstance(exc, TimeoutError) else str(exc)
        for name in ("server.err", "game.err"):
            if tail := _tail(logs / name):
                what += f" | {name}: {tail}"
        return {"error": what}
    finally:
        await _stop(game)
        await _stop(serving)


def run(server: Server, job: Job, env: dict[str, str], logs: Path) -> dict[str, Any]:
    """Run ``job`` against ``server`` in fresh processes; a failure is returned as data."""
    logs.mkdir(parents=True, exist_ok=True)
    return asyncio.run(_measure(server, job, env, logs))
