"""Signed event forwarding, checked by a small HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from mcbews_repl.toolkit import ChatContexts, EventForwarder, sign, verify_signature
from mcbews_repl.toolkit.webhook import DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER

from .conftest import World

SECRET = "s3cret"


@dataclass
class Receiver:
    """Answers with the scripted statuses (then 200) and keeps every request it got."""

    statuses: list[int] = field(default_factory=list)
    requests: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    url: str = ""

    def handler(self) -> type[BaseHTTPRequestHandler]:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                self.send_response(receiver.statuses.pop(0) if receiver.statuses else 200)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    server = ThreadingHTTPServer(("127.0.0.1", 0), found.handler())
    found.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield found
    server.shutdown()
    server.server_close()
    thread.join(5)


async def settle(forwarder: EventForwarder, key: str, want: int) -> None:
    for _ in range(500):
        if forwarder.counters[key] >= want:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{key} stayed at {forwarder.counters[key]}: {forwarder.stats()}")


def verified(request: tuple[dict[str, str], bytes]) -> dict[str, Any]:
    headers, body = request
    assert verify_signature(SECRET.encode(), headers[SIGNATURE_HEADER], body)
    payload: dict[str, Any] = json.loads(body)
    return payload


async def test_chat_events_arrive_signed_with_their_context_id(
    world: World, receiver: Receiver
) -> None:
    contexts = ChatContexts(world.mc)
    contexts.start()

    def enrich(entry: Any) -> Mapping[str, Any]:
        found = contexts.context_id_for(entry.cursor)
        return {"context_id": found} if found else {}

    forwarder = EventForwarder(world.mc.log, receiver.url, SECRET, kinds=["ui_chat"], enrich=enrich)
    forwarder.start()
    world.sim.ui_chat("Alex", "hello hook")
    await settle(forwarder, "delivered", 1)
    await forwarder.stop()
    [request] = receiver.requests
    payload = verified(request)
    assert payload["kind"] == "ui_chat" and payload["data"]["player"] == "Alex"
    assert (
        request[0][EVENT_HEADER] == "ui_chat" and request[0]["Content-Type"] == "application/json"
    )
    bundle = await contexts.get(payload["context_id"], player="Alex")
    assert bundle["message"] == "hello hook"


async def test_failures_are_retried_with_the_same_delivery_id(
    world: World, receiver: Receiver
) -> None:
    receiver.statuses = [500, 503, 429]
    forwarder = EventForwarder(
        world.mc.log, receiver.url, SECRET, kinds=["chat"], backoff_seconds=0.01
    )
    forwarder.start()
    world.sim.chat("Steve", "retried")  # plain chat: a PlayerMessage of type chat
    await settle(forwarder, "delivered", 1)
    await forwarder.stop()
    assert len(receiver.requests) == 4 and forwarder.counters["retried"] == 3
    assert len({headers[DELIVERY_HEADER] for headers, _ in receiver.requests}) == 1
    assert all(verified(r)["data"]["message"] == "retried" for r in receiver.requests)


async def test_a_client_error_is_not_retried(world: World, receiver: Receiver) -> None:
    receiver.statuses = [403]
    forwarder = EventForwarder(
        world.mc.log, receiver.url, SECRET, kinds=["chat"], backoff_seconds=0.01
    )
    forwarder.start()
    world.sim.run_command("say refused", as_player="Steve")
    await settle(forwarder, "rejected", 1)
    await forwarder.stop()
    assert len(receiver.requests) == 1 and forwarder.counters["delivered"] == 0


async def test_an_unreachable_endpoint_fails_after_its_attempts(world: World) -> None:
    forwarder = EventForwarder(
        world.mc.log,
        "http://127.0.0.1:9/nowhere",
        SECRET,
        kinds=["chat"],
        attempts=3,
        backoff_seconds=0.01,
        timeout_seconds=1,
    )
    forwarder.start()
    world.sim.run_command("say anyone?", as_player="Steve")
    await settle(forwarder, "failed", 1)
    await forwarder.stop()
    assert forwarder.counters["retried"] == 2


async def test_a_stuck_endpoint_never_blocks_the_bridge(world: World) -> None:
    stuck = asyncio.Event()

    async def never_answers(url: str, body: bytes, headers: Mapping[str, str], t: float) -> int:
        await stuck.wait()
        return 200

    forwarder = EventForwarder(
        world.mc.log,
        "http://127.0.0.1:9/",
        SECRET,
        kinds=["command"],
        queue_limit=3,
        post=never_answers,
    )
    forwarder.start()
    started = time.perf_counter()
    results = await asyncio.gather(*(world.mc.command(f"say {i}") for i in range(20)))
    assert all(r.ok for r in results) and time.perf_counter() - started < 5
    assert forwarder.counters["queued"] == 4  # one in the stuck post, three waiting
    assert forwarder.counters["dropped"] == 16
    await forwarder.stop()


def test_signatures() -> None:
    body, now = b'{"kind":"chat"}', 1_800_000_000
    header = sign(b"k", now, body)
    assert verify_signature(b"k", header, body, now=now + 10)
    assert not verify_signature(b"other", header, body, now=now)
    assert not verify_signature(b"k", header, body + b" ", now=now)
    assert not verify_signature(b"k", header, body, now=now + 301)  # too old: a replay
    assert not verify_signature(b"k", "v1=abc", body, now=now)
    assert not verify_signature(b"k", "t=soon,v1=abc", body, now=now)


@pytest.mark.parametrize(("url", "secret"), [("ftp://x/", "k"), ("http://x/", "")])
def test_forwarder_refuses_bad_settings(url: str, secret: str) -> None:
    from mcbews_repl.gateway import EventLog

    with pytest.raises(ValueError):
        EventForwarder(EventLog(), url, secret)
