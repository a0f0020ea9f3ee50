"""A player whose name, item name tag, lore and pet's name tag hold control sequences and
a right-to-left override, read from a real Jupyter kernel's outputs (nbclient): neither
the HTML nor the plain text a front end receives holds them, each shows the marks that
stand for them, and the data keeps the name exactly as the game sent it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.hostile import OUR_COLOURS, SESSION, SHOWN, leftovers

from .kernel import run_in_kernel

# A real kernel, terminal or process: outside `make test-fast`.
pytestmark = pytest.mark.slow

CELLS = {
    "load": "%config McbewsRepl.port = 0\n%load_ext mcbews_repl",
    "sim": "\n".join(SESSION[:3]),
    "setup": "\n".join(SESSION[3:]),
    "inventory": "inv = await mc.inventory()\ninv",
    "player": "await mc.player(H)",
    "testfor": "await mc.command('testfor @a')",
    "map": "mc.map()",
    "status": "mc.status()",
    "magic": "%mc",
    "events": "await mc.events()",
    "entities": "await mc.entities()",
    "plain_frame": "inv[['player', 'nameTag', 'lore']]",
    "call": "await mc.call('get_player_snapshot', target=H)",
    "error": "await mc.player(H + 'x')",
    "data": "print(repr(inv.loc[0, 'nameTag'] == H), repr((await mc.player(H)).name == H))",
}


@pytest.fixture(scope="module")
def shown() -> dict[str, Any]:
    return run_in_kernel(CELLS, timeout=120, allow_errors=True)


def received(cell: Any) -> list[tuple[str, str]]:
    """Every piece of text the front end got from the cell: (what it is, the text)."""
    pieces = []
    for out in cell.outputs:
        if out.output_type == "stream":
            pieces.append((out.name, out.text))
        elif out.output_type == "error":
            pieces.append(("error", "\n".join(out.traceback)))
        else:
            pieces += [(mime, v) for mime, v in out.get("data", {}).items() if isinstance(v, str)]
    return pieces


@pytest.mark.parametrize("name", [n for n in CELLS if n not in ("load", "setup", "data")])
def test_no_control_character_of_the_name_reaches_the_page(
    shown: dict[str, Any], name: str
) -> None:
    pieces = received(shown[name])
    assert pieces, f"{name} showed nothing"
    for mime, text in pieces:
        # A page has no colour sequences of ours: any escape at all is a leftover there.
        assert "\x1b" not in text or mime != "text/html", f"{name}: {text!r}"
        assert leftovers(text) == "", f"{name} {mime}: {text!r}"
    # The name is shown for what it holds, in the page and in the plain text alike.
    html = [t for mime, t in pieces if mime == "text/html"]
    words = [OUR_COLOURS.sub("", t).replace("\n", "") for mime, t in pieces if mime != "text/html"]
    assert any(SHOWN in t for t in words), f"{name}: {pieces}"
    if name not in ("sim", "error"):  # a repr and an error have no HTML form
        assert any(SHOWN in t for t in html), f"{name}: {html}"


def test_the_data_keeps_the_name_as_the_game_sent_it(shown: dict[str, Any]) -> None:
    [(_, said)] = received(shown["data"])
    assert said.split() == ["True", "True"]
