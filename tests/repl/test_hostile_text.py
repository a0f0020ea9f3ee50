"""Every rendering of a hostile player's name (tests/hostile.py), through IPython's own
display formatters in a real shell: neither the plain text nor the HTML holds a control
character, a bidi control or a lone surrogate (our colours aside), each shows the marks
that stand for them, and the data keeps the raw name. The terminal and the kernel are read
for the same in test_terminal_hostile_text.py and test_kernel_hostile_text.py (slow).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mcbews_repl.doctor import Check, DoctorReport
from mcbews_repl.doctor.view import report_plain
from mcbews_repl.exceptions import CapabilityError
from mcbews_repl.repl.ipython._formatters import error_text
from mcbews_repl.repl.show._results import CallResult
from mcbews_repl.repl.show._table_widget import widget_rows
from tests.hostile import HOSTILE, OUR_COLOURS, SHOWN, leftovers, plant

H = HOSTILE


@pytest.fixture(scope="module")
def mc(shell: Any) -> Iterator[Any]:
    handle = shell.user_ns["mc"]
    handle.simulate([H, "Alex"]).result(60)
    handle.sim.edit(plant)
    handle.sim.chat(H, "hello " + H)
    yield handle
    handle.simulate().result(60)  # the default world again, for whoever comes next


def _doctor_report() -> DoctorReport:
    checks = [
        Check(1, "The connection", "ok", f"{H}'s game answered"),
        Check(2, "Text display", "unsure", f"sent {H} a text", f"ask {H} [/] if they saw it"),
    ]
    return DoctorReport(f"{H}'s game from 127.0.0.1:1", checks, Path("d.jsonl"))  # fmt: skip


# JSON writes C0 controls as escapes of its own (visible, and still the data's JSON).
IN_JSON = json.dumps(H, ensure_ascii=False).strip('"').replace("\u202e", "⟨U+202E⟩")
# What a teacher shows, each made from the world above.
SHOWN_VALUES: dict[str, Callable[[Any], Any]] = {
    "inventory": lambda mc: mc.inventory().result(),
    "player": lambda mc: mc.player(H).result(),
    "players": lambda mc: mc.players().result(),
    "testfor": lambda mc: mc.command("testfor @a").result(),
    "map": lambda mc: mc.map(live=False),
    "status": lambda mc: mc.status(),
    "panel": lambda mc: mc,
    "events": lambda mc: mc.events().result(),
    "entities": lambda mc: mc.entities().result(),
    "sim": lambda mc: mc.sim,
    "connection": lambda mc: mc.connections[0],
    "gateway connection": lambda mc: mc.connections[0].raw,
    "worlds": lambda mc: mc.worlds,
    "world": lambda mc: mc.world(H),
    "snapshot answer": lambda mc: mc.call("get_player_snapshot", target=H).result(),
    "inventory answer": lambda mc: mc.call("get_inventory_snapshot", target=H).result(),
    "json tree": lambda mc: CallResult("my_prototype", {"who": H, "said": [H]}),
    "testfor answer": lambda mc: mc.query.testfor("@a").result(),
    "plain frame": lambda mc: mc.inventory().result()[["player", "nameTag", "lore"]],
    "doctor": lambda mc: _doctor_report(),
    "a failed call in the panel": lambda mc: _after_a_failure(mc),
}


def _after_a_failure(mc: Any) -> Any:
    """The panel once a capability failed naming the player: the addon's message is shown."""
    with pytest.raises(CapabilityError):
        mc.inventory(H + "2").result()
    return mc.status()


@pytest.mark.parametrize("name", list(SHOWN_VALUES))
def test_no_rendering_passes_a_control_character_on(shell: Any, mc: Any, name: str) -> None:
    value = SHOWN_VALUES[name](mc)
    data, _ = shell.display_formatter.format(value)
    plain, page = data["text/plain"], data.get("text/html")
    for form in (plain, page):
        if form is not None:
            assert leftovers(form) == "", f"{name}: {form!r}"
    marks = IN_JSON if name == "json tree" else SHOWN
    assert marks in OUR_COLOURS.sub("", plain).replace("\n", ""), plain
    if page is not None:
        assert "\x1b" not in page and SHOWN in page, page


def test_our_errors_show_the_name_cleaned() -> None:
    shown = error_text(CapabilityError("CAPABILITY_FAILED", f"no player named {H} is online"))
    assert leftovers(shown) == "" and SHOWN in OUR_COLOURS.sub("", shown)


def test_the_doctor_shows_a_name_holding_markup_as_it_is() -> None:
    plain = report_plain(_doctor_report())
    assert leftovers(plain) == "" and f"ask {SHOWN} [/] if they saw it" in plain


def test_the_explore_table_sends_the_page_clean_words(mc: Any) -> None:
    rows = widget_rows(mc.inventory().result())
    sent = json.dumps(rows, ensure_ascii=False)
    assert leftovers(sent) == "" and SHOWN in sent
    picks = next(c["picks"] for c in rows["columns"] if c["header"] == "player")
    assert SHOWN in picks  # a pick list's options are text in the page


def test_the_data_keeps_the_name_as_the_game_sent_it(mc: Any) -> None:
    inventory = mc.inventory().result()
    assert inventory.loc[0, "player"] == H and inventory.loc[0, "nameTag"] == H
    assert mc.player(H).result().name == H
    assert H in set(mc.events().result()["player"])
