"""Chat-moment contexts: captured at the chat, bounded, expiring, never another player's."""

from __future__ import annotations

import asyncio
from typing import Any

from mcbews_repl.sim.model import Vec3
from mcbews_repl.toolkit import ChatContexts

from .conftest import World

PRIVATE_FIELDS = {"player", "message", "location", "dimension", "held", "rotation"}


async def wait_for_context(world: World, contexts: ChatContexts, player: str) -> str:
    """The context id of ``player``'s newest chat, once the bridge has logged it."""
    for _ in range(200):
        for entry in reversed(world.mc.events(0)):
            who = entry.data.get("player") or entry.data.get("sender")
            if entry.kind in ("chat", "ui_chat") and who == player:
                found = contexts.context_id_for(entry.cursor)
                if found:
                    return found
        await asyncio.sleep(0.01)
    raise AssertionError(f"no context for {player}")


def assert_refused(answer: dict[str, Any], reason: str) -> None:
    assert (answer["ok"], answer["found"], answer["reason"]) == (False, False, reason)
    assert answer["why"] and answer["how_to"]
    assert not PRIVATE_FIELDS & set(answer)  # a refusal carries nobody's data


async def test_a_chat_captures_where_the_player_was_and_what_they_held(world: World) -> None:
    contexts = ChatContexts(world.mc)
    contexts.start()
    world.sim.ui_chat("Alex", "what is this place?")
    context_id = await wait_for_context(world, contexts, "Alex")
    bundle = await contexts.get(context_id)
    world.sim.world.players["Alex"].location = Vec3(500, 80, 500)  # she walks on afterwards
    assert (
        bundle["ok"] and bundle["player"] == "Alex" and bundle["message"] == "what is this place?"
    )
    assert bundle["location"] == {"x": 12.5, "y": 70, "z": -8.5}
    assert bundle["dimension"] == "minecraft:overworld" and bundle["selected_slot"] == 1
    assert bundle["held"]["typeId"] == "minecraft:arrow" and bundle["held_known"]
    assert contexts.read(context_id)["location"] == bundle["location"]  # the moment, not now
    assert context_id.startswith("ctx_") and "Alex" not in context_id


async def test_plain_chat_is_captured_and_echoes_are_not(world: World) -> None:
    contexts = ChatContexts(world.mc)
    contexts.start()
    world.sim.run_command("say hello", as_player="Steve")
    context_id = await wait_for_context(world, contexts, "Steve")
    assert (await contexts.get(context_id))["player"] == "Steve"
    before = contexts.stats()["held"]
    await world.mc.command("say from the bridge")  # comes back as an echo from External
    await asyncio.sleep(0.05)
    assert contexts.stats()["held"] == before


async def test_contexts_never_leak_across_players(world: World) -> None:
    contexts = ChatContexts(world.mc, capacity=2)
    contexts.start()
    world.sim.ui_chat("Alex", "one")
    alex = await wait_for_context(world, contexts, "Alex")
    world.sim.ui_chat("Steve", "two")
    steve = await wait_for_context(world, contexts, "Steve")
    assert (await contexts.get(steve, player="Steve"))["player"] == "Steve"
    assert_refused(await contexts.get(alex, player="Steve"), "player_mismatch")
    assert_refused(
        contexts.read(alex[:-1] + ("A" if alex[-1] != "A" else "B")), "unknown_context_id"
    )
    world.sim.ui_chat("Steve", "three")  # a third bundle evicts Alex's, the oldest
    for _ in range(100):
        if contexts.stats()["evicted"]:
            break
        await asyncio.sleep(0.01)
    assert_refused(contexts.read(alex), "expired")
    assert (await contexts.get(steve))["player"] == "Steve"


async def test_contexts_expire(world: World) -> None:
    now = [1000.0]
    contexts = ChatContexts(world.mc, ttl_seconds=30, clock=lambda: now[0])
    contexts.start()
    world.sim.ui_chat("Alex", "hi")
    context_id = await wait_for_context(world, contexts, "Alex")
    now[0] += 29.5
    fresh = await contexts.get(context_id)
    assert fresh["ok"] and fresh["expires_in_seconds"] == 0.5
    now[0] += 1
    assert_refused(contexts.read(context_id), "expired")
    assert_refused(await contexts.get(context_id), "expired")
    assert contexts.stats()["expired"] == 1
    assert_refused(contexts.read("ctx_never_issued"), "unknown_context_id")


async def test_a_failed_capture_is_data(world: World) -> None:
    contexts = ChatContexts(world.mc)
    contexts.start()
    connection = world.mc.connections[0]
    entry = world.mc.log.append("chat", "<Ghost> boo", connection.id, sender="Ghost", message="boo")
    await asyncio.sleep(0)
    context_id = contexts.context_id_for(entry.cursor)
    assert context_id is not None
    bundle = await contexts.get(context_id)
    assert (bundle["ok"], bundle["found"], bundle["player"]) == (False, True, "Ghost")
    assert "no player named Ghost" in bundle["error"] and bundle["location"] is None
    contexts.stop()
    world.mc.log.append("chat", "<Alex> later", connection.id, sender="Alex", message="later")
    assert contexts.stats() == {**contexts.stats(), "captured": 0, "failed": 1}


async def until_logged(world: World, kind: str, type_: str, count: int) -> list[Any]:
    for _ in range(300):
        found = [e for e in world.mc.events(0) if e.kind == kind and e.data.get("type") == type_]
        if len(found) >= count:
            return found
        await asyncio.sleep(0.01)
    raise AssertionError(f"fewer than {count} {kind} entries of type {type_}")


async def test_a_title_is_shown_not_said_so_it_is_not_captured(world: World) -> None:
    """/title reaches the bridge as a PlayerMessage of type title, from whoever ran it and to
    each target: logged as chat of that type, but no chat moment is captured for it, nor for
    the bridge's own tellraw echoes."""
    contexts = ChatContexts(world.mc)
    contexts.start()
    world.sim.run_command("title @a title Welcome!", as_player="Steve")
    titles = await until_logged(world, "chat", "title", 2)
    assert {(e.data["sender"], e.data["message"]) for e in titles} == {("Steve", "Welcome!")}
    await world.mc.command('tellraw @a {"rawtext":[{"text":"hi"}]}')
    echoes = await until_logged(world, "chat", "tell", 2)
    assert all(e.data["is_echo"] for e in echoes)
    await asyncio.sleep(0.05)
    assert contexts.stats()["held"] == 0
