"""The command interpreter on the default world: status codes, messages and body fields."""

from __future__ import annotations

import json

import pytest

from mcbews_repl.sim import ChatLine, Interpreter, default_world
from mcbews_repl.sim.commands import (
    COMMAND_NOT_FOUND,
    EXECUTION_FAIL,
    FAILED_TO_PARSE,
    NO_TARGET,
    CommandOutcome,
    Effects,
)
from mcbews_repl.sim.selectors import CommandOrigin


class Game:
    def __init__(self) -> None:
        self.world = default_world()
        self.chat: list[ChatLine] = []
        self.events: list[tuple[str, str]] = []
        effects = Effects(
            chat=self.chat.append, script_event=lambda i, m, o: self.events.append((i, m))
        )
        self.interpreter = Interpreter(self.world, effects)

    def run(self, line: str, as_name: str = "External") -> CommandOutcome:
        steve = self.world.players["Steve"]
        return self.interpreter.execute(line, CommandOrigin(as_name, steve))


@pytest.fixture
def game() -> Game:
    return Game()


def test_unknown_command_is_command_not_found(game: Game) -> None:
    result = game.run("frobnicate now")
    assert result.status_code == COMMAND_NOT_FOUND == -2147483647
    assert result.status_message.startswith("Unknown command: frobnicate.")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("give @s", 'Syntax error: Unexpected "": at "give @s >><<"'),
        ("gamemode sideways", 'Syntax error: Unexpected "sideways": at "gamemode >>sideways<<"'),
        ("tp @s 1 two 3", 'Syntax error: Unexpected "two": at "tp @s 1 >>two<< 3"'),
        # the game quotes at most 10 characters before the bad token
        ("testfor @a extra", 'Syntax error: Unexpected "extra": at "estfor @a >>extra<<"'),
        ("testfor @q", 'Syntax error: Unexpected "@q": at "testfor >>@q<<"'),
    ],
)
def test_syntax_errors_quote_the_bad_token(game: Game, line: str, message: str) -> None:
    result = game.run(line)
    assert (result.status_code, result.status_message) == (FAILED_TO_PARSE, message)


def test_a_leading_slash_is_accepted(game: Game) -> None:
    assert game.run("/list").status_code == 0


def test_querytarget_details_are_a_json_string(game: Game) -> None:
    result = game.run("querytarget @a[name=Alex]")
    details = result.body()["details"]
    assert isinstance(details, str)
    [alex] = json.loads(details)
    assert alex["position"] == {"x": 12.5, "y": 70.0, "z": -8.5}
    assert alex["dimension"] == 0 and alex["yRot"] == 90.0
    assert alex["uniqueId"] == game.world.players["Alex"].id


def test_clear_with_max_count_zero_only_counts(game: Game) -> None:
    result = game.run("clear Steve cobblestone 0 0")
    assert result.status_message == "Steve has 101 items that match the criteria"
    assert game.run("clear Steve cobblestone -1 0").status_message.startswith("Steve has 101")
    assert game.run("clear Steve cobblestone 0 10").status_message == (
        "Cleared the inventory of Steve, removing 10 items"
    )
    assert "has 91 items" in game.run("clear Steve cobblestone 0 0").status_message


def test_clear_data_value_and_nothing_to_clear(game: Game) -> None:
    assert "has 0" not in game.run("clear Steve wool 14 0").status_message
    failed = game.run("clear Steve wool 3 0")
    assert failed.status_code == EXECUTION_FAIL
    assert failed.status_message == "Could not clear the inventory of Steve, no items to remove"


def test_give_merges_into_stacks_then_empty_slots(game: Game) -> None:
    assert game.run("give Steve cobblestone 30").status_message == (
        "Gave Cobblestone * 30 to Steve"
    )
    assert "has 131 items" in game.run("clear Steve cobblestone 0 0").status_message
    stacks = [
        s.amount for s in game.world.players["Steve"].inventory if s and "cobble" in s.type_id
    ]
    assert all(n <= 64 for n in stacks) and sum(stacks) == 131


def test_scoreboard_players_and_operation(game: Game) -> None:
    assert game.run("scoreboard players add @a kills 2").status_code == 0
    kills = game.world.objectives["kills"].scores
    assert kills == {"Steve": 5, "Alex": 9}
    result = game.run("scoreboard players operation Steve kills += Alex kills")
    assert result.status_message == "Updated [kills] for 1 entities"  # no score is reported
    game.run("scoreboard players operation Steve kills >< Alex kills")
    assert kills == {"Steve": 9, "Alex": 14}
    game.run("scoreboard players set #global kills 2147483647")
    game.run("scoreboard players add #global kills 1")
    assert kills["#global"] == -2147483648  # 32-bit wrap, like the game
    game.run("scoreboard players reset Alex kills")
    assert "Alex" not in kills


def test_scoreboard_objectives(game: Game) -> None:
    assert game.run("scoreboard objectives add deaths dummy Deaths").status_message == (
        "Added new objective 'deaths' successfully"
    )
    again = game.run("scoreboard objectives add deaths dummy")
    assert again.status_code == EXECUTION_FAIL
    assert "Showing 3 objective(s)" in game.run("scoreboard objectives list").status_message
    assert game.run("scoreboard objectives remove deaths").status_code == 0
    missing = game.run("scoreboard players set Steve deaths 1")
    assert missing.status_message == "No objective was found by the name 'deaths'"


