"""The guard: a policy a teacher can read and change, checked before any tool reaches a game.

A :class:`Policy` comes from a TOML file (:meth:`Policy.from_toml`) or its defaults, which
are strict: read-only, an allow-list of commands and of the addon's capabilities, named
players only in commands that affect players, caps on blocks written per call and per
minute, the host player protected. Some commands are refused whatever the policy says
(:data:`FORBIDDEN_COMMANDS`: ``op``, ``deop``, ``wsserver``, ``connect``, ``reload`` ...,
and ``kill``/``clear`` of everyone). A :class:`Guard` applies a policy: each refusal is a
:class:`~mcbews_repl.exceptions.Refused` naming its rule (:data:`RULES`) and the TOML key
that changes it, and every action, allowed or refused, is an :class:`AuditEntry` (kept in
memory, bounded, and passed to an ``on_action`` sink such as the capture's audit log).

A command line is read the way the game reads it before it is judged: leading slashes and
edge spaces dropped, Unicode compatibility forms folded (a full-width ``op`` is ``op``),
the name in lower case, aliases resolved (``connect`` is ``wsserver``), and every command an
``execute ... run`` wraps judged as well. Control characters (a second line), a command
name that is not plain ASCII and the old ``execute <target> x y z`` form are refused as
unreadable: what the guard cannot read, it does not let through.
"""

from __future__ import annotations

import difflib
import math
import re
import time
import tomllib
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Final

from ..exceptions import PolicyError, Refused
from ..gateway import Bridge, CommandResult, GameConnection, LogEntry, Progress
from ..vocabulary import Capability

__all__ = [
    "AUDIT_KEPT",
    "DEFAULT_CAPABILITIES",
    "DEFAULT_COMMANDS",
    "FORBIDDEN_COMMANDS",
    "MASS_SELECTORS",
    "OPTIONAL_TARGET",
    "PLAYER_COMMANDS",
    "POLICY_KEYS",
    "READ_COMMANDS",
    "RULES",
    "AuditEntry",
    "Guard",
    "GuardedBridge",
    "Policy",
    "Region",
    "Rule",
    "block_boxes",
    "box_volume",
    "command_chain",
    "normalize_command",
    "reference_markdown",
    "summon_spot",
    "tokens",
]

AUDIT_KEPT: Final = 1000  # audit entries a guard keeps in memory (the file keeps them all)
MINUTE_SECONDS: Final = 60.0  # the window of blocks.max_per_minute
BLOCKS_PER_CALL_DEFAULT: Final = 4096  # one 16x16x16 section, what one get_blocks read covers
BLOCKS_PER_MINUTE_DEFAULT: Final = 32768  # eight such sections a minute: a lesson's build
BLOCKS_CAP_MAX: Final = 1 << 24  # a cap past this is a typo, not a lesson (16 M blocks)
TEXT_MAX: Final = 128  # longest name or region label a policy file may hold, in characters
# How long the line of a refused command may be in its audit entry and its message.
SHOWN_CHARS: Final = 120

# Always refused, whatever the policy: they hand out operator rights, move or end the
# bridge's own connection, restart scripts, change who may join, or talk to the addon's
# internals (scriptevent and the custom commands carry the bridge's protocol).
FORBIDDEN_COMMANDS: Final = frozenset(
    {"op", "deop", "wsserver", "closewebsocket", "reload", "stop", "kick", "ban", "ban-ip",
     "pardon", "pardon-ip", "allowlist", "permission", "ops", "setmaxplayers", "transfer",
     "changesetting", "save", "scriptevent", "script", "function", "structure", "tickingarea"}
)  # fmt: skip
# Other names the game accepts for a command: judged as the command itself.
ALIASES: Final = {
    "connect": "wsserver", "whitelist": "allowlist", "teleport": "tp", "msg": "tell",
    "w": "tell", "?": "help", "daylock": "alwaysday", "experience": "xp",
}  # fmt: skip
ALIASES_OF_FORBIDDEN: Final = tuple(a for a, c in ALIASES.items() if c in FORBIDDEN_COMMANDS)
# Selectors that name no one in particular; with kill and clear they are always refused
# (so are @r and @p with a count other than 1, and * ; see _many).
MASS_SELECTORS: Final = ("@a", "@e")
# Commands that act on players (or on entities a selector may widen to players): their
# targets must be named players when named_players_only is on, and never protected ones.
PLAYER_COMMANDS: Final = frozenset(
    {"give", "clear", "kill", "tp", "effect", "gamemode", "enchant", "xp", "spawnpoint",
     "damage", "ride", "camera", "inputpermission", "ability", "tag", "scoreboard",
     "replaceitem", "clearspawnpoint", "title", "titleraw", "tellraw", "playsound",
     "dialogue", "hud", "fog", "music", "stopsound", "mobevent", "event", "spreadplayers",
     "camerashake", "loot"}
)  # fmt: skip
# Commands whose player target may be left out, and the word it goes in: left out, the
# command acts on whoever runs it (the host, @s). tp is read apart (_targets_runner).
OPTIONAL_TARGET: Final = {"kill": 1, "clear": 1, "gamemode": 2, "xp": 2, "spawnpoint": 1,
                          "clearspawnpoint": 1, "playsound": 2}  # fmt: skip
# Commands that only read: allowed in read-only mode (with the argument that keeps them
# reading, for the commands that can also write).
READ_COMMANDS: Final = frozenset({"list", "testfor", "testforblock", "querytarget", "help"})
_READ_FORMS: Final = (("time", 1, "query"), ("scoreboard", 2, "list"), ("tag", 2, "list"),
                      ("weather", 1, "query"))  # fmt: skip
