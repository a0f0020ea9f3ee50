"""Every %mc sub-command and mc method against the simulated world, in a real shell."""

from __future__ import annotations

import asyncio
import socket
import time
from html import unescape
from typing import Any

import pandas as pd
import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.error import UsageError

from mcbews_repl import CapabilityError, CommandResult, FrameTooLarge
from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.show._status import Status
from mcbews_repl.repl.show._tables import PlayerSnapshot


def mc_of(shell: Any) -> Minecraft:
    mc = shell.user_ns["mc"]
    assert isinstance(mc, Minecraft)
    return mc


def render(shell: Any, value: object) -> tuple[str, str]:
    """What Jupyter (HTML) and the terminal (plain text) would show."""
    formatters = shell.display_formatter.formatters
    html = formatters["text/html"].lookup(value)(value)  # disabled in a terminal shell
    return html, formatters["text/plain"](value)


def test_status_and_connect_line(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    status = shell.run_line_magic("mc", "")
    assert isinstance(status, Status)
    assert [c["player"] for c in status.connections] == ["Steve"]
    shell.run_line_magic("mc", "connect")
    assert capsys.readouterr().out.startswith("/connect 127.0.0.1:")


def test_commands_pass_minecraft_syntax_untouched(shell: Any) -> None:
    shell.user_ns["x"] = "EXPANDED"
    result = shell.run_line_magic("mc", '/tellraw @a {"rawtext":[{"text":"$x {x}"}]}')
    assert isinstance(result, CommandResult) and result.ok
    inbox = mc_of(shell).sim.inbox("Alex")
    assert inbox[-1] == "$x {x}"
    failed = shell.run_line_magic("mc", "cmd fly")
    assert not failed.ok and failed.status_code == -2147483647


def test_players_inventory_caps_are_dataframes(shell: Any) -> None:
    players = shell.run_line_magic("mc", "players")
    assert isinstance(players, pd.DataFrame)
    assert set(players["name"]) == {"Steve", "Alex"}
    inv = shell.run_line_magic("mc", "inv Steve")
    assert set(inv["player"]) == {"Steve"}
    sword = inv[inv["itemId"] == "minecraft:diamond_sword"].iloc[0]
    assert sword["nameTag"] == "Excalibur" and "sharpness 5" in sword["enchantments"]
    assert 0 < sword["durability"] < 1
    caps = shell.run_line_magic("mc", "caps")
    assert "get_inventory_snapshot" in set(caps["name"])


def test_player_card_renders_in_both_worlds(shell: Any) -> None:
    card = shell.run_line_magic("mc", "player Alex")
    assert isinstance(card, PlayerSnapshot) and card.name == "Alex"
    html, text = render(shell, card)
    assert "Alex" in html and "health" in html
    assert "Alex" in text
    assert card.to_series()["name"] == "Alex"


def test_failed_command_renders_red(shell: Any) -> None:
    failed = shell.run_line_magic("mc", "/fly")
    html, text = render(shell, failed)
    assert "#cf222e" in html and "Unknown command" in html
    assert "\x1b[" in text and "Unknown command" in text  # rich colours for the terminal


def test_call_reads_json_values(shell: Any) -> None:
    result = shell.run_line_magic("mc", "call get_player_snapshot target=Steve")
    assert result["players"][0]["name"] == "Steve"
    with pytest.raises(UsageError, match="key=value"):
        shell.run_line_magic("mc", "call get_player_snapshot Steve")


def test_tell_reaches_the_players_panel(shell: Any) -> None:
    shell.run_line_magic("mc", "tell Steve hello {there} @a")
    assert any("hello {there} @a" in line for line in mc_of(shell).sim.inbox("Steve"))


def test_cell_magic_runs_one_command_per_line(shell: Any) -> None:
    table = shell.run_cell_magic("mc", "", "say one\n# a comment\n/fly\ntag Steve list")
    assert list(table["command"]) == ["say one", "fly", "tag Steve list"]
    assert table["message"].iloc[2] == "Steve has 1 tags: builder"  # the game sends §abuilder§r
    assert list(table["ok"]) == [True, False, True]


def test_events_table(shell: Any) -> None:
    events = shell.run_line_magic("mc", "events --last 3")
    assert list(events.columns) == ["time", "kind", "connection", "player", "summary"]
    assert events.index.name == "cursor" and len(events) == 3
    assert list(events.index) == sorted(events.index)


def test_mistakes_are_usage_errors(shell: Any) -> None:
    with pytest.raises(UsageError, match="unknown %mc sub-command"):
        shell.run_line_magic("mc", "fly away")
    with pytest.raises(UsageError, match="invalid int"):
        shell.run_line_magic("mc", "events --last many")
    with pytest.raises(UsageError):
        shell.run_line_magic("mc", "tell Steve")


def test_api_is_awaitable_and_has_result(shell: Any) -> None:
    mc = mc_of(shell)

    async def use() -> str:
        player = await mc.player("Steve")
        return player.name

    assert asyncio.run(use()) == "Steve"
    assert mc.command("say sync").result(10).ok
    with pytest.raises(CapabilityError) as info:
        mc.call("no_such_capability").result(10)
    assert info.value.code == "UNSUPPORTED_CAPABILITY"


def test_our_errors_show_as_messages(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    result = shell.run_cell("mc.call('no_such_capability').result(10)")
    assert isinstance(result.error_in_exec, CapabilityError)
    shown = capsys.readouterr().out
    assert "CapabilityError:" in shown and "no such capability: no_such_capability" in shown
    assert "%mc caps lists what this world's addon offers." in shown
    assert "Traceback" not in shown


def test_ui_chat_callbacks_get_messages_and_can_reply(shell: Any) -> None:
    mc = mc_of(shell)
    seen: list[tuple[str, str]] = []

    def on_chat(msg: Any) -> None:
        seen.append((msg.player, msg.message))
        msg.reply(f"echo: {msg.message}")  # schedules the answer; safe from any thread

    mc.on_ui_chat(on_chat)
    try:
        mc.sim.ui_chat("Alex", "hi from the panel")  # the sim handle is thread-safe
        wait_until(lambda: any("echo: hi from the panel" in m for m in mc.sim.inbox("Alex")))
    finally:
        mc.off_ui_chat(on_chat)
    assert seen == [("Alex", "hi from the panel")]


def test_a_raising_callback_is_reported_not_lost(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    mc = mc_of(shell)

    def broken(msg: Any) -> None:
        raise RuntimeError("boom")

    mc.on_ui_chat(broken)
    try:
        mc.sim.ui_chat("Steve", "trigger")
        wait_until(lambda: bool(mc.callback_failures))
    finally:
        mc.off_ui_chat(broken)
    failure = mc.callback_failures[-1]
    assert failure.player == "Steve" and "boom" in failure.error
    assert "boom" in capsys.readouterr().err


def wait_until(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the condition never became true")
        time.sleep(0.05)


def completions(shell: Any, line: str) -> list[str]:
    """What IPython's completer offers (the API terminal IPython and Jupyter use)."""
    with provisionalcompleter():
        return [c.text for c in shell.Completer.completions(line, len(line))]


def test_tab_completion(shell: Any) -> None:
    assert {"player", "players"} <= set(completions(shell, "%mc pl"))
    assert completions(shell, "%mc player ") == ["Alex", "Steve"]  # not the bridge player
    assert completions(shell, "%mc inv A") == ["Alex"]
    assert "/scoreboard" in completions(shell, "%mc /sc")
    assert "querytarget" in completions(shell, "%mc cmd ")
    assert "list_capabilities" in completions(shell, "%mc call ")


def test_serve_checks_everything_before_touching_the_running_bridge(shell: Any) -> None:
    mc = mc_of(shell)
    url = mc.url
    for line in ("serve --token 'no spaces'", "serve --port 99999", "serve --port many"):
        with pytest.raises(UsageError) as refused:
            shell.run_line_magic("mc", line)
        assert "%mc serve" in str(refused.value)
    assert mc_of(shell) is mc and not mc.stopped and mc.url == url
    assert "token must be 1-64 letters" in str(_refusal(shell, "serve --token 'no spaces'"))
    assert f"still listening on {url}" in str(_refusal(shell, "serve --token 'no spaces'"))
    assert mc.command("say the game is still here").result(10).ok


def _refusal(shell: Any, line: str) -> UsageError:
    with pytest.raises(UsageError) as refused:
        shell.run_line_magic("mc", line)
    return refused.value


def test_serve_on_a_taken_port_keeps_the_old_bridge(shell: Any) -> None:
    mc = mc_of(shell)
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        refused = _refusal(shell, f"serve --port {taken}")
    assert f"cannot listen on 127.0.0.1:{taken}: the address is already in use" in str(refused)
    # in the words of the magic: its option is --port, so port=0 would not parse here
    assert "(--port 0 picks a free one)" in str(refused) and "port=0" not in str(refused)
    assert mc_of(shell) is mc and not mc.stopped
    assert mc.command("say still here").result(10).ok


def test_serve_again_on_the_same_port_restarts_there(shell: Any) -> None:
    old = mc_of(shell)
    port = old.bridge.port
    shell.run_line_magic("mc", f"serve --port {port}")
    new = mc_of(shell)
    assert new is not old and old.stopped and new.bridge.port == port
    shell.run_line_magic("mc", "sim")
    assert new.command("say restarted").result(10).ok


def test_serve_with_required_encryption(shell: Any) -> None:
    # Runs last in this module: it restarts the bridge, then restores a plain one.
    try:
        shell.run_line_magic("mc", "serve --port 0 --encrypt on")
        assert mc_of(shell).bridge.settings.encrypt is True
        status = shell.run_line_magic("mc", "sim")
        assert [c["encrypted"] for c in status.connections] == [True]
        html, text = render(shell, status)
        shown = unescape(html)
        assert (
            "Steve's game from 127.0.0.1:" in shown
            and ", encrypted, answers by pull, nothing pending" in shown
        )
        assert "encrypted" in text and "🔒" not in html + text  # a word, not a missing glyph
        assert shell.run_line_magic("mc", "/say secret").ok
    finally:
        shell.run_line_magic("mc", "serve --port 0 --encrypt auto")
        shell.run_line_magic("mc", "sim")
    with pytest.raises(UsageError, match="invalid choice"):
        shell.run_line_magic("mc", "serve --encrypt maybe")


def test_encrypt_setting_words() -> None:
    from mcbews_repl.repl.ipython._config import encrypt_policy

    assert [encrypt_policy(w) for w in ("auto", "on", "OFF")] == ["auto", True, False]
    for word in ("sometimes", "yes"):
        with pytest.raises(ValueError, match="auto, on or off"):
            encrypt_policy(word)


def test_a_command_over_the_frame_budget_is_refused_with_both_limits_shown(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    mc = mc_of(shell)
    sent_before = len(mc.bridge.events())
    capsys.readouterr()
    result = shell.run_cell("%mc /say " + '"' * 300)  # 304 bytes of line, 816 of frame
    error = result.error_in_exec
    assert isinstance(error, FrameTooLarge)
    # What IPython printed for it: the extension's short error, one paragraph, no traceback.
    shown = capsys.readouterr().out
    assert "FrameTooLarge" in shown and "Traceback" not in shown
    assert "304 UTF-8 bytes (the limit is 461)" in shown
    assert "816 bytes as sent (the limit is 661" in shown
    refused = [e for e in mc.bridge.events()[sent_before:] if e.kind == "command"]
    assert refused and "FrameTooLarge" in refused[-1].summary  # logged, never sent
