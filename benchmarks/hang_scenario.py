"""A prototype hangs one simulated world while another game works: the scenario, reusable.

    from hang_scenario import HungWorld, other_game, probe_commands, time_ws_open

    with mcbews_repl.start(port=0) as mc, other_game(mc) as other:
        hung = HungWorld.own_thread(mc)           # what mc.simulate() makes
        hung.start("eval", mc)                    # its prototype hangs (returns once it runs)
        latencies = asyncio.run(probe_commands(other, until=hung.ended))
        opened_in = asyncio.run(time_ws_open(mc.url))
        hung.close()

``HungWorld.bridge_loop(mc)`` puts the world where ``%mc sim`` put it before the worlds had
threads of their own: on the bridge's own loop. The other game is a simulated world without
scripts on a thread of its own, as a real game is a process of its own. ``probe_commands``
sends ``testfor @a`` to it every ``every`` seconds (open loop: a late answer does not delay
the next send) and returns each round trip in milliseconds. A soak benchmark can run
``hung.start(...)`` in a phase and read ``hung.ended()`` and the probe's figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from typing import Any

from websockets.asyncio.client import connect

from mcbews_repl.repl.handle import Connection, Minecraft, SimHandle, make_world
from mcbews_repl.repl.runtime import Pending, Runtime
from mcbews_repl.sim import SimWorld

# The hostile prototypes: each tags Steve first (so the caller knows its job began), then
# hangs. "loop" is one the loops' own checks stop; the others only the engine's interrupt.
HANGS = {
    "loop": "let n = 0; while (true) { n++; }",
    "eval": 'eval("while (true) {}");',
    "regex": "/^(a|a)*$/.test('a'.repeat(40) + 'b');",
}
_PROTOTYPE = """export default {{
  name: "hang",
  description: "tags Steve, then hangs",
  params: {{}},
  run(payload, ctx) {{
    ctx.runCommand("tag Steve add hanging");
    {body}
    return {{ ok: true, result: {{}} }};
  }},
}};
"""
OTHER_PLAYER = "Otto"
_WAIT_SECONDS = 60.0


def hang_source(kind: str) -> str:
    return _PROTOTYPE.format(body=HANGS[kind])


def _wait_until(check: Callable[[], bool], seconds: float = _WAIT_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the scenario's condition never came true")
        time.sleep(0.01)


class HungWorld:
    """A simulated world (Steve and Alex, the real addon) whose prototype can hang it."""

    def __init__(self, world: SimWorld, on_world: Callable[[Callable[[], Any]], Any]) -> None:
        self.world = world
        self._on_world = on_world  # run a function on the world's loop and wait for it
        self._close: Callable[[], None] = lambda: None
        self._call: Pending[Any] | None = None
        self._errors_before = 0

    @classmethod
    def own_thread(cls, mc: Minecraft) -> HungWorld:
        """Where the notebook's worlds run now: a thread of their own (``mc.simulate()``)."""
        handle: SimHandle = mc.simulate().result(_WAIT_SECONDS)
        hung = cls(handle.raw, lambda fn: handle.on_loop(fn))
        hung._close = lambda: mc._runtime.run(handle.close(), 10)
        return hung

    @classmethod
    def bridge_loop(cls, mc: Minecraft) -> HungWorld:
        """Where they ran before: on the bridge's own loop, beside its connections."""
        loop = mc._runtime.loop
        world = SimWorld(make_world(None))
        asyncio.run_coroutine_threadsafe(world.connect(mc.url), loop).result(_WAIT_SECONDS)
        hung = cls(world, lambda fn: world.call_threadsafe(fn).result(_WAIT_SECONDS))
        hung._close = lambda: asyncio.run_coroutine_threadsafe(world.close(), loop).result(30)
        _wait_until(lambda: any(c.local_player == "Steve" for c in mc.connections))
        return hung

    def start(self, kind: str, mc: Minecraft) -> None:
        """Define the hostile prototype and call it; return once its job is running (the
        call itself gets no answer: the interrupted job never gives one)."""
        host = self.world.host
        assert host is not None
        self._on_world(lambda: host.define_prototype("hang", hang_source(kind)))
        self._errors_before = len(self._hangs())
        self._on_world(lambda: self.world.world.players["Steve"].tags.discard("hanging"))
        steve = next(c for c in mc.connections if c.local_player == "Steve")
        self._call = mc.call("hang", connection=steve, timeout=_WAIT_SECONDS)
        _wait_until(lambda: "hanging" in self.world.world.players["Steve"].tags)

    def _hangs(self) -> list[str]:
        return [e for e in self.world.script_errors if "script hang" in e]

    def ended(self) -> bool:
        """The watchdog stopped the job: the loops' checks make the call answer (with the
        WatchdogError), the engine's interrupt leaves its error in the content log."""
        answered = self._call is not None and self._call.done()
        return answered or len(self._hangs()) > self._errors_before

    def close(self) -> None:
        if self._call is not None:
            self._call.cancel()
        self._close()


@contextlib.contextmanager
def other_game(mc: Minecraft) -> Iterator[Connection]:
    """Another game, connected on a thread of its own; yields its connection in ``mc``."""
    thread = Runtime(name="other-game")
    thread.start()
    world = SimWorld(make_world([OTHER_PLAYER]), fast=True, addon=False)
    thread.run(world.connect(mc.url), _WAIT_SECONDS)
    _wait_until(lambda: any(c.local_player == OTHER_PLAYER for c in mc.connections))
    try:
        yield next(c for c in mc.connections if c.local_player == OTHER_PLAYER)
    finally:
        thread.run(world.close(), 30)
        thread.stop()


async def probe_commands(
    other: Connection, until: Callable[[], bool], every: float = 0.02, least: int = 0
) -> list[float]:
    """Round trips (ms) of ``testfor @a`` sent to ``other`` every ``every`` seconds until
    ``until()`` (and at least ``least`` of them)."""
    samples: list[float] = []

    async def one() -> None:
        start = time.perf_counter()
        await other.command("testfor @a", timeout=_WAIT_SECONDS)
        samples.append((time.perf_counter() - start) * 1000)

    tasks = []
    while not until() or len(tasks) < least:
        tasks.append(asyncio.create_task(one()))
        await asyncio.sleep(every)
    await asyncio.gather(*tasks)
    return samples


async def time_ws_open(url: str) -> float:
    """Milliseconds for a new game's WebSocket open (the handshake), then it leaves."""
    start = time.perf_counter()
    async with connect(url, open_timeout=_WAIT_SECONDS):
        return (time.perf_counter() - start) * 1000