# The commands a default policy allows (commands.allow): talk, look, the scoreboard, give,
# teleport and build; not execute (it runs other commands), not gamerule, not kill.
DEFAULT_COMMANDS: Final = (
    "list", "testfor", "testforblock", "querytarget", "help", "say", "tell", "me", "title",
    "time", "weather", "give", "tp", "effect", "playsound", "particle", "summon", "setblock",
    "fill", "clone", "tag", "scoreboard",
)  # fmt: skip
# The addon's capabilities a default policy allows (capabilities.allow): every one that
# only reads. run_world_command is left out: it would run a command past these checks.
DEFAULT_CAPABILITIES: Final = (
    Capability.LIST_CAPABILITIES.value, Capability.GET_PLAYER_SNAPSHOT.value,
    Capability.GET_INVENTORY_SNAPSHOT.value, Capability.DESCRIBE_ENTITIES.value,
    Capability.GET_BLOCKS.value, Capability.SET_BLOCKS.value, Capability.GET_WORLD_SPAWN.value,
)  # fmt: skip
# Commands that write blocks, and where their boxes are among the arguments.
# (first corner, second corner) word positions; clone's destination is its low corner.
_BLOCK_WRITERS: Final = {"setblock": (0, 0), "fill": (0, 3), "clone": (6, 6)}
_EXECUTE_SUBCOMMANDS: Final = frozenset(
    {"as", "at", "positioned", "align", "anchored", "facing", "rotated", "in", "if", "unless",
     "run", "summon", "on"}
)  # fmt: skip
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAME = re.compile(r"[a-z?][a-z0-9_\-?:.]*")
_SELECTOR_NAME = re.compile(r'name=(!?(?:"[^"]*"|[^,\]]+))')  # "!Ana" excludes Ana
# Act-tool arguments that name who is affected (score_operation's >< changes its source too).
_PLAYER_PARAMS: Final = ("player", "holder", "source_holder")


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the guard: its name (in every refusal), the TOML key that changes it
    (empty: no key does) and what it refuses."""

    name: str
    key: str
    refuses: str


RULES: Final = (
    Rule(
        "forbidden",
        "",
        ", ".join(sorted(FORBIDDEN_COMMANDS | set(ALIASES_OF_FORBIDDEN)))
        + ", any addon's command (namespace:name), and kill or clear of many: of @a, @e or *, "
        "of @r or @p with a count other than 1, or inside an execute that holds such a "
        "selector (execute as @a run kill @s): never sent, whatever the policy",
    ),
    Rule(
        "unreadable",
        "",
        "a command the guard cannot read as the game would: a control "
        "character or second line, a command name that is not plain ASCII, the old execute "
        "form (execute <target> x y z ...), a box given in local (^) coordinates",
    ),
    Rule(
        "read_only",
        "read_only",
        "every tool that acts, and every command that is not a "
        "read (list, testfor, testforblock, querytarget, time query, ... list)",
    ),
    Rule(
        "tool_allowlist",
        "tools.allow",
        "a tool not in tools.allow (all tools when unset) or in tools.deny",
    ),
    Rule(
        "command_allowlist",
        "commands.allow",
        "a command not in commands.allow, "
        "execute included (each command an execute runs is checked too)",
    ),
    Rule(
        "capability_allowlist",
        "capabilities.allow",
        "an addon capability not in "
        "capabilities.allow (run_world_command is not allowed by default)",
    ),
    Rule(
        "named_players",
        "named_players_only",
        "a selector (@a @e @r @p @s @initiator, *) in "
        "a command that affects players, or anywhere in an execute that runs a command; a "
        "command that affects players with no target (kill, gamemode 1, tp 0 64 0: it acts "
        "on whoever runs it)",
    ),
    Rule(
        "protected_players",
        "protected_players",
        "an action on a protected player; while protect_host is true also the host: a "
        "command with no target or @s, a selector that may pick the host (@a @e @r @p "
        "@initiator *, unless [name=!<host>] or a type other than player), a summon or a "
        "block write at relative (~ ^) or no positions",
    ),
    Rule(
        "protected_regions",
        "protected_regions",
        "blocks written, or an entity summoned, inside a protected region; "
        "or at relative (~ ^) or no positions while any region is protected",
    ),
    Rule("blocks_per_call", "blocks.max_per_call", "more blocks written by one call"),
    Rule("blocks_per_minute", "blocks.max_per_minute", "more blocks written in the last 60 s"),
)
_RULE = {rule.name: rule for rule in RULES}


@dataclass(frozen=True, slots=True)
class Region:
    """A protected box, both corners inclusive. It is protected in every dimension: a
    command runs in the host's dimension, which the guard does not know."""

    name: str
    low: tuple[int, int, int]
    high: tuple[int, int, int]

    def overlaps(self, low: Sequence[int], high: Sequence[int]) -> bool:
        """Whether the box ``low``..``high`` (inclusive) shares a block with this region."""
        return all(
            a <= d and c <= b for a, b, c, d in zip(self.low, self.high, low, high, strict=True)
        )


