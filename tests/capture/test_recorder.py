"""Recording a real session (gateway, simulated world, the addon in QuickJS) to a file: the
plaintext of every frame, the outcomes, the header's facts, and every way it can stop."""

from __future__ import annotations

import errno
import json
import stat
from pathlib import Path
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl.capture import Recorder, read_capture, start_recording
from mcbews_repl.exceptions import CaptureError
from mcbews_repl.sim import SimWorld

from .conftest import FAST_BRIDGE, notebook_flow, recorded_session


def purposes(path: Path, direction: str) -> list[str]:
    capture = read_capture(path)
    found = []
    for frame in capture.frames:
        data = frame.json()
        if frame.dir == direction and data is not None:
            found.append(data["header"]["messagePurpose"])
    return found


async def test_an_encrypted_session_is_recorded_as_plaintext_from_its_handshake(
    tmp_path: Path,
) -> None:
    path = tmp_path / "session.jsonl"
    async with recorded_session(path, encrypted=True) as (mc, sim, _):
        await notebook_flow(mc, sim)
    capture = read_capture(path)
    assert capture.header.complete and capture.end is not None
    assert capture.end.reason == "stopped on request"
    facts = capture.facts(1)
    assert facts["encrypted"] and facts["encryption"] == {"form": "ws:encrypt", "mode": "cfb8"}
    assert facts["local_player"] == "Steve" and facts["event_version"] == 17104896
    assert not facts["joined_late"] and facts["transport"] == "pull"
    assert purposes(path, "out")[:3] == ["ws:encrypt", "subscribe", "commandRequest"]
    assert purposes(path, "in")[0] == "ws:encrypt"
    assert all(f.text is not None for f in capture.frames)  # every frame readable JSON text
    lines = [c.request.get("line") for c in capture.calls if c.kind == "command"]
    assert lines == ["list", "tag Steve list", "fly away"]
    fly = next(c for c in capture.calls if c.request.get("line") == "fly away")
    assert (
        fly.result["status_code"] == -2147483647
        and "Unknown command" in fly.result["status_message"]
    )
    chat = next(c for c in capture.calls if c.kind == "ui_chat")
    assert chat.result["player"] == "Alex" and chat.result["message"].startswith("hello")
    assert capture.header.settings["encrypt"] is True
    assert capture.header.package == f"mcbews-repl {mcbews_repl.__version__}"


async def test_a_recording_started_after_the_game_connected_says_so(tmp_path: Path) -> None:
    path = tmp_path / "late.jsonl"
    async with (
        mcbews_repl.serve(port=0, **FAST_BRIDGE) as mc,
        SimWorld(fast=True) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        recorder = start_recording(mc, path)
        await mc.command("list")
        recorder.stop()
    capture = read_capture(path)
    assert capture.facts(1)["joined_late"] and capture.facts(1)["local_player"] == "Steve"
    assert "subscribe" not in purposes(path, "out")


async def test_the_size_limit_stops_the_recording_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "small.jsonl"
    stopped: list[Recorder] = []
    async with recorded_session(path, max_bytes=8192, on_stop=stopped.append) as (mc, _, rec):
        for _ in range(40):
            await mc.command("list")
        assert rec.state == "stopped" and stopped == [rec]
        assert "size limit of 8.0 KiB" in rec.stop_reason and "stopped (it reached" in (
            rec.describe()
        )
        assert (await mc.command("list")).ok  # the bridge is not affected
    capture = read_capture(path)
    assert capture.end is not None and "size limit" in capture.end.reason
    assert capture.end.bytes <= 8192 and capture.header.complete


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("missing/session.jsonl", "the folder .*missing does not exist"),
        (".", "is a folder; give a file name"),
        ("taken.jsonl", "already exists; choose another name"),
    ],
)
async def test_bad_paths_get_a_message_and_record_nothing(
    tmp_path: Path, name: str, message: str
) -> None:
    (tmp_path / "taken.jsonl").write_text("keep me", encoding="utf-8")
    async with mcbews_repl.serve(port=0) as mc:
        with pytest.raises(CaptureError, match=message):
            start_recording(mc, tmp_path / name)
        assert not mc._observers  # nothing left registered
    assert (tmp_path / "taken.jsonl").read_text(encoding="utf-8") == "keep me"


