"""Two simulated worlds connected at once: every reply goes back where its message came from.

Both worlds run the real addon and have a player called Alex, so an answer sent to the
wrong game would land in the other Alex's panel, where the test would see it. The first
runs the stable pack, the second the beta pack with Beta APIs on (its bridge player can
also send UI chat as chat, which the test uses for a message with a conversation id).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mcbews_repl import NotConnected
from mcbews_repl.repl.handle import Minecraft, UiMessage
from mcbews_repl.repl.handle._connections import Connection
from mcbews_repl.repl.handle._simulate import SimHandle, make_world
from mcbews_repl.repl.runtime import Pending
from mcbews_repl.sim import SimWorld

# A UI chat chunk as the addon's bridge player sends it, carrying a conversation id
# (the optional "cid" of docs/protocol.md); the addon's own panel sends none.
UI_CHAT_WITH_CID = (
    'tell @s MCBEWS|UI_CHAT|ui-9-1|1/1|{"player":"Bea","message":"in a thread","cid":"conv-7"}'
)


def wait_until(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.02)
    return found


def record_commands(world: SimWorld) -> list[str]:
    """Every command line the simulated game runs, as the game received it."""
    received: list[str] = []
    execute = world.interpreter.execute

    def recording(line: str, origin: Any) -> Any:
        received.append(line)
        return execute(line, origin)

    world.interpreter.execute = recording  # type: ignore[method-assign]
    return received


RECEIVED: dict[str, list[str]] = {}


@pytest.fixture(scope="module")
def two(shell: Any) -> Iterator[tuple[Minecraft, SimHandle, SimHandle]]:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft) and mc.sim is not None

    def second_world() -> SimWorld:
        world = SimWorld(make_world(["Alex", "Bea"]), fast=True, pack="beta", beta_apis=True)
        RECEIVED["second"] = record_commands(world)
        return world

    second = asyncio.run(SimHandle.launch(second_world, mc.url, "mcbews-sim-second"))
    wait_until(lambda: [c.local_player for c in mc.connections] == ["Steve", "Alex"])
    wait_until(lambda: [c.transport for c in mc.connections] == ["pull", "pull"])
    wait_until(lambda: "MCBEWS_BRIDGE" in second.world.players)
    yield mc, mc.sim, second
    asyncio.run(second.close())
    wait_until(lambda: len(mc.connections) == 1)


def replies_in(world: SimHandle, player: str, needle: str) -> list[str]:
    return [line for line in world.inbox(player) if needle in line]


def test_connections_are_thread_safe_handles(two: tuple[Minecraft, SimHandle, SimHandle]) -> None:
    mc, _, _ = two
    first, second = mc.connections
    assert isinstance(first, Connection) and first == mc.connections[0]
    pending = second.command("testfor @a")
    assert isinstance(pending, Pending)

    async def from_another_loop() -> bool:  # a cell's loop is not the bridge's
        result = await asyncio.wait_for(first.command("say awaited"), 5)
        return result.ok

    assert asyncio.run(from_another_loop())
    assert pending.result(5).status_message.startswith("Found Alex, Bea")  # the second world
    assert repr(second).startswith("<Connection #") and "Alex from 127.0.0.1:" in repr(second)


def test_ui_chat_replies_go_to_the_world_they_came_from(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    mc, world_a, world_b = two
    seen: list[tuple[str, int | None, str | None]] = []

    def echo(msg: UiMessage) -> None:
        assert msg.connection is not None
        seen.append((msg.player, msg.connection.id, msg.conversation_id))
        msg.reply(f"echo: {msg.message}")

    mc.on_ui_chat(echo)
    try:
        world_a.ui_chat("Alex", "hello from A")
        wait_until(lambda: replies_in(world_a, "Alex", "echo: hello from A"))
        world_b.ui_chat("Alex", "hello from B")
        wait_until(lambda: replies_in(world_b, "Alex", "echo: hello from B"))
        world_b.run_command(UI_CHAT_WITH_CID, as_player="MCBEWS_BRIDGE")
        wait_until(lambda: replies_in(world_b, "Bea", "echo: in a thread"))
    finally:
        mc.off_ui_chat(echo)
    assert not replies_in(world_b, "Alex", "echo: hello from A")
    assert not replies_in(world_a, "Alex", "echo: hello from B")
    first, second = (c.id for c in mc.connections)
    assert seen == [("Alex", first, None), ("Alex", second, None), ("Bea", second, "conv-7")]
    # The answer's frames carried the conversation id to the second game.
    assert any('"cid":"conv-7"' in line for line in RECEIVED["second"])


def test_send_text_can_name_the_game_and_the_conversation(
    two: tuple[Minecraft, SimHandle, SimHandle],
) -> None:
    mc, world_a, world_b = two
    first, second = mc.connections
    mc.send_text("Alex", "to the second game", connection=second, conversation_id="c9").result(20)
    mc.send_text("Alex", "to the first game", connection=first.id).result(20)
    assert replies_in(world_b, "Alex", "to the second game")
    assert replies_in(world_a, "Alex", "to the first game")
    assert not replies_in(world_a, "Alex", "to the second game")
    assert any('"cid":"c9"' in line for line in RECEIVED["second"])
    with pytest.raises(NotConnected, match="no open game connection #99"):
        mc.command("say nowhere", connection=99).result(5)