@dataclass(frozen=True, slots=True)
class Policy:
    """What the guard allows. The defaults are strict; :meth:`from_toml` reads a file, and
    docs/agents.md lists every key (generated from :data:`POLICY_KEYS`)."""

    read_only: bool = True
    tools_allow: tuple[str, ...] | None = None  # None: every tool of the catalogue
    tools_deny: tuple[str, ...] = ()
    commands_allow: tuple[str, ...] = DEFAULT_COMMANDS
    capabilities_allow: tuple[str, ...] = DEFAULT_CAPABILITIES
    named_players_only: bool = True
    protect_host: bool = True
    protected_players: tuple[str, ...] = ()
    protected_regions: tuple[Region, ...] = ()
    max_blocks_per_call: int = BLOCKS_PER_CALL_DEFAULT
    max_blocks_per_minute: int = BLOCKS_PER_MINUTE_DEFAULT
    source: str = "the defaults"  # where it came from, for messages

    @classmethod
    def from_toml(cls, path: str | Path) -> Policy:
        """The policy in a TOML file (keys as docs/agents.md lists; a missing key keeps its
        default).

        Raises:
            PolicyError: the file cannot be read, is not TOML, or a key is unknown or has a
                value of the wrong kind (the message names the key).
        """
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except OSError as exc:
            raise PolicyError(f"cannot read the policy {path}: {exc.strerror or exc}") from exc
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise PolicyError(f"the policy {path} is not TOML: {exc}") from exc
        return cls.from_mapping(data, source=str(path))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "a mapping") -> Policy:
        """The policy a parsed TOML document (a dict) describes.

        Raises:
            PolicyError: a key is unknown or has a value of the wrong kind.
        """
        reader = _Reader(data, source)
        policy = cls(
            read_only=reader.boolean("read_only", True),
            tools_allow=reader.names("tools.allow", None, known=_tool_names()),
            tools_deny=reader.names("tools.deny", (), known=_tool_names()) or (),
            commands_allow=tuple(
                _canonical(n) for n in reader.names("commands.allow", DEFAULT_COMMANDS) or ()
            ),
            capabilities_allow=reader.names("capabilities.allow", DEFAULT_CAPABILITIES) or (),
            named_players_only=reader.boolean("named_players_only", True),
            protect_host=reader.boolean("protect_host", True),
            protected_players=reader.names("protected_players", ()) or (),
            protected_regions=reader.regions("protected_regions"),
            max_blocks_per_call=reader.cap("blocks.max_per_call", BLOCKS_PER_CALL_DEFAULT),
            max_blocks_per_minute=reader.cap("blocks.max_per_minute", BLOCKS_PER_MINUTE_DEFAULT),
            source=source,
        )
        reader.check_all_read()
        return policy

    @classmethod
    def open(cls) -> Policy:
        """A policy that allows every tool, command and capability (the forbidden commands
        and unreadable lines stay refused): for a script whose author is the operator."""
        return cls(
            read_only=False, commands_allow=("*",), capabilities_allow=("*",),
            named_players_only=False, protect_host=False,
            max_blocks_per_call=BLOCKS_CAP_MAX, max_blocks_per_minute=BLOCKS_CAP_MAX,
            source="Policy.open()",
        )  # fmt: skip

    @staticmethod
    def default_toml() -> str:
        """The default policy as a TOML file a teacher edits: every key with its default
        and what it does (``mcbews-repl mcp --init-policy FILE`` writes it)."""
        lines = [
            "# The guard's policy for mcbews-repl mcp and mc.tools (docs/agents.md).",
            "# Every key is shown with its default; delete a key to keep its default.",
            "",
        ]
        table = None
        for key, default, what in POLICY_KEYS:
            if key.startswith("[["):
                lines += ["", f"# {what}", "# [[protected_regions]]", '# name = "spawn"',
                          "# from = [-20, -64, -20]", "# to = [20, 320, 20]"]  # fmt: skip
                continue
            parent, _, name = key.rpartition(".")
            if parent and parent != table:
                lines += ["", f"[{parent}]"]
                table = parent
            lines.append(f"# {what}")
            value = default if not default.startswith("(") else None
            left_out = f'# {name} = ["players", "inventory"]  (left out: {default[1:-1]})'
            lines.append(f"{name} = {value}" if value is not None else left_out)
        return "\n".join(lines) + "\n"

    def but(self, **changes: Any) -> Policy:
        """A copy with some fields changed (``policy.but(read_only=False)``)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The policy as its TOML document would hold it (for a resource an agent reads)."""
        return {
            "source": self.source,
            "read_only": self.read_only,
            "named_players_only": self.named_players_only,
            "protect_host": self.protect_host,
            "protected_players": list(self.protected_players),
            "tools": {"allow": None if self.tools_allow is None else list(self.tools_allow),
                      "deny": list(self.tools_deny)},
            "commands": {"allow": list(self.commands_allow)},
            "capabilities": {"allow": list(self.capabilities_allow)},
            "blocks": {"max_per_call": self.max_blocks_per_call,
                       "max_per_minute": self.max_blocks_per_minute},
            "protected_regions": [
                {"name": r.name, "from": list(r.low), "to": list(r.high)}
                for r in self.protected_regions
            ],
            "forbidden": sorted(FORBIDDEN_COMMANDS | set(ALIASES_OF_FORBIDDEN)),
        }  # fmt: skip


# Every key a policy file may hold: (key, the default as TOML writes it, what it does).
POLICY_KEYS: Final = (
    ("read_only", "true", "refuse every tool that acts and every command that is not a read"),
    ("named_players_only", "true", "commands that affect players must name them: no @a, @e, "
     "@r, @p, @s, @initiator or *"),
    ("protect_host", "true", "the host player (whose game ran /connect) is protected: no "
     "command with no target, @s, a selector that may pick the host, or a summon or block "
     "write at ~ positions (the host's); in a class where each student hosts a world, "
     "false lets the assistant act on the student"),
    ("protected_players", "[]", "names no action may affect"),
    ("tools.allow", "(every tool)", "the tools an agent may call"),
    ("tools.deny", "[]", "tools refused even when allowed"),
    ("commands.allow", "[" + ", ".join(f'"{c}"' for c in DEFAULT_COMMANDS) + "]",
     'commands the command tool may run ("*": any not forbidden)'),
    ("capabilities.allow", "[" + ", ".join(f'"{c}"' for c in DEFAULT_CAPABILITIES) + "]",
     'addon capabilities the tools may call ("*": any)'),
    ("blocks.max_per_call", str(BLOCKS_PER_CALL_DEFAULT), "most blocks one call may write"),
    ("blocks.max_per_minute", str(BLOCKS_PER_MINUTE_DEFAULT),
     "most blocks written in any 60 seconds"),
    ("[[protected_regions]]", "none", 'name = "spawn", from = [x, y, z], to = [x, y, z], '
     'no block is written inside (in any dimension)'),
)  # fmt: skip


