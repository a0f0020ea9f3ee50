"""The toolkit's readers in the game's languages: every reader known in each, through a real
bridge and a simulated world that answers in that language, and on the corpus's own strings.

The expected texts come from the evidence corpus (tests/corpus.py fills the language
file's strings itself), not from the simulated world, so a reader is checked against the
game's words, not against the sim's code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import mcbews_repl
from mcbews_repl import CommandResult
from mcbews_repl.sansio import ChatMessage, decode_frame
from mcbews_repl.sansio.frames import ECHO_SENDERS
from mcbews_repl.sim import SimWorld
from mcbews_repl.toolkit import Scoreboard, WorldQueries, languages_writing
from mcbews_repl.toolkit import parsers as p
from mcbews_repl.toolkit.gamestrings import read, template_pattern
from mcbews_repl.toolkit.validate import check_selector, quote_name
from tests.corpus import LANGS, lang

# The languages every reader is checked in end to end (issue: at least these ten).
TEN = ("en_US", "zh_CN", "zh_TW", "ja_JP", "ko_KR", "de_DE", "fr_FR", "es_ES", "pt_BR", "ru_RU")
EXECUTION_FAIL = -2147352576
TOOLKIT_STRINGS = json.loads(
    (Path(p.__file__).parent / "gamestrings.json").read_text(encoding="utf-8")
)


def result(message: str, status: int = 0, **body: Any) -> CommandResult:
    return CommandResult("the command", status, message, {"statusCode": status, **body})


# --- the echo filter ------------------------------------------------------------------------


def test_the_echo_filter_knows_the_origin_name_of_every_language_file() -> None:
    corpus = {lang("commands.origin.external", language=code) for code in LANGS}
    assert len(LANGS) == 29 and corpus == ECHO_SENDERS
    english = TOOLKIT_STRINGS["languages"]["en_US"]["commands.origin.external"]
    toolkit = {
        strings.get("commands.origin.external", english)
        for strings in TOOLKIT_STRINGS["languages"].values()
    }
    assert toolkit == ECHO_SENDERS  # sansio's literal is the generated copy's set


@pytest.mark.parametrize("language", sorted(LANGS))
def test_a_say_echo_in_each_language_is_the_bridges_own(language: str) -> None:
    sender = lang("commands.origin.external", language=language)
    frame = json.dumps({
        "header": {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360},
        "body": {"message": f"[{sender}] hi", "receiver": "", "sender": sender, "type": "say"},
    })  # fmt: skip
    event = decode_frame(frame)
    assert isinstance(event, ChatMessage) and event.is_echo, (language, sender)


# --- templates to patterns --------------------------------------------------------------------


def test_a_template_becomes_a_pattern_with_its_positions() -> None:
    pattern, groups = template_pattern("%3$s  获得 %1$s * %2$d (%1$s)")
    assert groups == {"p3": 3, "p1": 1, "p2": 2} and "(?P=p1)" in pattern
    found = read("commands.testforblock.success", "ブロックは 1, -2, 3 で見つかりました。")
    assert (
        found is not None and found.language == "ja_JP" and found.args == {1: "1", 2: "-2", 3: "3"}
    )
    # a translator's "%2d" reads the count with or without the letter shown
    assert read("commands.clear.testing", "Steve hat 5d Gegenstände, die den Kriterien entsprechen")


@pytest.mark.parametrize("language", sorted(LANGS))
def test_every_reader_key_reads_its_own_corpus_string_in_every_language(language: str) -> None:
    # the clear count, filled by the corpus's filler: a count the reader must find back
    text = lang("commands.clear.testing", "王小明", 42, language=language)
    answer = p.parse_item_count(result(text), "王小明", "minecraft:diamond")
    assert (answer.known, answer.value) == (True, 42), (language, text)
    tags = lang("commands.tag.list.single.success", "Steve", 2, "a, b", language=language)
    read_tags = p.parse_tags(result(tags), "Steve")
    assert (read_tags.known, read_tags.count, read_tags.tags) == (True, 2, ("a", "b")), tags
    set_text = lang(
        "commands.scoreboard.players.set.success", "kills", "Steve", -5, language=language
    )
    change = p.parse_score_change(result(set_text), "set", "Steve", "kills")
    assert (change.known, change.value) == (True, -5), set_text
    many = lang(
        "commands.scoreboard.players.set.multiple.success", "kills", 2, 9, language=language
    )
    change = p.parse_score_change(result(many), "set", "@a", "kills")
    assert (change.known, change.value) == (True, 9), many
    none = lang("commands.generic.noTargetMatch", language=language)
    assert p.parse_testfor(result(none, EXECUTION_FAIL), "@a[tag=x]").known


def test_an_unknown_text_stays_unknown() -> None:
    answer = p.parse_item_count(result("Steve a 3 objets (peut-être)"), "Steve", "x")
    assert (answer.known, answer.value, answer.reason) == (False, None, "output_unrecognized")


# --- quoting ------------------------------------------------------------------------------


def test_the_toolkit_never_quotes_a_non_ascii_name() -> None:
    assert quote_name("王小明") == "王小明" and check_selector("王小明") == "王小明"
    assert quote_name("王 小明") == '"王 小明"'  # a space must be quoted: the game then fails


# --- the doctor's language ----------------------------------------------------------------


@pytest.mark.parametrize("language", TEN)
def test_the_game_language_is_told_from_its_list_answer(language: str) -> None:
    from mcbews_repl.doctor.checks import game_language

    text = lang("commands.players.list", 2, 10, language=language) + "\nSteve, Alex"
    code, said = game_language(text)
    assert language in code.split(" or ") and language in said
    assert languages_writing("commands.players.list", "nothing like it", whole=False) == ()


# --- every reader, through a real bridge and a world in that language --------------------------


async def _readers(mc: mcbews_repl.Bridge, sim: SimWorld) -> dict[str, tuple[bool, object]]:
    """Each reader's answer in this world: (known, what it read)."""
    q, board = WorldQueries(mc), Scoreboard(mc)
    out: dict[str, tuple[bool, object]] = {}
    before = await q.item_count("Steve", "minecraft:apple")
    sim.run_command("give Steve apple 7")
    after = await q.item_count("Steve", "minecraft:apple")
    out["item_count"] = (after.known, (after.value or 0) - (before.value or 0))
    none = await q.item_count("Alex", "minecraft:bedrock")
    out["item_count_none"] = (none.known, none.value)
    sim.run_command("tag Alex remove vip")
    sim.run_command("tag Alex remove explorer")
    for name, player in (("tags", "Steve"), ("tags_none", "Alex")):
        tags = await q.tags(player)
        out[name] = (tags.known, tags.tags)
    for name, holder in (("scores", "Steve"), ("scores_none", "#nobody")):
        scores = await q.scores(holder)
        out[name] = (scores.known, {s.objective: s.value for s in scores.scores})
    for name, selector in (("testfor", "@a"), ("testfor_none", "王小明")):
        found = await q.testfor(selector)
        out[name] = (found.known, found.matched)
    for name, block in (("block", "bedrock"), ("block_other", "stone")):
        check = await q.block(0, -64, 0, block)
        out[name] = (check.known, check.matches)
    entities = await q.entities(target="players")
    out["entities"] = (entities.known, len(entities.entities))
    objectives = await board.objectives()
    out["objectives"] = (objectives.known, len(objectives.objectives))
    out["add_objective"] = ((await board.add_objective("deaths", "Deaths")).known, True)
    for name, change in (
        ("set", board.set("Steve", "deaths", 4)),
        ("add", board.add("Steve", "deaths", 3)),
        ("operation", board.operation("Steve", "deaths", "+=", "Alex", "kills")),
    ):
        changed = await change
        out[name] = (changed.known, changed.value if changed.value is not None else changed.reason)
    out["setdisplay"] = ((await board.setdisplay("sidebar", "deaths")).known, True)
    holders = await board.objective_scores("kills")
    out["objective_scores"] = (not holders.truncated, holders.unknown)
    out["reset"] = ((await board.reset("Steve", "deaths")).known, True)
    out["remove_objective"] = ((await board.remove_objective("deaths")).known, True)
    return out


EXPECTED: dict[str, object] = {
    "item_count": 7, "item_count_none": 0, "tags": ("builder",), "tags_none": (),
    "scores": {"kills": 3, "coins": 120}, "scores_none": {}, "testfor": True,
    "testfor_none": False, "block": True, "block_other": False, "entities": 2,
    "objectives": 2, "add_objective": True, "set": 4, "add": 7,
    "operation": "not_reported", "setdisplay": True, "objective_scores": (), "reset": True,
    "remove_objective": True,
}  # fmt: skip


@pytest.mark.parametrize("language", TEN)
async def test_every_reader_is_known_in_a_world_in_that_language(language: str) -> None:
    async with (
        mcbews_repl.serve(port=0) as mc,
        SimWorld(fast=True, language=language) as sim,
    ):
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=10)
        got = await _readers(mc, sim)
    unknown = [name for name, (known, _) in got.items() if not known]
    assert unknown == [], (language, unknown)
    assert {name: value for name, (_, value) in got.items()} == EXPECTED
