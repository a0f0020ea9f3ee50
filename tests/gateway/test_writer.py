"""The frame writer: frames ready together share a socket write, each stays its own message.

A real websockets server and client on 127.0.0.1; the server's transport is wrapped to count
its writes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from mcbews_repl.gateway.writer import FrameWriter


@asynccontextmanager
async def linked() -> AsyncIterator[tuple[FrameWriter, Any, list[bytes]]]:
    """A writer on the server's side of a connection, the client, and the server's writes."""
    ready: asyncio.Future[ServerConnection] = asyncio.get_running_loop().create_future()
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        ready.set_result(ws)
        await done.wait()

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as client:
            ws = await ready
            writes: list[bytes] = []
            real_write = ws.transport.write

            def counting(data: Any) -> None:
                writes.append(bytes(data))
                real_write(data)

            ws.transport.write = counting  # type: ignore[method-assign]
            yield FrameWriter(ws), client, writes
            done.set()


async def received(client: Any, count: int) -> list[str | bytes]:
    return [await asyncio.wait_for(client.recv(), 5) for _ in range(count)]


async def test_frames_sent_together_share_one_write_and_stay_separate_messages() -> None:
    async with linked() as (writer, client, writes):
        assert writer.batched
        frames = [f'{{"n":{i},"text":"{"é" * i}"}}' for i in range(100)]
        await asyncio.gather(*(writer.send(frame) for frame in frames))
        assert len(writes) == 1 and writer.writes == 1
        assert await received(client, 100) == frames  # one message each, in order


async def test_frames_sent_one_after_another_arrive_in_order() -> None:
    async with linked() as (writer, client, writes):
        for i in range(20):
            await writer.send(f"frame {i}")
        await writer.send(b"\x00binary\xff")  # an encrypted frame is bytes: a binary message
        assert await received(client, 21) == [*(f"frame {i}" for i in range(20)), b"\x00binary\xff"]
        assert len(writes) == 21


async def test_a_cancelled_sender_does_not_hold_up_the_others() -> None:
    async with linked() as (writer, client, _):
        first = asyncio.create_task(writer.send("one"))
        second = asyncio.create_task(writer.send("two"))
        await asyncio.sleep(0)  # both queued, the flush not yet run
        first.cancel()
        await second
        assert await received(client, 2) == ["one", "two"]  # queued frames still go out


async def test_a_closed_connection_fails_every_sender() -> None:
    async with linked() as (writer, client, _):
        await client.close()
        await asyncio.sleep(0.05)
        results = await asyncio.gather(
            *(writer.send(f"late {i}") for i in range(3)), return_exceptions=True
        )
        assert all(isinstance(r, ConnectionClosed) for r in results)


async def test_a_connection_without_the_parts_sends_frame_by_frame() -> None:
    class Plain:
        def __init__(self) -> None:
            self.sent: list[str | bytes] = []

        async def send(self, data: str | bytes) -> None:
            self.sent.append(data)

    plain = Plain()
    writer = FrameWriter(plain)
    assert not writer.batched
    await asyncio.gather(writer.send("a"), writer.send("b"))
    assert plain.sent == ["a", "b"] and writer.writes == 2


@pytest.mark.parametrize("burst", [1, 7, 250])
async def test_every_burst_size_arrives_whole(burst: int) -> None:
    async with linked() as (writer, client, writes):
        frames = [f"m{i}" for i in range(burst)]
        await asyncio.gather(*(writer.send(frame) for frame in frames))
        assert await received(client, burst) == frames
        assert len(writes) == 1