class _Reader:
    """Reads a policy document key by key and remembers which keys it read."""

    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data, self.source = data, source
        self.read: set[str] = set()

    def _get(self, key: str, default: Any) -> Any:
        node: Any = self.data
        *parents, last = key.split(".")
        for part in parents:
            node = node.get(part, {}) if isinstance(node, Mapping) else {}
            if not isinstance(node, Mapping):
                raise self.problem(part, "must be a table")
        self.read.add(key)
        return node.get(last, default) if isinstance(node, Mapping) else default

    def problem(self, key: str, what: str) -> PolicyError:
        return PolicyError(f"{self.source}: {key} {what} (docs/agents.md lists every key)")

    def boolean(self, key: str, default: bool) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self.problem(key, f"must be true or false, not {value!r}"[:200])
        return value

    def names(
        self, key: str, default: Sequence[str] | None, *, known: Sequence[str] = ()
    ) -> tuple[str, ...] | None:
        """A list of names; with ``known``, each must be one of them (a typo in a tool
        list would loosen the policy: a deny that names no tool denies nothing)."""
        value = self._get(key, default)
        if value is None:
            return None
        if isinstance(value, str) or not isinstance(value, Sequence):
            raise self.problem(key, 'must be a list of names, such as ["say", "give"]')
        for item in value:
            if not isinstance(item, str) or not 0 < len(item) <= TEXT_MAX or _CONTROL.search(item):
                raise self.problem(key, f"holds {item!r:.60}: each entry is a name of 1-{TEXT_MAX} "
                                   "characters")  # fmt: skip
            if known and item not in known:
                near = [k for k in known if k.lower() == item.lower()]
                near = near or difflib.get_close_matches(item, known, n=1, cutoff=0.6)
                hint = f"did you mean {near[0]!r}?" if near else f"the tools: {', '.join(known)}"
                raise self.problem(key, f"holds {item!r}, which is no tool; {hint}")
        return tuple(value)

    def cap(self, key: str, default: int) -> int:
        value = self._get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not 0 <= value <= BLOCKS_CAP_MAX
        ):
            raise self.problem(
                key, f"must be a whole number 0..{BLOCKS_CAP_MAX}, not {value!r:.40}"
            )
        return value

    def regions(self, key: str) -> tuple[Region, ...]:
        value = self._get(key, [])
        if not isinstance(value, list):
            raise self.problem(key, "must be an array of tables ([[protected_regions]])")
        return tuple(self._region(key, k, item) for k, item in enumerate(value))

    def _region(self, key: str, index: int, item: Any) -> Region:
        where = f"{key}[{index}]"
        if not isinstance(item, Mapping):
            raise self.problem(where, "must be a table with name, from and to")
        unknown = set(item) - {"name", "from", "to"}
        if unknown:
            raise self.problem(where, f"has unknown keys {sorted(unknown)}")
        name = item.get("name", f"region {index + 1}")
        if not isinstance(name, str) or not 0 < len(name) <= TEXT_MAX:
            raise self.problem(f"{where}.name", f"must be a name of 1-{TEXT_MAX} characters")
        corners = [self._corner(f"{where}.{end}", item.get(end)) for end in ("from", "to")]
        (x1, y1, z1), (x2, y2, z2) = corners
        low = (min(x1, x2), min(y1, y2), min(z1, z2))
        high = (max(x1, x2), max(y1, y2), max(z1, z2))
        return Region(name, low, high)

    def _corner(self, key: str, value: Any) -> tuple[int, int, int]:
        if (not isinstance(value, list) or len(value) != 3
                or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):  # fmt: skip
            raise self.problem(key, "must be three whole numbers [x, y, z]")
        return value[0], value[1], value[2]

    def check_all_read(self) -> None:
        known = {k.split(".")[0] for k in self.read} | self.read
        unknown = sorted(self._keys(self.data, "") - known)
        if unknown:
            raise self.problem(", ".join(unknown), "is not a policy key; did you mean one of "
                               f"{', '.join(sorted(self.read))}?")  # fmt: skip

    def _keys(self, node: Mapping[str, Any], prefix: str) -> set[str]:
        out: set[str] = set()
        for key, value in node.items():
            full = f"{prefix}{key}"
            if isinstance(value, Mapping) and full in {
                "tools",
                "commands",
                "capabilities",
                "blocks",
            }:
                out.add(full)
                out |= self._keys(value, f"{full}.")
            else:
                out.add(full)
        return out


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One action the guard judged: which tool with which arguments, on which world, and
    whether it was allowed, refused (``refused_by`` names the rule) or had invalid
    arguments (refused by the tool's schema before the guard looked)."""

    at: float  # wall clock, epoch seconds
    tool: str
    arguments: dict[str, Any]
    world: str | None
    verdict: str  # "allowed", "refused" (by the guard: see refused_by) or "invalid" arguments
    refused_by: str | None = None
    why: str | None = None
    result: dict[str, Any] = field(default_factory=dict)  # ok, describe (and why, when failed)
    elapsed: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The entry as plain JSON data."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _refuse(
    rule: str, why: str, *, policy: Policy | None = None, key: str = "", **more: Any
) -> Refused:
    """The refusal by ``rule``; ``key`` names the policy key when it is not the rule's own
    (the host is protected by protect_host, under the rule protected_players)."""
    spec = _RULE[rule]
    if spec.key:
        source = f" (policy: {policy.source})" if policy is not None else ""
        how = f"a teacher can change this with {key or spec.key} in the policy file{source}"
    elif rule == "unreadable":
        how = (
            "write one plain command: one line, an ASCII command name, execute as <target> "
            "run <command>, absolute or ~ positions; no policy key turns this rule off"
        )
    else:
        how = "no policy key allows this; a teacher runs it by hand in the game if it is needed"
    return Refused(rule, why, how, **more)


def _canonical(name: str) -> str:
    name = name.lower()
    return ALIASES.get(name, name)


def normalize_command(line: str) -> str:
    """``line`` as the guard judges it: compatibility forms folded (NFKC), edge spaces and
    leading slashes dropped.

    Raises:
        Refused: (rule ``unreadable``) it holds a control character or a second line.
    """
    if not isinstance(line, str):
        raise _refuse("unreadable", f"a command line is text, not {type(line).__name__}")
    if _CONTROL.search(line):
        raise _refuse("unreadable", "the command holds a control character or a line break")
    folded = unicodedata.normalize("NFKC", line)
    if _CONTROL.search(folded):
        raise _refuse("unreadable", "the command holds a control character or a line break")
    return folded.strip().lstrip("/").strip()


