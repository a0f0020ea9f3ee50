"""The simulated world against the evidence corpus: what the real game was recorded saying.

Each test sets up the situation a capture was taken in (a player named like the one in it,
the same items), runs the same command and compares the body or frame with the capture,
byte for byte where the capture is complete. Strings without a capture are compared with
the language file, read and filled here independently of the simulated world's own code.
The corpus files are read as plain JSON, never through ``mcbews_repl.sim.facts``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcbews_repl.sim import ChatLine, Interpreter, ItemStack, Vec3, WorldState, make_player
from mcbews_repl.sim.cmd_chat import player_chat
from mcbews_repl.sim.commands import CommandOutcome, Effects
from mcbews_repl.sim.frames import (
    TOO_MANY_PENDING,
    TOO_MANY_PENDING_MESSAGE,
    chat_event,
    error_frame,
)
from mcbews_repl.sim.selectors import CommandOrigin

from ..corpus import CAPTURES, EVIDENCE, FACTS, SOURCES, exact, lang


class World:
    """A world holding the capture's player, and the chat the game would report."""

    def __init__(self, name: str = "FrankyRayMS", **players: Vec3) -> None:
        self.state = WorldState(local_player=name)
        self.state.add_player(make_player(name, Vec3(0.5, 64.0, 0.5)))
        for other, where in players.items():
            self.state.add_player(make_player(other, where))
        self.chat: list[ChatLine] = []
        self.interpreter = Interpreter(self.state, Effects(chat=self.chat.append))

    def player(self, name: str = "FrankyRayMS") -> Any:
        return self.state.players[name]

    def run(self, line: str, as_name: str = "FrankyRayMS") -> CommandOutcome:
        """Run as a player (``@s`` is them), as the capture's script did."""
        origin = CommandOrigin(as_name, self.state.players.get(as_name))
        return self.interpreter.execute(line, origin)


# --- command response bodies -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("capture_id", "line"),
    [
        ("say", "say Hello!"),
        ("me", "me Hello!"),
        ("tell", "tell @a Hello!"),
        ("tellraw", 'tellraw @a {"rawtext": [{"text": "Hello!"}]}'),
        ("testfor", "testfor @s"),
        ("tag-add", "tag @s add Test"),
        ("setblock", "setblock 0 0 0 stone"),
    ],
)
def test_bodies_are_the_captured_bodies(capture_id: str, line: str) -> None:
    assert World().run(line).body() == exact(capture_id)


def test_list_body() -> None:
    world = World()
    world.state.max_players = 8
    assert world.run("list").body() == exact("list")


def test_clear_bodies_count_remove_and_fail() -> None:
    world = World()
    world.player().inventory[0] = ItemStack("minecraft:diamond", amount=64)
    assert world.run("clear @s diamond 0 0").body() == exact("clear-count")
    assert world.run("clear").body() == exact("clear-removed")
    nothing = exact("clear-nothing")  # the page writes {player} for the name
    nothing["statusMessage"] = nothing["statusMessage"].replace("{player}", "FrankyRayMS")
    assert world.run("clear").body() == nothing


def test_give_body_carries_amount_item_and_player() -> None:
    world = World()
    assert world.run("give @s apple").body() == exact("give")


def test_no_target_is_execution_fail() -> None:
    world = World()
    result = world.interpreter.execute("kill @s", CommandOrigin("Server"))  # @s is nobody
    assert result.body() == exact("kill-no-target")
    assert world.run("testfor @a[name=Herobrine]").body() == exact("kill-no-target")


def test_tag_remove_and_list_with_colour_codes() -> None:
    world = World()
    world.run("tag @s add Test")
    assert world.run("tag @s list").body() == exact("tag-list")
    assert world.run("tag @s remove Test").body() == exact("tag-remove")


def test_teleport_to_whole_coordinates_lands_on_the_block_centre() -> None:
    assert World().run("teleport 0 4 0").body() == exact("teleport")


def test_testforblock_found_and_other() -> None:
    world = World()
    world.player().location = Vec3(-12.5, 76.0, 16.5)
    assert world.run("testforblock ~ ~ ~ air").body() == exact("testforblock-found")
    other = world.run("testforblock ~ ~ ~ leaves").body()
    captured = exact("testforblock-other")
    # Block display names are not modelled ("Leaves", not the capture's "Spruce Leaves").
    assert {k: v for k, v in other.items() if k != "statusMessage"} == {
        k: v for k, v in captured.items() if k != "statusMessage"
    }
    assert other["statusMessage"].startswith("The block at -13,76,16 is Air (expected: ")


def test_setblock_over_the_same_block() -> None:
    world = World()
    world.run("setblock 0 0 0 stone")
    assert world.run("setblock 0 0 0 stone").body() == exact("setblock-no-change")


# --- wording from the language file --------------------------------------------------------