def test_selectors_with_arguments(game: Game) -> None:
    assert game.run("testfor @a[tag=vip]").body()["victim"] == ["Alex"]
    assert game.run("testfor @e[type=cow]").body()["victim"] == ["Cow"]
    assert game.run("testfor @e[type=!player,tag=trader]").body()["victim"] == ["Bob"]
    assert game.run("testfor @p").body()["victim"] == ["Steve"]
    assert len(game.run("testfor @e[c=2]").body()["victim"]) == 2
    nobody = game.run("testfor @a[name=Herobrine]")
    assert (nobody.status_code, nobody.status_message) == (
        NO_TARGET,
        "No targets matched selector",
    )


def test_say_and_tell_expand_selectors_and_report_chat(game: Game) -> None:
    game.run("say hello @a")
    assert game.chat[-1] == ChatLine("External", "[External] hello Steve, Alex", "say")
    result = game.run("tell Alex psst")
    assert result.body()["recipient"] == ["Alex"] and result.body()["message"] == "psst"
    assert game.chat[-1] == ChatLine("External", "psst", "tell", receiver="Alex")
    assert game.world.players["Alex"].inbox[-1] == "External whispers to you: psst"


def test_tellraw_renders_rawtext(game: Game) -> None:
    raw = '{"rawtext":[{"text":"§cHi "},{"selector":"@a[tag=vip]"}]}'
    assert game.run(f"tellraw Steve {raw}").status_code == 0
    assert game.world.players["Steve"].inbox[-1] == "§cHi Alex"
    assert game.chat[-1] == ChatLine("External", raw + "\n", "tell", receiver="Steve")
    assert game.run("tellraw Steve {not json").status_code == FAILED_TO_PARSE


def test_scriptevent_and_its_limits(game: Game) -> None:
    assert game.run("scriptevent mcbews:ping a b  c").status_code == 0
    assert game.events == [("mcbews:ping", "a b  c")]
    assert game.run("scriptevent noid x").status_code == EXECUTION_FAIL
    assert game.run("scriptevent a:b " + "x" * 2049).status_code == EXECUTION_FAIL


def test_players_time_weather_and_blocks(game: Game) -> None:
    listed = game.run("list").body()
    assert (listed["currentPlayerCount"], listed["players"]) == (2, "Steve, Alex")
    assert game.run("getlocalplayername").body()["localplayername"] == "Steve"
    assert game.run("gamemode c").status_message == "Set own game mode to Creative"
    assert game.run("gamemode 2 Alex").status_message == "Set Alex's game mode to Adventure"
    moved = game.run("tp @s 10 ~1 -3")  # whole x and z name the block: its centre
    assert moved.status_message == "Teleported Steve to 10.50, 65.00, -2.50"
    assert game.run("time set night").status_message == "Set the time to 13000"
    assert game.run("weather thunder").status_message == "Changing to rain and thunder"
    assert game.run("setblock 1 80 1 gold_block").status_message == "Block placed"
    assert game.run("setblock 1 80 1 gold_block").status_code == EXECUTION_FAIL
    assert game.run("fill 0 90 0 2 92 2 glass hollow").body()["fillCount"] == 26
    assert game.world.block("overworld", 1, 91, 1) == "minecraft:air"
    assert game.run("fill 0 0 0 100 100 100 stone").status_code == EXECUTION_FAIL


def test_tags_summon_and_kill(game: Game) -> None:
    assert game.run("tag Alex add hero").status_message == "Added tag 'hero' to Alex"
    assert game.run("tag Alex add hero").status_code == EXECUTION_FAIL
    assert "hero" in game.run("tag Alex list").status_message
    assert game.run("summon zombie 1 64 1 Zed").status_message == "Object successfully summoned"
    assert game.run("kill @e[type=zombie]").status_message == "Killed Zombie, Zed"
    assert not [e for e in game.world.entities if e.type_id == "minecraft:zombie"]


def test_scoreboard_and_block_wording_follows_the_language_file(game: Game) -> None:
    listed = game.run("scoreboard players list Steve").status_message
    assert (
        listed
        == "Showing 2 tracked objective(s) for Steve:\n- Kills: 3 (kills)\n- §eCoins: 120 (coins)"
    )
    nobody = game.run("scoreboard players list Nobody")
    assert (nobody.status_code, nobody.status_message) == (
        EXECUTION_FAIL,
        "Player Nobody has no scores recorded",
    )
    assert game.run("scoreboard objectives setdisplay sidebar kills").status_message == (
        "Set the display objective in slot 'sidebar' to 'kills'"
    )
    assert game.run("scoreboard objectives setdisplay sidebar nothing").status_code < 0
    assert (
        game.run("tag @a list").status_message
        == "The 2 entities have 3 total tags: §abuilder§r, §aexplorer§r, §avip§r"
    )
    assert game.run("testforblock 0 63 0 stone").status_message == (
        "Successfully found the block at 0,63,0."
    )
    air = game.run("testforblock 0 64 0 stone")
    assert air.status_message == "The block at 0,64,0 is Air (expected: Stone)."
    assert game.run("testforblock 0 999 0 stone").status_message == (
        "Cannot test for block outside of the world"
    )
    assert game.run("testfor @e[x=5,y=64,z=5,r=1]").body()["victim"] == ["Cow"]


def test_execute_as_runs_the_command_as_each_target() -> None:
    world = default_world()
    lines: list[ChatLine] = []
    interp = Interpreter(world, Effects(chat=lines.append))
    origin = CommandOrigin("External", world.players[world.local_player])
    result = interp.execute("execute as @a run tell @s hi", origin)
    assert result.status_code == 0
    assert [(line.sender, line.receiver) for line in lines] == [(n, n) for n in world.players]
    missing = interp.execute("execute as Nobody run say x", origin)
    assert missing.status_message == "No targets matched selector"
    other = interp.execute("execute at @s run say x", origin)
    assert other.status_code == -2147483648 and ">>at<<" in other.status_message