def tokens(line: str) -> list[str]:
    """The words of a command line, a quoted string or a bracketed selector/JSON one word."""
    out: list[str] = []
    word: list[str] = []
    depth, quoted, escaped = 0, False, False
    for ch in line:
        if quoted:
            word.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(depth - 1, 0)
        if ch.isspace() and depth == 0:
            if word:
                out.append("".join(word))
                word = []
            continue
        word.append(ch)
    if word:
        out.append("".join(word))
    return out


def command_chain(line: str) -> list[list[str]]:
    """Every command a line runs, outermost first, each as its words with the name in
    lower case and aliases resolved: ``execute as Ana run give Ana apple`` is
    ``[["execute", "as", "Ana", "run", "give", "Ana", "apple"], ["give", "Ana", "apple"]]``.

    Raises:
        Refused: (rule ``unreadable``) a control character, a command name that is not
            plain ASCII, or the old execute form.
    """
    words = tokens(normalize_command(line))
    if not words:
        raise _refuse("unreadable", "the command is empty")
    chain: list[list[str]] = []
    pending = [words]
    while pending:
        current = pending.pop(0)
        raw = current[0].lstrip("/")
        name = _canonical(raw)
        if not name.isascii() or not _NAME.fullmatch(name):
            raise _refuse("unreadable", f"{raw[:40]!r} is not a command name the guard can read "
                          "(plain ASCII letters)")  # fmt: skip
        current = [name, *current[1:]]
        chain.append(current)
        if name != "execute":
            continue
        if len(current) > 1 and current[1].lower() not in _EXECUTE_SUBCOMMANDS:
            raise _refuse(
                "unreadable",
                "the old execute form (execute <target> x y z command) "
                "cannot be checked; write execute as <target> run <command>",
            )
        # Every word "run" may start the wrapped command: each tail is judged (a name
        # such as "run" as a target cannot hide a command behind it).
        for k, word in enumerate(current[1:], start=1):
            if word.lower() == "run":
                if k + 1 >= len(current):
                    raise _refuse("unreadable", "execute ... run needs a command after run")
                pending.append(current[k + 1 :])
    return chain


def _is_read(words: list[str]) -> bool:
    name = words[0]
    if name in READ_COMMANDS:
        return True
    return any(
        name == cmd and len(words) > at and words[at].lower() == arg for cmd, at, arg in _READ_FORMS
    )


def _selector(word: str) -> bool:
    bare = word.strip('"')
    return bare.startswith("@") or bare == "*"


def _tool_names() -> tuple[str, ...]:
    from .catalogue import CATALOGUE

    return tuple(spec.name for spec in CATALOGUE)


