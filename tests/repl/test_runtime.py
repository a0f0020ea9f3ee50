"""The runtime threads' event loops under Windows' conditions, as far as Linux can play
them: a ProactorEventLoop has no ``add_reader``/``add_writer`` and no loop has signal
handlers on Windows. A loop that refuses all of those stands in for it (asyncio has no
Proactor on Linux; docs/windows.md says what was not run), the runtime picks it as it picks
the Proactor on Windows, and the bridge, a simulated world and the calls a notebook makes
all work on it without asking for anything it refuses."""

from __future__ import annotations

import _thread
import asyncio
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.exceptions import CallInterrupted
from mcbews_repl.repl import interrupts, runtime
from mcbews_repl.repl.runtime import Runtime, new_loop

REFUSED: list[str] = []  # what a runtime asked of a ProactorLike loop that Windows refuses


class ProactorLike(asyncio.SelectorEventLoop):
    """A selector loop that refuses to others what asyncio's ProactorEventLoop lacks on
    Windows (its own selector machinery still uses them: a real Proactor's uses IOCP)."""

    def _refuse(self, what: str, method: Any, *args: Any) -> Any:
        caller = sys._getframe(2).f_globals.get("__name__", "")
        if caller.startswith("asyncio."):
            return method(*args)
        REFUSED.append(f"{what} from {caller}")
        raise NotImplementedError(f"{what}: not on a ProactorEventLoop")

    def add_reader(self, *args: Any) -> Any:
        return self._refuse("add_reader", super().add_reader, *args)

    def add_writer(self, *args: Any) -> Any:
        return self._refuse("add_writer", super().add_writer, *args)

    def remove_reader(self, *args: Any) -> Any:
        return self._refuse("remove_reader", super().remove_reader, *args)

    def remove_writer(self, *args: Any) -> Any:
        return self._refuse("remove_writer", super().remove_writer, *args)

    def add_signal_handler(self, *args: Any) -> Any:
        return self._refuse("add_signal_handler", super().add_signal_handler, *args)

    def remove_signal_handler(self, *args: Any) -> Any:
        return self._refuse("remove_signal_handler", super().remove_signal_handler, *args)


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The runtime as on Windows, with ProactorLike as asyncio's ProactorEventLoop."""
    monkeypatch.setattr(runtime, "_ON_WINDOWS", True)
    monkeypatch.setattr(asyncio, "ProactorEventLoop", ProactorLike, raising=False)
    REFUSED.clear()
    yield
    assert REFUSED == [], f"asked of a Proactor loop: {REFUSED}"


def test_the_stand_in_refuses_what_a_proactor_refuses() -> None:
    loop = ProactorLike()
    try:
        for refused in (
            lambda: loop.add_reader(0, print),
            lambda: loop.add_signal_handler(2, print),
        ):
            with pytest.raises(NotImplementedError, match="not on a ProactorEventLoop"):
                refused()
    finally:
        loop.close()
        REFUSED.clear()


def test_on_windows_the_runtime_takes_the_proactor_whatever_the_policy(windows: None) -> None:
    policy = asyncio.get_event_loop_policy()
    try:
        asyncio.set_event_loop_policy(asyncio.DefaultEventLoopPolicy())  # as Jupyter's server
        loop = new_loop()
        assert type(loop) is ProactorLike
        loop.close()
        thread = Runtime("mcbews-test")
        thread.start()
        try:
            assert type(thread.loop) is ProactorLike
            assert thread.run(asyncio.sleep(0, "ran"), 10) == "ran"
        finally:
            thread.stop()
    finally:
        asyncio.set_event_loop_policy(policy)


def test_elsewhere_the_policys_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runtime, "_ON_WINDOWS", False)
    loop = new_loop()
    assert isinstance(loop, asyncio.AbstractEventLoop) and type(loop) is not ProactorLike
    loop.close()


def test_the_bridge_a_world_and_the_calls_on_proactor_like_loops(windows: None) -> None:
    with mcbews_repl.start(port=0) as mc:
        assert type(mc._runtime.loop) is ProactorLike
        mc.simulate().result(60)
        assert type(mc.sim.raw.loop) is ProactorLike  # the world's own thread too
        assert mc.command("testfor @a").result(20).ok
        assert sorted(mc.players().result(20)["name"]) == ["Alex", "Steve"]
        assert mc.inventory("Steve").result(30)["amount"].sum() > 0
        answer_ui_chat(mc)
        assert "Hello Alex" in mc.sim.ask("Alex", "hi").result(20)  # the panel, both ways
        assert mc.doctor(save=False).result(60).ok
    assert mc.stopped


def answer_ui_chat(mc: Any) -> None:
    """A UI chat callback that answers, so ``ask`` goes through the addon's panel."""

    @mc.on_ui_chat
    def hello(msg: Any) -> None:
        msg.reply(f"Hello {msg.player}")  # on the bridge's thread here: never wait in it


def test_interrupt_kernel_as_windows_delivers_it_stops_an_awaited_call() -> None:
    """On Windows, Interrupt Kernel reaches the kernel as ``_thread.interrupt_main()``, called
    by ipykernel's parent-poller thread (there are no POSIX signals): a simulated SIGINT that
    runs the Python handler in place, which is ours while a call is awaited. The Proactor
    loop wakes for it through its wake-up socket (``signal.set_wakeup_fd``), set up here by
    hand on the test's selector loop."""
    thread = Runtime("mcbews-test")
    thread.start()

    def interrupt_once_ours_is_in_place() -> None:
        deadline = time.monotonic() + 30
        while signal.getsignal(signal.SIGINT) is not interrupts._HANDLER:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)
        _thread.interrupt_main()

    async def cell() -> str:
        loop = asyncio.get_running_loop()
        wake, waker = socket.socketpair()
        wake.setblocking(False)
        waker.setblocking(False)
        previous = signal.set_wakeup_fd(waker.fileno())
        loop.add_reader(wake.fileno(), wake.recv, 64)
        try:
            pending = thread.submit(asyncio.sleep(60), "a long call")
            threading.Thread(target=interrupt_once_ours_is_in_place, daemon=True).start()
            with pytest.raises(CallInterrupted) as stopped:
                await pending
            assert pending.done() and signal.getsignal(signal.SIGINT) is not interrupts._HANDLER
            return str(stopped.value)
        finally:
            loop.remove_reader(wake.fileno())
            signal.set_wakeup_fd(previous)
            wake.close()
            waker.close()

    try:
        started = time.monotonic()
        said = asyncio.run(cell())
    finally:
        thread.stop()
    assert said.startswith("a long call cancelled after") or said.startswith("a long call:")
    assert time.monotonic() - started < 30  # stopped, not finished
