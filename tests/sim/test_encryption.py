"""ws:encrypt over real sockets: each handshake form and mode, the policy, the races, and
broken peers, between the gateway and the simulated game (or a raw game or server)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import mcbews_repl
from mcbews_repl.gateway.encryption import KeyExchange
from mcbews_repl.sansio.encrypt import ENCRYPT_SUBPROTOCOL, ENCRYPTION_REQUIRED
from mcbews_repl.sansio.handshake import State
from mcbews_repl.sim import SimWorld
from mcbews_repl.sim.frames import chat_event, encrypt_response
from mcbews_repl.sim.model import ChatLine
from mcbews_repl.sim.wsencrypt import accept_key_exchange

from .conftest import BareServer, command_frame, recv_json


@asynccontextmanager
async def linked(
    bridge: dict[str, Any], sim: dict[str, Any]
) -> AsyncIterator[tuple[mcbews_repl.Bridge, SimWorld]]:
    async with (
        mcbews_repl.serve(port=0, **bridge) as mc,
        SimWorld(fast=True, addon=False, **sim) as world,
    ):
        await world.connect(mc.url)
        await mc.wait_connected(timeout=5)
        yield mc, world


def kinds(mc: mcbews_repl.Bridge, kind: str) -> list[str]:
    return [e.summary for e in mc.events() if e.kind == kind]


@pytest.mark.parametrize("form", ["ws:encrypt", "command"])
@pytest.mark.parametrize("mode", ["cfb8", "cfb"])
async def test_each_form_and_mode(form: str, mode: str) -> None:
    bridge = {"encrypt": True, "encryption_handshake": form, "encryption_mode": mode}
    async with linked(bridge, {"require_encryption": True}) as (mc, sim):
        connection = mc.pick()
        assert connection.state is State.OPEN
        assert connection.encrypted and connection.encryption is not None
        assert (connection.encryption.form, connection.encryption.mode) == (form, mode)
        assert connection.local_player == "Steve"
        assert (await mc.command("testfor @a")).ok
        assert sim.client is not None and sim.client.encrypted
        assert kinds(mc, "encrypted") == [f"#1 encrypted ({form}, aes-256-{mode})"]
        assert "encrypted" in repr(connection)


async def test_auto_falls_back_to_the_command_for_an_old_client() -> None:
    async with linked({}, {"legacy_encryption": True, "require_encryption": True}) as (mc, _):
        assert mc.pick().encryption is not None
        assert mc.pick().encryption.form == "command"  # type: ignore[union-attr]
        assert (await mc.command("say hi")).ok


async def test_an_old_client_refusing_ws_encrypt_fails_clearly_when_no_fallback() -> None:
    async with (
        mcbews_repl.serve(port=0, encryption_handshake="ws:encrypt") as mc,
        SimWorld(fast=True, addon=False, legacy_encryption=True) as sim,
    ):
        await sim.connect(mc.url)
        await asyncio.wait_for(sim.wait_disconnected(), 5)
        [failure] = kinds(mc, "encryption_failed")
        # The game's "Invalid request type" (commands.generic.malformed.type, facts.json)
        assert "refused encryption (ws:encrypt: -2147418111 Invalid request type)" in failure


async def test_encrypt_true_refuses_a_client_that_cannot() -> None:
    async with (
        mcbews_repl.serve(port=0, encrypt=True) as mc,
        SimWorld(fast=True, addon=False, offer_encryption=False) as sim,
    ):
        with pytest.raises(InvalidStatus, match="403"):
            await sim.connect(mc.url)
        assert kinds(mc, "refused") and "encrypt=True" in kinds(mc, "refused")[0]


async def test_auto_serves_a_client_that_cannot_encrypt_in_plaintext() -> None:
    async with linked({}, {"offer_encryption": False}) as (mc, _):
        assert not mc.pick().encrypted and (await mc.command("say hi")).ok


async def test_encrypt_false_against_a_world_that_requires_it() -> None:
    async with linked({"encrypt": False}, {"require_encryption": True}) as (mc, sim):
        result = await mc.command("say hi")
        assert result.status_code == ENCRYPTION_REQUIRED and not result.ok
        assert not mc.pick().encrypted and sim.client is not None and not sim.client.encrypted


# --- a raw game: races and broken answers -----------------------------------------------


async def raw_game(mc: mcbews_repl.Bridge) -> tuple[ClientConnection, dict[str, Any]]:
    ws = await connect(mc.url, subprotocols=[ENCRYPT_SUBPROTOCOL])  # type: ignore[list-item]
    request = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert request["header"]["messagePurpose"] == "ws:encrypt"
    return ws, request


def chat(message: str) -> str:
    return chat_event(ChatLine("Steve", message, "chat"))


async def test_a_plaintext_frame_racing_the_switch_is_accepted() -> None:
    async with mcbews_repl.serve(port=0, handshake_timeout=2) as mc:
        ws, request = await raw_game(mc)
        body = request["body"]
        answer, cipher = accept_key_exchange(body["publicKey"], body["salt"], body["mode"])
        await ws.send(encrypt_response(request["header"]["requestId"], answer))
        await ws.send(chat("sent before the game switched"))  # plaintext, racing
        await ws.send(cipher.encrypt(chat("encrypted")))
        subscribe = json.loads(cipher.decrypt(await asyncio.wait_for(ws.recv(), 5)))
        assert subscribe["header"]["messagePurpose"] == "subscribe"
        await ws.send(chat("plaintext after encrypted frames"))  # no race: dropped
        await ws.close()
        await asyncio.sleep(0.05)
        said = [s for s in kinds(mc, "chat")]
        assert said == ["<Steve> sent before the game switched", "<Steve> encrypted"]
        assert [e.data["reason"] for e in mc.events() if e.kind == "rejected"] == [
            "plaintext_after_encryption"
        ]


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE", "truncated or corrupted"),
        ("*not base64*", "not valid base64"),
        (None, "no publicKey"),
    ],
)
async def test_a_wrong_or_truncated_key_is_refused_and_nothing_hangs(
    key: str | None, why: str
) -> None:
    async with mcbews_repl.serve(port=0) as mc:
        ws, request = await raw_game(mc)
        body = {} if key is None else {"publicKey": key}
        header = {"messagePurpose": "ws:encrypt", "requestId": request["header"]["requestId"]}
        await ws.send(json.dumps({"header": header, "body": body}))
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1002
        [failure] = kinds(mc, "encryption_failed")
        assert why in failure
        await asyncio.sleep(0.05)
        assert mc.connections == []


async def test_a_silent_game_fails_the_handshake_in_time() -> None:
    async with mcbews_repl.serve(port=0, handshake_timeout=0.2) as mc:
        ws, _ = await raw_game(mc)
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
        assert (
            "did not answer the encryption handshake within 0.2 s"
            in kinds(mc, "encryption_failed")[0]
        )


# --- the simulated game against a raw server ----------------------------------------------


def encrypt_request(exchange: KeyExchange, mode: str = "cfb8") -> str:
    header = {"version": 1, "requestId": "e-1", "messagePurpose": "ws:encrypt"}
    body = {"mode": mode, "publicKey": exchange.public_key_b64, "salt": exchange.salt_b64}
    return json.dumps({"header": header, "body": body})


async def test_the_sim_accepts_a_plaintext_command_racing_the_switch(
    bare_server: BareServer,
) -> None:
    async with SimWorld(fast=True, addon=False, require_encryption=True) as sim:
        await sim.connect(bare_server.url)
        ws = await bare_server.connected.get()
        exchange = KeyExchange()
        rid, command = command_frame("testfor @a")
        await ws.send(encrypt_request(exchange))
        await ws.send(command)  # sent before our answer came: plaintext, racing the switch
        answer = await recv_json(ws)
        assert answer["header"]["messagePurpose"] == "ws:encrypt"
        cipher = exchange.complete(answer["body"]["publicKey"], "cfb8")
        reply = json.loads(cipher.open(await asyncio.wait_for(ws.recv(), 5)) or "")
        assert reply["header"]["requestId"] == rid and reply["body"]["statusCode"] == 0


async def test_the_sim_refuses_a_bad_server_key_and_stays_unencrypted(
    bare_server: BareServer,
) -> None:
    async with SimWorld(fast=True, addon=False) as sim:
        await sim.connect(bare_server.url)
        ws = await bare_server.connected.get()
        header = {"version": 1, "requestId": "e-1", "messagePurpose": "ws:encrypt"}
        body = {"mode": "cfb8", "publicKey": "AAAA", "salt": "AAECAwQFBgcICQoLDA0ODw=="}
        await ws.send(json.dumps({"header": header, "body": body}))
        error = await recv_json(ws)
        assert error["header"]["messagePurpose"] == "error"
        assert "Encryption handshake failed: publicKey is 3 bytes" in error["body"]["statusMessage"]
        _, command = command_frame("testfor @a")
        await ws.send(command)
        assert (await recv_json(ws))["body"]["statusCode"] == 0
        assert sim.client is not None and not sim.client.encrypted


async def test_the_sim_requires_encryption(bare_server: BareServer) -> None:
    async with SimWorld(fast=True, addon=False, require_encryption=True) as sim:
        await sim.connect(bare_server.url)
        ws = await bare_server.connected.get()
        rid, command = command_frame("say hi")
        await ws.send(command)
        error = await recv_json(ws)
        assert error["header"] == {"messagePurpose": "error", "requestId": rid, "version": 1}
        assert error["body"]["statusCode"] == ENCRYPTION_REQUIRED
        assert sim.chat_log == []  # not run


@pytest.mark.parametrize("mode_argument", ["", " cfb8"], ids=["mcwss-form", "mcpews-form"])
async def test_the_legacy_command_is_taken_with_or_without_its_mode(
    bare_server: BareServer, mode_argument: str
) -> None:
    """enableencryption "<key>" "<salt>" as one peer sends it (no mode: cfb8) and as the
    other does (the mode always appended): the simulated game takes both, as no capture
    says which the game needs (facts.json legacy_encryption_mode_argument)."""
    async with SimWorld(fast=True, addon=False, legacy_encryption=True) as sim:
        await sim.connect(bare_server.url)
        ws = await bare_server.connected.get()
        exchange = KeyExchange()
        line = f'enableencryption "{exchange.public_key_b64}" "{exchange.salt_b64}"'
        rid, frame = command_frame(line + mode_argument)
        await ws.send(frame)
        answer = await recv_json(ws)
        assert answer["header"] == {"messagePurpose": "commandResponse", "requestId": rid,
                                    "version": 1}  # fmt: skip
        cipher = exchange.complete(answer["body"]["publicKey"], "cfb8")
        rid, frame = command_frame("testfor @a")
        await ws.send(cipher.seal(frame))
        reply = json.loads(cipher.open(await asyncio.wait_for(ws.recv(), 5)) or "")
        assert reply["header"]["requestId"] == rid and reply["body"]["statusCode"] == 0
