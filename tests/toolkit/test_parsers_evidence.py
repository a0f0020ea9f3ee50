"""The parsers on what the real game was recorded saying (mcbews_repl/sim/evidence/).

Captured bodies are used whole, ``§`` colour codes included; strings with no capture are
the language file's, filled here. Read as plain JSON: nothing of the simulated world runs.
"""

from __future__ import annotations

import pytest

from mcbews_repl import CommandResult
from mcbews_repl.toolkit import parsers as p

from ..corpus import CAPTURES, exact
from ..corpus import lang as lang_text


def captured(capture_id: str, **replace: str) -> CommandResult:
    """The captured body as the gateway hands it over (placeholders of the page filled)."""
    body = exact(capture_id)
    message = body.get("statusMessage", "")
    for old, new in replace.items():
        message = message.replace(old, new)
    body["statusMessage"] = message
    return CommandResult(CAPTURES[capture_id]["action"], body["statusCode"], message, body)


def lang(key: str, *args: object, status: int = 0) -> CommandResult:
    text = lang_text(key, *args)
    return CommandResult(key, status, text, {"statusCode": status, "statusMessage": text})


def test_tag_list_with_the_games_colour_codes() -> None:
    answer = p.parse_tags(captured("tag-list"), "FrankyRayMS")
    assert (answer.known, answer.count, answer.tags) == (True, 1, ("Test",))
    assert answer.text == "Test"  # §a ... §r removed
    several = lang("commands.tag.list.single.success", "Alex", 2, "§aexplorer§r, §avip§r")
    assert p.parse_tags(several, "Alex").tags == ("explorer", "vip")
    none = p.parse_tags(lang("commands.tag.list.single.empty", "Steve"), "Steve")
    assert (none.known, none.tags) == (True, ())


def test_item_counts_from_clear() -> None:
    counted = p.parse_item_count(captured("clear-count"), "FrankyRayMS", "minecraft:diamond")
    assert (counted.known, counted.value) == (True, 64)
    nothing = captured("clear-nothing", **{"{player}": "FrankyRayMS"})
    zero = p.parse_item_count(nothing, "FrankyRayMS", "minecraft:diamond")
    assert (zero.known, zero.value) == (True, 0)
    removed = p.parse_item_count(captured("clear-removed"), "FrankyRayMS", "minecraft:dirt")
    assert (removed.known, removed.reason) == (False, "output_unrecognized")  # not a count


def test_testfor_and_the_no_target_failure() -> None:
    found = p.parse_testfor(captured("testfor"), "@s")
    assert (found.known, found.matched, found.names) == (True, True, ("FrankyRayMS",))
    # No target: ExecutionFail with the game's text, as captured for kill.
    nobody = p.parse_testfor(captured("kill-no-target"), "@a[name=Herobrine]")
    assert (nobody.known, nobody.matched) == (True, False)
    entities = p.parse_entities(captured("kill-no-target"), "@e[type=cow]", 10)
    assert (entities.known, entities.entities) == (True, ())


def test_testforblock_captures() -> None:
    found = p.parse_block(captured("testforblock-found"), -13, 76, 16, "minecraft:air")
    assert (found.known, found.matches) == (True, True)
    other = p.parse_block(captured("testforblock-other"), -13, 76, 16, "minecraft:leaves")
    assert (other.known, other.matches, other.actual) == (True, False, "Air")


@pytest.mark.parametrize(
    ("reply", "operation", "known", "value", "reason"),
    [
        (lang("commands.scoreboard.players.set.success", "kills", "Steve", 5), "set", True, 5,
         None),
        (lang("commands.scoreboard.players.add.success", 2, "kills", "Steve", 7), "add", True,
         7, None),
        (lang("commands.scoreboard.players.set.multiple.success", "kills", 3, 5), "set", True,
         5, None),
        (lang("commands.scoreboard.players.add.multiple.success", 2, "kills", 3), "add", True,
         None, "not_reported"),
        (lang("commands.scoreboard.players.remove.multiple.success", 2, "kills", 3), "remove",
         True, None, "not_reported"),
        (lang("commands.scoreboard.players.operation.success", "kills", 1), "operation", True,
         None, "not_reported"),
        (lang("commands.scoreboard.players.operation.success", "coins", 1), "operation", False,
         None, "holder_mismatch"),
    ],
)  # fmt: skip
def test_score_changes_in_the_games_wording(
    reply: CommandResult, operation: str, known: bool, value: int | None, reason: str | None
) -> None:
    answer = p.parse_score_change(reply, operation, "Steve", "kills")
    assert (answer.known, answer.value, answer.reason) == (known, value, reason)


def test_scores_list_in_the_games_wording() -> None:
    text = "\n".join(
        [
            lang("commands.scoreboard.players.list.player.count", 2, "Steve").status_message,
            lang("commands.scoreboard.players.list.player.entry", 3, "Kills", "kills")
            .status_message,
            lang("commands.scoreboard.players.list.player.entry", -1, "§eCoins§r", "coins")
            .status_message,
        ]
    )  # fmt: skip
    answer = p.parse_scores(CommandResult("list", 0, text, {"statusCode": 0}), "Steve")
    assert [(s.objective, s.display_name, s.value) for s in answer.scores] == [
        ("kills", "Kills", 3),
        ("coins", "Coins", -1),
    ]
