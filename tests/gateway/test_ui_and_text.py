"""UI chat to callbacks; text responses that reassemble to exactly what was sent."""

from __future__ import annotations

import asyncio

import pytest

from mcbews_repl import Bridge, InvalidArgument, UiChat, serve

from .conftest import FAST, ConnectGame, until
from .fakegame import TEXT_RESP, FakeGame, reassemble_text_frames


async def test_ui_chat_reaches_sync_and_async_callbacks(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game(chunk_chars=5, order="reverse")
    seen: list[tuple[str, UiChat]] = []

    @mc.on_ui_chat
    def sync_callback(msg: UiChat) -> None:
        seen.append(("sync", msg))

    @mc.on_ui_chat
    async def async_callback(msg: UiChat) -> None:
        await asyncio.sleep(0)
        seen.append(("async", msg))

    await game.ui_chat("Steve", "hello @a §l 你好")
    await until(lambda: len(seen) == 2)
    assert {kind for kind, _ in seen} == {"sync", "async"}
    msg = seen[0][1]
    assert (msg.player, msg.message) == ("Steve", "hello @a §l 你好")
    assert msg.connection is mc.connections[0]
    mc.off_ui_chat(sync_callback)
    mc.off_ui_chat(async_callback)
    await game.ui_chat("Steve", "nobody listens", "ui2")
    await mc.command("say sync")
    assert len(seen) == 2
    assert [e.data["message"] for e in mc.events() if e.kind == "ui_chat"][-1] == "nobody listens"


async def test_raising_callbacks_are_recorded_and_harmless(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()

    @mc.on_ui_chat
    def broken(msg: UiChat) -> None:
        raise RuntimeError("sync bug")

    @mc.on_ui_chat
    async def broken_later(msg: UiChat) -> None:
        raise KeyError("async bug")

    await game.ui_chat("Steve", "hi")
    await until(lambda: len([e for e in mc.events() if e.kind == "callback_error"]) == 2)
    errors = {e.data["callback"]: e for e in mc.events() if e.kind == "callback_error"}
    assert "sync bug" in errors[broken.__qualname__].summary
    assert "KeyError" in errors[broken_later.__qualname__].data["traceback"]
    assert (await mc.command("say still here")).ok


async def test_ui_chat_reply_goes_back_to_the_player(mc: Bridge, connect_game: ConnectGame) -> None:
    game = await connect_game()
    replies: list[int] = []

    @mc.on_ui_chat
    async def answer(msg: UiChat) -> None:
        replies.append(await msg.reply(f"you said {msg.message}"))

    await game.ui_chat("Alex", "ping")
    await until(lambda: replies)
    assert game.text_frames[0]["p"] == "Alex"
    assert list(reassemble_text_frames(game.text_frames).values()) == ["you said ping"]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "short",
        'line one\nline two "quoted" \\ @a §c 你好 🎉 \u0000',
        ('He said "no" \\ then\n"yes" 中文 ' * 60)[:1500],  # quotes double in the frame
        '"' * 440 + "\\" * 440,
        "长" * 20_000 + "@" * 3_000,  # several hundred frames: split into several responses
    ],
)
async def test_send_text_frames_reassemble_to_the_exact_text(
    mc: Bridge, connect_game: ConnectGame, text: str
) -> None:
    game = await connect_game()
    progress: list[tuple[int, int]] = []
    sent = await mc.send_text("Steve", text, progress=lambda i, n: progress.append((i, n)))
    assert sent == len(game.text_frames) == len(progress)
    assert progress[-1] == (sent, sent)
    frame_lines = [line for line in game.commands if line.startswith(TEXT_RESP)]
    assert len(frame_lines) == sent
    assert all(len(line.encode()) <= 461 for line in frame_lines)
    assert max(game.frame_sizes) <= 661  # every frame as sent, JSON escapes counted
    texts = reassemble_text_frames(game.text_frames)
    assert all(frames <= 128 for frames in _frames_per_id(game.text_frames).values())
    assert all(len(part.encode()) <= 65536 for part in texts.values())
    assert "".join(texts.values()) == text  # responses arrive in order (dicts keep it)
    assert {f["r"] for f in game.text_frames} == {"assistant"}


def _frames_per_id(frames: list[dict[str, object]]) -> dict[object, int]:
    counts: dict[object, int] = {}
    for frame in frames:
        counts[frame["id"]] = counts.get(frame["id"], 0) + 1
    return counts


async def test_send_text_async_progress_and_role(connect_game: ConnectGame) -> None:
    async with serve(port=0, **{**FAST, "text_interval": 0.001}) as mc:
        game = await connect_game(mc)
        calls: list[int] = []

        async def progress(sent: int, total: int) -> None:
            calls.append(sent)

        sent = await mc.send_text("Steve", "x" * 1000, role="approval", progress=progress)
        assert calls == list(range(1, sent + 1)) and sent > 1
        assert {f["r"] for f in game.text_frames} == {"approval"}
        with pytest.raises(ValueError, match="role"):
            await mc.send_text("Steve", "x", role="system")


async def test_async_callbacks_of_one_message_run_together_and_fail_alone(
    mc: Bridge, connect_game: ConnectGame
) -> None:
    game = await connect_game()
    both_started = asyncio.Event()
    started: list[str] = []

    @mc.on_ui_chat
    async def first(msg: UiChat) -> None:
        started.append("first")
        if len(started) == 2:
            both_started.set()
        await both_started.wait()  # only returns if the other one runs at the same time
        raise ValueError("first fails")

    @mc.on_ui_chat
    async def second(msg: UiChat) -> None:
        started.append("second")
        if len(started) == 2:
            both_started.set()
        await both_started.wait()

    await game.ui_chat("Steve", "hi")
    await until(lambda: any(e.kind == "callback_error" for e in mc.events()))
    (error,) = [e for e in mc.events() if e.kind == "callback_error"]
    assert error.data["callback"] == first.__qualname__ and "first fails" in error.summary
    assert sorted(started) == ["first", "second"]


async def test_closing_the_bridge_cancels_running_callbacks() -> None:
    cancelled = asyncio.Event()
    async with serve(port=0, **FAST) as mc, FakeGame(mc.url) as game:
        await mc.wait_connected(timeout=10)

        @mc.on_ui_chat
        async def forever(msg: UiChat) -> None:
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                cancelled.set()
                raise

        await game.ui_chat("Steve", "hi")
        await until(lambda: mc.connections[0].ui_chats.running == 1)
    assert cancelled.is_set() and not mc._tasks


class _Sender:
    """Anything with an id and send_text answers a UiChat: no socket needed."""

    id = 7

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, str, str | None]] = []

    async def send_text(
        self, player: str, text: str, *, role: str = "assistant", conversation_id: str | None = None
    ) -> int:
        self.sent.append((player, text, role, conversation_id))
        return 1


async def test_a_ui_chat_replies_through_its_sender_to_the_same_conversation() -> None:
    sender = _Sender()
    msg = UiChat("Steve", "hi", "conv-1", "m1", sender)
    assert await msg.reply("hello", role="system") == 1
    assert sender.sent == [("Steve", "hello", "system", "conv-1")]
    assert msg == UiChat("Steve", "hi", "conv-1", "m1")  # the sender is not part of the value


async def test_a_ui_chat_made_by_hand_says_how_to_answer_instead() -> None:
    with pytest.raises(InvalidArgument, match=r"not tied to a game connection; reply through"):
        await UiChat("Steve", "hi").reply("hello")
