"""``mcbews-repl mcp`` as an MCP client sees it: the SDK's own client (ClientSession over
stdio_client) starts ``mcbews-repl mcp --sim`` as a subprocess, lists its tools, resources
and prompts, calls every tool, and finds every forbidden action refused by its rule with
nothing of it in the simulated world's command log; several worlds follow the WhichWorld
rule; the audit log reads back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters, stdio_client

from mcbews_repl.capture import audit_entries, read_capture
from mcbews_repl.mcpserver import PROMPTS, RESOURCES, reference_markdown
from mcbews_repl.toolkit import CATALOGUE, Policy

from .toolkit.test_tools import EXAMPLES

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
# A busy 2-core machine starts Python, the bridge and the simulated worlds' addon slowly.
SESSION_SECONDS = 90.0


@asynccontextmanager
async def server(*args: str) -> AsyncIterator[ClientSession]:
    env = {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcbews_repl", "mcp", "--sim", *args], env=env
    )
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write, read_timeout_seconds=SESSION_SECONDS) as s,
        ):
            await s.initialize()
            yield s


async def call(session: ClientSession, name: str, **args: Any) -> dict[str, Any]:
    result = await session.call_tool(name, args)
    data = result.structured_content
    assert isinstance(data, dict), result
    assert json.loads(result.content[0].text) == data  # type: ignore[union-attr]
    assert result.is_error is (not data["ok"])
    return data


async def text_of(session: ClientSession, uri: str) -> str:
    contents = (await session.read_resource(uri)).contents
    return str(contents[0].text)  # type: ignore[union-attr]


FORBIDDEN = {
    "op Steve": "forbidden",
    "/deop Alex": "forbidden",
    "kill @a": "forbidden",
    "clear @a": "forbidden",
    "wsserver ws://127.0.0.1:1": "forbidden",
    "connect ws://127.0.0.1:1": "forbidden",
    "reload": "forbidden",
    "execute as @a run op Alex": "forbidden",
    "\uff4f\uff50 Alex": "forbidden",
    "say hi\nop Alex": "unreadable",
    "say a lesson": "read_only",
    "give Alex diamond 64": "read_only",
}


async def test_a_read_only_session_lists_everything_and_refuses_what_it_must() -> None:
    async with server() as session:
        tools = (await session.list_tools()).tools
        assert [t.name for t in tools] == [s.name for s in CATALOGUE]
        for tool in tools:
            assert "world" in tool.input_schema["properties"], tool.name
            assert tool.input_schema["additionalProperties"] is False
        kinds = {t.name: t.annotations.read_only_hint for t in tools}  # type: ignore[union-attr]
        assert kinds["players"] is True and kinds["command"] is False
        uris = [str(r.uri) for r in (await session.list_resources()).resources]
        assert uris == [*RESOURCES, "mcbews://sim/commands"]
        assert (await text_of(session, "mcbews://connect")).startswith("/connect 127.0.0.1:")
        worlds = json.loads(await text_of(session, "mcbews://worlds"))
        assert [w["name"] for w in worlds] == ["Steve"]
        assert json.loads(await text_of(session, "mcbews://policy"))["read_only"] is True
        caps = json.loads(await text_of(session, "mcbews://capabilities"))
        allowed = {c["name"]: c["allowed"] for c in caps}
        assert allowed["get_player_snapshot"] and not allowed["run_world_command"]
        prompts = (await session.list_prompts()).prompts
        assert [p.name for p in prompts] == [p.name for p in PROMPTS]
        welcome = await session.get_prompt("welcome", {"player": "Alex"})
        assert "send_text Alex" in welcome.messages[0].content.text  # type: ignore[union-attr]

        players = await call(session, "players")
        assert players["ok"] and players["world"] == "Steve" and players["total"] == 2
        for line, rule in FORBIDDEN.items():
            refused = await call(session, "command", command=line)
            assert refused["refused_by"] == rule, (line, refused)
            assert refused["how_to"]
        score = await call(session, "score_set", holder="Alex", objective="kills", value=1)
        assert score["refused_by"] == "read_only" and "read_only" in score["how_to"]
        sent = json.loads(await text_of(session, "mcbews://sim/commands"))["Steve"]
        assert sent, "the world received the players tool's request"
        never = {"op", "deop", "kill", "clear", "wsserver", "connect", "reload", "say", "give",
                 "execute", "scoreboard"}  # fmt: skip
        for line in sent:
            assert line.lower().split()[0] not in never, line
        audit = json.loads(await text_of(session, "mcbews://audit"))
        assert [a["verdict"] for a in audit] == ["allowed"] + ["refused"] * (len(FORBIDDEN) + 1)


HOSTILE: list[tuple[str, dict[str, Any], str]] = [
    ("region", {"x": 0, "y": 0, "z": 0, "dx": 10**12, "dy": 1, "dz": 1, "block": "stone"}, "dx"),
    ("region", {"x": 0, "y": 0, "z": 0, "dx": 16, "dy": 16, "dz": 16, "block": "stone"},
     "positions"),
    ("entities", {"radius": 10**9}, "radius"),
    ("blocks", {"x1": -10**6, "y1": 0, "z1": 0, "x2": 10**6, "y2": 300, "z2": 10**6},
     "at most 4096"),
    ("inventory", {"player": "Steve\nop Alex"}, "control character"),
    ("tags", {"player": "@a"}, "player"),
    ("score_set", {"holder": "Alex @e", "objective": "kills", "value": 1}, "holder"),
    ("item_count", {"player": "Steve", "item": "diamond; op Steve"}, "item id"),
    ("block", {"x": "1", "y": 2, "z": 3, "block": "stone"}, "integer"),
    ("players", {"limit": True}, "integer"),
    ("players", {"world": 5}, "world"),
    ("players", {"world": "x" * 1000}, "world"),
    ("players", {"sneaky": 1}, "sneaky"),
    ("no_such_tool", {}, "no tool"),
]  # fmt: skip


async def test_every_tool_runs_under_an_open_policy_and_the_audit_reads_back(
    tmp_path: Path,
) -> None:
    policy = tmp_path / "lesson.toml"
    policy.write_text(
        'read_only = false\nprotect_host = false\n[commands]\nallow = ["time", "give"]\n',
        encoding="utf-8",
    )
    audit = tmp_path / "audit.jsonl"
    # One world for all: Alex's score is reset only after the operation that reads it.
    order = [s.name for s in CATALOGUE if s.name != "score_reset"] + ["score_reset"]
    async with server("--policy", str(policy), "--audit", str(audit)) as session:
        for name in order:
            args = dict(EXAMPLES[name])
            if name == "chat_context":
                args = {"context_id": "ctx_unknown"}
            result = await call(session, name, **args)
            assert result["tool"] == name and result["describe"], result
            assert result["ok"] is (name != "chat_context"), result
        for name, args, words in HOSTILE:
            result = await call(session, name, **args)
            assert result["ok"] is False, (name, result)
            assert words in result["why"] + result["how_to"], (name, result)
        refused = await call(session, "command", command="kill @a")
        assert refused["refused_by"] == "forbidden"
    capture = read_capture(audit)  # the server closed its log as it ended
    assert capture.end is not None
    entries = audit_entries(capture)
    assert len(entries) == len(CATALOGUE) + len(HOSTILE) + 1
    assert [e.tool for e in entries[: len(CATALOGUE)]] == order
    assert entries[-1].refused_by == "forbidden" and entries[-1].world == "Steve"
    assert {e.verdict for e in entries} == {"allowed", "invalid", "refused"}


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcbews_repl", "mcp", "--replay-audit", *args],
        capture_output=True, text=True, timeout=SESSION_SECONDS * 2,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


async def test_a_lesson_the_server_wrote_replays_and_each_launch_has_its_own_file(
    tmp_path: Path,
) -> None:
    policy = tmp_path / "lesson.toml"
    policy.write_text(
        'read_only = false\nprotect_host = false\n[commands]\nallow = ["give", "say"]\n',
        encoding="utf-8",
    )
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    long_say = "say " + "x" * 360  # longer than the old audit kept (320), and it fits
    args = ("--worlds", "2", "--policy", str(policy), "--audit", str(lessons))
    async with server(*args) as session:
        assert (await call(session, "command", command="give Ben bread 2", world="Ben"))["ok"]
        assert (await call(session, "command", command="op Ben", world="Ben"))["refused_by"]
        said = await call(session, "command", command=long_say, world="Ana")
        assert said["ok"], said
        too_long = await call(session, "command", command="say " + "x" * 2000, world="Ana")
        assert "longer than" in too_long["why"]
        assert "2 worlds are connected" in (await call(session, "players"))["why"]
        missing = await call(session, "tags", player="Ana", world="Zed")
        assert "no world 'Zed'" in missing["why"]
        assert (await call(session, "tags", player="Ana", world="Ana"))["ok"]
    async with server("--audit", str(lessons)) as session:  # the client starts it again
        assert (await call(session, "players"))["ok"]
    files = sorted(lessons.glob("*.jsonl"), key=lambda p: read_capture(p).header.started)
    assert len(files) == 2, files
    entries = audit_entries(files[0])
    assert entries[2].arguments == {"command": long_say}  # whole, as the tool got it
    assert entries[5].arguments == {"player": "Ana", "world": "Zed"} and entries[5].world is None
    assert f"policy: {policy}" in read_capture(files[0]).header.notes
    assert [e.tool for e in audit_entries(files[1])] == ["players"]

    same = replay(str(files[0]), "--policy", str(policy))
    assert same.returncode == 0, same.stderr
    assert "7 actions replayed: every verdict is the one recorded" in same.stdout, same.stdout
    strict = replay(str(files[0]))  # today's question: would the defaults have allowed it?
    assert strict.returncode == 1, strict.stderr
    assert (
        "action 0 (command): recorded {'ok': True, 'refused_by': None}, now {'ok': "
        "False, 'refused_by': 'read_only'}" in strict.stdout
    ), strict.stdout
    assert "7 actions replayed: 2 differ" in strict.stdout, strict.stdout
    bad = replay(str(tmp_path / "none.jsonl"))
    assert bad.returncode == 2 and "none.jsonl" in bad.stderr and bad.stdout == ""


async def test_a_class_is_driven_world_by_world_within_the_guard(tmp_path: Path) -> None:
    policy = tmp_path / "class.toml"
    policy.write_text("read_only = false\nprotect_host = false\n", encoding="utf-8")
    async with server("--worlds", "3", "--policy", str(policy)) as session:
        worlds = json.loads(await text_of(session, "mcbews://worlds"))
        assert [w["name"] for w in worlds] == ["Ana", "Ben", "Chloe"]
        unnamed = await call(session, "players")
        assert "3 worlds are connected" in unnamed["why"] and "world=" in unnamed["how_to"]
        assert [w["name"] for w in unnamed["worlds"]] == ["Ana", "Ben", "Chloe"]
        ben = await call(session, "players", world="Ben")
        assert ben["ok"] and ben["world"] == "Ben" and ben["players"][0]["name"] == "Ben"
        assert (await call(session, "players", world="chloe"))["world"] == "Chloe"
        assert (await call(session, "players", world="#1"))["world"] == "Ana"
        assert "there is no tool" in (await call(session, "teleport_all"))["why"]
        missing = await call(session, "tags", player="Ana", world="Zed")
        assert "no world 'Zed'" in missing["why"] and "Ana (id 1)" in missing["why"]
        for name in ("Ana", "Ben", "Chloe"):
            given = await call(session, "command", command=f"give {name} bread 2", world=name)
            assert given["ok"] and given["world"] == name, given
            held = await call(session, "item_count", player=name, item="bread", world=name)
            assert held["value"] >= 2, held
            for line, rule in (("kill @a", "forbidden"), (f"tp @a {name}", "named_players"),
                               (f"op {name}", "forbidden")):  # fmt: skip
                refused = await call(session, "command", command=line, world=name)
                assert refused["refused_by"] == rule, refused
        sent = json.loads(await text_of(session, "mcbews://sim/commands"))
        for name, lines in sent.items():
            gives = [line for line in lines if line.startswith("give ")]
            assert gives == [f"give {name} bread 2"], (name, lines)  # each to its own world
            assert not [line for line in lines if line.split()[0] in ("kill", "tp", "op")]
        events = await call(session, "events", world="Ben", limit=200)
        assert events["ok"] and events["events"], events
        worlds = json.loads(await text_of(session, "mcbews://worlds"))
        ben = next(w["id"] for w in worlds if w["name"] == "Ben")
        connected = [e["summary"].split()[0] for e in events["events"] if e["kind"] == "connected"]
        assert connected == [f"#{ben}"], events  # Ben's world's events only


async def test_building_tools_build_undo_and_keep_to_the_guard_world_by_world(
    tmp_path: Path,
) -> None:
    """Through the server: a read-only world refuses them by name; with building allowed,
    a fill in Ana's world is undone there while Ben's build stays; the caps and a protected
    region refuse before anything reaches the game."""
    async with server("--worlds", "2") as session:  # the default policy: read-only
        refused = await call(session, "fill", x1=0, y1=100, z1=0, x2=1, y2=100, z2=1,
                             block="glass", world="Ana")  # fmt: skip
        assert refused["refused_by"] == "read_only" and "fill changes the world" in refused["why"]
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert {"fill", "shape", "set_blocks", "undo"} <= set(tools)
        assert tools["undo"].annotations is not None
        assert tools["undo"].annotations.read_only_hint is False
    policy = tmp_path / "build.toml"
    policy.write_text(
        "read_only = false\nprotect_host = false\n[blocks]\nmax_per_call = 200\n"
        '[[protected_regions]]\nname = "spawn"\nfrom = [-5, 0, -5]\nto = [5, 320, 5]\n',
        encoding="utf-8",
    )
    async with server("--worlds", "2", "--policy", str(policy)) as session:
        fill = dict(x1=20, y1=100, z1=20, x2=23, y2=101, z2=23, block="glass")
        ana = await call(session, "fill", **fill, world="Ana")
        assert ana["ok"] and ana["written"] == 32 and ana["world"] == "Ana", ana
        ben = await call(session, "set_blocks", x=20, y=100, z=20, dx=4, dy=2, dz=4,
                         palette="red_wool", runs="0*32", world="Ben")  # fmt: skip
        assert ben["ok"] and ben["written"] == 32, ben
        undone = await call(session, "undo", world="Ana")
        assert undone["ok"] and undone["undid"] == "fill 4x2x4 at (20, 100, 20) in overworld"
        ana_box = await call(session, "blocks", x1=20, y1=100, z1=20, x2=23, y2=101, z2=23,
                             world="Ana")  # fmt: skip
        assert [p["block"] for p in ana_box["palette"]] == ["minecraft:air"]
        ben_box = await call(session, "blocks", x1=20, y1=100, z1=20, x2=23, y2=101, z2=23,
                             world="Ben")  # fmt: skip
        assert [p["block"] for p in ben_box["palette"]] == ["minecraft:red_wool"]
        nothing = await call(session, "undo", world="Ana")
        assert not nothing["ok"] and "nothing to undo" in nothing["why"]
        big = await call(session, "shape", shape="sphere", x=40, y=120, z=0, radius=5,
                         block="glass", world="Ben")  # fmt: skip
        assert big["refused_by"] == "blocks_per_call" and "515 blocks" in big["why"], big
        spawn = await call(session, "fill", x1=0, y1=100, z1=0, x2=1, y2=100, z2=1,
                           block="glass", world="Ben")  # fmt: skip
        assert spawn["refused_by"] == "protected_regions", spawn
        again = await call(session, "blocks", x1=0, y1=100, z1=0, x2=1, y2=100, z2=1, world="Ben")
        assert [p["block"] for p in again["palette"]] == ["minecraft:air"]  # nothing reached it


async def test_without_a_game_the_tools_say_how_to_connect() -> None:
    env = {"PYTHONPATH": str(ROOT)}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcbews_repl", "mcp", "--port", "0"], env=env
    )
    with open(os.devnull, "w") as quiet:
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write, read_timeout_seconds=SESSION_SECONDS) as s,
        ):
            await s.initialize()
            line = await text_of(s, "mcbews://connect")
            assert line.startswith("/connect 127.0.0.1:")
            result = await call(s, "players")
            assert result["ok"] is False and line in result["why"]
            uris = [str(r.uri) for r in (await s.list_resources()).resources]
            assert uris == list(RESOURCES)  # no simulated worlds, no sim/commands


def test_bad_options_are_said_on_stderr(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("read_ony = true\n", encoding="utf-8")
    for args, said in (
        (["--policy", str(bad)], "read_ony"),
        (["--worlds", "3"], "--worlds needs --sim"),
        (["--sim", "--worlds", "0"], "--worlds takes"),
        (["--sim", "--audit", str(tmp_path / "none" / "a.jsonl")], "no folder"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "mcbews_repl", "mcp", *args], capture_output=True,
            text=True, timeout=SESSION_SECONDS, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        assert done.returncode == 2 and said in done.stderr, (args, done.stderr)
        assert done.stdout == ""  # stdout is the protocol's


def test_without_the_sdk_the_command_names_the_extra() -> None:
    code = ("import sys; sys.modules['mcp'] = None; from mcbews_repl.cli import main; "
            "sys.exit(main(['mcp', '--sim']))")  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=SESSION_SECONDS,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 1 and done.stdout == ""
    assert 'python -m pip install "mcbews-repl[mcp]"' in done.stderr, done.stderr


def test_init_policy_writes_the_defaults_once(tmp_path: Path) -> None:
    target = tmp_path / "class.toml"
    command = [sys.executable, "-m", "mcbews_repl", "mcp", "--init-policy", str(target)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(command, capture_output=True, text=True, timeout=SESSION_SECONDS, env=env)
    assert done.returncode == 0 and f"--policy {target}" in done.stdout
    assert target.read_text(encoding="utf-8") == Policy.default_toml()
    again = subprocess.run(
        command, capture_output=True, text=True, timeout=SESSION_SECONDS, env=env
    )
    assert again.returncode == 2 and "cannot write" in again.stderr


def test_the_agents_page_lists_the_tools_of_the_catalogue() -> None:
    page = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    begin = "<!-- generated: tools (mcbews_repl.mcpserver.reference_markdown) -->\n"
    shown = page.split(begin, 1)[1].split("<!-- end generated -->", 1)[0]
    assert shown == reference_markdown()


async def test_streamable_http_on_loopback() -> None:
    import asyncio
    import socket

    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:  # a free port for the server to take
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "mcbews_repl", "mcp", "--sim", "--http", "--http-port", str(port),
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        assert process.stderr is not None
        said = b""
        async with asyncio.timeout(SESSION_SECONDS):
            while b"streamable HTTP at" not in said:
                line = await process.stderr.readline()
                assert line, said.decode()
                said += line
        assert f"http://127.0.0.1:{port}/mcp".encode() in said
        async with (
            streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write),
            ClientSession(read, write, read_timeout_seconds=SESSION_SECONDS) as s,
        ):
            await s.initialize()
            assert len((await s.list_tools()).tools) == len(CATALOGUE)
            assert (await call(s, "players"))["total"] == 2
    finally:
        process.terminate()
        await process.wait()