def test_tag_failures_use_the_games_wording() -> None:
    world = World()
    world.run("tag @s add Test")
    failed_add = world.run("tag @s add Test")
    assert failed_add.status_message == lang("commands.tag.add.failed")
    assert failed_add.status_code == FACTS["behaviours"]["tag_failure_code"]["value"]
    world.run("tag @s remove Test")
    assert world.run("tag @s remove Test").status_message == lang("commands.tag.remove.failed")


def test_scoreboard_reports_no_value_the_game_does_not() -> None:
    world = World(Alex=Vec3(3, 64, 3))
    world.run("scoreboard objectives add kills dummy")
    single = world.run("scoreboard players set @s kills 5").status_message
    assert single == lang("commands.scoreboard.players.set.success", "kills", "FrankyRayMS", 5)
    assert world.run("scoreboard players set @a kills 5").status_message == lang(
        "commands.scoreboard.players.set.multiple.success", "kills", 2, 5
    )
    assert world.run("scoreboard players add @a kills 2").status_message == lang(
        "commands.scoreboard.players.add.multiple.success", 2, "kills", 2
    )
    assert world.run("scoreboard players remove @a kills 1").status_message == lang(
        "commands.scoreboard.players.remove.multiple.success", 1, "kills", 2
    )
    added = world.run("scoreboard players add Alex kills 3").status_message
    assert added == lang("commands.scoreboard.players.add.success", 3, "kills", "Alex", 9)
    operation = world.run("scoreboard players operation @a kills += Alex kills")
    assert operation.status_message == lang(
        "commands.scoreboard.players.operation.success", "kills", 2
    )


def test_scoreboard_player_list_follows_the_entry_string() -> None:
    world = World()
    world.run("scoreboard objectives add coins dummy Coins")
    world.run("scoreboard players set @s coins 7")
    listed = world.run("scoreboard players list @s").status_message
    assert listed == "\n".join(
        [
            lang("commands.scoreboard.players.list.player.count", 1, "FrankyRayMS"),
            lang("commands.scoreboard.players.list.player.entry", 7, "Coins", "coins"),
        ]
    )


def test_scriptevent_failures_use_the_games_wording() -> None:
    world = World()
    for line in ("scriptevent noid hello", "scriptevent minecraft:x hello"):
        result = world.run(line)
        assert result.status_message == lang("commands.scriptevent.invalidNamespace")
        assert result.status_code == FACTS["behaviours"]["scriptevent_failure_code"]["value"]
    limit = FACTS["limits"]["scriptevent_message_chars"]["value"]
    too_long = world.run("scriptevent a:b " + "x" * (limit + 1))
    assert too_long.status_message == lang("commands.scriptevent.messageSizeExceed", limit)
    assert world.run("scriptevent a:b " + "x" * limit).status_code == 0


def test_unknown_commands_and_syntax_errors() -> None:
    world = World()
    unknown = world.run("frobnicate now")
    assert unknown.status_message == lang("commands.generic.unknown", "frobnicate")
    assert unknown.status_code == FACTS["status_codes"]["command_not_found"]["value"]
    bad = world.run("tp @s 1 two 3")
    assert bad.status_message == lang("commands.generic.syntax", "tp @s 1 ", "two", " 3")
    assert bad.status_code == FACTS["status_codes"]["syntax_error"]["value"]


def test_tell_shows_the_incoming_line_to_the_target() -> None:
    world = World(Alex=Vec3(3, 64, 3))
    result = world.run("tell Alex psst")
    assert result.status_message == lang("commands.message.display.outgoing", "Alex", "psst")
    assert world.player("Alex").inbox[-1] == lang(
        "commands.message.display.incoming", "FrankyRayMS", "psst"
    )


# --- events and error frames --------------------------------------------------------------


def _event(line: ChatLine, **options: Any) -> dict[str, Any]:
    frame: dict[str, Any] = json.loads(chat_event(line, **options))
    return frame


def test_chat_event_is_the_captured_frame() -> None:
    world = World("Steve")
    player_chat(world.state, world.interpreter.effects, "Steve", "hello")
    assert _event(world.chat[-1], version=17039360) == exact("chat-17039360")
    assert world.player("Steve").inbox[-1] == lang("chat.type.text", "Steve", "hello")


def test_chat_event_is_the_2026_frame_by_default() -> None:
    """The default header version is the 2026 recording's (17104896)."""
    world = World("fantong7038")
    player_chat(world.state, world.interpreter.effects, "fantong7038", "AI chat hi")
    assert _event(world.chat[-1]) == exact("chat-17104896")


def test_say_and_tellraw_events_in_the_older_header_version() -> None:
    world = World("Steve")
    world.run("say hello", as_name="Steve")
    assert _event(world.chat[-1], version=16842752) == exact("say-16842752")
    world.run('tellraw Steve {"rawtext":[{"text":"test"}]}', as_name="Steve")
    assert _event(world.chat[-1], version=16842752) == exact("tellraw-16842752")


