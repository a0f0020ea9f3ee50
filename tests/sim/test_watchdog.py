"""The watchdog cannot be bypassed: whatever a prototype runs, its job ends at the hang
threshold and the world answers again.

Each world runs on a thread of its own (as the notebook's do), so that a hang the watchdog
misses shows as a test that fails after a generous wait, not as a test run that never ends.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar

import pytest

import mcbews_repl
from mcbews_repl import CapabilityError, McbewsError
from mcbews_repl.exceptions import PrototypeError
from mcbews_repl.repl.runtime import Pending, Runtime
from mcbews_repl.sim import SimWorld, interrupt

T = TypeVar("T")
# QuickJS's interrupt can be installed only where the binding exports its functions (docs/sim.md:
# Linux, where these tests run); elsewhere the loops' checks alone are tested.
needs_engine = pytest.mark.skipif(
    not interrupt.available(), reason="QuickJS's interrupt handler is not reachable here"
)
THRESHOLD_MS = 300
# Far longer than any interrupted job takes, even on a busy machine: reaching it means the
# hang was never stopped.
STUCK_SECONDS = 60.0

# Runaway code the loops' own checks cannot see: no loop of the module's own text spins.
HOSTILE = {
    "eval": 'eval("while (true) {}");',
    "new Function": '(new Function("for (;;) {}"))();',
    "a catastrophic regex": "/^(a|a)*$/.test('a'.repeat(40) + 'b');",
    "a long built-in call": (
        "new Array(2e6).fill(0).map((v, i) => (i * 7919) % 1000003).sort((a, b) => a - b);"
    ),
    "for…of an endless iterator": (
        "for (const x of { [Symbol.iterator]: () => ({ next: () => ({ done: false }) }) }) {}"
    ),
    "a swallowed interrupt": 'eval("for (;;) { new Promise(() => { for (;;) {} }); }");',
}
# QuickJS turns an interrupt inside a Promise executor into a rejection; the watchdog then
# refuses every call, and the error that ends the job carries no frames.
NO_LINE = {"a swallowed interrupt"}


def at_top(snippet: str) -> str:
    """A prototype whose module runs ``snippet`` when it loads (line 2)."""
    return (
        'import { world } from "@minecraft/server";\n'
        f"{snippet}\n"
        'export default { name: "hang", description: "hangs", params: {}, run() {} };\n'
    )


def in_run(snippet: str) -> str:
    """A prototype that runs ``snippet`` when called (line 6), inside the custom command."""
    return (
        "export default {\n"
        '  name: "hang",\n'
        '  description: "hangs when called",\n'
        "  readOnly: true, params: {},\n"
        "  run(payload, ctx) {\n"
        f"    {snippet}\n"
        "    return { ok: true, result: {} };\n"
        "  },\n"
        "};\n"
    )


async def within(pending: Pending[T]) -> T:
    async def wait() -> T:
        return await pending

    return await asyncio.wait_for(wait(), STUCK_SECONDS)


class ThreadWorld:
    """A SimWorld on its own event-loop thread; calls wait for it with a deadline."""

    def __init__(self, world: SimWorld) -> None:
        self.world = world
        self.thread = Runtime(name="mcbews-test-world")

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        async def on_world() -> T:
            return fn(*args)

        return await within(self.thread.submit(on_world()))

    async def start(self, url: str) -> None:
        self.thread.start()
        await within(self.thread.submit(self.world.connect(url)))

    def stop(self) -> None:
        try:
            self.thread.run(self.world.close(), 10)
        finally:
            self.thread.stop()


@pytest.fixture
async def hosted() -> AsyncIterator[tuple[mcbews_repl.Bridge, ThreadWorld]]:
    async with mcbews_repl.serve(host="127.0.0.1", port=0) as mc:
        hosted = ThreadWorld(SimWorld(fast=True, hang_threshold_ms=THRESHOLD_MS))
        await hosted.start(mc.url)
        await mc.wait_connected(timeout=30)
        try:
            yield mc, hosted
        finally:
            await asyncio.to_thread(hosted.stop)


async def answers(mc: mcbews_repl.Bridge) -> bool:
    snapshot = await mc.call("get_player_snapshot", target="Steve", timeout=30)
    return bool(snapshot["players"][0]["name"] == "Steve")


@needs_engine
@pytest.mark.parametrize("kind", list(HOSTILE))
async def test_a_hostile_module_is_stopped_where_it_loads(
    hosted: tuple[mcbews_repl.Bridge, ThreadWorld], kind: str
) -> None:
    mc, hosted_world = hosted
    host = hosted_world.world.host
    assert host is not None
    with pytest.raises(PrototypeError) as refused:
        await hosted_world.call(host.define_prototype, "hang", at_top(HOSTILE[kind]))
    message = str(refused.value)
    assert message.startswith(
        f"cell hang failed to load: WatchdogError: script hang: ran longer than {THRESHOLD_MS} ms"
    )
    assert kind in NO_LINE or "cell hang, line 2" in message  # the module's line that hung
    assert await answers(mc)


@needs_engine
@pytest.mark.parametrize("kind", list(HOSTILE))
async def test_a_hostile_call_is_stopped_and_the_world_answers_again(
    hosted: tuple[mcbews_repl.Bridge, ThreadWorld], kind: str
) -> None:
    mc, hosted_world = hosted
    host = hosted_world.world.host
    assert host is not None
    await hosted_world.call(host.define_prototype, "hang", in_run(HOSTILE[kind]))
    # The interrupt cannot be caught, by the addon either: the custom command fails, as a
    # script error does, and the error (the hang, with the cell's line) is the content log's.
    with pytest.raises(McbewsError):
        await asyncio.wait_for(mc.call("hang", timeout=STUCK_SECONDS), STUCK_SECONDS)
    errors = await hosted_world.call(lambda: hosted_world.world.script_errors)
    hang = [e for e in errors if "WatchdogError: script hang" in e]
    assert hang and (kind in NO_LINE or "cell hang, line 6" in hang[0])
    assert await answers(mc)


@needs_engine
async def test_restricted_execution_ends_with_the_interrupted_command(
    hosted: tuple[mcbews_repl.Bridge, ThreadWorld],
) -> None:
    mc, hosted_world = hosted
    host = hosted_world.world.host
    assert host is not None
    await hosted_world.call(host.define_prototype, "hang", in_run(HOSTILE["eval"]))
    with pytest.raises(McbewsError):
        await mc.call("hang", timeout=STUCK_SECONDS)
    tagger = (
        in_run('ctx.runCommand("tag Steve add after_the_hang");')
        .replace('"hang"', '"tagger"')
        .replace("readOnly: true, ", "")
    )
    await hosted_world.call(host.define_prototype, "tagger", tagger)
    await mc.call("tagger", timeout=30)  # it changes the world: it runs a tick later
    tags = await hosted_world.call(lambda: set(hosted_world.world.world.players["Steve"].tags))
    assert "after_the_hang" in tags


async def test_without_the_engine_interrupt_the_loops_are_still_stopped() -> None:
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0) as mc,
        SimWorld(fast=True, hang_threshold_ms=THRESHOLD_MS, watchdog="loops") as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=30)
        assert sim.watchdog == "loops"
        assert sim.host is not None
        sim.host.define_prototype("hang", in_run("let n = 0; while (true) { n++; }"))
        with pytest.raises(CapabilityError) as hung:
            await mc.call("hang", timeout=30)
        assert hung.value.message.startswith(
            f"hang failed: WatchdogError: script hang: ran longer than {THRESHOLD_MS} ms"
        )
        assert "cell hang, line 6" in hung.value.message
        assert await answers(mc)


async def test_a_platform_without_the_interrupt_falls_back_to_the_loops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(interrupt, "_engine", lambda: None)  # as where nothing is exported
    async with SimWorld(clock="manual") as sim:
        assert sim.watchdog == "loops"
        assert sim.host is not None and sim.host.watchdog == "loops"


@pytest.mark.skipif(sys.platform != "linux", reason="the wheel exports QuickJS's symbols on Linux")
async def test_the_engine_interrupt_is_found_and_passes_its_self_test() -> None:
    assert interrupt.available()
    async with SimWorld(clock="manual") as sim:
        assert sim.watchdog == "engine"


# Scripts that once reached the binding as values it turns into text with the GIL held and
# outside the engine's watch: a call into Python from there killed the process.
CRASHERS = {
    "a thrown object whose toString calls the Script API": (
        'throw { toString() { console.log("from toString"); return "boom"; } };'
    ),
    "an Error.prototype.toString that calls the Script API, then a hang": (
        'Error.prototype.toString = function () { console.log("again"); return "x"; };\n'
        'eval("for (;;) {}");'
    ),
    "a setter on a name the host sets": (
        'Object.defineProperty(globalThis, "__sim_deadline", { set(v) { console.log(v); } });'
    ),
    "a microtask that throws such an object": (
        'queueMicrotask(() => { throw { toString() { console.log("late"); return "b"; } }; });'
    ),
}
CRASH_SCRIPT = """
import asyncio, sys
from mcbews_repl.exceptions import PrototypeError
from mcbews_repl.sim import SimWorld, interrupt

async def main():
    async with SimWorld(clock="manual", hang_threshold_ms=300) as sim:
        try:
            sim.host.define_prototype("bad", sys.stdin.read())
            print("defined")
        except PrototypeError as exc:
            print("refused:", str(exc).splitlines()[0])
        await sim.advance(2)
        print("world answers:", sim.run_command("testfor @a").status_code == 0)

asyncio.run(main())
"""


@pytest.mark.parametrize("kind", list(CRASHERS))
def test_no_prototype_can_kill_the_process(kind: str) -> None:
    source = at_top(CRASHERS[kind])
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CRASH_SCRIPT)],
        input=source, capture_output=True, text=True, timeout=STUCK_SECONDS, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "world answers: True" in done.stdout
