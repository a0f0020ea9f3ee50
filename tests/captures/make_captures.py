"""Write the captures in this folder again (``make captures``): the notebook flows recorded
in a real kernel against the simulated world, and a few sessions scripted here.

The doctor's captures of each failure the simulated world plays are here too. Every
``*.jsonl`` beside this file is replayed by test_captures.py; a capture of a real
game dropped in here becomes a test the same way (docs/captures.md). Run this only when a
deliberate change makes the recorded results out of date, and read the diff.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

import mcbews_repl
from mcbews_repl.capture import start_recording
from mcbews_repl.doctor import run_doctor
from mcbews_repl.sim import SimWorld

HERE = Path(__file__).resolve().parent
NOTEBOOKS = HERE.parents[1] / "notebooks"
# The notebook flows that talk to the bridge (05 rebuilds the addon with npm; 06 stays in
# the sans-I/O core). 04 is kept redacted too: a redacted capture must replay as well.
FLOWS = {
    "01_getting_started": False,
    "02_exploring_a_world": False,
    "03_inventory_analysis": False,
    "04_ui_chat_bot": False,
    "04_ui_chat_bot_redacted": True,
}
FAST: dict[str, Any] = {"text_prelude": 0.0, "text_interval": 0.0}


def record_notebook(name: str, redact: bool) -> None:
    """Run a notebook with a recording from just after ``%load_ext`` to its last cell."""
    source = name.removesuffix("_redacted")
    nb = nbformat.read(NOTEBOOKS / f"{source}.ipynb", as_version=4)
    target = HERE / f"{name}.jsonl"
    start = f"mc.record({str(target)!r}, redact={redact}, overwrite=True)"
    for cell in nb.cells:
        if cell.cell_type == "code" and "%load_ext mcbews_repl" in cell.source:
            cell.source = cell.source.replace(
                "%load_ext mcbews_repl", f"%load_ext mcbews_repl\n_recording = {start}", 1
            )
            break
    nb.cells.append(nbformat.v4.new_code_cell("mc.recording.stop()"))
    os.environ["MCBEWS_PORT"] = "0"
    client = NotebookClient(
        nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    print(f"wrote {target.name}")


Session = Callable[[mcbews_repl.Bridge, SimWorld], Awaitable[None]]


async def record_session(name: str, session: Session, bridge: dict[str, Any],
                         world: dict[str, Any]) -> None:  # fmt: skip
    target = HERE / f"{name}.jsonl"
    async with (
        mcbews_repl.serve(port=0, **FAST, **bridge) as mc,
        SimWorld(fast=True, **world) as sim,
    ):
        recorder = start_recording(mc, target, overwrite=True)
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        try:
            await session(mc, sim)
        finally:
            recorder.stop()
    print(f"wrote {target.name}")


async def everyday(mc: mcbews_repl.Bridge, sim: SimWorld) -> None:
    await mc.command("list")
    await mc.command("give Alex diamond 3")
    await mc.call("get_player_snapshot", target="Alex")
    sim.chat("Alex", "thanks for the diamonds")
    await mc.send_text("Alex", "You are welcome, Alex.")
    await mc.command("testfor @a")


async def refused(mc: mcbews_repl.Bridge, sim: SimWorld) -> None:
    await mc.command("list")  # every command comes back EncryptionRequired
    await mc.command("say is anyone there")


SESSIONS: dict[str, tuple[Session, dict[str, Any], dict[str, Any]]] = {
    # The world requires encryption; the old enableencryption command is the only form it knows.
    "encrypted_legacy_handshake": (everyday, {"encrypt": True},
                                   {"require_encryption": True, "legacy_encryption": True}),
    # A world that requires encryption and a bridge started with encrypt=False.
    "encryption_required_refused": (refused, {"encrypt": False}, {"require_encryption": True}),
    # A client that offers no encryption, sending events in the legacy shape.
    "plaintext_legacy_events": (everyday, {}, {"offer_encryption": False, "legacy_events": True}),
    # The beta pack with Beta APIs on, answering by chat (the bridge player's tell @s).
    "beta_pack_by_chat": (everyday, {"transport": "chat"}, {"pack": "beta", "beta_apis": True}),
}  # fmt: skip


# The doctor's own captures, one for each failure the simulated world plays (they are what
# a user attaches to a bug report: redacted, and replayable).
DOCTOR_MODES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "doctor_healthy": ({}, {}),
    "doctor_healthy_by_chat": ({"transport": "chat"}, {"pack": "beta", "beta_apis": True}),
    "doctor_no_addon": ({}, {"addon": False}),
    "doctor_beta_pack_without_beta_apis": ({}, {"pack": "beta", "beta_apis": False}),
    "doctor_encryption_required": ({"encrypt": False}, {"require_encryption": True}),
    "doctor_script_error": ({}, {"script_error": True}),
    "doctor_custom_command_message_lost": (
        {"transport": "pull"},
        {"report_custom_command_messages": False},
    ),
    "doctor_chat_lost": (
        {"transport": "chat"},
        {"pack": "beta", "beta_apis": True, "report_simulated_chat": False},
    ),
}


async def record_doctor(name: str, bridge: dict[str, Any], world: dict[str, Any]) -> None:
    async with (
        mcbews_repl.serve(port=0, **FAST, **bridge) as mc,
        SimWorld(fast=True, **world) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        target = HERE / f"{name}.jsonl"
        target.unlink(missing_ok=True)
        report = await run_doctor(mc, capture=target)
    print(f"wrote {target.name}: {report.headline}")


def main(names: list[str]) -> int:
    for name, redact in FLOWS.items():
        if not names or name in names:
            record_notebook(name, redact)
    for name, (session, bridge, world) in SESSIONS.items():
        if not names or name in names:
            asyncio.run(record_session(name, session, bridge, world))
    for name, (bridge, world) in DOCTOR_MODES.items():
        if not names or name in names:
            asyncio.run(record_doctor(name, bridge, world))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
