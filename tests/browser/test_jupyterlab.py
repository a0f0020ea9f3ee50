"""A real browser runs every notebook in JupyterLab and reads the rendered page.

JupyterLab starts on a free port (on a copy of notebooks/, so autosave cannot touch the
committed files; tests/browser/jupyter.py, shared with the Notebook 7 test), Debian's
Chromium opens each notebook through Playwright at 1100 px wide, runs all its cells and
checks what a reader sees: no output area left empty, no
error, every friendly table within the page's width, no ``§`` and no ``minecraft:`` in
the inventory's item column, every row of a card drawn alike (left-aligned, no stripes),
the first notebook linking every other, the live map labelling both players and following
the notebook's ``tp`` and one typed into a new cell (waited for: it refreshes on a timer),
drawn once (its static copy, for a front end that cannot draw the widget, hidden; and seen
when anywidget's front end is missing),
a region's picture at its own size, the explore table filtering by player, a prototype
capability defined, changed, failing in the cell's lines, deployed and called again after
``/reload``. JupyterLab and its kernels run with no Node on PATH, as on a machine without
it. Screenshots land in
test-artifacts/ (the README's pictures are taken here). Without /usr/bin/chromium the
tests are skipped, unless MCBEWS_REQUIRE_BROWSER is set (.ci/run sets it after installing
Chromium), in which case they fail.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .jupyter import (
    ARTIFACTS,
    LAB,
    NOTEBOOKS,
    PANEL,
    WIDGET_ERRORS,
    check_reads_well,
    check_the_live_map_draws_once,
    chromium,
    column,
    explore_alex,
    jupyter_server,
    maps,
    notebook_page,
    outputs,
    run_cell,
    wait_for_alex,
)

# Chromium driving JupyterLab: outside `make test-fast`.
pytestmark = [pytest.mark.slow, pytest.mark.browser]

# The doctor's card, as the docs show it (docs/images/doctor.png is this test's screenshot).
DOCTOR_CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "%mc sim",
    "%mc doctor --capture doctor.jsonl",  # the kernel runs in the lab's temporary copy
]
# A notebook of mistakes: our error must show as a short red message, in the browser.
ERROR_CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "%mc sim",
    "%mc call no_such_cap",
]
# A map alone, for the front end that cannot draw its widget.
MAP_CELLS = [
    "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "%mc sim",
    "mc.map()",
]
SCRATCH = {"mistakes": ERROR_CELLS, "doctor": DOCTOR_CELLS, "map": MAP_CELLS}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("lab")
    with jupyter_server(LAB, root, SCRATCH) as url:
        yield url, root


@pytest.fixture(scope="module")
def browser(lab: tuple[str, Path]) -> Iterator[Any]:
    with chromium() as started:
        yield started


def page_on(browser: Any, lab: tuple[str, Path], path: str, failure_shot: str) -> Any:
    return notebook_page(browser, LAB.url_of(lab[0], path), failure_shot)


def check_01(page: Any) -> None:
    table = page.locator(f"{PANEL} .mcbews-table table", has_text="Excalibur").first
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-getting-started.png"))
    items = column(page, table, "item")
    assert "diamond_sword" in items and "iron_helmet" in items
    assert not [i for i in items if "minecraft:" in i or "§" in i], items
    assert "§" not in table.inner_text() and "92%" in table.inner_text()
    assert page.locator(f"{PANEL} .jp-OutputArea", has_text="Unknown command: fly").count() == 1
    check_card_rows(page)
    links = page.locator(f"{PANEL} .jp-RenderedMarkdown a").all_inner_texts()
    assert [t for t in links if t.endswith(".ipynb")] == NOTEBOOKS[1:], links  # Next: all of them


# Each row of a card as the page draws it: the cells' alignment and background.
# A card's table is any table of an output that is not a data frame's (class dataframe).
CARD_ROWS = """(panel) => [...document.querySelectorAll(
        panel + ' .jp-OutputArea-output table:not(.dataframe)')]
    .map((t) => [...t.querySelectorAll('tr')].map((r) => [...r.children].map((c) => {
        const s = getComputedStyle(c), row = getComputedStyle(r);
        return [s.textAlign, s.backgroundColor, row.backgroundColor].join(' ');
    })))"""


def check_card_rows(page: Any) -> None:
    """The command cards and the player card: every row reads like the first (JupyterLab's
    table stylesheet right-aligns cells and stripes rows; the cards style their own)."""
    cards = page.evaluate(CARD_ROWS, PANEL)
    assert len(cards) >= 3, cards  # the two command results and Steve's card
    assert sum(len(rows) >= 2 for rows in cards) >= 2, cards  # rows to compare
    for rows in cards:
        plain = ["left rgba(0, 0, 0, 0) rgba(0, 0, 0, 0)"] * 2  # key and value, transparent
        assert all(row == plain for row in rows), rows  # every row, the first as the others


def check_02(page: Any) -> None:
    live = check_the_live_map_draws_once(page)
    # The notebook's own tp: the map shows it at its next look (once a second while on
    # screen), so wait for it with a deadline; a busy machine may take a few looks.
    live.scroll_into_view_if_needed()
    wait_for_alex(page, "-11.5, 64, 18.5")
    run_cell(page, "await mc.command('tp Alex 24 64 -14')")
    live.scroll_into_view_if_needed()  # back on screen: the map looks again
    wait_for_alex(page, "24.5, 64, -13.5")
    assert "Alex 24.5, 64, -13.5" in live.locator(".mcbews-map-legend").inner_text()
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-live-map.png"))
    live.locator("button.mcbews-map-pause").click()
    status = live.locator(".mcbews-map-status")
    page.wait_for_function("(e) => e.textContent === 'paused'", arg=status.element_handle())


def check_03(page: Any) -> None:
    table = explore_alex(page)
    assert table.locator(".count").inner_text().startswith("7 of 18 rows")
    table.locator("thead th", has_text="amount").click()  # sort by amount, most last
    amounts = [int(a) for a in column(page, table.locator("table"), "amount")]
    assert amounts == sorted(amounts) and amounts[-1] == 20
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-explore.png"))


def check_04(page: Any) -> None:
    live = page.locator(f"{PANEL} .jp-OutputArea-output", has_text="ui_chat").first
    assert "text" in column(page, live.locator("table"), "kind")
    log = page.locator(f"{PANEL} .mcbews-explore").first  # the whole event log, explored
    log.scroll_into_view_if_needed()
    log.locator("select[data-column='kind']").select_option("text")
    kinds = set(column(page, log.locator("table"), "kind"))
    assert kinds == {"text"}, kinds
    log.locator("input[type='search']").fill("Steve")
    summaries = column(page, log.locator("table"), "summary")
    assert summaries and all("Steve" in s for s in summaries), summaries


def check_05(page: Any) -> None:
    shown = [out["text"] for out in outputs(page)]
    assert any("✔ players_near is registered in the simulated world's addon" in t for t in shown)
    caps = page.locator(f"{PANEL} .mcbews-table table", has_text="players_near").first
    kinds = column(page, caps, "kind")
    assert kinds.count("prototype") == 1 and "shipped" in kinds, kinds
    failing = page.locator(f"{PANEL} .jp-OutputArea-output", has_text="cell players_near, line 7")
    assert "TypeError: cannot read property 'name' of undefined" in failing.first.inner_text()
    reloaded = next(k for k, t in enumerate(shown) if "script files have been reloaded" in t)
    again = shown[reloaded + 1]  # the deployed pack's capability answers after /reload
    assert "players_near answered" in again and "health" in again and "14" in again, again
    assert "['players_near']" in shown[reloaded + 2]
    caps.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-prototype.png"))


def check_07(page: Any) -> None:
    picture = page.locator(f"{PANEL} img[alt='block region']").first
    picture.scroll_into_view_if_needed()
    shown, natural = picture.evaluate("(e) => [e.clientWidth, e.naturalWidth]")
    assert shown == natural == 640, (shown, natural)  # at its own size: its words are 11 px


# Each picture of a write's preview as the page draws it: its alt text, its width on the
# page and whether it loaded.
PREVIEW_PICTURES = """(e) => [...e.querySelectorAll('img')].map(
    (i) => [i.alt, i.clientWidth, i.complete && i.naturalWidth > 0])"""


def check_10(page: Any) -> None:
    preview = page.locator(f"{PANEL} .mcbews-preview").first
    preview.scroll_into_view_if_needed()
    assert "21x3x15 blocks at (0, 63, 6)" in preview.inner_text()
    pictures = preview.evaluate(PREVIEW_PICTURES)
    assert pictures == [["before", 256, True], ["after", 256, True], ["what changes", 256, True]]
    page.screenshot(path=str(ARTIFACTS / "jupyterlab-building.png"))


CHECKS = {"01": check_01, "02": check_02, "03": check_03, "04": check_04, "05": check_05,
          "07": check_07, "10": check_10}  # fmt: skip


@pytest.mark.timeout(400)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_notebook_reads_well_in_jupyterlab(
    browser: Any, lab: tuple[str, Path], name: str
) -> None:
    with page_on(browser, lab, name, f"jupyterlab-failure-{name[:2]}.png") as page:
        check_reads_well(page)
        CHECKS.get(name[:2], lambda page: None)(page)


@pytest.mark.timeout(400)
def test_our_errors_show_as_a_short_red_message_in_jupyterlab(
    browser: Any, lab: tuple[str, Path]
) -> None:
    path = "scratch/mistakes.ipynb"
    with page_on(browser, lab, path, "jupyterlab-mistakes-failure.png") as page:
        error = page.locator(".jp-OutputArea-output", has_text="CapabilityError:").first
        error.wait_for(timeout=240_000)
        error.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "jupyterlab-error.png"))
        text = error.inner_text()
        assert "no such capability: no_such_cap" in text
        assert "%mc caps lists what this world's addon offers." in text
        assert "Traceback" not in text and len(text.strip().splitlines()) <= 2
        colour = error.locator("span", has_text="CapabilityError:").first.evaluate(
            "e => getComputedStyle(e).color"
        )
    red, green, blue = (int(v) for v in colour[colour.index("(") + 1 : -1].split(",")[:3])
    assert red > 150 and green < 120 and blue < 120, colour  # it shows red


# Draws a character with an element's font in a canvas; a glyph no font has is drawn as the
# same box as U+FFFF (a noncharacter), so comparing the two tells whether it renders.
GLYPH_RENDERS = """(element, glyph) => {
    const style = getComputedStyle(element);
    const canvas = document.createElement('canvas');
    canvas.width = 48; canvas.height = 48;
    const pen = canvas.getContext('2d');
    const draw = (text) => {
        pen.clearRect(0, 0, 48, 48);
        pen.font = `${style.fontWeight} 28px ${style.fontFamily}`;
        pen.fillText(text, 6, 36);
        return pen.getImageData(0, 0, 48, 48).data.join(',');
    };
    const shown = draw(glyph);
    return shown !== draw('\\uFFFF') && shown !== draw(' ');
}"""


@pytest.mark.timeout(400)
def test_the_doctor_card_reads_well_in_jupyterlab(browser: Any, lab: tuple[str, Path]) -> None:
    path = "scratch/doctor.ipynb"
    with page_on(browser, lab, path, "jupyterlab-doctor-failure.png") as page:
        card = page.locator(f"{PANEL} .jp-OutputArea-output .mcbews-doctor").first
        card.wait_for(timeout=240_000)
        card.scroll_into_view_if_needed()
        card.screenshot(path=str(ARTIFACTS / "jupyterlab-doctor.png"))
        text = card.inner_text()
        results = card.locator("td b")
        shown = [results.nth(i).inner_text() for i in range(results.count())]
        renders = {
            glyph: card.evaluate(GLYPH_RENDERS, glyph) for glyph in ("\u2713", "\u2717", "?")
        }
        font = card.evaluate("e => getComputedStyle(e).fontFamily")
    assert shown == ["\u2713 ok"] * 4 + ["? unsure"] * 2, shown
    assert "4 of 6 checks ok, nothing failed" in text and "doctor.jsonl (redacted)" in text
    assert "the stable pack, version" in text
    assert renders == {"\u2713": True, "\u2717": True, "?": True}, (renders, font)
    assert font and font != "serif"  # JupyterLab's content font, not the browser's default
    assert (ARTIFACTS / "jupyterlab-doctor.png").stat().st_size > 10_000


@pytest.mark.timeout(400)
def test_without_the_widgets_front_end_the_map_shows_its_picture(
    browser: Any, lab: tuple[str, Path]
) -> None:
    """A JupyterLab that has the widget manager but not anywidget's front end (a kernel of
    another environment; the page loads it from elsewhere and that failed) cannot draw the
    widget: the map's static copy is what the reader sees, beside the widget's error."""
    root = lab[1]
    config = root / "cfg" / "labconfig" / "page_config.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"disabledExtensions": {"anywidget": True}}), encoding="utf-8")
    try:
        with page_on(browser, lab, "scratch/map.ipynb", "jupyterlab-map-failure.png") as page:
            page.wait_for_function(
                "(panel) => document.querySelector(panel + ' .mcbews-map-fallback g.player')",
                arg=PANEL,
            )
            shown = [out["text"] for out in outputs(page)]
            drawn = maps(page)
            page.screenshot(path=str(ARTIFACTS / "jupyterlab-map-without-widgets.png"))
    finally:
        config.unlink()
    assert any(error in text for text in shown for error in WIDGET_ERRORS), shown
    assert drawn == [{"live": False, "seen": True, "players": ["Steve", "Alex"]}], drawn
