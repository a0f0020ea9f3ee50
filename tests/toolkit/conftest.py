"""Fixtures for the toolkit: a bridge with the simulated world (running the addon) connected,
and a recorder that stands in for the bridge when a test must prove nothing was sent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

import mcbews_repl
from mcbews_repl import CommandResult
from mcbews_repl.sim import SimWorld


@dataclass
class World:
    mc: mcbews_repl.Bridge
    sim: SimWorld


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=5)
        yield World(mc, sim)


@dataclass
class Recorder:
    """A bridge double that records every line it is asked to send."""

    sent: list[str] = field(default_factory=list)

    async def command(self, line: str, *, timeout: float | None = None) -> CommandResult:
        self.sent.append(line)
        return CommandResult(line, 0, "")


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
