"""What a notebook shows, read from a real Jupyter kernel's outputs (ipykernel via nbclient).

Each defect a notebook user once saw is replayed here as cells, and the test
reads the cell outputs: the error output JupyterLab and the classic notebook render in red,
the streams, the rich displays. A check that passes when nothing is shown is no check, so
every error case asserts the message itself.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.repl.kernel import run_in_kernel

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

ANSI = re.compile(r"\x1b\[[0-9;]*m")

CELLS = {
    "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "sim": "%mc sim",
    "no_player": "await mc.player('Nobody')",
    "no_cap": "%mc call no_such_cap",
    "wrong_type": "%mc call get_inventory_snapshot target=123",
    "unknown_param": "%mc call get_inventory_snapshot player=123",
    "not_awaited": "mc.player('Nobody')",
    "plain_error": "1 / 0",
    "command": "await mc.command('say hi')",
    "inventory": "inv = await mc.inventory()\ninv[['itemId', 'nameTag', 'lore']]",
    "raw": "raw = await mc.call('get_inventory_snapshot', target='Steve')\n"
    "print([s.get('lore') for s in raw['players'][0]['slots'] if s.get('lore')])",
    "coloured": "await mc.command('tag Steve add §6shiny')",
    "card": "%mc count Steve cobblestone",
    "entities": "%mc entities",
    "handle": "c = mc.connections[0]\nimport asyncio\n"
    "r = await asyncio.wait_for(c.command('say via handle'), 5)\nprint(type(c).__name__, r.ok)",
    "bad_port": "%mc serve --port 99999",
    "still_works": "r = await mc.command('testfor @a')\nprint(r.ok, r.status_message)",
    "stop": "%mc stop",
    "stopped_panel": "mc",
    "stopped_call": "await mc.command('say hi')",
    "stopped_magic": "%mc players",
    "serve_again": "%mc serve --port 0",
    "unload": "%unload_ext mcbews_repl",
}


def texts(cell: Any) -> str:
    """Everything a cell showed as text: streams, error tracebacks, plain and HTML data."""
    parts = []
    for out in cell.outputs:
        if out.output_type == "stream":
            parts.append(out.text)  # a print may arrive in several stream messages
        elif out.output_type == "error":
            parts.append("\n".join(out.traceback) + "\n")
        else:
            parts += [out.get("data", {}).get(m, "") + "\n" for m in ("text/plain", "text/html")]
    return ANSI.sub("", "".join(parts))


def errors(cell: Any) -> list[Any]:
    return [o for o in cell.outputs if o.output_type == "error"]


@pytest.fixture(scope="module")
def shown() -> dict[str, Any]:
    return run_in_kernel(CELLS, timeout=90, allow_errors=True)


@pytest.mark.parametrize(
    ("name", "message", "hint"),
    [
        ("no_player", "no player named Nobody is online", None),
        ("no_cap", "no such capability: no_such_cap", "%mc caps lists what this world's addon"),
        ("wrong_type", 'parameter "target" of get_inventory_snapshot must be a string', "%mc caps"),
        ("unknown_param", 'unknown parameter "player" for get_inventory_snapshot', "%mc caps"),
        ("not_awaited", "no player named Nobody is online", None),
    ],
)
def test_our_errors_are_one_short_red_message(
    shown: dict[str, Any], name: str, message: str, hint: str | None
) -> None:
    [error] = errors(shown[name])
    assert error.ename == "CapabilityError"
    text = "\n".join(error.traceback)
    assert "\x1b[1;31mCapabilityError:" in text  # red, as JupyterLab renders ANSI
    plain = ANSI.sub("", text)
    assert message in plain
    assert "Traceback" not in plain and "Cell In[" not in plain
    assert len(plain.splitlines()) <= 2  # the message, and what to do next
    if hint is not None:
        assert hint in plain


def test_other_exceptions_keep_the_normal_traceback(shown: dict[str, Any]) -> None:
    [error] = errors(shown["plain_error"])
    assert error.ename == "ZeroDivisionError"
    assert "Cell In[" in texts(shown["plain_error"])


def test_results_come_without_an_empty_output_before_them(shown: dict[str, Any]) -> None:
    for name, cell in shown.items():
        for out in cell.outputs:
            html = out.get("data", {}).get("text/html", "")
            assert not re.search(r"<pre[^>]*>\s*</pre>", html), f"{name}: an empty <pre></pre>"
    assert [o.output_type for o in shown["command"].outputs] == ["execute_result"]


def test_no_glyph_common_fonts_lack(shown: dict[str, Any]) -> None:
    # Emoji such as the lock the status panel used to show render as a missing-glyph box in
    # JupyterLab's default font; everything shown stays in the Basic Multilingual Plane.
    for name, cell in shown.items():
        assert all(ord(ch) < 0x1F000 for ch in texts(cell)), name
    assert "encrypted" in texts(shown["sim"])


def test_formatting_codes_are_clean_in_tables_coloured_in_cards_raw_in_data(
    shown: dict[str, Any],
) -> None:
    table = texts(shown["inventory"])
    assert "Treasure X" in table and "Legendary" in table and "§" not in table
    assert "'§6Legendary'" in texts(shown["raw"])  # the snapshot keeps what the game sent
    [result] = shown["coloured"].outputs
    html, plain = result["data"]["text/html"], result["data"]["text/plain"]
    # The command stays as typed; the game's answer shows its colours.
    assert "/tag Steve add §6shiny</b>" in html and html.count("§") == 1
    assert "Added tag &#x27;<span style='color:#FFAA00'>shiny&#x27; to Steve</span>" in html
    assert "\x1b[38;2;255;170;0mshiny' to Steve" in plain and plain.count("§") == 1


def test_toolkit_answers_show_as_cards(shown: dict[str, Any]) -> None:
    card = texts(shown["card"])
    assert "ItemCount, known" in card and "Steve has 101 of minecraft:cobblestone" in card
    assert "ItemCount(command=" not in card


def test_entity_tables_tell_entities_apart(shown: dict[str, Any]) -> None:
    [table] = [o for o in shown["entities"].outputs if o.output_type == "execute_result"]
    html = table["data"]["text/html"]
    assert ">type</th>" in html and ">name</th>" in html
    assert ">villager_v2</td>" in html and "title='minecraft:villager_v2'" in html
    assert ">Bob</td>" in html


def test_connections_are_handles_that_answer_in_a_cell(shown: dict[str, Any]) -> None:
    assert texts(shown["handle"]).strip() == "Connection True"


def test_a_bad_serve_is_a_usage_error_and_the_bridge_keeps_working(shown: dict[str, Any]) -> None:
    cell = shown["bad_port"]
    assert not errors(cell)
    [stream] = cell.outputs
    assert stream.name == "stderr"
    assert stream.text.startswith(
        "UsageError: %mc serve: argument --port: 99999 is not a port (0..65535; 0 picks a free one)"
    )
    assert len(stream.text.strip().splitlines()) <= 3  # no 60-line traceback
    assert texts(shown["still_works"]).startswith("True Found Steve, Alex")


def test_after_stop_mc_and_every_call_say_it_is_stopped(shown: dict[str, Any]) -> None:
    assert "Bridge stopped; %mc serve starts a new one." in texts(shown["stop"])
    panel = texts(shown["stopped_panel"])
    assert "stopped; %mc serve starts a new one" in panel
    assert "listening" not in panel and "/connect" not in panel
    for name in ("stopped_call", "stopped_magic"):
        [error] = errors(shown[name])
        assert error.ename == "BridgeStopped"
        plain = ANSI.sub("", "\n".join(error.traceback))
        assert "is stopped" in plain and "Start it again with %mc serve." in plain
    assert "Bridge listening. In Minecraft type: /connect" in texts(shown["serve_again"])
