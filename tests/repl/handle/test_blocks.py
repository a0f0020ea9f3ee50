"""``mc.blocks`` and ``%mc blocks`` as a user sees them: at the IPython prompt (a real
InteractiveShell) and in a notebook (a real kernel via nbclient): the counts, the picture, the
progress bar of a split read, unknown positions named as such, and clear mistakes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from IPython.core.error import UsageError

from mcbews_repl.exceptions import InvalidArgument
from mcbews_repl.toolkit.region import BlockRegion
from tests.repl.kernel import run_in_kernel


def plain(shell: Any, value: object) -> str:
    text: str = shell.display_formatter.format(value)[0]["text/plain"]
    return text


def html(shell: Any, value: object) -> str:
    # A terminal shell has the HTML formatter off; look up what a notebook would use.
    formatter = shell.display_formatter.formatters["text/html"]
    shown: str = formatter.lookup(value)(value)
    return shown


def test_the_magic_reads_a_box_and_shows_its_counts(shell: Any) -> None:
    region = shell.run_line_magic("mc", "blocks -8 56 -8 7 71 7")
    assert isinstance(region, BlockRegion) and region.size == (16, 16, 16)
    text = plain(shell, region)
    assert text.startswith("BlockRegion 16x16x16 blocks at (-8, 56, -8) in overworld")
    assert re.search(r"  chest +1\n", text) and "(1 request," in text
    page = html(shell, region)
    assert "<img src='data:image/png;base64," in page
    assert "width='640' style='max-width:100%" in page  # shown at its own size: words of 11 px
    assert "<td style='text-align:left'>crafting_table</td><td>1</td>" in page


def test_unknown_positions_are_named_not_air(shell: Any) -> None:
    region = shell.run_line_magic("mc", "blocks 70 318 0 85 321 2")
    text = plain(shell, region)
    assert re.search(r"<unloaded> +36\n", text) and re.search(r"<out_of_world> +96\n", text)
    assert "&lt;unloaded&gt;</td><td>36</td>" in html(shell, region)


def test_the_api_takes_dimension_states_and_a_connection(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    region = mc.blocks((1, 63, 1), (3, 64, 3), states=True, connection=mc.connections[0]).result()
    frame = region.to_frame()
    chest = frame[(frame.x == 2) & (frame.y == 64) & (frame.z == 2)].iloc[0]
    assert chest.states == {"minecraft:cardinal_direction": "north"}
    nether = shell.run_line_magic("mc", "blocks 0 127 0 1 128 0 --dimension nether")
    assert nether.dimension == "minecraft:nether"
    assert list(nether.counts().index) == ["<unloaded>", "<out_of_world>"]  # nobody is there


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "blocks 1 2 3",
            "takes the two corners as six whole numbers, x1 y1 z1 x2 y2 z2 (got 1 2 3)",
        ),
        ("blocks 0 0 0 1 1 x", "(got 0 0 0 1 1 x)"),
        ("blocks 0 0 0 1 1 1 --dimension moon", "invalid choice: 'moon'"),
    ],
)
def test_mistakes_are_short_usage_errors(shell: Any, line: str, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        shell.run_line_magic("mc", line)
    assert message in str(caught.value)


def test_a_bad_corner_is_refused_before_anything_is_sent(shell: Any) -> None:
    with pytest.raises(InvalidArgument, match="corner2"):
        shell.user_ns["mc"].blocks((0, 0, 0), (0, 0.5, 0))


def test_the_shipped_capabilities_tab_offers_are_the_addons(shell: Any) -> None:
    from mcbews_repl.repl.handle._minecraft import SHIPPED_CAPABILITIES

    caps = shell.user_ns["mc"].caps().result()
    assert list(caps["name"]) == list(SHIPPED_CAPABILITIES)  # get_blocks included


def test_mc_blocks_takes_what_read_blocks_takes() -> None:
    """One definition of the call: the handle adds only routing and the progress bar."""
    import inspect

    from mcbews_repl.repl.handle import Minecraft
    from mcbews_repl.toolkit.blocks import read_blocks

    def params(fn: Any) -> dict[str, Any]:
        return {n: p.default for n, p in inspect.signature(fn).parameters.items()}

    mine, theirs = params(Minecraft.blocks), params(read_blocks)
    mine.pop("self")
    theirs.pop("caller"), theirs.pop("progress")
    assert mine == theirs


def test_help_lists_the_magic(shell: Any) -> None:
    doc = shell.find_line_magic("mc").__doc__
    assert "%mc blocks x1 y1 z1 x2 y2 z2 [--dimension D] [--states]" in doc


# --- in a notebook -------------------------------------------------------------------------

CELLS = {
    "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "sim": "%mc sim",
    "read": "region = await mc.blocks((-20, 40, -20), (19, 79, 19))",
    "show": "region",
    "unknown": "%mc blocks 70 318 0 85 321 2",
    "plot": "region.plot()",
    "heights": "print(region.heightmap()[18:22, 18:22])",
    "unload": "%unload_ext mcbews_repl",
}


@pytest.fixture(scope="module")
def shown() -> dict[str, Any]:
    return run_in_kernel(CELLS, timeout=120)


def data(cell: Any, mime: str) -> list[str]:
    return [o["data"][mime] for o in cell.outputs if mime in o.get("data", {})]


@pytest.mark.slow
def test_a_split_read_shows_a_progress_bar_that_ends_full(shown: dict[str, Any]) -> None:
    [bar] = data(shown["read"], "text/html")
    assert "<progress value='64000' max='64000'></progress> 64000/64000 blocks in 16 parts" in bar


@pytest.mark.slow
def test_a_region_shows_as_a_picture_with_its_counts(shown: dict[str, Any]) -> None:
    [page] = data(shown["show"], "text/html")
    assert "<b>BlockRegion</b> 40x40x40 blocks at (-20, 40, -20)" in page
    assert "<img src='data:image/png;base64," in page and ">stone</td>" in page


@pytest.mark.slow
def test_unknown_positions_in_a_notebook(shown: dict[str, Any]) -> None:
    [page] = data(shown["unknown"], "text/html")
    assert (
        "&lt;unloaded&gt;</td><td>36</td>" in page
        and "&lt;out_of_world&gt;</td><td>96</td>" in page
    )


@pytest.mark.slow
def test_plot_draws_a_picture(shown: dict[str, Any]) -> None:
    assert len(data(shown["plot"], "image/png")) == 1


@pytest.mark.slow
def test_the_heightmap_is_the_flat_spawn(shown: dict[str, Any]) -> None:
    [text] = [o.text for o in shown["heights"].outputs if o.output_type == "stream"]
    assert text.count("63.") == 16  # x and z -2..1: the stone floor at the spawn