def _selector_params(word: str) -> list[tuple[str, str]] | None:
    """The ``key=value`` pairs of a selector's brackets (keys lower case); None when the
    brackets cannot be read."""
    bare = word.strip('"')
    if "[" not in bare:
        return []
    if not bare.endswith("]"):
        return None
    inside = bare[bare.index("[") + 1 : -1]
    parts: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for ch in inside:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{":
            depth += 1
        elif not quoted and ch in "]}":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    pairs = []
    for part in parts:
        key, eq, value = part.partition("=")
        if part.strip() and not eq:
            return None
        if part.strip():
            pairs.append((key.strip().lower(), value.strip()))
    return pairs


def _many(word: str) -> bool:
    """Whether a target word may pick more than one: @a, @e, *, @r or @p with a count
    other than 1 (a count the guard cannot read counts as many)."""
    bare = word.strip('"').lower()
    if bare == "*" or bare.startswith(MASS_SELECTORS):
        return True
    if not (bare.startswith("@r") or bare.startswith("@p")) or bare[2:3] not in ("", "["):
        return False
    params = _selector_params(bare)
    if params is None:
        return True
    counts = [v for k, v in params if k == "c"]
    try:
        return any(abs(int(v)) != 1 for v in counts)
    except ValueError:
        return True


def _may_select_host(word: str, hosts: set[str]) -> bool:
    """Whether a selector may pick the host: any may, unless it keeps to a type other than
    player, to a name (checked as a name), or excludes every host by name."""
    params = _selector_params(word)
    if params is None or word.strip('"') == "*":
        return True
    excluded = set()
    for key, value in params:
        bare = value.strip('"').lower()
        if (
            key == "type"
            and not value.startswith("!")
            and bare not in ("player", "minecraft:player")
        ):
            return False
        if key == "name" and not value.startswith("!"):
            return False
        if key == "name":
            excluded.add(value[1:].strip().strip('"').lower())
    return not hosts or not hosts <= excluded


def _check_forbidden_chain(chain: list[list[str]]) -> None:
    for words in chain:
        name = words[0]
        if name in FORBIDDEN_COMMANDS:
            raise _refuse("forbidden", f"{name} is never sent by a tool", command=name)
        if ":" in name:
            raise _refuse("forbidden", f"{name} is an addon's command", command=name)
        if name in ("kill", "clear") and any(_many(w) for w in words[1:]):
            raise _refuse("forbidden", f"{name} of many (@a, @e, *, @r or @p with a count "
                          "other than 1) is never sent by a tool", command=name)  # fmt: skip
    harms = next((w[0] for w in chain if w[0] in ("kill", "clear")), None)
    if harms is not None and chain[0][0] == "execute" and any(_many(w) for w in chain[0][1:]):
        raise _refuse("forbidden", f"an execute over many (@a, @e, *, @r or @p with a count "
                      f"other than 1) around {harms} is never sent by a tool",
                      command=harms)  # fmt: skip


def _execute_parts(chain: list[list[str]]) -> list[list[str]]:
    """The subcommand words of each execute in the chain, up to its first ``run``."""
    out = []
    for words in chain:
        if words[0] == "execute":
            head = words[1:]
            cut = next((k for k, w in enumerate(head) if w.lower() == "run"), len(head))
            out.append(head[:cut])
    return out


def _runs_as_named(chain: list[list[str]]) -> bool:
    """Whether an execute makes a named player (no selector) run the command."""
    return any(
        part[k].lower() == "as" and k + 1 < len(part) and not _selector(part[k + 1])
        for part in _execute_parts(chain)
        for k in range(len(part))
    )


def _anchored_elsewhere(chain: list[list[str]]) -> bool:
    """Whether an execute moves where the command runs away from the host: at a named
    player, or positioned at absolute coordinates or as a named player."""
    for part in _execute_parts(chain):
        for k, word in enumerate(part):
            after = part[k + 1 : k + 4]
            if word.lower() == "at" and after and not _selector(after[0]):
                return True
            if word.lower() == "positioned" and after:
                if after[0].lower() == "as":
                    if len(after) > 1 and not _selector(after[1]):
                        return True
                elif len(after) == 3 and all(
                    (c := _coordinate(w)) is not None and c[0] == "abs" for w in after
                ):
                    return True
    return False


def _targets_runner(words: list[str]) -> bool:
    """Whether a command acts on whoever runs it: its player target is left out (``kill``,
    ``gamemode 1``), or ``tp`` moves the runner (``tp 0 64 0``, ``tp Alex``)."""
    name, args = words[0], words[1:]
    if name == "tp":
        if not args:
            return False
        if _coordinate(args[0]) is not None:
            return True
        return len(args) == 1 or args[1].lower() in ("true", "false")
    at = OPTIONAL_TARGET.get(name)
    return at is not None and len(words) <= at


def summon_spot(words: list[str]) -> Box3 | None:
    """Where a ``summon`` puts its entity, as a one-block box (``abs``, or ``rel`` for a
    relative, local or missing position: where the command runs); None for another
    command.

    Raises:
        Refused: (rule ``unreadable``) a position of fewer than three numbers.
    """
    if words[0] != "summon":
        return None
    args = words[2:]
    start = 0 if args and _coordinate(args[0]) is not None else 1  # summon <type> <name> ...
    if len(args) <= start:
        return ("rel", (0, 0, 0), (0, 0, 0))
    trio = [_coordinate(w) for w in args[start : start + 3]]
    if len(trio) != 3 or any(c is None for c in trio):
        raise _refuse("unreadable", "summon needs three numbers for its position")
    kind = "abs" if all(c is not None and c[0] == "abs" for c in trio) else "rel"
    spot = tuple(math.floor(c[1]) for c in trio if c is not None)
    return (kind, spot, spot)


def _coordinate(word: str) -> tuple[str, float] | None:
    """('abs' | 'rel' | 'local', value) of a coordinate word, or None if it is not one."""
    kind = "rel" if word.startswith("~") else "local" if word.startswith("^") else "abs"
    number = word[1:] if kind != "abs" else word
    if kind != "abs" and number == "":
        return kind, 0.0
    try:
        value = float(number)
    except ValueError:
        return None
    return (kind, value) if math.isfinite(value) else None


Box3 = tuple[str, tuple[int, ...], tuple[int, ...]]  # ("abs" or "rel", low, high)


def block_boxes(words: list[str]) -> list[Box3] | None:
    """The boxes a block-writing command (setblock, fill, clone) writes, each as
    (``abs``/``rel``, low corner, high corner); None for another command.

    Raises:
        Refused: (rule ``unreadable``) a coordinate is missing, not a number, local (^), or
            mixes absolute and relative within one box.
    """
    spots = _BLOCK_WRITERS.get(words[0])
    if spots is None:
        return None
    args = words[1:]
    boxes: list[Box3] = []
    for first, second in (spots,):
        corners = []
        for start in (first, second):
            trio = [_coordinate(w) for w in args[start : start + 3]]
            if len(trio) != 3 or any(c is None for c in trio):
                raise _refuse("unreadable", f"{words[0]} needs three numbers for each corner")
            corners.append(trio)
        kinds = {c[0] for corner in corners for c in corner if c is not None}
        if "local" in kinds or len(kinds) > 1:
            raise _refuse(
                "unreadable",
                f"{words[0]} with local (^) or mixed coordinates "
                "cannot be checked; give absolute (or all ~ relative) positions",
            )
        a = [c[1] for c in corners[0] if c is not None]
        b = [c[1] for c in corners[1] if c is not None]
        low = tuple(math.floor(min(p, q)) for p, q in zip(a, b, strict=True))
        high = tuple(math.floor(max(p, q)) for p, q in zip(a, b, strict=True))
        boxes.append((kinds.pop(), low, high))
    if words[0] == "clone":  # what clone writes: the source box's size at the destination
        src = block_boxes(["fill", *args[:6]])
        assert src is not None
        kind, low, high = boxes[0]
        size = [h - lo for lo, h in zip(src[0][1], src[0][2], strict=True)]
        boxes = [(kind, low, tuple(v + s for v, s in zip(low, size, strict=True)))]
        if any(w.lower() == "move" for w in args[9:]):  # a move also writes air at the source
            boxes.append(src[0])
    return boxes


def box_volume(low: Sequence[float], high: Sequence[float]) -> int:
    """Blocks in a box whose corners are both inside it."""
    return math.prod(int(h - lo) + 1 for lo, h in zip(low, high, strict=True))


class Guard:
    """A :class:`Policy` applied: ``check_*`` raise :class:`Refused`, ``record`` audits.

    ``host`` says who the connected host players are (protected while ``protect_host``);
    ``on_action`` receives every :class:`AuditEntry` (the capture's audit log writes them
    to a file); ``clock`` is the monotonic clock of the per-minute block cap.
    """

    def __init__(
        self,
        policy: Policy | None = None,
        *,
        host: Callable[[], Iterable[str]] | None = None,
        on_action: Callable[[AuditEntry], object] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.policy = policy or Policy()
        self._host = host
        self.hosts = host  # who the host players are (a new guard for the same tools takes it)
        self.on_action = on_action
        self._clock = clock
        self._written: deque[tuple[float, int]] = deque()  # (when, blocks) in the last minute
        self.audit: deque[AuditEntry] = deque(maxlen=AUDIT_KEPT)
        self.counts = {"allowed": 0, "refused": 0, "invalid": 0}

    # --- the checks ---------------------------------------------------------------------

    def check_tool(self, name: str, kind: str, arguments: Mapping[str, Any]) -> int:
        """Whether tool ``name`` (``kind`` observe or act) may run with ``arguments``;
        the number of blocks it will write (0 for most tools).

        Raises:
            Refused: a rule refuses it (``rule``, ``why``, ``how_to``).
        """
        policy = self.policy
        if (policy.tools_allow is not None and name not in policy.tools_allow) or (
            name in policy.tools_deny
        ):
            raise _refuse("tool_allowlist", f"the tool {name!r} is not allowed", policy=policy)
        if name == "command":
            return self.check_command(str(arguments.get("command", "")))
        if kind == "act" and policy.read_only:
            raise _refuse("read_only", f"{name} changes the world and the guard is read-only",
                          policy=policy)  # fmt: skip
        if kind == "act":
            for param in _PLAYER_PARAMS:
                value = arguments.get(param)
                if isinstance(value, str) and name != "send_text":
                    self._check_not_protected(value)
        return 0

    def check_command(self, line: str) -> int:
        """Whether the command tool may run ``line``; the blocks it writes, which from now
        count toward blocks.max_per_minute (:meth:`release` gives them back when the
        command fails: reserved here, parallel calls cannot all pass the cap together).

        Raises:
            Refused: a rule refuses it.
        """
        policy = self.policy
        chain = command_chain(line)
        _check_forbidden_chain(chain)
        reads = all(_is_read(w) for w in chain if w[0] != "execute")
        if policy.read_only and not reads:
            raise _refuse("read_only", f"{chain[-1][0]} is not a read and the guard is read-only",
                          policy=policy)  # fmt: skip
        allowed = set(policy.commands_allow)
        for words in chain:
            if "*" not in allowed and words[0] not in allowed:
                raise _refuse("command_allowlist", f"the command {words[0]!r} is not allowed",
                              policy=policy, command=words[0])  # fmt: skip
        # An execute that runs a command runs it once per target it selects: it acts on
        # players as much as the commands that name them.
        affects_players = len(chain) > 1 or any(w[0] in PLAYER_COMMANDS for w in chain)
        everything = chain[0]
        # A command with no target acts on whoever runs it: the host, unless an
        # execute as <name> made a named player run it (that name is checked below).
        on_runner = next((w for w in chain if _targets_runner(w)), None)
        if on_runner is not None and _runs_as_named(chain):
            on_runner = None
        if affects_players:
            if policy.named_players_only:
                picked = next((w for w in everything if _selector(w)), None)
                if picked is not None:
                    raise _refuse("named_players", f"{picked[:40]} picks players instead of "
                                  "naming one", policy=policy)  # fmt: skip
                if on_runner is not None:
                    raise _refuse("named_players", f"{' '.join(on_runner)[:40]!r} names no "
                                  "player, so it acts on whoever runs it (the host, @s): "
                                  "name the player", policy=policy)  # fmt: skip
            for word in everything[1:]:
                self._check_not_protected(word.strip('"'), selector_ok=True)
            if on_runner is not None and policy.protect_host:
                raise self._host_refusal(f"{' '.join(on_runner)[:40]!r} names no player, so it "
                                         "acts on whoever runs it: the host, who is "
                                         "protected")  # fmt: skip
        anchored = _anchored_elsewhere(chain)
        blocks = 0
        for words in chain:
            boxes = block_boxes(words) or []
            spot = summon_spot(words)
            blocks += sum(box_volume(low, high) for _, low, high in boxes)
            for kind, low, high in [*boxes, *([spot] if spot else [])]:
                self._check_region(kind, low, high)
                if kind != "abs" and policy.protect_host and not anchored:
                    raise self._host_refusal(f"{words[0]} at relative (~ ^) or no positions "
                                             "acts where the host stands, and the host is "
                                             "protected; give absolute positions")  # fmt: skip
        self._check_blocks(blocks)
        self.wrote(blocks)
        return blocks

    def check_capability(self, capability: str) -> None:
        """Whether the tools may call the addon's ``capability``.

        Raises:
            Refused: (rule ``capability_allowlist``) it is not allowed.
        """
        allowed = self.policy.capabilities_allow
        if "*" not in allowed and capability not in allowed:
            raise _refuse("capability_allowlist", f"the capability {capability!r} is not "
                          "allowed", policy=self.policy)  # fmt: skip

    def check_sent_line(self, line: str) -> None:
        """The last look at every line a tool sends (the toolkit's own lines too): no
        forbidden command leaves, whatever built it.

        Raises:
            Refused: (``forbidden`` or ``unreadable``) the line is one.
        """
        _check_forbidden_chain(command_chain(line))

    def check_blocks(
        self, count: int, boxes: Iterable[tuple[Sequence[int], Sequence[int]]] = ()
    ) -> None:
        """For a building tool: whether it may write ``count`` blocks in ``boxes``
        (absolute corners); on success the blocks count toward the minute's cap.

        Raises:
            Refused: a cap or a protected region refuses it.
        """
        for low, high in boxes:
            self._check_region("abs", tuple(low), tuple(high))
        self._check_blocks(count)
        self.wrote(count)

    def wrote(self, count: int) -> None:
        """``count`` blocks were written now (for blocks.max_per_minute)."""
        if count > 0:
            self._written.append((self._clock(), count))

    def release(self, count: int) -> None:
        """Give back ``count`` blocks :meth:`check_command` reserved: the command failed,
        so they were never written."""
        for k in range(len(self._written) - 1, -1, -1):
            if self._written[k][1] == count:
                del self._written[k]
                return

    # --- the rules ----------------------------------------------------------------------

    def _hosts(self) -> set[str]:
        return {h.lower() for h in (self._host() if self._host else ()) if h}

    def _host_refusal(self, why: str) -> Refused:
        return _refuse("protected_players", why, policy=self.policy, key="protect_host")

    def _check_not_protected(self, name: str, *, selector_ok: bool = False) -> None:
        policy = self.policy
        host = self._hosts()
        protected = {p.lower() for p in policy.protected_players}
        if policy.protect_host:
            protected |= host
            if selector_ok and _selector(name) and _may_select_host(name, host):
                hosts = ", ".join(sorted(host)) or "who ran /connect"
                raise self._host_refusal(
                    f"{name[:40]} may pick the host ({hosts}), who is protected; name the "
                    "players instead (or "
                    "exclude the host: @a[name=!<host>])"
                )
        named = _SELECTOR_NAME.findall(name) if selector_ok and _selector(name) else []
        for inside in named:
            if not inside.startswith("!"):
                self._check_not_protected(inside.strip('"'))
        if name.lower() in protected:
            is_host = name.lower() in host and policy.protect_host
            whose = "the host" if is_host else "a protected player"
            key = "protect_host" if is_host else "protected_players"
            raise _refuse("protected_players", f"{name} is {whose}", policy=policy, key=key)

    def _check_region(self, kind: str, low: tuple[int, ...], high: tuple[int, ...]) -> None:
        regions = self.policy.protected_regions
        if not regions:
            return
        if kind != "abs":
            raise _refuse("protected_regions", "blocks written at relative (~) positions cannot "
                          "be checked against the protected regions; give absolute positions",
                          policy=self.policy)  # fmt: skip
        lo = [int(v) for v in low]
        hi = [int(v) for v in high]
        for region in regions:
            if region.overlaps(lo, hi):
                raise _refuse("protected_regions", f"the box {lo}..{hi} is inside the protected "
                              f"region {region.name!r}", policy=self.policy,
                              region=region.name)  # fmt: skip

    def _check_blocks(self, count: int) -> None:
        policy = self.policy
        if count > policy.max_blocks_per_call:
            raise _refuse("blocks_per_call", f"{count} blocks in one call; the cap is "
                          f"{policy.max_blocks_per_call}", policy=policy)  # fmt: skip
        now = self._clock()
        while self._written and self._written[0][0] <= now - MINUTE_SECONDS:
            self._written.popleft()
        recent = sum(n for _, n in self._written)
        if count and recent + count > policy.max_blocks_per_minute:
            raise _refuse("blocks_per_minute", f"{recent} blocks written in the last minute and "
                          f"{count} more asked; the cap is {policy.max_blocks_per_minute} a "
                          "minute", policy=policy)  # fmt: skip

    # --- the audit ----------------------------------------------------------------------

    def record(self, entry: AuditEntry) -> None:
        """Keep ``entry`` (the newest :data:`AUDIT_KEPT`) and hand it to ``on_action``."""
        self.audit.append(entry)
        self.counts[entry.verdict] = self.counts.get(entry.verdict, 0) + 1
        if self.on_action is not None:
            self.on_action(entry)

    @staticmethod
    def rule(name: str) -> Rule:
        """The :class:`Rule` called ``name``.

        Raises:
            KeyError: there is none.
        """
        return _RULE[name]


class GuardedBridge(Bridge):
    """``bridge`` seen through a guard: every command line the tools send passes
    :meth:`Guard.check_sent_line`, every capability :meth:`Guard.check_capability`.

    A view, like the handle's routed bridge: the same server, connections and log (the
    instance dictionary is shared), and the same choice of game (``pick`` is ``bridge``'s).
    """

    __slots__ = ("_guard", "_inner")

    def __init__(self, bridge: Bridge, guard: Guard) -> None:
        # No Bridge.__init__: that would make a second server (see RoutedBridge).
        self.__dict__ = bridge.__dict__
        self._inner = bridge
        self._guard = guard

    def pick(self, connection: GameConnection | None = None) -> GameConnection:
        """The game the wrapped bridge would pick (its routing, unchanged)."""
        return self._inner.pick(connection)

    def events(self, since: int = 0) -> list[LogEntry]:
        """The wrapped bridge's events (a view of one world shows that world's)."""
        return self._inner.events(since)

    async def command(
        self, line: str, *, timeout: float | None = None, connection: GameConnection | None = None
    ) -> CommandResult:
        """The wrapped bridge's ``command``, once the line passed the guard.

        Raises:
            Refused: the line is forbidden or unreadable; nothing was sent.
        """
        self._guard.check_sent_line(line)
        return await self._inner.command(line, timeout=timeout, connection=connection)

    async def call(
        self,
        capability: str,
        payload: Mapping[str, Any] | None = None,
        /,
        *,
        timeout: float | None = None,
        connection: GameConnection | None = None,
        **more: Any,
    ) -> dict[str, Any]:
        """The wrapped bridge's ``call``, once the capability passed the guard.

        Raises:
            Refused: the capability is not in the policy's allow-list; nothing was sent.
        """
        self._guard.check_capability(capability)
        return await self._inner.call(
            capability, payload, timeout=timeout, connection=connection, **more
        )

    async def send_text(
        self,
        player: str,
        text: str,
        *,
        role: str = "assistant",
        progress: Progress | None = None,
        conversation_id: str | None = None,
        title: str | None = None,
        connection: GameConnection | None = None,
    ) -> int:
        """The wrapped bridge's ``send_text`` (the tool was judged before it ran)."""
        return await self._inner.send_text(
            player, text, role=role, progress=progress, conversation_id=conversation_id,
            title=title, connection=connection,
        )  # fmt: skip


def reference_markdown() -> str:
    """The guard's rules and the policy file's keys as the Markdown tables docs/agents.md
    holds (tests/toolkit/test_guard.py checks that the page shows these)."""
    rules = ["| rule | policy key | refuses |", "|---|---|---|"]
    rules += [
        f"| `{r.name}` | {f'`{r.key}`' if r.key else '(none)'} | {r.refuses} |" for r in RULES
    ]
    keys = ["| key | default | what it does |", "|---|---|---|"]
    keys += [f"| `{key}` | `{default}` | {what} |" for key, default, what in POLICY_KEYS]
    return "\n".join([*rules, "", *keys]) + "\n"
