"""The toolkit's readers in every language the game ships: known or unknown, per language.

    make bench-languages   # or: .venv/bin/python benchmarks/readers_languages.py [--no-write]

For each of the game's 29 languages a simulated world answering in it (its language file's
strings, the real addon in QuickJS) connects to a fresh bridge over a real WebSocket, and
every reader of ``WorldQueries`` and ``Scoreboard`` runs once against it, each in a state
where the game gives the fact (a count, tags, scores, a block test ...). A reader is
*known* when it read the fact and the value is the world's; *unknown* when it honestly said
it could not; *wrong* when it read a value that is not the world's (there must be none).
The echo filter counts too: the world's own ``say`` over the WebSocket must come from a
sender the bridge knows as its echo. The table goes to stdout and to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import docs_page

import mcbews_repl
from mcbews_repl.sansio.frames import ECHO_SENDERS
from mcbews_repl.sim import SimWorld, languages
from mcbews_repl.toolkit import Scoreboard, WorldQueries


@dataclass
class Row:
    language: str
    known: int
    unknown: list[str]
    wrong: list[str]
    seconds: float


Reader = Callable[[WorldQueries, Scoreboard, SimWorld], Awaitable[tuple[bool, object, object]]]


def _reader_table() -> dict[str, Reader]:
    """Each reader: (known, what it read, what the world holds)."""

    async def item_count(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        before = await q.item_count("Steve", "minecraft:apple")
        sim.run_command("give Steve apple 7")
        after = await q.item_count("Steve", "minecraft:apple")
        return after.known and before.known, (after.value or 0) - (before.value or 0), 7

    async def item_none(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        n = await q.item_count("Alex", "minecraft:bedrock")
        return n.known, n.value, 0

    async def tags(q: WorldQueries, b: Scoreboard, sim: SimWorld) -> tuple[bool, object, object]:
        t = await q.tags("Steve")
        return t.known, set(t.tags or ()), set(sim.world.players["Steve"].tags)

    async def tags_none(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        for tag in list(sim.world.players["Alex"].tags):
            sim.run_command(f"tag Alex remove {tag}")
        t = await q.tags("Alex")
        return t.known, t.tags, ()

    async def scores(q: WorldQueries, b: Scoreboard, sim: SimWorld) -> tuple[bool, object, object]:
        s = await q.scores("Steve")
        held = {
            n: o.scores["Steve"] for n, o in sim.world.objectives.items() if "Steve" in o.scores
        }
        return s.known, {x.objective: x.value for x in s.scores}, held

    async def scores_none(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        s = await q.scores("#nobody")
        return s.known, s.scores, ()

    async def testfor(q: WorldQueries, b: Scoreboard, sim: SimWorld) -> tuple[bool, object, object]:
        f = await q.testfor("@a")
        return f.known, f.matched, True

    async def testfor_none(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        f = await q.testfor("@a[tag=nobody_has_it]")
        return f.known, f.matched, False

    async def block(q: WorldQueries, b: Scoreboard, sim: SimWorld) -> tuple[bool, object, object]:
        c = await q.block(0, -64, 0, "bedrock")
        return c.known, c.matches, True

    async def block_other(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        c = await q.block(0, -64, 0, "stone")
        return c.known, c.matches, False

    async def entities(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        e = await q.entities(target="players")
        return e.known, len(e.entities), len(sim.world.players)

    async def objectives(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        o = await b.objectives()
        return o.known, {x.name for x in o.objectives}, set(sim.world.objectives)

    async def add_objective(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        a = await b.add_objective("deaths", "Deaths")
        return a.known, "deaths" in sim.world.objectives, True

    async def score_set(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        c = await b.set("Steve", "deaths", 4)
        return c.known, c.value, 4

    async def score_add(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        c = await b.add("Steve", "deaths", 3)
        return c.known, c.value, 7

    async def operation(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        c = await b.operation("Steve", "deaths", "+=", "Alex", "kills")
        return c.known, c.reason, "not_reported"  # the game says only how many it updated

    async def setdisplay(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        a = await b.setdisplay("sidebar", "deaths")
        return a.known, True, True

    async def objective_scores(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        h = await b.objective_scores("kills")
        return (
            not h.truncated and not h.unknown,
            dict(h.scores),
            dict(sim.world.objectives["kills"].scores),
        )

    async def reset(q: WorldQueries, b: Scoreboard, sim: SimWorld) -> tuple[bool, object, object]:
        a = await b.reset("Steve", "deaths")
        return a.known, True, True

    async def remove_objective(
        q: WorldQueries, b: Scoreboard, sim: SimWorld
    ) -> tuple[bool, object, object]:
        a = await b.remove_objective("deaths")
        return a.known, "deaths" in sim.world.objectives, False

    async def echo(q: WorldQueries, b: Scoreboard, sim: SimWorld) -> tuple[bool, object, object]:
        await q._bridge.command("say mcbews echo check")  # type: ignore[attr-defined]
        sender = sim.chat_log[-1].sender
        return sender in ECHO_SENDERS, True, True

    return {f.__name__: f for f in (
        item_count, item_none, tags, tags_none, scores, scores_none, testfor, testfor_none,
        block, block_other, entities, objectives, add_objective, score_set, score_add,
        operation, setdisplay, objective_scores, reset, remove_objective, echo,
    )}  # fmt: skip


READERS = _reader_table()


async def survey(language: str) -> Row:
    started = time.perf_counter()
    row = Row(language, 0, [], [], 0.0)
    async with mcbews_repl.serve(port=0) as mc, SimWorld(fast=True, language=language) as sim:
        await sim.connect(mc.url)
        await mc.wait_connected(timeout=30)
        q, b = WorldQueries(mc), Scoreboard(mc)
        for name, reader in READERS.items():
            known, value, truth = await reader(q, b, sim)
            if not known:
                row.unknown.append(name)
            elif value != truth:
                row.wrong.append(f"{name}: read {value!r}, the world holds {truth!r}")
            else:
                row.known += 1
    row.seconds = time.perf_counter() - started
    return row


def table(rows: list[Row]) -> str:
    lines = [
        "| language | known | unknown | wrong | which unknown | seconds |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        which = ", ".join(r.unknown + r.wrong) or "-"
        lines.append(f"| {r.language} | {r.known} | {len(r.unknown)} | {len(r.wrong)} | "
                     f"{which} | {r.seconds:.2f} |")  # fmt: skip
    return "\n".join(lines)


def section(rows: list[Row]) -> str:
    total = sum(r.known for r in rows)
    return f"""## The toolkit's readers in every language the game ships

`benchmarks/readers_languages.py` (`make bench-languages`), at {docs_page.git_revision()}: for
each of the game's {len(rows)} languages, a simulated world answering in that language's
strings (and the real addon) on a fresh bridge over a real WebSocket, and every reader of
`WorldQueries` and `Scoreboard` run once, each where the game gives the fact, plus the echo
filter (the world's own `say` must come from a sender the bridge knows as its echo).
*Known* is read and equal to what the world holds; *unknown* is an honest "cannot tell";
*wrong* a value that is not the world's. {len(READERS)} readers a language, {total} known
of {len(READERS) * len(rows)}.

{table(rows)}
"""


async def main_async(codes: list[str]) -> list[Row]:
    return [await survey(code) for code in codes]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--languages", default="", help="comma-separated codes (default all)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    codes = [c for c in args.languages.split(",") if c] or list(languages())
    rows = asyncio.run(main_async(codes))
    print(table(rows))
    if not args.no_write and not args.languages:
        docs_page.write_section("languages", section(rows))


if __name__ == "__main__":
    main()