def test_chat_event_shape_in_the_older_header_version() -> None:
    captured = exact("chat-16842752")  # the README's placeholders, filled
    captured["body"].update(message="hi there", sender="Alex")
    assert _event(ChatLine("Alex", "hi there", "chat"), version=16842752) == captured


def test_legacy_event_shape() -> None:
    captured = exact("chat-legacy")
    frame = _event(ChatLine("Anand", "alpha", "chat"), legacy=True)
    assert frame["header"] == captured["header"]
    assert {k: frame["body"][k] for k in ("eventName", "measurements")} == {
        "eventName": "PlayerMessage",
        "measurements": None,
    }
    wanted = FACTS["events"]["legacy_shape"]["value"]["properties"]
    props = captured["body"]["properties"]
    assert frame["body"]["properties"] == {k: props[k] for k in wanted}


def test_too_many_requests_is_the_captured_error_frame() -> None:
    captured = exact("too-many-requests")
    request_id = captured["header"]["requestId"]
    body = captured["body"]
    frame = json.loads(error_frame(request_id, body["statusCode"], body["statusMessage"]))
    assert frame == captured
    assert (
        body["statusCode"],
        body["statusMessage"],
    ) == (TOO_MANY_PENDING, TOO_MANY_PENDING_MESSAGE)


def test_every_capture_names_a_recorded_source() -> None:
    sources = SOURCES
    for capture in CAPTURES.values():
        source = sources[capture["source"]]
        assert source["repository"] and source["path"] and source["game_version"]
    for group in ("status_codes", "limits", "events", "behaviours", "game_events", "script_events"):
        for name, fact in FACTS[group].items():
            if name.startswith("$"):
                continue
            assert fact["status"] in ("captured", "assumed"), name
            if fact["status"] == "captured":
                assert fact["source"] in sources, name
            else:
                assert fact["why"], f"{name}: an assumption must say what it rests on"


def test_docs_list_every_fact_with_its_status() -> None:
    """docs/sim.md's table names every fact of facts.json and says captured or assumed."""
    docs = (EVIDENCE.parents[2] / "docs" / "sim.md").read_text(encoding="utf-8")
    rows = [line for line in docs.splitlines() if line.startswith("| ")]
    for group in ("status_codes", "limits", "events", "behaviours", "game_events", "script_events"):
        for name, fact in FACTS[group].items():
            if name.startswith("$"):
                continue
            row = next((r for r in rows if f"`{name}`" in r), None)
            assert row is not None, f"docs/sim.md does not list {group}.{name}"
            assert fact["status"] in row.rsplit("|", 2)[1], (name, row)


# --- the 2026 recordings (mcbe-ai-agent-record, mcbe-ai-agent-analysis) ----------------------


def test_scriptevent_and_say_bodies_of_the_2026_recording() -> None:
    world = World("fantong7038")
    sent = world.run('scriptevent mcbeai:ai_resp {"id":"resp-1"}', as_name="fantong7038")
    assert sent.body() == exact("scriptevent-2026")  # English, not a language-file string
    assert world.run("say hi", as_name="fantong7038").body() == exact("say-2026")


def test_tellraw_counts_the_simulated_player_as_a_recipient() -> None:
    """tellraw @a with the addon's simulated player in the world: both are recipients, and
    one tell event goes to each, from the origin's name (External over the WebSocket)."""
    world = World("fantong7038")
    world.state.add_player(make_player("MCBEAI_TOOL", Vec3(0, 64, 0), simulated=True))
    origin = CommandOrigin(lang("commands.origin.external"), world.player("fantong7038"))
    line = 'tellraw @a {"rawtext":[{"text":"§a你好"}]}'
    assert world.interpreter.execute(line, origin).body() == exact("tellraw-with-bridge-player")
    assert [(c.type, c.sender, c.receiver) for c in world.chat] == [
        ("tell", "External", "fantong7038"),
        ("tell", "External", "MCBEAI_TOOL"),
    ]


def test_title_and_titleraw_answer_their_strings_and_report_type_title() -> None:
    world = World(Alex=Vec3(3, 64, 3))
    shown = world.run("title @a title Welcome!")
    assert shown.body() == {"statusCode": 0, "statusMessage": lang("commands.title.success")}
    raw = '{"rawtext":[{"text":"Hi"}]}'
    assert world.run(f"titleraw Alex subtitle {raw}").status_message == lang(
        "commands.titleraw.success"
    )
    assert world.run("title @a clear").status_code == 0
    assert [(c.type, c.sender, c.receiver, c.message) for c in world.chat] == [
        ("title", "FrankyRayMS", "FrankyRayMS", "Welcome!"),
        ("title", "FrankyRayMS", "Alex", "Welcome!"),
        ("title", "FrankyRayMS", "Alex", raw),
    ]
    assert world.player("Alex").inbox[-1] == "Hi"
    assert (
        world.run("title @a sideways x").status_code
        == FACTS["status_codes"]["syntax_error"]["value"]
    )
