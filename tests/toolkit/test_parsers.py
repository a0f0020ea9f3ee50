"""Every parser on real-shaped command results: successes, failures, empty answers, and
output it does not recognise (which must stay unknown, never become 0, [] or False)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcbews_repl import CommandResult
from mcbews_repl.toolkit import parsers as p
from mcbews_repl.toolkit.answers import EntityRow, Score

EXECUTION_FAIL = -2147352576
NO_TARGETS = -2147483639
SYNTAX = -2147483648
NO_PERMISSION = -2147483646
NO_TARGET_TEXT = "No targets matched selector"


def result(message: str, status: int = 0, **body: Any) -> CommandResult:
    return CommandResult("the command", status, message, {"statusCode": status, **body})


# --- item counts --------------------------------------------------------------------------


def test_item_count_reads_the_test_message() -> None:
    answer = p.parse_item_count(result("Steve has 101 items that match the criteria"), "Steve", "x")
    assert (answer.known, answer.value, answer.reason) == (True, 101, None)
    assert answer.command == "the command" and answer.status_code == 0


def test_no_items_to_remove_is_a_known_zero() -> None:
    failed = result("Could not clear the inventory of Steve, no items to remove", EXECUTION_FAIL)
    answer = p.parse_item_count(failed, "Steve", "minecraft:diamond")
    assert (answer.known, answer.value) == (True, 0)


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (result(NO_TARGET_TEXT, NO_TARGETS), "no_target"),
        (result('Syntax error: Unexpected "x"', SYNTAX), "syntax_error"),
        (result("You do not have permission", NO_PERMISSION), "not_permitted"),
        (result("Steve a 3 objets correspondant aux critères"), "output_unrecognized"),
        (result(""), "no_output"),
        (result("Alex has 3 items that match the criteria"), "holder_mismatch"),
        (result("Something broke", EXECUTION_FAIL), "command_failed"),
        (result("Cleared the inventory of Steve, removing 3 items"), "output_unrecognized"),
    ],
)
def test_item_count_unknowns_stay_unknown(reply: CommandResult, reason: str) -> None:
    answer = p.parse_item_count(reply, "Steve", "minecraft:dirt")
    assert (answer.known, answer.value, answer.reason) == (False, None, reason)
    assert answer.describe().startswith(f"unknown ({reason})")


def test_formatting_codes_are_ignored() -> None:
    answer = p.parse_item_count(
        result("§aSteve has 7 items that match the criteria§r"), "steve", "x"
    )
    assert answer.value == 7


# --- tags ---------------------------------------------------------------------------------


def test_tags_split_only_when_the_count_agrees() -> None:
    exact = p.parse_tags(result("Alex has 2 tags: explorer, vip"), "Alex")
    assert (exact.count, exact.tags, exact.text) == (2, ("explorer", "vip"), "explorer, vip")
    comma = p.parse_tags(result("Alex has 1 tags: red, blue"), "Alex")  # one tag holding ", "
    assert (comma.known, comma.count, comma.tags) == (True, 1, None)
    none = p.parse_tags(result("Steve has no tags"), "Steve")
    assert (none.known, none.count, none.tags) == (True, 0, ())


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (result(NO_TARGET_TEXT, NO_TARGETS), "no_target"),
        (result("Alex a 2 tags : a, b"), "output_unrecognized"),
        (result("Steve has 2 tags: a, b"), "holder_mismatch"),
        (result("The 2 entities have 3 total tags: a, b, c"), "output_unrecognized"),
    ],
)
def test_tags_unknown(reply: CommandResult, reason: str) -> None:
    answer = p.parse_tags(reply, "Alex")
    assert (answer.known, answer.count, answer.tags, answer.reason) == (False, None, None, reason)


# --- scores -------------------------------------------------------------------------------


def test_scores_in_the_language_file_shape() -> None:
    text = "Showing 2 tracked objective(s) for Steve:\n- Kills: 3 (kills)\n- §eCoins: -120 (coins)"
    answer = p.parse_scores(result(text), "Steve")
    assert answer.known and answer.scores == (
        Score("kills", "Kills", 3),
        Score("coins", "Coins", -120),
    )
    assert answer.get("coins") == Score("coins", "Coins", -120) and answer.get("x") is None


def test_scores_on_one_line_and_with_colons_in_display_names() -> None:
    text = "Showing 2 tracked objective(s) for Etho:- Time: left: 2 (t.left)- jump: 5 (jump)"
    answer = p.parse_scores(result(text), "Etho")
    assert [s.objective for s in answer.scores] == ["t.left", "jump"]
    assert answer.scores[0] == Score("t.left", "Time: left", 2)


def test_no_scores_recorded_is_a_known_empty_list() -> None:
    failed = result("Player Nobody has no scores recorded", EXECUTION_FAIL)
    answer = p.parse_scores(failed, "Nobody")
    assert (answer.known, answer.scores) == (True, ())


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (result("Showing 3 tracked objective(s) for Steve:\n- A: 1 (a)"), "output_unrecognized"),
        (result("Showing 1 tracked objective(s) for Alex:\n- A: 1 (a)"), "holder_mismatch"),
        (result("Player Alex has no scores recorded", EXECUTION_FAIL), "holder_mismatch"),
        (result("Zeige 1 Ziele für Steve"), "output_unrecognized"),
        (result(NO_TARGET_TEXT, NO_TARGETS), "no_target"),
    ],
)
def test_scores_unknown(reply: CommandResult, reason: str) -> None:
    answer = p.parse_scores(reply, "Steve")
    assert (answer.known, answer.scores, answer.reason) == (False, (), reason)


def test_tracked_holders() -> None:
    listed = result("Showing 3 tracked players on the scoreboard:\n#global, Alex, Steve")
    assert p.parse_holders(listed) == ("#global", "Alex", "Steve")
    assert p.parse_holders(result("There are no tracked players on the scoreboard")) == ()
    assert p.parse_holders(result("Showing 2 tracked players on the scoreboard:\nA, B, C")) is None
    assert p.parse_holders(result("Hay 2 jugadores")) is None
    assert p.parse_holders(result("oops", EXECUTION_FAIL)) is None


def test_objectives_list() -> None:
    text = (
        "Showing 2 objective(s) on scoreboard:\n"
        "- kills: displays as 'Kills' and is type 'dummy'\n"
        "- coins: displays as '§eCoins' and is type 'dummy'"
    )
    answer = p.parse_objectives(result(text))
    assert [(o.name, o.display_name) for o in answer.objectives] == [
        ("kills", "Kills"),
        ("coins", "Coins"),
    ]
    empty = p.parse_objectives(result("There are no objectives on the scoreboard"))
    assert (empty.known, empty.objectives) == (True, ())
    short = p.parse_objectives(result("Showing 2 objective(s) on scoreboard:\n- a: x"))
    assert (short.known, short.reason) == (False, "output_unrecognized")


@pytest.mark.parametrize(
    ("operation", "text", "value"),
    [
        ("set", "Set [kills] for Steve to 5", 5),
        ("add", "Added -2 to [kills] for Steve (now 3)", 3),
        ("remove", "Removed 4 from [kills] for Steve (now -1)", -1),
        ("operation", "Set [kills] for Steve to 9", 9),
    ],
)
def test_score_changes_report_the_new_value(operation: str, text: str, value: int) -> None:
    answer = p.parse_score_change(result(text), operation, "Steve", "kills")
    assert (answer.known, answer.value) == (True, value)


def test_an_operation_that_reports_only_a_count_is_known_without_a_value() -> None:
    answer = p.parse_score_change(
        result("Updated [kills] for 1 entities"), "operation", "Steve", "kills"
    )
    assert (answer.known, answer.value, answer.reason) == (True, None, "not_reported")


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (result("No kills score for Alex found", EXECUTION_FAIL), "command_failed"),
        (result("Set [kills] for Alex to 5"), "holder_mismatch"),
        (result("Set [coins] for Steve to 5"), "holder_mismatch"),
        (result("Punteggio impostato"), "output_unrecognized"),
    ],
)
def test_score_change_unknown(reply: CommandResult, reason: str) -> None:
    answer = p.parse_score_change(reply, "set", "Steve", "kills")
    assert (answer.known, answer.value, answer.reason) == (False, None, reason)


@pytest.mark.parametrize(
    "text",
    [
        "Added new objective 'deaths' successfully",
        "Removed objective 'deaths' successfully",
        "Set the display objective in slot 'sidebar' to 'kills'",
        "Cleared objective display slot 'list'",
        "Reset score kills of player Alex",
        "Reset scores of player Alex",
    ],
)
def test_acknowledgements(text: str) -> None:
    assert p.parse_ack(result(text), "op").acknowledged


def test_refused_or_unrecognised_acknowledgements() -> None:
    exists = p.parse_ack(
        result("An objective with the name 'x' already exists", EXECUTION_FAIL), "add"
    )
    assert (exists.acknowledged, exists.reason) == (False, "command_failed")
    assert p.parse_ack(result("Objectif ajouté"), "add").reason == "output_unrecognized"


# --- testfor and querytarget --------------------------------------------------------------


def test_testfor() -> None:
    found = p.parse_testfor(result("Found Cow", victim=["Cow"]), "@e[type=cow]")
    assert (found.known, found.matched, found.names) == (True, True, ("Cow",))
    none = p.parse_testfor(result(NO_TARGET_TEXT, NO_TARGETS), "@e[type=pig]")
    assert (none.known, none.matched) == (True, False)
    odd = p.parse_testfor(result("Found Cow"), "@e")  # success without the victim field
    assert (odd.known, odd.matched, odd.reason) == (False, None, "output_unrecognized")
    broken = p.parse_testfor(result('Syntax error: Unexpected "@q"', SYNTAX), "@q")
    assert (broken.known, broken.matched, broken.reason) == (False, None, "syntax_error")


def _target(uid: str, dimension: object = 0, **over: Any) -> dict[str, Any]:
    row = {"dimension": dimension, "position": {"x": 1, "y": 64.5, "z": -3}, "uniqueId": uid}
    return {**row, "yRot": 90.0, **over}


def test_querytarget_details_is_a_json_string() -> None:
    details = json.dumps([_target("-1"), _target("-2", 1)])
    answer = p.parse_entities(result("Target data", details=details), "@e[c=65]", 64)
    assert answer.known and answer.complete
    assert answer.entities == (
        EntityRow("-1", "overworld", 1.0, 64.5, -3.0, 90.0),
        EntityRow("-2", "nether", 1.0, 64.5, -3.0, 90.0),
    )
    frame = answer.to_dataframe()
    assert list(frame.columns) == ["id", "dimension", "dimensionId", "x", "y", "z", "yaw"]
    assert list(frame["dimensionId"]) == ["minecraft:overworld", "minecraft:nether"]


def test_querytarget_past_the_limit_is_incomplete() -> None:
    details = json.dumps([_target(str(i)) for i in range(3)])
    answer = p.parse_entities(result("Target data", details=details), "@e[c=3]", 2)
    assert (len(answer.entities), answer.complete) == (2, False)


def test_querytarget_empty_and_no_target_are_known_empty() -> None:
    empty = p.parse_entities(result("Target data", details="[]"), "@e", 5)
    assert (empty.known, empty.entities, empty.complete) == (True, (), True)
    none = p.parse_entities(result(NO_TARGET_TEXT, NO_TARGETS), "@e", 5)
    assert (none.known, none.entities, none.complete) == (True, (), True)


@pytest.mark.parametrize(
    "body",
    [
        {"details": "not json"},
        {"details": json.dumps([_target("1"), {"uniqueId": "2"}])},
        {"details": json.dumps([_target("1", position={"x": "1", "y": 2, "z": 3})])},
        {"details": json.dumps({"uniqueId": "1"})},
        {},
    ],
)
def test_querytarget_malformed_rows_make_the_answer_unknown(body: dict[str, Any]) -> None:
    answer = p.parse_entities(result("Target data", **body), "@e", 5)
    assert (answer.known, answer.entities, answer.complete) == (False, (), None)
    assert answer.reason == "output_unrecognized"


# --- blocks -------------------------------------------------------------------------------


def test_testforblock_outcomes() -> None:
    found = p.parse_block(result("Successfully found the block at 0,63,0."), 0, 63, 0, "stone")
    assert (found.known, found.matches) == (True, True)
    other = p.parse_block(
        result("The block at -1,64,2 is Chest (expected: Stone).", EXECUTION_FAIL), -1, 64, 2, "x"
    )
    assert (other.known, other.matches, other.actual) == (True, False, "Chest")
    state = result("The block at 1,2,3 did not match the expected block state.", EXECUTION_FAIL)
    assert p.parse_block(state, 1, 2, 3, "x").matches is False


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (result("Cannot test for block outside of the world", EXECUTION_FAIL), "out_of_world"),
        (result("Successfully found the block at 9,9,9."), "holder_mismatch"),
        (result("Bloc trouvé en 0,63,0"), "output_unrecognized"),
        (result("Le bloc est différent", EXECUTION_FAIL), "command_failed"),
    ],
)
def test_testforblock_unknown_is_not_air(reply: CommandResult, reason: str) -> None:
    answer = p.parse_block(reply, 0, 63, 0, "minecraft:air")
    assert (answer.known, answer.matches, answer.actual, answer.reason) == (
        False,
        None,
        None,
        reason,
    )
