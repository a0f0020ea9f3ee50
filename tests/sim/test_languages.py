"""The simulated world in the game's languages: each answers with its own language file's
strings (compared with the corpus, filled by tests/corpus.py, not by the sim's code), two
worlds of different languages in one process each keep theirs, and a quoted non-ASCII
name matches no one, as in the real game."""

from __future__ import annotations

import pytest

import mcbews_repl
from mcbews_repl.sim import SimWorld, Vec3, make_player
from mcbews_repl.sim.cli import _parser
from mcbews_repl.sim.facts import item_name, name_key, speaking
from tests.corpus import FACTS, LANGS, SOURCES, lang

TEN = ("en_US", "zh_CN", "zh_TW", "ja_JP", "ko_KR", "de_DE", "fr_FR", "es_ES", "pt_BR", "ru_RU")
EXECUTION_FAIL = -2147352576
_WORLDS: dict[str, SimWorld] = {}


def world(language: str) -> SimWorld:
    """One world per language for the whole module: commands run without a connection."""
    if language not in _WORLDS:
        _WORLDS[language] = SimWorld(addon=False, language=language)
    return _WORLDS[language]


def name_in(type_id: str, language: str) -> str:
    key = name_key(type_id)
    assert key is not None, type_id
    return LANGS[language].get(key, LANGS["en_US"][key])


def test_an_unknown_language_is_refused_with_the_ones_the_game_ships() -> None:
    with pytest.raises(ValueError, match=r"no language 'xx_XX'; it ships bg_BG, cs_CZ, .*zh_TW"):
        SimWorld(language="xx_XX")
    assert _parser().parse_args(["--url", "ws://x", "--language", "ja_JP"]).language == "ja_JP"
    with pytest.raises(SystemExit):
        _parser().parse_args(["--url", "ws://x", "--language", "Klingon"])


@pytest.mark.parametrize("language", TEN)
def test_give_answers_in_the_worlds_language_with_the_items_name(language: str) -> None:
    diamond = name_in("minecraft:diamond", language)
    answer = world(language).run_command("give Alex diamond 64")
    assert answer.status_message == lang(
        "commands.give.success", diamond, 64, "Alex", language=language
    )
    assert answer.fields["itemName"] == diamond


@pytest.mark.parametrize("language", TEN)
def test_failures_and_block_names_answer_in_the_worlds_language(language: str) -> None:
    sim = world(language)
    other = sim.run_command("testforblock 0 -64 0 stone")
    bedrock, stone = name_in("minecraft:bedrock", language), name_in("minecraft:stone", language)
    expected = lang(
        "commands.testforblock.failed.tile", 0, -64, 0, bedrock, stone, language=language
    )
    assert (other.status_code, other.status_message) == (EXECUTION_FAIL, expected)
    unknown = sim.run_command("nosuchcommand")
    assert unknown.status_message == lang(
        "commands.generic.unknown", "nosuchcommand", language=language
    )
    syntax = sim.run_command("give Alex diamond lots")
    assert syntax.status_message == lang(
        "commands.generic.syntax", "x diamond ", "lots", "", language=language
    )


@pytest.mark.parametrize("language", TEN)
def test_a_quoted_non_ascii_name_matches_no_one_an_unquoted_one_does(language: str) -> None:
    sim = world(language)
    if "王小明" not in sim.world.players:
        sim.world.add_player(make_player("王小明", Vec3(0.0, 64.0, 0.0)))
    no_target = lang("commands.generic.noTargetMatch", language=language)
    for line in ('tell "王小明" hi', 'tell @a[name="王小明"] hi', 'testfor "王小明"'):
        assert sim.run_command(line).status_message == no_target, line
    for line in ("tell 王小明 hi", "tell @a[name=王小明] hi", 'tell "Alex" hi'):
        assert sim.run_command(line).status_code == 0, line


def test_the_quoting_fact_is_in_the_corpus_with_its_source() -> None:
    for name, status in (("quoted_non_ascii_target", "captured"),
                         ("quoted_non_ascii_name_filter", "assumed")):  # fmt: skip
        fact = FACTS["behaviours"][name]
        assert (fact["status"], fact["value"]) == (status, "commands.generic.noTargetMatch")
        assert SOURCES[fact["source"]]["commit"].startswith("e8fe84b")


def test_two_worlds_of_different_languages_in_one_process_each_keep_theirs() -> None:
    english, chinese = SimWorld(addon=False), SimWorld(addon=False, language="zh_CN")
    for _ in range(2):  # interleaved, each in its own language every time
        assert english.run_command("tag Steve list").status_message.startswith("Steve has 1 tags")
        assert chinese.run_command("tag Steve list").status_message.startswith("Steve 有 1 个标签")
    with speaking("ja_JP"):  # a language set around one world's command leaks to no other
        assert english.run_command("testfor @a").status_message.startswith("Found ")
        assert item_name("minecraft:diamond") == "ダイヤモンド"
    assert item_name("minecraft:diamond") == "Diamond"


async def test_two_connected_worlds_answer_and_echo_in_their_own_language() -> None:
    async with (
        mcbews_repl.serve(port=0) as mc,
        SimWorld(fast=True, language="ko_KR") as korean,
        SimWorld(fast=True, language="ru_RU") as russian,
    ):
        for sim in (korean, russian):
            await sim.connect(mc.url)
            await mc.wait_connected(timeout=10)
        games = mc.connections
        assert len(games) == 2
        answers = {(await game.command("tag Steve list")).status_message for game in games}
        assert answers == {
            lang("commands.tag.list.single.success", "Steve", 1, "§abuilder§r", language=code)
            for code in ("ko_KR", "ru_RU")
        }
        for game in games:
            await game.command("say hi")  # over the WebSocket: from the language's External
        for sim, code in ((korean, "ko_KR"), (russian, "ru_RU")):
            sender = lang("commands.origin.external", language=code)
            assert sim.chat_log[-1].sender == sender
            shown = lang("chat.type.announcement", sender, "hi", language=code)
            assert sim.inbox("Steve")[-1] == shown
