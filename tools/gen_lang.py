"""Generate the game's strings, in every language it ships, from Mojang's bedrock-samples.

The game's text (command output, the origin name of WebSocket commands, item names) comes
from its language files, ``resource_pack/texts/<code>.lang`` in Mojang/bedrock-samples, one
per language the client can be set to (``languages.json``). Two files are generated from one
commit of that repository, so both sides read the same game:

- ``mcbews_repl/sim/evidence/lang.json``: the simulated world's copy (every key it answers
  with, and the names of the items and blocks it holds), part of its evidence corpus;
- ``mcbews_repl/toolkit/gamestrings.json``: the bridge's copy, only the keys its readers
  match game text against.

Run it with a clone (or a bare mirror) of bedrock-samples::

    python tools/gen_lang.py --samples ../bedrock-samples [--commit <sha>]

and record the commit in ``mcbews_repl/sim/evidence/sources.json`` ("bedrock-lang").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIM_LANG = ROOT / "mcbews_repl" / "sim" / "evidence" / "lang.json"
TOOLKIT_LANG = ROOT / "mcbews_repl" / "toolkit" / "gamestrings.json"
TEXTS = "resource_pack/texts"

# Every key the simulated world answers with (sim/cmd_*.py, sim/frames.py call facts.text).
SIM_KEYS: tuple[str, ...] = (
    "chat.type.announcement", "chat.type.text", "chat.type.emote",
    "commands.origin.external", "commands.origin.script",
    "commands.generic.unknown", "commands.generic.syntax", "commands.generic.noTargetMatch",
    "commands.generic.too.many.requests", "commands.generic.encryption.required",
    "commands.generic.num.tooBig", "commands.generic.num.tooSmall",
    "commands.generic.malformed.body", "commands.generic.malformed.type",
    "commands.generic.version.missing", "commands.generic.version.mismatch",
    "commands.message.display.incoming", "commands.message.display.outgoing",
    "commands.give.success", "commands.give.successRecipient",
    "commands.clear.success", "commands.clear.failure.no.items", "commands.clear.testing",
    "commands.tp.success", "commands.tp.success.coordinates",
    "commands.gamemode.success.other", "commands.gamemode.success.self",
    "commands.tag.add.failed", "commands.tag.add.success.single",
    "commands.tag.add.success.multiple", "commands.tag.list.single.empty",
    "commands.tag.list.single.success", "commands.tag.list.multiple.empty",
    "commands.tag.list.multiple.success", "commands.tag.remove.failed",
    "commands.tag.remove.success.single", "commands.tag.remove.success.multiple",
    "commands.testfor.success", "commands.querytarget.success",
    "commands.players.list", "commands.players.list.names",
    "commands.kill.successful", "commands.summon.success",
    "commands.scriptevent.messageSizeExceed", "commands.scriptevent.invalidNamespace",
    "commands.scoreboard.objectiveNotFound",
    "commands.scoreboard.objectives.add.alreadyExists",
    "commands.scoreboard.objectives.add.success",
    "commands.scoreboard.objectives.list.count", "commands.scoreboard.objectives.list.empty",
    "commands.scoreboard.objectives.list.entry", "commands.scoreboard.objectives.remove.success",
    "commands.scoreboard.objectives.setdisplay.successCleared",
    "commands.scoreboard.objectives.setdisplay.successSet",
    "commands.scoreboard.players.add.success", "commands.scoreboard.players.add.multiple.success",
    "commands.scoreboard.players.list.count", "commands.scoreboard.players.list.empty",
    "commands.scoreboard.players.list.player.count",
    "commands.scoreboard.players.list.player.empty",
    "commands.scoreboard.players.list.player.entry",
    "commands.scoreboard.players.operation.notFound",
    "commands.scoreboard.players.operation.success",
    "commands.scoreboard.players.remove.success",
    "commands.scoreboard.players.remove.multiple.success",
    "commands.scoreboard.players.reset.success", "commands.scoreboard.players.resetscore.success",
    "commands.scoreboard.players.set.success", "commands.scoreboard.players.set.multiple.success",
    "commands.setblock.noChange", "commands.setblock.outOfWorld", "commands.setblock.success",
    "commands.testforblock.failed.tile", "commands.testforblock.outOfWorld",
    "commands.testforblock.success", "commands.testforblock.failed.data",
    "commands.fill.outOfWorld", "commands.fill.success", "commands.fill.tooManyBlocks",
    "commands.fill.failed",
    "commands.clone.failed", "commands.clone.noOverlap", "commands.clone.success",
    "commands.clone.tooManyBlocks",
    "commands.time.added", "commands.time.set", "commands.time.query.day",
    "commands.time.query.daytime", "commands.time.query.gametime",
    "commands.weather.clear", "commands.weather.query", "commands.weather.rain",
    "commands.weather.thunder",
    "commands.title.success", "commands.titleraw.success",
    "commands.reload.success",
)  # fmt: skip

# The keys the bridge's readers match game text against (toolkit/parsers.py, the echo
# filter's origin name); a subset of SIM_KEYS, so both sides read one game.
TOOLKIT_KEYS: tuple[str, ...] = (
    "commands.origin.external",
    "commands.generic.noTargetMatch", "commands.generic.syntax", "commands.generic.unknown",
    "commands.clear.testing", "commands.clear.failure.no.items",
    "commands.tag.list.single.empty", "commands.tag.list.single.success",
    "commands.tag.add.success.single", "commands.tag.add.failed",
    "commands.tag.remove.success.single", "commands.tag.remove.failed",
    "commands.testfor.success", "commands.querytarget.success",
    "commands.players.list", "commands.testforblock.success",
    "commands.testforblock.failed.tile", "commands.testforblock.outOfWorld",
    "commands.testforblock.failed.data",
    "commands.scoreboard.objectiveNotFound",
    "commands.scoreboard.objectives.list.count", "commands.scoreboard.objectives.list.empty",
    "commands.scoreboard.objectives.list.entry",
    "commands.scoreboard.players.list.count", "commands.scoreboard.players.list.empty",
    "commands.scoreboard.players.list.player.count",
    "commands.scoreboard.players.list.player.empty",
    "commands.scoreboard.players.list.player.entry",
    "commands.scoreboard.players.add.success", "commands.scoreboard.players.remove.success",
    "commands.scoreboard.players.set.success", "commands.scoreboard.players.reset.success",
    "commands.scoreboard.players.operation.success",
    "commands.scoreboard.players.set.multiple.success",
    "commands.scoreboard.players.add.multiple.success",
    "commands.scoreboard.players.remove.multiple.success",
    "commands.scoreboard.players.resetscore.success",
    "commands.scoreboard.objectives.add.success", "commands.scoreboard.objectives.remove.success",
    "commands.scoreboard.objectives.setdisplay.successSet",
    "commands.scoreboard.objectives.setdisplay.successCleared",
    "commands.origin.script",
)  # fmt: skip

# The items and blocks the simulated world holds, whose names the game translates
# (give's itemName, testforblock's block name). Each id's key is the first of the
# candidate keys the English file has.
NAMED_IDS: tuple[str, ...] = (
    "apple", "arrow", "bow", "bread", "chest", "cobblestone", "crafting_table", "diamond",
    "diamond_chestplate", "diamond_sword", "dirt", "golden_apple", "grass", "iron_helmet",
    "iron_pickaxe", "leather_boots", "map", "netherrack", "oak_log", "shield", "stone",
    "torch", "wool", "gold_block", "air", "water", "sand", "bedrock",
)  # fmt: skip


# Names the game keeps under a variant's key (the stone block is tile.stone.stone.name).
NAME_KEY_OF: dict[str, str] = {"stone": "tile.stone.stone.name", "oak_log": "tile.log.oak.name"}


def name_candidates(short_id: str) -> tuple[str, ...]:
    """The lang keys an item or block's name may sit under, most likely first."""
    named = (NAME_KEY_OF[short_id],) if short_id in NAME_KEY_OF else ()
    return (*named, f"item.{short_id}.name", f"tile.{short_id}.name", f"item.{short_id}", short_id)


