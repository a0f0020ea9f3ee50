"""Deterministic inputs shared by both sides of the benchmark (standard library only).

Both ``bench_sansio.py`` (our package) and ``reference_side.py`` (mcbe-ws-sdk, in its own
virtual environment) import this module, so each side encodes and decodes exactly the same
texts and chunk lines.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable
from time import perf_counter

SIZES = {"4 KiB": 4 * 1024, "64 KiB": 64 * 1024, "1 MiB": 1024 * 1024}
KINDS = ("ASCII prose", "CJK", "no delimiters", "JSON-heavy")
PLAYER = "Steve"
ROLE = "assistant"

# Sentence delimiters of the reference's splitter are U+3002, U+FF01, U+FF1F, . ! ? and \n.
_FULLWIDTH_COMMA, _IDEO_STOP, _FW_EXCL, _FW_QUEST = "\uff0c", "\u3002", "\uff01", "\uff1f"

_WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "that",
    "it",
    "for",
    "as",
    "with",
    "was",
    "on",
    "be",
    "by",
    "this",
    "are",
    "from",
    "at",
    "or",
    "an",
    "have",
    "not",
    "which",
    "one",
    "all",
    "but",
    "they",
    "their",
    "can",
    "there",
    "more",
    "will",
    "would",
    "when",
    "what",
    "so",
    "about",
    "if",
    "into",
    "some",
    "time",
    "block",
    "world",
    "player",
    "server",
    "command",
    "chunk",
    "village",
    "river",
    "mountain",
    "stone",
    "iron",
    "diamond",
    "redstone",
    "torch",
    "crafting",
    "table",
    "furnace",
    "chest",
    "door",
    "window",
    "bridge",
    "tower",
    "castle",
    "garden",
    "farm",
    "wheat",
    "carrot",
    "potato",
    "sheep",
    "cow",
    "pig",
    "chicken",
    "horse",
    "wolf",
    "cat",
    "creeper",
    "zombie",
    "skeleton",
    "spider",
    "night",
    "day",
    "morning",
    "evening",
    "rain",
    "snow",
    "desert",
    "forest",
    "jungle",
    "ocean",
    "island",
    "cave",
    "mine",
    "tunnel",
    "build",
    "place",
    "break",
    "find",
    "collect",
    "explore",
    "travel",
    "protect",
    "defend",
    "survive",
    "trade",
    "repair",
    "enchant",
    "quickly",
    "carefully",
    "slowly",
    "first",
    "next",
    "then",
    "finally",
    "always",
    "never",
    "usually",
    "often",
    "sometimes",
    "large",
    "small",
    "tall",
    "deep",
    "bright",
    "dark",
    "old",
    "new",
    "ancient",
    "hidden",
    "distant",
    "nearby",
    "useful",
    "rare",
    "common",
    "because",
    "although",
    "while",
    "before",
    "after",
    "until",
    "since",
    "unless",
    "however",
    "therefore",
    "instead",
    "also",
    "response",
    "request",
    "result",
    "message",
    "answer",
    "question",
    "example",
    "position",
    "inventory",
    "health",
    "hunger",
    "coordinates",
    "direction",
    "north",
    "south",
    "east",
    "west",
    "above",
    "below",
    "inside",
    "outside",
    "around",
    "between",
]

# About three hundred frequent Chinese characters.
_HANZI = (
    "的一是不了人我在有他这中大来上个国和也子时道出而要于就下得可你年生自会那后能对着事其里所去行"
    "过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公"
    "从知高手长现全实开意把部地力向问通新正机理气使两更加体回明业本动路表山水世界方块村庄河流石头"
    "铁钻石红火把工作台熔炉箱子门窗桥塔城堡花园农场小麦胡萝卜土豆羊牛猪鸡马狼猫夜晚白天早晨下雨雪"
    "沙漠森林海洋岛屿洞穴矿井隧道建造放置破坏寻找收集探索旅行保护防御生存交易修理附魔快速小心慢慢"
    "首先然后最后总是从不通常经常有时巨大微小高深明亮黑暗古老新的隐藏遥远附近有用稀有普通因为虽然"
)


def _prose(rng: random.Random, size: int) -> str:
    out: list[str] = []
    length = 0
    while length < size:
        paragraph = []
        for _ in range(rng.randint(3, 6)):
            words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 30))]
            for i in range(3, len(words) - 2, rng.randint(5, 12)):
                words[i] += ","
            end = rng.choices(".?!", weights=(85, 10, 5))[0]
            paragraph.append(" ".join(words).capitalize() + end)
        text = " ".join(paragraph) + "\n\n"
        out.append(text)
        length += len(text)
    return "".join(out)


def _cjk(rng: random.Random, size: int) -> str:
    out: list[str] = []
    length = 0
    while length < size:
        paragraph = []
        for _ in range(rng.randint(3, 6)):
            chars = [rng.choice(_HANZI) for _ in range(rng.randint(10, 45))]
            for i in range(5, len(chars) - 3, rng.randint(6, 14)):
                chars[i] += _FULLWIDTH_COMMA
            end = rng.choices((_IDEO_STOP, _FW_QUEST, _FW_EXCL), weights=(85, 10, 5))[0]
            paragraph.append("".join(chars) + end)
        text = "".join(paragraph) + "\n\n"
        out.append(text)
        length += len(text) * 3
    return "".join(out)


def _no_delimiters(rng: random.Random, size: int) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(_WORDS) + ("," if rng.random() < 0.08 else "")
        words.append(word)
        length += len(word) + 1
    return " ".join(words)


def _json_heavy(rng: random.Random, size: int) -> str:
    """Pretty-printed JSON records: quotes everywhere, escaped quotes, backslashes, \\n.

    The worst ordinary text for the frame ceiling: each quote is two bytes of command line
    and four of frame, each backslash the same.
    """
    records: list[dict[str, object]] = []
    length = 0
    while length < size:
        name = f'{rng.choice(_WORDS)} "{rng.choice(_WORDS)}" {rng.choice(_WORDS)}'
        record = {
            "id": rng.randint(1, 99999),
            "name": name,
            "path": "C:\\worlds\\" + "\\".join(rng.choice(_WORDS) for _ in range(3)),
            "tags": rng.sample(_WORDS[:40], 3),
            "pos": [rng.randint(-3000, 3000), rng.randint(-64, 320), rng.randint(-3000, 3000)],
            "note": " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 12))) + ".\n",
        }
        records.append(record)
        length += len(json.dumps(record, indent=2))
    return json.dumps(records, indent=2)


def make_text(kind: str, size_bytes: int) -> str:
    """A text of exactly ``size_bytes`` UTF-8 bytes or a little less (cut on a code point)."""
    generate = {
        "ASCII prose": _prose,
        "CJK": _cjk,
        "no delimiters": _no_delimiters,
        "JSON-heavy": _json_heavy,
    }[kind]
    text = generate(random.Random(f"{kind}:{size_bytes}"), size_bytes + 64)
    return text.encode("utf-8")[:size_bytes].decode("utf-8", "ignore")


# --- upstream chunks (addon -> server) -------------------------------------------------

CHUNK_CODE_POINTS = 256  # the addon's upstream chunk size
LINE_BUDGET = 461
TELL = "tell @s "

# Capability answers of three sizes, given as the number of players listed in the answer
# (about 1, 8 and 48 chunks each).
ANSWER_PLAYERS = (1, 19, 115)
# Chunks decoded per timed run, so every answer size does about the same work.
CHUNKS_PER_RUN = 2400


def make_answer(players: int, seed: int) -> str:
    """A capability answer as the addon sends it: ``{"ok":true,"result":{...}}``."""
    rng = random.Random(seed)
    names = ("Steve", "Alex", "Notch", "\u73a9\u5bb6", "Builder_42", "RedstoneFan")
    result = {
        "players": [
            {
                "name": f"{rng.choice(names)}{i}",
                "pos": [round(rng.uniform(-3e4, 3e4), 2), rng.randint(-64, 320), i * 3],
                "dimension": rng.choice(("overworld", "nether", "the_end")),
                "health": rng.randint(1, 20),
                "tags": rng.sample(("builder", "op", "afk", "team_red", "team_blue"), 2),
            }
            for i in range(players)
        ]
    }
    return json.dumps({"ok": True, "result": result}, ensure_ascii=False, separators=(",", ":"))


def split_answer(payload: str, request_id: str) -> list[str]:
    """Cut ``payload`` like the addon does: at most 256 code points and 461 line bytes."""
    pieces: list[str] = []
    pos = 0
    while True:
        total_guess = max(1, len(pieces))
        pieces, pos = [], 0
        index = 1
        while pos < len(payload) or not pieces:
            header = f"{TELL}MCBEWS|BRIDGE|{request_id}|{index}/{total_guess}|"
            room = LINE_BUDGET - len(header.encode("utf-8"))
            end = min(len(payload), pos + CHUNK_CODE_POINTS)
            while len(payload[pos:end].encode("utf-8")) > room:
                end -= 1
            pieces.append(payload[pos:end])
            pos, index = end, index + 1
        if len(str(len(pieces))) <= len(str(total_guess)):
            break
    n = len(pieces)
    return [f"MCBEWS|BRIDGE|{request_id}|{i}/{n}|{p}" for i, p in enumerate(pieces, start=1)]


def make_ids(count: int, seed: str) -> list[str]:
    """Request ids shaped like ours: 12 hex digits."""
    rng = random.Random(seed)
    return [f"{rng.getrandbits(48):012x}" for _ in range(count)]


def answer_messages(players: int, ids: list[str]) -> list[list[str]]:
    """One list of chunk lines per answer; answer ``k`` goes to request ``ids[k]``."""
    return [split_answer(make_answer(players, k), rid) for k, rid in enumerate(ids)]


def messages_per_run(players: int) -> int:
    chunks = len(split_answer(make_answer(players, 0), "0" * 12))
    return max(1, CHUNKS_PER_RUN // chunks)


# --- timing ----------------------------------------------------------------------------


def measure(
    run: Callable[[], float], *, budget_s: float, min_runs: int = 3, max_runs: int = 200
) -> list[float]:
    """Call ``run`` (which returns the seconds it measured) enough times to fill the budget.

    A single call longer than the budget is not repeated (the slow reference at 1 MiB).
    """
    times = [run()]
    if times[0] >= budget_s:
        return times
    wanted = min(max_runs, max(min_runs, int(budget_s / max(times[0], 1e-9))))
    times.extend(run() for _ in range(wanted - 1))
    return times


def timed(fn: Callable[[], object]) -> Callable[[], float]:
    def run() -> float:
        start = perf_counter()
        fn()
        return perf_counter() - start

    return run


def summary(times: list[float]) -> dict[str, float]:
    return {"best": min(times), "median": statistics.median(times), "runs": len(times)}
