"""``mc.set_blocks`` as a user sees it: at the IPython prompt (a real InteractiveShell) and in
a notebook (a real kernel): what a write shows (written, already so, left as is, not written
and why), a read edited and written back, mistakes refused before anything is sent, and a
write stopped by Interrupt Kernel."""

from __future__ import annotations

import inspect
import re
import time
from typing import Any

import numpy as np
import pytest

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit.writes import WriteResult
from tests.repl.kernel import ANSI, Kernel, run_in_kernel


def plain(shell: Any, value: object) -> str:
    text: str = shell.display_formatter.format(value)[0]["text/plain"]
    return text


def html(shell: Any, value: object) -> str:
    formatter = shell.display_formatter.formatters["text/html"]
    shown: str = formatter.lookup(value)(value)
    return shown


def test_a_write_shows_what_it_did(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    names = np.full((3, 1, 2), "glass", dtype=object)
    names[0, 0, 0] = None
    result = mc.set_blocks((0, 110, 0), names).result()
    assert isinstance(result, WriteResult)
    text = plain(shell, result)
    assert text.startswith(
        "WriteResult 3x1x2 blocks at (0, 110, 0) in overworld: 5 written, 0 already so, "
        "1 left as is (2 requests,"
    )
    assert re.search(r"  written +5\n  left as is +1\n", text)
    again = mc.set_blocks((0, 110, 0), names).result()
    assert "0 written, 5 already so" in plain(shell, again)
    page = html(shell, again)
    assert (
        "<b>WriteResult</b>" in page
        and "<td style='text-align:left'>already so</td><td>5</td>" in page
    )


def test_what_was_not_written_is_named_with_why(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    result = mc.set_blocks((76, 318, 0), np.full((6, 3, 1), "glass", dtype=object)).result()
    text = plain(shell, result)
    assert "8 written, 0 already so; 10 NOT written (4 in an unloaded chunk, 6 outside" in text
    assert (
        "not written, in an unloaded chunk: (80, 318, 0), (81, 318, 0), (80, 319, 0), (81, 319, 0)"
        in text
    )
    assert (
        "not written, outside the height range: (76, 320, 0), (77, 320, 0), (78, 320, 0), "
        "(79, 320, 0), (80, 320, 0) and 1 more" in text
    )
    assert "<div style='color:#b00'>not written, in an unloaded chunk:" in html(shell, result)


def test_a_read_edited_and_written_back(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    region = mc.blocks((-4, 62, -4), (3, 66, 3)).result()
    air = region.palette.index("minecraft:air")
    region.ids[:, 3:, :] = air
    region.ids[0, 0, 0] = (
        region.palette.index("minecraft:dirt") if "minecraft:dirt" in region.palette else air
    )
    written = mc.set_blocks(region.origin, region).result()
    assert written.complete
    back = mc.blocks((-4, 62, -4), (3, 66, 3)).result()
    names = np.asarray(region.palette, dtype=object)
    assert (np.asarray(back.palette, dtype=object)[back.ids] == names[region.ids]).all()


def test_mistakes_are_refused_before_anything_is_sent(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    sent = len(mc.sim.raw.client.received)
    with pytest.raises(InvalidArgument, match="palette"):
        mc.set_blocks((0, 0, 0), np.zeros((1, 1, 1), dtype=int))
    with pytest.raises(InvalidArgument, match="origin"):
        mc.set_blocks((0, 0), np.full((1, 1, 1), "stone", dtype=object))
    assert len(mc.sim.raw.client.received) == sent


def test_mc_set_blocks_takes_what_write_blocks_takes() -> None:
    """One definition of the call: the handle adds only routing and the progress bar."""
    from mcbews_repl.repl.handle import Minecraft
    from mcbews_repl.toolkit.writes import write_blocks

    def params(fn: Any) -> dict[str, Any]:
        return {n: p.default for n, p in inspect.signature(fn).parameters.items()}

    mine, theirs = params(Minecraft.set_blocks), params(write_blocks)
    mine.pop("self")
    assert (mine.pop("force"), mine.pop("undo")) == (False, True)  # the handle's undo.py
    theirs.pop("caller"), theirs.pop("progress")
    assert mine == theirs


# --- in a notebook -------------------------------------------------------------------------

CELLS = {
    "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "sim": "%mc sim",
    "write": (
        "import numpy as np\n"
        "wall = np.full((40, 20, 1), 'red_wool', dtype=object)\n"
        "done = await mc.set_blocks((-20, 70, 30), wall)\n"
        "done"
    ),
    "unknown": "await mc.set_blocks((0, 70, 0), np.full((1, 1, 1), 'no_such_block', dtype=object))",
    "unload": "%unload_ext mcbews_repl",
}


@pytest.fixture(scope="module")
def shown() -> dict[str, Any]:
    return run_in_kernel(CELLS, timeout=120, allow_errors=True)


def data(cell: Any, mime: str) -> list[str]:
    return [o["data"][mime] for o in cell.outputs if mime in o.get("data", {})]


@pytest.mark.slow
def test_a_notebook_shows_the_write_with_its_counts(shown: dict[str, Any]) -> None:
    # The write reads its box first (for undo), so a progress display may come before it.
    [page] = [p for p in data(shown["write"], "text/html") if "WriteResult" in p]
    assert "<b>WriteResult</b> 40x20x1 blocks at (-20, 70, 30) in overworld: 800 written" in page


@pytest.mark.slow
def test_a_notebook_names_the_blocks_the_game_does_not_know(shown: dict[str, Any]) -> None:
    [error] = [o for o in shown["unknown"].outputs if o["output_type"] == "error"]
    text = ANSI.sub("", "\n".join(error["traceback"]))
    assert "INVALID_REQUEST" in text and "minecraft:no_such_block" in text


def progress_shown(msg: Any) -> bool:
    data = msg["content"].get("data", {}) if msg["msg_type"] == "update_display_data" else {}
    return "<progress value='" in data.get("text/html", "") and "value='0'" not in data["text/html"]


@pytest.mark.slow
def test_interrupt_kernel_stops_a_write() -> None:
    """A write of 200x40x200 takes minutes at the game's clock: interrupted, it stops, and the
    world's blocks stop changing."""
    kernel = Kernel()
    try:
        kernel.text("import os; os.environ['MCBEWS_PORT'] = '0'")
        kernel.text("%load_ext mcbews_repl")
        assert "1 game connected" in kernel.text("%mc sim")
        kernel.text("import numpy as np\nbig = np.full((200, 40, 200), 'glass', dtype=object)")
        messages = kernel.run(
            "r = await mc.set_blocks((-100, 100, -100), big, force=True, undo=False)",
            interrupt_when=progress_shown,
        )
        errors = [m["content"] for m in messages if m["msg_type"] == "error"]
        assert [e["ename"] for e in errors] == ["CallInterrupted"]
        assert "set_blocks 200x40x200: cancelled" in ANSI.sub("", errors[0]["traceback"][0])
        count = "print(len(mc.sim.raw.world.blocks))"
        deadline, last, since = time.monotonic() + 60, -1, time.monotonic()
        while time.monotonic() < deadline:
            now = int(kernel.text(count).strip())
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since > 2.0:  # forty game ticks without a write
                break
            time.sleep(0.25)
        assert 0 < last < 200 * 40 * 200
    finally:
        kernel.close()


def test_fill_and_build_go_through_set_blocks(shell: Any) -> None:
    from mcbews_repl.toolkit import sphere

    mc = shell.user_ns["mc"]
    filled = mc.fill((0, 120, 0), (4, 122, 4), "stone").result()
    assert filled.written == 75 and filled.size == (5, 3, 5)
    world = mc.sim.raw.world
    assert world.block("overworld", 4, 122, 4) == "minecraft:stone"
    hollow = mc.fill((0, 120, 0), (4, 122, 4), "glass", hollow=True).result()
    assert (hollow.written, hollow.kept) == (75 - 9, 9)  # the 3x1x3 inside is left
    assert world.block("overworld", 2, 121, 2) == "minecraft:stone"
    ball = mc.build(sphere((20, 130, 20), 5, "red_wool")).result()
    assert ball.written == 515
    assert "515 written, 0 already so, 816 left as is" in plain(shell, ball)
