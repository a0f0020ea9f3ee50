"""Cancel means stop, at the source: a cancelled call sends nothing more, withdraws what it
queued, and tells the addon to drop its work; on both transports, through the real addon in
the simulated world over real sockets."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.gateway import GameConnection
from mcbews_repl.gateway.scope import CallScope, enter_scope, run_in_scope
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import read_blocks

# A box of 64 parts: far more than is read before the cancel.
BIG_BOX = ((-64, 0, -64), (63, 63, 63))
SETUPS = {
    "pull": ({"pack": "stable"}, "auto"),
    "chat": ({"pack": "beta", "beta_apis": True}, "chat"),
}
# Lines the bridge sends on its own whatever the calls do: UI chat polls.
HOUSEKEEPING = ("mcbews:poll",)
_REQUEST_ID = re.compile(r'"request_id":"([A-Za-z0-9]+)"|mcbews:pull ([A-Za-z0-9]+) ')


Linked = tuple[mcbews_repl.Bridge, SimWorld]


@pytest.fixture(params=sorted(SETUPS))
async def linked(request: pytest.FixtureRequest) -> AsyncIterator[Linked]:
    sim_options, transport = SETUPS[request.param]
    async with (
        mcbews_repl.serve(host="127.0.0.1", port=0, transport=transport) as mc,
        SimWorld(fast=True, **sim_options) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        yield mc, sim
        assert sim.script_errors == []


async def until(condition: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    """Poll ``condition`` until true; a generous deadline, for a busy machine."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {what}")
        await asyncio.sleep(0.01)


def received(sim: SimWorld) -> list[str]:
    assert sim.client is not None
    return [line for _, line in sim.client.received]


def work_lines(lines: list[str]) -> list[str]:
    return [
        line
        for line in lines
        if not line.startswith(HOUSEKEEPING) and not line.startswith("scriptevent mcbews:cancel")
    ]


async def start_and_cancel(
    mc: mcbews_repl.Bridge, scope: CallScope, answers: int
) -> asyncio.Task[Any]:
    """Start a big block read in ``scope``; cancel it once ``answers`` parts are read."""
    read: list[int] = []
    reading = read_blocks(mc, *BIG_BOX, progress=lambda done, total: read.append(done))
    task = asyncio.ensure_future(run_in_scope(reading, scope))
    await until(lambda: len(read) >= answers, f"{answers} parts read")
    task.cancel()
    at_cancel = scope.commands_sent  # what went out before the cancel was asked for
    with pytest.raises(asyncio.CancelledError):
        await task
    # The answers already due when the cancel was asked would have made the tasks send
    # their next pulls before the CancelledError reached the call: none may go out.
    assert scope.commands_sent == at_cancel
    return task


async def test_a_cancelled_read_sends_nothing_more(
    linked: Linked,
) -> None:
    mc, sim = linked
    scope = CallScope("blocks")
    before = len(received(sim))
    await start_and_cancel(mc, scope, answers=3)
    assert scope.cancelled
    sent = scope.commands_sent
    connection = mc.connections[0]
    await until(lambda: connection.pending == 0, "nothing pending on the connection")
    await until(lambda: len(work_lines(received(sim)[before:])) >= sent, "every sent line arrived")
    await sim.advance(40)  # two seconds of game time: anything still coming would be here
    lines = received(sim)[before:]
    assert len(work_lines(lines)) == sent
    assert scope.commands_sent == sent
    assert any(line.startswith("scriptevent mcbews:cancel ") for line in lines)


async def test_the_addon_keeps_nothing_for_a_cancelled_read(
    linked: Linked,
) -> None:
    mc, sim = linked
    before = len(received(sim))
    await start_and_cancel(mc, CallScope("blocks"), answers=2)
    connection: GameConnection = mc.connections[0]
    await until(lambda: connection.cancel_notices.ids_sent > 0, "a cancel notice was taken")
    ids = {a or b for line in received(sim)[before:] for a, b in _REQUEST_ID.findall(line)}
    assert ids
    for request_id in sorted(ids):
        reply = await mc.command(f"mcbews:pull {request_id} 1")
        assert reply.status_message == f"MCBEWS|NONE|{request_id}|unknown"


async def test_a_straggling_task_of_a_cancelled_call_cannot_send(
    linked: Linked,
) -> None:
    mc, sim = linked
    scope = CallScope("straggler")
    enter_scope(scope)
    scope.cancelled = True  # what Pending.cancel() does from the notebook's thread
    before = len(received(sim))
    with pytest.raises(asyncio.CancelledError, match="straggler was cancelled"):
        await mc.command("say after the cancel")
    await sim.advance(5)
    assert work_lines(received(sim)[before:]) == []
    assert scope.commands_sent == 0


async def test_queued_commands_are_withdrawn_unsent(
    linked: Linked,
) -> None:
    mc, sim = linked
    scope = CallScope("many")

    async def burst() -> None:  # its tasks are made inside the scope, so they inherit it
        await asyncio.gather(*(mc.command(f"say n{n}") for n in range(300)))

    task = asyncio.ensure_future(run_in_scope(burst(), scope))
    await until(lambda: scope.commands_sent >= 100, "the window is full")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert scope.commands_withdrawn > 0
    assert scope.commands_sent + scope.commands_withdrawn == 300
    connection = mc.connections[0]
    await until(lambda: connection.pending == 0, "nothing pending on the connection")
    await sim.advance(5)
    said = [line for line in received(sim) if line.startswith("say n")]
    assert len(said) == scope.commands_sent


async def test_a_cancelled_text_delivery_drops_its_half_sent_response(
    linked: Linked,
) -> None:
    mc, sim = linked
    connection = mc.connections[0]
    scope = CallScope("text")

    inbox = len(sim.inbox("Steve"))
    sending = mc.send_text("Steve", "a long answer. " * 400)
    task = asyncio.ensure_future(run_in_scope(sending, scope))
    await until(lambda: scope.commands_sent >= 3, "a few frames sent")
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await until(lambda: connection.cancel_notices.ids_sent > 0, "a cancel notice was taken")
    await sim.advance(40)
    assert sim.inbox("Steve")[inbox:] == []
    frames = [line for line in received(sim) if line.startswith("scriptevent mcbews:text_resp")]
    assert len(frames) == scope.commands_sent


async def test_a_cancel_asked_of_the_call_stops_its_other_tasks_at_once(linked: Linked) -> None:
    """The call's task is cancelled from inside one of its own tile tasks (as a reply comes
    in): that tile task goes straight on to ask for its next part, before the CancelledError
    has reached the call. It must not be sent."""
    mc, _ = linked
    scope = CallScope("blocks")
    task: list[asyncio.Task[Any]] = []
    at_cancel: list[int] = []

    def progress(done: int, total: int) -> None:
        if not at_cancel and done >= 4096:
            task[0].cancel()
            at_cancel.append(scope.commands_sent)

    task.append(
        asyncio.ensure_future(run_in_scope(read_blocks(mc, *BIG_BOX, progress=progress), scope))
    )
    with pytest.raises(asyncio.CancelledError):
        await task[0]
    assert at_cancel and scope.commands_sent == at_cancel[0]