async def test_a_full_disk_is_a_message_not_a_crash(tmp_path: Path) -> None:
    async with mcbews_repl.serve(port=0) as mc:
        with pytest.raises(CaptureError, match="No space left on device"):
            start_recording(mc, "/dev/full", overwrite=True)


async def test_a_write_failing_midway_stops_the_recording_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "fails.jsonl"
    stopped: list[str] = []
    async with recorded_session(path, on_stop=lambda r: stopped.append(r.stop_reason)) as (
        mc,
        _,
        rec,
    ):

        def full(data: Any) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        assert rec._file is not None
        rec._file.write = full  # type: ignore[method-assign]
        assert (await mc.command("list")).ok
        assert rec.state == "stopped" and "No space left on device" in stopped[0]
        assert (await mc.command("list")).ok


async def test_a_huge_frame_is_recorded_cut_and_marked(tmp_path: Path) -> None:
    path = tmp_path / "huge.jsonl"
    async with recorded_session(path) as (mc, sim, _):
        sim.chat("Steve", "x" * 100_000)
        await mc.command("list")  # the chat came before this answer
    cut = [f for f in read_capture(path).frames if f.cut]
    assert len(cut) == 1 and cut[0].cut > 100_000 and len(cut[0].text or "") == 64 * 1024


async def test_only_the_chosen_connection_is_recorded(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    async with (
        mcbews_repl.serve(port=0, **FAST_BRIDGE) as mc,
        SimWorld(fast=True) as first,
        SimWorld(fast=True) as second,
    ):
        await first.connect(mc.url)
        one = await mc.wait_connected(timeout=10)
        await second.connect(mc.url)
        await mc.wait_connected(timeout=10)
        recorder = start_recording(mc, path, connection=one)
        await mc.command("say to the second")
        await mc.command("say to the first", connection=one)
        recorder.stop()
    capture = read_capture(path)
    assert capture.connections() == [one.id]
    assert [c.request["line"] for c in capture.calls] == ["say to the first"]


async def test_a_redacted_recording_waits_in_a_private_file_until_it_stops(
    tmp_path: Path,
) -> None:
    path = tmp_path / "shared.jsonl"
    async with recorded_session(path, redact=True) as (mc, sim, rec):
        await notebook_flow(mc, sim)
        raw = rec._raw_path
        assert raw != path and raw.exists() and not path.exists()
        assert stat.S_IMODE(raw.stat().st_mode) == 0o600
        token = mc.token
    assert not raw.exists()
    text = path.read_text(encoding="utf-8")
    assert "Steve" not in text and "Alex" not in text and str(token) not in text
    header = json.loads(text.splitlines()[0])
    assert header["redacted"] and header["games"]["1"]["local_player"] == "Player1"


async def test_a_game_that_left_is_not_kept_alive_by_the_recording(tmp_path: Path) -> None:
    import gc
    import weakref

    from tests.gateway.conftest import until
    from tests.gateway.fakegame import FakeGame

    path = tmp_path / "visits.jsonl"
    async with mcbews_repl.serve(port=0, transport="chat", **FAST_BRIDGE) as mc:
        recorder = start_recording(mc, path)
        left: list[weakref.ref[Any]] = []
        for n in range(3):  # games that come and go while the recording runs
            async with FakeGame(mc.url, player=f"P{n}"):
                left.append(weakref.ref(await mc.wait_connected(timeout=10)))
                await mc.command("say hi")
            await until(lambda: not mc.connections)
        async with FakeGame(mc.url, player="Last"):
            await mc.wait_connected(timeout=10)
            await mc.command("say last")
            gc.collect()
            assert [ref() for ref in left] == [None, None, None]
        recorder.stop()
    capture = read_capture(path)
    players = [capture.facts(c)["local_player"] for c in capture.connections()]
    assert players == ["P0", "P1", "P2", "Last"]
    assert all(capture.facts(c)["closed"] for c in capture.connections()[:3])