def parse_lang(text: str) -> dict[str, str]:
    """``key=value`` lines; ``##`` comments and blank lines skipped, a BOM dropped."""
    strings: dict[str, str] = {}
    for line in text.lstrip("\ufeff").splitlines():
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        strings[key.strip()] = value.split("\t#", 1)[0]
    return strings


def read(samples: Path, commit: str, path: str) -> str:
    """One file of bedrock-samples at ``commit`` (works on a clone or a bare mirror)."""
    return subprocess.run(
        ["git", "--git-dir", str(git_dir(samples)), "show", f"{commit}:{path}"],
        check=True, capture_output=True, encoding="utf-8",
    ).stdout  # fmt: skip


def git_dir(samples: Path) -> Path:
    return samples / ".git" if (samples / ".git").exists() else samples


def languages(samples: Path, commit: str) -> list[str]:
    codes: list[str] = json.loads(read(samples, commit, f"{TEXTS}/languages.json"))
    return sorted(codes)


def generate(samples: Path, commit: str) -> tuple[dict[str, object], dict[str, object]]:
    """The simulated world's file and the toolkit's, as dicts."""
    files = {code: parse_lang(read(samples, commit, f"{TEXTS}/{code}.lang"))
             for code in languages(samples, commit)}  # fmt: skip
    english = files["en_US"]
    missing = [k for k in SIM_KEYS if k not in english]
    if missing:
        raise SystemExit(f"keys not in en_US.lang at {commit}: {missing}")
    name_keys = {}
    for short_id in NAMED_IDS:
        key = next((k for k in name_candidates(short_id) if k in english), None)
        if key is not None:
            name_keys[f"minecraft:{short_id}"] = key
    wanted = [*SIM_KEYS, *sorted(set(name_keys.values()))]
    sim_languages = {code: {k: strings[k] for k in wanted if k in strings}
                     for code, strings in files.items()}  # fmt: skip
    sim = {
        "$comment": (
            "The game's strings in every language it ships, exactly as its language files "
            "write them (placeholders %s, %d, %1$s ... included), generated by "
            "tools/gen_lang.py. A key a language file lacks is absent there: the game then "
            "shows the English string. name_keys: the key of each item or block name."
        ),
        "source": "bedrock-lang",
        "commit": commit,
        "languages": sim_languages,
        "name_keys": name_keys,
    }
    toolkit = {
        "$comment": (
            "The game's strings the bridge's readers match its text against, in every "
            "language it ships (tools/gen_lang.py, from Mojang/bedrock-samples "
            "resource_pack/texts at the commit below)."
        ),
        "commit": commit,
        "languages": {
            code: {k: strings[k] for k in TOOLKIT_KEYS if k in strings}
            for code, strings in files.items()
        },
    }
    return sim, toolkit


def write(path: Path, data: dict[str, object]) -> None:
    text = json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n"
    path.write_text(text, encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=Path, required=True, help="bedrock-samples clone")
    parser.add_argument("--commit", default="HEAD", help="the commit to read (default HEAD)")
    args = parser.parse_args(argv)
    commit = subprocess.run(
        ["git", "--git-dir", str(git_dir(args.samples)), "rev-parse", args.commit],
        check=True, capture_output=True, encoding="utf-8",
    ).stdout.strip()  # fmt: skip
    sim, toolkit = generate(args.samples, commit)
    write(SIM_LANG, sim)
    write(TOOLKIT_LANG, toolkit)
    print(f"{len(sim['languages'])} languages at {commit}: {SIM_LANG.name}, {TOOLKIT_LANG.name}")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
