"""A simulated world in another language, as a person sees it in the notebook: %mc sim
--language, the game's own words in a command's answer, and the tables the toolkit reads."""

from __future__ import annotations

from html import unescape
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.corpus import lang

from .ipython.test_magics import mc_of, render


def test_a_world_in_zh_cn_answers_in_chinese_and_its_tables_are_whole(shell: Any) -> None:
    mc = mc_of(shell)
    try:
        shell.run_line_magic("mc", "sim --language zh_CN")
        assert mc.sim.raw.language == "zh_CN"
        answer = shell.run_line_magic("mc", "/give Steve diamond 2")
        html, text = render(shell, answer)
        said = lang("commands.give.success", "钻石", 2, "Steve", language="zh_CN")
        assert said in text and said in unescape(html)
        players = mc.players().result(20)
        assert players["name"].tolist() == ["Steve", "Alex"]
        items = mc.inventory("Steve").result(20)
        assert "diamond" in " ".join(map(str, items["item"]))
        tags = mc.query.tags("Steve").result(20)
        assert (tags.known, tags.tags) == (True, ("builder",))
        count = mc.query.item_count("Steve", "diamond").result(20)
        assert (count.known, count.value) == (True, 2)
        with pytest.raises(UsageError, match="the game has no language 'xx_XX'; it ships bg_BG"):
            shell.run_line_magic("mc", "sim --language xx_XX")
    finally:
        shell.run_line_magic("mc", "sim")
    assert mc.sim.raw.language == "en_US"
