"""How each game's answers travel, as a person sees it: %mc sim's pack and world options,
the status panel's "answers by pull", "by chat" or "by tags", and what a world without an
addon says."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from IPython.core.error import UsageError

from .ipython.test_magics import mc_of, render


def shown(shell: Any, value: Any) -> tuple[str, str]:
    """What the notebook (HTML, entities decoded) and the terminal (plain text) would show."""
    html, text = render(shell, value)
    return unescape(html), text


def test_the_default_world_is_the_stable_pack_without_beta_apis(shell: Any) -> None:
    mc = mc_of(shell)
    status = shell.run_line_magic("mc", "sim")
    html, text = shown(shell, status)
    for screen in (html, text):
        assert "Steve's game from 127.0.0.1:" in screen and ", answers by pull, " in screen
        assert "answers through custom-command results (pull)" in screen
    assert repr(mc.sim).endswith("stable pack, no Beta APIs>")
    assert [c.transport for c in mc.connections] == ["pull"]
    assert "MCBEWS_BRIDGE" not in mc.sim.world.players


def test_the_beta_pack_and_an_education_world(shell: Any) -> None:
    mc = mc_of(shell)
    try:
        shell.run_line_magic("mc", "sim --pack beta")
        assert repr(mc.sim).endswith("beta pack, Beta APIs on>")
        assert [c.transport for c in mc.connections] == ["pull"]  # pull first: it answers
        assert mc.player("Alex").result(20).name == "Alex"
        shell.run_line_magic("mc", "sim --edition education")
        assert repr(mc.sim).endswith("stable pack, Minecraft Education>")
        assert mc.player("Alex").result(20).name == "Alex"
        with pytest.raises(UsageError, match="Minecraft Education has no Beta APIs"):
            shell.run_line_magic("mc", "sim --edition education --beta-apis on")
        with pytest.raises(UsageError, match="invalid choice"):
            shell.run_line_magic("mc", "sim --pack gold")
    finally:
        shell.run_line_magic("mc", "sim")


def test_a_beta_pack_without_beta_apis_says_why_nothing_answers(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    mc = mc_of(shell)
    try:
        status = shell.run_line_magic("mc", "sim --pack beta --beta-apis off")
        printed = capsys.readouterr().out
        assert "The simulated world did not load its pack: the pack depends on " in printed
        assert "@minecraft/server-gametest 1.0.0-beta" in printed
        assert "Try %mc sim --beta-apis on, or --pack stable." in printed
        html, text = shown(shell, status)
        assert ", no addon answers, " in text
        assert "Game #" in html and "no addon answers (pull: refused by the game" in html
        with pytest.raises(Exception, match="no companion addon answers on this connection"):
            mc.players().result(30)
    finally:
        shell.run_line_magic("mc", "sim")
    assert mc.players().result(20)["name"].tolist() == ["Steve", "Alex"]


def test_the_chat_transport_when_it_is_the_setting(shell: Any) -> None:
    # Restarts the bridge with the chat transport, then restores the default one.
    try:
        shell.run_line_magic("config", "McbewsRepl.transport = 'chat'")
        shell.run_line_magic("mc", "serve --port 0")
        status = shell.run_line_magic("mc", "sim --pack beta")
        html, text = shown(shell, status)
        assert ", answers by chat, " in text and ", answers by chat, " in html
        assert "answers through the bridge player's chat (chat)" in text
        mc = mc_of(shell)
        [row] = mc.inventory("Steve").result(20).groupby("player")["amount"].sum().items()
        assert row[0] == "Steve" and row[1] > 0
    finally:
        shell.run_line_magic("config", "McbewsRepl.transport = 'auto'")
        shell.run_line_magic("mc", "serve --port 0")
        shell.run_line_magic("mc", "sim")
    assert [c.transport for c in mc_of(shell).connections] == ["pull"]


def test_the_tags_transport_when_it_is_the_setting(shell: Any) -> None:
    try:
        shell.run_line_magic("config", "McbewsRepl.transport = 'tags'")
        shell.run_line_magic("mc", "serve --port 0")
        status = shell.run_line_magic("mc", "sim")
        html, text = shown(shell, status)
        assert ", answers by tags, " in text and ", answers by tags, " in html
        assert "answers through tags on the connected player (tags)" in text
        mc = mc_of(shell)
        [row] = mc.inventory("Steve").result(20).groupby("player")["amount"].sum().items()
        assert row[0] == "Steve" and row[1] > 0
    finally:
        shell.run_line_magic("config", "McbewsRepl.transport = 'auto'")
        shell.run_line_magic("mc", "serve --port 0")
        shell.run_line_magic("mc", "sim")
    assert [c.transport for c in mc_of(shell).connections] == ["pull"]


def test_a_world_without_the_addon_from_the_magic(shell: Any) -> None:
    mc = mc_of(shell)
    try:
        status = shell.run_line_magic("mc", "sim --no-addon")
        _, text = shown(shell, status)
        assert ", no addon answers, " in text and repr(mc.sim).endswith("; no addon>")
        assert mc.command("testfor @a").result(20).ok  # the game itself answers
        with pytest.raises(UsageError, match="--addon or --no-addon, not both"):
            shell.run_line_magic("mc", "sim --no-addon --addon .")
    finally:
        shell.run_line_magic("mc", "sim")
