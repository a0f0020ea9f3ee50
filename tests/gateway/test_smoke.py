from __future__ import annotations

from mcbews_repl import Bridge

from .conftest import ConnectGame


async def test_smoke(mc: Bridge, connect_game: ConnectGame) -> None:
    game = await connect_game()
    r = await mc.command("say hi")
    print(r, mc.connections, game.subscriptions)
    assert r.ok
