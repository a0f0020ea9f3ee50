"""Cancelling a Pending from a script stops every kind of call at the source: the inventory
fan-out, ``mc.each`` across worlds, a long ``send_text``, the doctor, and a call an
``asyncio.wait_for`` gives up on. Each leaves nothing pending and sends nothing more."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.runtime import Pending

pytestmark = pytest.mark.slow  # a bridge thread and simulated worlds at the game's clock

DEADLINE_SECONDS = 30.0
HOUSEKEEPING = ("mcbews:poll", "scriptevent mcbews:cancel")


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"not within {DEADLINE_SECONDS:g} s: {what}"
        time.sleep(0.02)


def pending_everywhere(mc: Minecraft) -> int:
    return sum(c.pending for c in mc.bridge.connections)


def work_received(sims: list[Any]) -> int:
    return sum(
        1
        for sim in sims
        for _, line in list(sim.raw.client.received)
        if not line.startswith(HOUSEKEEPING)
    )


def cancel_when_sent(pending: Pending[Any], commands: int) -> None:
    scope = pending.scope
    assert scope is not None
    until(lambda: scope.total("commands_sent") >= commands, f"{commands} commands sent")
    assert pending.cancel()


def settles_with_nothing_more(mc: Minecraft, sims: list[Any], pending: Pending[Any]) -> None:
    """Nothing pending, and the worlds received exactly what the call had sent."""
    scope = pending.scope
    assert scope is not None and scope.cancelled
    until(lambda: pending_everywhere(mc) == 0, "nothing pending")
    assert scope.wait_finished(DEADLINE_SECONDS)
    sent = scope.total("commands_sent")
    until(lambda: work_received(sims) - BASELINE[id(mc)] >= sent, "what was sent arrived")
    time.sleep(1)  # twenty game ticks: anything still on its way would arrive
    assert work_received(sims) - BASELINE[id(mc)] == sent
    with pytest.raises(concurrent.futures.CancelledError):
        pending.result(DEADLINE_SECONDS)


BASELINE: dict[int, int] = {}


@pytest.fixture(scope="module")
def one_world() -> Iterator[Minecraft]:
    with mcbews_repl.start(port=0) as mc:
        mc.simulate([f"Pupil{n}" for n in range(12)]).result(60)
        yield mc


def baseline(mc: Minecraft, sims: list[Any]) -> list[Any]:
    until(lambda: pending_everywhere(mc) == 0, "a quiet start")
    BASELINE[id(mc)] = work_received(sims)
    return sims


def test_cancelling_the_inventory_fan_out(one_world: Minecraft) -> None:
    sims = baseline(one_world, [one_world.sim])
    one_world.sim.pause()  # the game holds the first question: the fan-out is mid-way
    try:
        pending = one_world.inventory()
        cancel_when_sent(pending, 1)  # who is online; the twelve players' asks must not follow
    finally:
        one_world.sim.resume()
    settles_with_nothing_more(one_world, sims, pending)
    assert pending.scope is not None and pending.scope.total("commands_sent") == 1


def test_cancelling_a_long_text(one_world: Minecraft) -> None:
    sims = baseline(one_world, [one_world.sim])
    shown = len(one_world.sim.inbox("Pupil0"))
    pending = one_world.send_text("Pupil0", "a long answer, sent frame by frame. " * 300)
    cancel_when_sent(pending, 3)
    settles_with_nothing_more(one_world, sims, pending)
    assert one_world.sim.inbox("Pupil0")[shown:] == []  # the half-sent text is dropped


def test_cancelling_the_doctor(one_world: Minecraft) -> None:
    sims = baseline(one_world, [one_world.sim])
    pending = one_world.doctor()
    cancel_when_sent(pending, 3)
    settles_with_nothing_more(one_world, sims, pending)


def test_a_timeout_of_wait_for_stops_the_read_and_stays_a_timeout(one_world: Minecraft) -> None:
    sims = baseline(one_world, [one_world.sim])
    made: list[Pending[Any]] = []

    async def script() -> None:
        made.append(one_world.blocks((-64, 0, -64), (63, 63, 63)))
        await asyncio.wait_for(made[0], 1.0)

    with pytest.raises(TimeoutError):
        asyncio.run(script())
    settles_with_nothing_more(one_world, sims, made[0])


def test_cancelling_each_across_a_class() -> None:
    with mcbews_repl.start(port=0) as mc:
        sims = mc.simulate(worlds=3).result(60)
        baseline(mc, sims)
        for sim in sims:
            sim.pause()
        try:
            pending = mc.each.inventory()
            cancel_when_sent(pending, 3)  # each world's who-is-online question
        finally:
            for sim in sims:
                sim.resume()
        scope = pending.scope
        assert scope is not None and len(scope.parts) == 3
        settles_with_nothing_more(mc, sims, pending)
        assert all(part.cancelled for part in scope.parts)


def test_an_interrupt_while_the_blocks_bar_is_drawn_sends_nothing(
    one_world: Minecraft, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C can land while a notebook draws the read's progress bar, before the cell
    holds the Pending it could wait on or cancel: the read must not have started then."""
    from mcbews_repl.repl.handle import _toolkit

    sims = baseline(one_world, [one_world.sim])

    def interrupted_while_drawing(volume: int, parts: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_toolkit, "blocks_bar", interrupted_while_drawing)
    with pytest.raises(KeyboardInterrupt):
        one_world.blocks((-64, 0, -64), (63, 63, 63))
    time.sleep(1)  # twenty game ticks: a read that had started would have sent by now
    assert pending_everywhere(one_world) == 0
    assert work_received(sims) == BASELINE[id(one_world)]
