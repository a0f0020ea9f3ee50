"""The guard: every forbidden action refused with its rule's name and a key to change it,
nothing of it reaching the game; hostile arguments and policy files answered clearly."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.exceptions import PolicyError, Refused
from mcbews_repl.toolkit import POLICY_KEYS, RULES, Guard, Policy, Region, Tools
from mcbews_repl.toolkit.guard import (
    DEFAULT_COMMANDS,
    FORBIDDEN_COMMANDS,
    PLAYER_COMMANDS,
    AuditEntry,
    command_chain,
    tokens,
)

from .conftest import World

OPEN_ACTS = Policy().but(read_only=False)
# Each always refused, under the most open policy; with the rule that refuses it.
FORBIDDEN_LINES = {
    "op Steve": "forbidden",
    "deop Steve": "forbidden",
    "/op Steve": "forbidden",
    "//OP Steve": "forbidden",
    "  Op   Steve  ": "forbidden",
    "\uff4f\uff50 Steve": "forbidden",  # full-width letters
    "kill @a": "forbidden",
    "kill @e[type=cow]": "forbidden",
    "clear @a": "forbidden",
    "clear \uff20a": "forbidden",  # a full-width @
    "wsserver ws://evil:1": "forbidden",
    "connect ws://evil:1": "forbidden",
    "reload": "forbidden",
    "closewebsocket": "forbidden",
    "scriptevent mcbews:req x": "forbidden",
    "mcbews:ask hello": "forbidden",
    "execute as Steve run op Steve": "forbidden",
    "execute as @a at @s run deop Alex": "forbidden",
    "execute as run run op Steve": "forbidden",
    "execute if entity @a run execute as Steve run wsserver x": "forbidden",
    "say hi\nop Steve": "unreadable",
    "say hi\rop Steve": "unreadable",
    "say hi\u2028op Steve": "unreadable",
    "execute @a ~ ~ ~ op Steve": "unreadable",
    "\u043ep Steve": "unreadable",  # a Cyrillic o
    "": "unreadable",
    "execute as Steve run": "unreadable",
}


def refusal(guard: Guard, line: str) -> Refused:
    with pytest.raises(Refused) as caught:
        guard.check_command(line)
    return caught.value


@pytest.mark.parametrize("line", sorted(FORBIDDEN_LINES))
def test_forbidden_lines_are_refused_under_any_policy(line: str) -> None:
    for policy in (Policy(), OPEN_ACTS, Policy.open()):
        refused = refusal(Guard(policy), line)
        assert refused.rule == FORBIDDEN_LINES[line], (line, policy.source)
        assert refused.how_to and refused.why
        assert "no policy key" in refused.how_to


def test_every_forbidden_command_and_alias_is_refused() -> None:
    guard = Guard(Policy.open())
    for name in sorted(FORBIDDEN_COMMANDS | {"connect", "whitelist"}):
        assert refusal(guard, f"{name} x").rule == "forbidden", name
        assert refusal(guard, f"execute as Steve run {name.upper()} x").rule == "forbidden"


def test_the_defaults_are_read_only_but_reads_pass() -> None:
    guard = Guard()
    for line in ("list", "testfor @a", "time query daytime", "scoreboard players list Steve",
                 "tag Steve list", "querytarget @e[c=1]"):  # fmt: skip
        assert guard.check_command(line) == 0, line
    refused = refusal(guard, "say hello")
    assert refused.rule == "read_only"
    assert "read_only" in refused.how_to and "the defaults" in refused.how_to
    with pytest.raises(Refused) as caught:
        guard.check_tool("score_set", "act", {"holder": "Steve"})
    assert caught.value.rule == "read_only"


def test_refusals_name_the_rule_and_its_key() -> None:
    guard = Guard(
        OPEN_ACTS.but(protected_players=("Ms_Lee",), protected_regions=(
            Region("spawn", (-5, 0, -5), (5, 100, 5)),), max_blocks_per_call=100),
        host=lambda: ["Teacher"],
    )  # fmt: skip
    cases = {
        "gamerule doDaylightCycle false": ("command_allowlist", "commands.allow"),
        "execute as Steve run say hi": ("command_allowlist", "commands.allow"),
        "tp @a 0 64 0": ("named_players", "named_players_only"),
        "give @r diamond": ("named_players", "named_players_only"),
        "scoreboard players reset * kills": ("named_players", "named_players_only"),
        "execute as @a at @s run summon tnt ~ ~ ~": ("command_allowlist", "commands.allow"),
        "give Ms_Lee diamond": ("protected_players", "protected_players"),
        "give ms_lee diamond": ("protected_players", "protected_players"),
        "tp Teacher 0 0 0": ("protected_players", "protect_host"),
        "fill 0 0 0 1 1 1 stone": ("protected_regions", "protected_regions"),
        "setblock ~ ~ ~ stone": ("protected_regions", "protected_regions"),
        "clone 10 0 10 11 1 11 4 4 4": ("protected_regions", "protected_regions"),
        "clone 0 0 0 1 1 1 40 0 40 replace move": ("protected_regions", "protected_regions"),
        "fill 10 0 10 20 20 20 stone": ("blocks_per_call", "blocks.max_per_call"),
        "fill 10 0 10 12 ^ 12 stone": ("unreadable", "no policy key"),
    }
    for line, (rule, key) in cases.items():
        refused = refusal(guard, line)
        assert (refused.rule, key in refused.how_to) == (rule, True), (line, refused)
    assert {r.name for r in RULES} >= {rule for rule, _ in cases.values()} | {"forbidden"}
    assert guard.check_command("give Steve apple 3") == 0
    assert guard.check_command("fill 10 0 10 12 2 12 glass") == 27
    assert guard.check_command("clone 10 0 10 11 1 11 40 0 40 replace move") == 16


def test_an_execute_over_selected_players_needs_named_players() -> None:
    guard = Guard(OPEN_ACTS.but(commands_allow=("execute", "summon", "say", "list")))
    refused = refusal(guard, "execute as @a at @s run summon tnt ~ ~ ~")
    assert refused.rule == "named_players"
    assert guard.check_command("execute as Alex at Alex run summon cow ~ ~ ~") == 0
    # A condition's selector runs nothing per target, but the guard does not tell the two
    # apart: any selector in an execute that runs a command needs named_players_only off.
    assert refusal(guard, "execute if entity @e[type=cow] run list").rule == "named_players"
    assert (
        Guard(OPEN_ACTS.but(commands_allow=("*",), named_players_only=False)).check_command(
            "execute if entity @e[type=cow] run list"
        )
        == 0
    )


def test_named_off_still_protects_inside_selectors() -> None:
    guard = Guard(OPEN_ACTS.but(named_players_only=False, protected_players=("Ana",)),
                  host=lambda: ["Teacher"])  # fmt: skip
    assert refusal(guard, "tp @a[tag=red] 0 64 0").rule == "protected_players"  # the host too
    assert guard.check_command("tp @a[tag=red,name=!Teacher] 0 64 0") == 0
    assert refusal(guard, "tp @a[name=Ana] 0 0 0").rule == "protected_players"
    assert refusal(guard, "tp @s 0 0 0").rule == "protected_players"
    assert refusal(guard, "kill @e[type=cow]").rule == "forbidden"


def test_blocks_per_minute_counts_what_was_written() -> None:
    now = [0.0]
    guard = Guard(OPEN_ACTS.but(max_blocks_per_minute=100), clock=lambda: now[0])
    guard.check_blocks(60, [((0, 0, 0), (59, 0, 0))])
    with pytest.raises(Refused) as caught:
        guard.check_blocks(60)
    assert caught.value.rule == "blocks_per_minute"
    assert "blocks.max_per_minute" in caught.value.how_to
    now[0] = 61.0  # a minute later the first 60 no longer count
    guard.check_blocks(60)


# --- the host: a command with no target acts on whoever runs it --------------------------

HOSTED = OPEN_ACTS.but(commands_allow=("*",))  # protect_host and named_players_only on
# Each acts on the runner (the host): refused while protect_host is on.
AT_THE_HOST = [
    "tp 0 -100 0", "tp ~ ~300 ~", "teleport 5 5 5 facing 0 0 0", "tp Alex", "tp Alex true",
    "kill", "clear", "clear  ", "gamemode 1", "xp -100L", "spawnpoint", "clearspawnpoint",
    "playsound random.explode", "execute run kill", "execute positioned 0 0 0 run kill",
    "summon tnt ~ ~ ~", "summon lightning_bolt", "summon tnt", "summon creeper Bob",
    "summon tnt ^ ^ ^1", "setblock ~ ~-1 ~ air", "fill ~-1 ~-3 ~-1 ~1 ~-1 ~1 lava",
    "clone 0 0 0 1 1 1 ~ ~ ~", "tp @p 0 -100 0", "kill @p", "tp @a 0 -100 0",
    "effect @r wither 30", "tp @a[tag=red] 0 64 0", "give @e[type=!cow] apple",
]  # fmt: skip


@pytest.mark.parametrize("line", AT_THE_HOST)
def test_a_command_that_reaches_the_host_is_refused_by_protect_host(line: str) -> None:
    for named in (True, False):
        guard = Guard(HOSTED.but(named_players_only=named), host=lambda: ["Steve"])
        refused = refusal(guard, line)
        if named and refused.rule == "named_players":
            continue  # the stricter rule came first: fine
        assert refused.rule == "protected_players", (line, named, refused)
        assert "protect_host" in refused.how_to and "protected_players" not in refused.how_to
        assert "(policy: the defaults)" in refused.how_to


def test_a_command_with_no_target_needs_a_named_player() -> None:
    guard = Guard(HOSTED.but(protect_host=False), host=lambda: ["Steve"])
    for line in ("kill", "clear", "gamemode 1", "tp 0 64 0", "tp Alex"):
        refused = refusal(guard, line)
        assert refused.rule == "named_players" and "name" in refused.why, line
    open_guard = Guard(HOSTED.but(protect_host=False, named_players_only=False))
    for line in ("kill", "gamemode 1", "tp 0 64 0", "summon tnt ~ ~ ~", "setblock ~ ~-1 ~ air"):
        assert open_guard.check_command(line) >= 0, line  # the teacher opted out of both


def test_named_targets_and_host_free_selectors_still_pass() -> None:
    guard = Guard(HOSTED.but(named_players_only=False), host=lambda: ["Steve"])
    for line in ("tp Alex 0 64 0", "tp Alex Bob", "kill Alex", "gamemode 1 Alex",
                 "xp 5 Alex", "summon cow 10 64 10", "summon cow Daisy 10 64 10",
                 "setblock 3 64 3 stone", "tp @a[name=!Steve] 0 64 0",
                 "tp @e[type=cow] 0 64 0", "effect @a[name=Alex] speed",
                 "execute at Alex run summon cow ~ ~1 ~"):  # fmt: skip
        assert guard.check_command(line) >= 0, line
    assert refusal(guard, "tp @a[name=!Alex] 0 64 0").rule == "protected_players"


@given(
    st.sampled_from(sorted(PLAYER_COMMANDS)),
    st.sampled_from(["@a", "@e", "@r", "@p", "@s", "@initiator", "*"]),
    st.sampled_from(["", "[tag=red]", "[c=1]", "[r=5]", "[type=player]", "[type=!cow]",
                     "[name=!Alex]", "[scores={x=1..}]"]),
    st.sampled_from(["{cmd} {sel}", "{cmd} {sel} x", "execute as {sel} run say hi",
                     "execute at {sel} run {cmd} Alex"]),
)  # fmt: skip
def test_a_selector_that_may_pick_the_host_is_refused_while_it_is_protected(
    command: str, selector: str, params: str, form: str
) -> None:
    line = form.format(cmd=command, sel=selector + (params if selector != "*" else ""))
    guard = Guard(HOSTED.but(named_players_only=False), host=lambda: ["Steve"])
    with pytest.raises(Refused) as caught:
        guard.check_command(line)
    assert caught.value.rule in ("protected_players", "forbidden"), (line, caught.value)
    if caught.value.rule == "protected_players":
        assert "protect_host" in caught.value.how_to, line


def test_summon_is_checked_against_the_protected_regions() -> None:
    spawn = Region("spawn", (-5, 0, -5), (5, 100, 5))
    guard = Guard(HOSTED.but(protect_host=False, protected_regions=(spawn,)))
    for line in ("summon tnt 0 64 0", "summon tnt Boom 1 2 3", "summon tnt ~ ~ ~", "summon tnt",
                 "execute positioned 0 64 0 run summon tnt ~ ~ ~"):  # fmt: skip
        refused = refusal(guard, line)
        assert refused.rule == "protected_regions" and "protected_regions" in refused.how_to
    assert guard.check_command("summon tnt 50 64 50") == 0
    assert refusal(guard, "summon tnt 1 2").rule == "unreadable"


# Always refused: everyone killed or cleared under another selector.
EVERYONE = ["kill @r[c=100]", "clear @r[c=100]", "kill @p[c=100]", "kill @p[c=-5]",
            "kill @r[c=2]", "execute as @a run kill @s", "execute at @e run kill @p",
            "execute as @r[c=9] run clear @s", "kill *"]  # fmt: skip


@pytest.mark.parametrize("line", EVERYONE)
def test_kill_or_clear_of_many_is_forbidden_under_any_policy(line: str) -> None:
    for policy in (Policy(), HOSTED, Policy.open()):
        assert refusal(Guard(policy), line).rule == "forbidden", (line, policy.source)
    assert Guard(Policy.open()).check_command("kill @r[c=1]") == 0


@given(
    st.sampled_from(["kill", "clear"]),
    st.sampled_from(["@a", "@e", "@r", "@p", "@s", "@initiator"]),
    st.integers(-1000, 1000),
    st.sampled_from(["", "execute as Ana run ", "execute as {sel} run ", "execute at {sel} run "]),
)
def test_kill_or_clear_is_forbidden_whenever_it_may_reach_more_than_one(
    name: str, sel: str, count: int, around: str
) -> None:
    selector = f"{sel}[c={count}]"
    line = around.format(sel=selector) + f"{name} {selector}"
    many = sel in ("@a", "@e") or (sel in ("@r", "@p") and abs(count) != 1)
    guard = Guard(Policy.open())
    if many:
        assert refusal(guard, line).rule == "forbidden", line
    else:
        assert guard.check_command(line) == 0, line


def test_parallel_commands_cannot_pass_the_minute_cap_together() -> None:
    guard = Guard(HOSTED.but(protect_host=False, max_blocks_per_minute=1000))
    fill = "fill 0 0 0 19 0 19 stone"  # 400 blocks
    assert guard.check_command(fill) == 400  # judged and reserved: the call is under way
    assert guard.check_command(fill) == 400
    assert refusal(guard, fill).rule == "blocks_per_minute"
    guard.release(400)  # one failed: its blocks were never written
    assert guard.check_command(fill) == 400


async def test_a_failed_command_gives_its_blocks_back(world: World) -> None:
    guard = Guard(HOSTED.but(protect_host=False, max_blocks_per_minute=1000))
    tools = Tools(world.mc, guard=guard)
    results = await asyncio.gather(
        *(tools.call("command", command=f"fill {k * 30} 100 0 {k * 30 + 19} 100 19 glass")
          for k in range(5))
    )  # fmt: skip
    assert [r.get("refused_by") for r in results].count("blocks_per_minute") == 3, results
    assert sum(r["ok"] for r in results) == 2
    failed = await tools.call("command", command="fill 0 500 0 9 500 9 glass")  # above the world
    assert failed["ok"] is False and failed.get("refused_by") is None, failed
    assert guard.check_command("fill 0 0 0 9 0 19 stone") == 200  # the failed 100 came back
    assert refusal(guard, "setblock 0 0 0 stone").rule == "blocks_per_minute"


def test_a_typo_in_the_tool_lists_is_refused_with_the_nearest_name() -> None:
    for key in ("deny", "allow"):
        with pytest.raises(PolicyError) as caught:
            Policy.from_mapping({"tools": {key: ["objective_remov", "command"]}}, source="t.toml")
        said = str(caught.value)
        assert f"tools.{key}" in said and "'objective_remov'" in said, said
        assert "did you mean 'objective_remove'" in said, said
        with pytest.raises(PolicyError, match="did you mean 'command'"):
            Policy.from_mapping({"tools": {key: ["Command"]}})
    assert Policy.from_mapping({"tools": {"deny": ["command"]}}).tools_deny == ("command",)


def test_every_argument_that_names_a_player_is_checked() -> None:
    guard = Guard(OPEN_ACTS, host=lambda: ["Steve"])
    swap = {"holder": "Alex", "objective": "kills", "operator": "><",
            "source_holder": "Steve", "source_objective": "kills"}  # fmt: skip
    with pytest.raises(Refused) as caught:
        guard.check_tool("score_operation", "act", swap)
    assert caught.value.rule == "protected_players" and "protect_host" in caught.value.how_to
    assert guard.check_tool("score_operation", "act", {**swap, "source_holder": "Bob"}) == 0


def test_refusals_name_the_key_that_governs_them_and_the_file() -> None:
    policy = HOSTED.but(named_players_only=False, protected_players=("Ms_Lee",),
                        source="class.toml")  # fmt: skip
    guard = Guard(policy, host=lambda: ["Steve"])
    at_self = refusal(guard, "tp @s 0 0 0")
    assert at_self.rule == "protected_players"
    assert "protect_host" in at_self.how_to and "protected_players" not in at_self.how_to
    for line, key in (("give Ms_Lee apple", "protected_players"), ("give Steve apple",
                      "protect_host"), ("tp @s 0 0 0", "protect_host")):  # fmt: skip
        refused = refusal(guard, line)
        assert refused.how_to == (
            f"a teacher can change this with {key} in the policy file (policy: class.toml)"
        ), (line, refused.how_to)
    with pytest.raises(Refused) as caught:
        guard.check_tool("tags", "act", {"player": "Ms_Lee"})
    assert "(policy: class.toml)" in caught.value.how_to


async def test_a_line_separator_in_a_name_is_refused_as_that_argument(world: World) -> None:
    tools = Tools(world.mc, guard=Guard(OPEN_ACTS))
    for name, args, argument in (
        ("tags", {"player": "Steve\u2028op Alex"}, "player"),
        ("inventory", {"player": "Steve\u2029x"}, "player"),
        ("score_set", {"holder": "Al\u0085ex", "objective": "kills", "value": 1}, "holder"),
        ("score_set", {"holder": "Al\u202eex", "objective": "kills", "value": 1}, "holder"),
    ):
        result = await tools.call(name, **args)
        assert result["ok"] is False and result.get("refused_by") is None, result
        assert argument in result["why"] and "control character" in result["why"], result


def test_command_chain_and_tokens() -> None:
    assert tokens('tell "Ana B" hi [x y] {"a": 1}') == ["tell", '"Ana B"', "hi", "[x y]",
                                                      '{"a": 1}']  # fmt: skip
    assert command_chain("execute as Ana run teleport Ana 1 2 3") == [
        ["execute", "as", "Ana", "run", "teleport", "Ana", "1", "2", "3"],
        ["tp", "Ana", "1", "2", "3"],
    ]


def test_a_policy_file_reads_every_key(tmp_path: Path) -> None:
    path = tmp_path / "class.toml"
    path.write_text(
        'read_only = false\nprotected_players = ["Ms_Lee"]\n'
        '[commands]\nallow = ["say", "give", "Teleport"]\n'
        '[tools]\ndeny = ["objective_remove"]\n'
        "[blocks]\nmax_per_call = 64\n"
        '[[protected_regions]]\nname = "spawn"\nfrom = [10, 0, 10]\nto = [-10, 80, -10]\n',
        encoding="utf-8",
    )
    policy = Policy.from_toml(path)
    assert policy.read_only is False and policy.commands_allow == ("say", "give", "tp")
    assert policy.protected_regions == (Region("spawn", (-10, 0, -10), (10, 80, 10)),)
    assert policy.max_blocks_per_call == 64 and policy.tools_deny == ("objective_remove",)
    assert policy.source == str(path)
    assert Policy.from_mapping({}) == Policy(source="a mapping")
    assert Policy().commands_allow == DEFAULT_COMMANDS


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("read_ony = false", "read_ony"),
        ("read_only = 1", "read_only"),
        ("[commands]\nallow = 'say'", "commands.allow"),
        ("[commands]\nallow = [1]", "commands.allow"),
        ("[blocks]\nmax_per_call = -1", "blocks.max_per_call"),
        ("[blocks]\nmax_per_call = 1e9", "blocks.max_per_call"),
        ("[[protected_regions]]\nfrom = [1, 2]\nto = [1, 2, 3]", "protected_regions[0].from"),
        ("[[protected_regions]]\nfrom = [1,2,3]\nto = [1,2,3]\nsize = 4", "protected_regions[0]"),
        ("[tools]\nallow = ['players']\nextra = 1", "tools.extra"),
        ("not toml [", "is not TOML"),
    ],
)
def test_a_bad_policy_file_names_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PolicyError) as caught:
        Policy.from_toml(path)
    assert named in str(caught.value) and str(path) in str(caught.value)


def test_the_default_policy_file_reads_back_as_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "class.toml"
    path.write_text(Policy.default_toml(), encoding="utf-8")
    assert Policy.from_toml(path) == Policy(source=str(path))
    for key, _, what in POLICY_KEYS:
        assert what in Policy.default_toml(), key


def test_the_documented_keys_are_the_keys_the_reader_accepts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcbews_repl.toolkit import guard as guard_module

    read: list[set[str]] = []
    check = guard_module._Reader.check_all_read

    def noting(reader: Any) -> None:
        read.append(set(reader.read))
        check(reader)

    monkeypatch.setattr(guard_module._Reader, "check_all_read", noting)
    Policy.from_mapping({})
    documented = {key.strip("[]") for key, _, _ in POLICY_KEYS}
    assert documented == read[0]
    # Each key written with its documented default reads back as the defaults.
    for key, default, _ in POLICY_KEYS:
        if default.startswith("(") or key.startswith("[["):
            continue
        table, _, name = key.rpartition(".")
        text = (f"[{table}]\n" if table else "") + f"{name} = {default}\n"
        assert Policy.from_mapping(tomllib.loads(text)) == Policy(source="a mapping"), key


def test_a_missing_policy_file_says_so(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="cannot read the policy"):
        Policy.from_toml(tmp_path / "none.toml")


# --- through the tools, against the simulated world ---------------------------------------


def received(world: World) -> list[str]:
    assert world.sim.client is not None
    return [line for _, line in world.sim.client.received]


async def test_refused_tool_calls_send_nothing_and_are_audited(world: World) -> None:
    seen: list[AuditEntry] = []
    guard = Guard(on_action=seen.append, host=lambda: ["Steve"])
    tools = Tools(world.mc, guard=guard, world="Steve")
    await tools.call("players")  # the connection settles before counting what is sent
    before = len(received(world))
    calls: list[tuple[str, dict[str, Any], str]] = [
        ("command", {"command": "op Alex"}, "forbidden"),
        ("command", {"command": "kill @a"}, "forbidden"),
        ("command", {"command": "execute as @a run clear @a"}, "forbidden"),
        ("command", {"command": "say hi"}, "read_only"),
        ("score_set", {"holder": "Alex", "objective": "kills", "value": 1}, "read_only"),
        ("objective_remove", {"objective": "kills"}, "read_only"),
    ]
    for name, args, rule in calls:
        result = await tools.call(name, **args)
        assert result["ok"] is False and result["refused_by"] == rule, result
        assert result["describe"].startswith(f"refused by {rule}")
    await asyncio.sleep(0.05)
    assert received(world)[before:] == []
    assert [e.verdict for e in seen[1:]] == ["refused"] * len(calls)
    assert [e.refused_by for e in seen[1:]] == [rule for _, _, rule in calls]
    assert seen[0].verdict == "allowed" and seen[0].world == "Steve"


async def test_allowed_actions_reach_the_game_and_the_host_is_protected(world: World) -> None:
    guard = Guard(OPEN_ACTS, host=lambda: ["Steve"])
    tools = Tools(world.mc, guard=guard)
    given = await tools.call("command", command="give Alex apple 2")
    assert given["ok"] is True, given
    assert "give Alex apple 2" in received(world)
    steve = await tools.call("score_set", holder="Steve", objective="kills", value=3)
    assert steve["refused_by"] == "protected_players" and "protect_host" in steve["how_to"]
    assert (await tools.call("score_set", holder="Alex", objective="kills", value=3))["ok"]


async def test_capabilities_outside_the_allowlist_are_refused(world: World) -> None:
    policy = Policy(capabilities_allow=("list_capabilities",))
    tools = Tools(world.mc, guard=Guard(policy))
    result = await tools.call("players")
    assert result["refused_by"] == "capability_allowlist"
    assert "capabilities.allow" in result["how_to"]
    assert (await tools.call("capabilities"))["ok"] is True


async def test_hostile_arguments_get_clear_errors(world: World) -> None:
    seen: list[AuditEntry] = []
    tools = Tools(world.mc, guard=Guard(OPEN_ACTS, on_action=seen.append))
    hostile: list[tuple[str, dict[str, Any], str]] = [
        ("region", {"x": 0, "y": 0, "z": 0, "dx": 10**9, "dy": 1, "dz": 1, "block": "stone"},
         "dx"),
        ("region", {"x": 0, "y": 0, "z": 0, "dx": 16, "dy": 16, "dz": 16, "block": "stone"},
         "positions"),
        ("inventory", {"player": "Steve\nop Alex"}, "control character"),
        ("score_set", {"holder": "@a", "objective": "kills", "value": 1}, "holder"),
        ("score_set", {"holder": 'Alex" @a', "objective": "kills", "value": 1}, "holder"),
        ("send_text", {"player": ["Steve"], "text": "hi"}, "string"),
        ("block", {"x": "0", "y": 64, "z": 0, "block": "stone"}, "integer"),
        ("block", {"x": 0, "y": 64, "z": 0, "block": "stone", "extra": 1}, "extra"),
        ("command", {"command": "say " + "x" * 600}, "longer than"),
        ("command", {"command": 7}, "string"),
        ("no_such_tool", {}, "no tool"),
    ]  # fmt: skip
    before = len(received(world))
    for name, args, words in hostile:
        result = await tools.call(name, **args)
        assert result["ok"] is False, (name, result)
        assert words in result["why"] + result["how_to"], (name, result)
    assert received(world)[before:] == []
    assert {e.verdict for e in seen} == {"invalid", "allowed"}


def test_the_agents_page_shows_the_rules_and_keys_of_the_code() -> None:
    from mcbews_repl.toolkit.guard import reference_markdown

    page = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text("utf-8")
    begin = "<!-- generated: guard rules (mcbews_repl.toolkit.guard.reference_markdown) -->\n"
    shown = page.split(begin, 1)[1].split("<!-- end generated -->", 1)[0]
    assert shown == reference_markdown()


# --- properties: however a forbidden command is dressed, it is refused -------------------

_NAMES = sorted(FORBIDDEN_COMMANDS | {"connect", "whitelist"})
_FULLWIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}


@st.composite
def dressed(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(_NAMES))
    name = "".join(c.upper() if draw(st.booleans()) else c for c in name)
    if draw(st.booleans()):
        name = "".join(_FULLWIDTH.get(c, c) for c in name)
    line = "/" * draw(st.integers(0, 3)) + name + draw(st.sampled_from(["", " Alex", " @a x"]))
    for _ in range(draw(st.integers(0, 3))):
        target = draw(st.sampled_from(["@a", "Alex", "run", "@s[tag=x]"]))
        line = f"execute as {target} run " + "/" * draw(st.integers(0, 1)) + line
    return " " * draw(st.integers(0, 2)) + line


@given(dressed())
def test_a_forbidden_command_is_refused_however_it_is_written(line: str) -> None:
    with pytest.raises(Refused) as caught:
        Guard(Policy.open()).check_command(line)
    assert caught.value.rule in ("forbidden", "unreadable"), line


@given(st.text(max_size=80))
def test_any_line_is_judged_without_crashing(line: str) -> None:
    guard = Guard(Policy.open())
    try:
        guard.check_command(line)
    except Refused as refused:
        assert refused.rule in {r.name for r in RULES} and refused.how_to
    else:
        assert not any(w[0] in FORBIDDEN_COMMANDS for w in command_chain(line))


# --- the building tools: the same caps, regions and read-only rule -------------------------


async def test_building_tools_are_refused_by_name_while_read_only(world: World) -> None:
    tools = Tools(world.mc, guard=Guard(Policy(), host=lambda: ["Steve"]))
    await tools.call("players")
    before = len(received(world))
    for name, args in (
        ("fill", {"x1": 0, "y1": 100, "z1": 0, "x2": 1, "y2": 100, "z2": 1, "block": "glass"}),
        ("shape", {"shape": "sphere", "x": 0, "y": 100, "z": 0, "radius": 2, "block": "glass"}),
        ("set_blocks", {"x": 0, "y": 100, "z": 0, "dx": 1, "dy": 1, "dz": 1, "palette": "glass",
                        "runs": "0"}),
        ("undo", {}),
    ):  # fmt: skip
        result = await tools.call(name, **args)
        assert result["refused_by"] == "read_only", result
        assert f"{name} changes the world" in result["why"]
    await asyncio.sleep(0.05)
    assert received(world)[before:] == []


async def test_building_tools_keep_to_the_block_caps_and_protected_regions(world: World) -> None:
    now = [0.0]
    spawn_region = Region("spawn", (-5, 0, -5), (5, 200, 5))
    policy = OPEN_ACTS.but(max_blocks_per_call=100, max_blocks_per_minute=150,
                           protected_regions=(spawn_region,))  # fmt: skip
    tools = Tools(world.mc, guard=Guard(policy, clock=lambda: now[0]))
    big = await tools.call("fill", x1=20, y1=100, z1=20, x2=24, y2=104, z2=24, block="glass")
    assert big["refused_by"] == "blocks_per_call" and "125 blocks in one call" in big["why"]
    spawn = await tools.call("shape", shape="line", x=-10, y=100, z=0, x2=10, y2=100, z2=0,
                             block="glass")  # fmt: skip
    assert spawn["refused_by"] == "protected_regions" and "'spawn'" in spawn["why"]
    assert world.sim.world.block("overworld", 0, 100, 0) == "minecraft:air"
    first = await tools.call("fill", x1=20, y1=100, z1=20, x2=23, y2=103, z2=23, block="glass")
    assert first["ok"] and first["written"] == 64, first
    second = await tools.call("fill", x1=30, y1=100, z1=20, x2=33, y2=103, z2=23, block="glass")
    assert second["ok"] and second["written"] == 64
    third = await tools.call("set_blocks", x=40, y=100, z=20, dx=4, dy=2, dz=4,
                             palette="stone,<keep>", runs="0*24,1*8")  # fmt: skip
    assert third["refused_by"] == "blocks_per_minute", third  # 128 + 24 would pass 150
    undone = await tools.call("undo")  # 64 blocks back: over the minute's cap too
    assert undone["refused_by"] == "blocks_per_minute"
    now[0] += 61
    undone = await tools.call("undo")
    assert undone["ok"] and undone["written"] == 64, undone
    assert undone["undid"] == "fill 4x4x4 at (30, 100, 20) in overworld"
    assert world.sim.world.block("overworld", 30, 100, 20) == "minecraft:air"
    assert world.sim.world.block("overworld", 20, 100, 20) == "minecraft:glass"
