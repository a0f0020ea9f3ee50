"""``mcbews-repl mcp``: the toolkit's tools as a Model Context Protocol server, guarded.

The server starts its own bridge (the ``/connect`` line goes to stderr and is a resource),
or with ``--sim`` a simulated world (``--worlds N``: a class, one world per student), and
serves over stdio (``--http``: streamable HTTP on loopback):

- **tools**: the catalogue's (toolkit/catalogue.py), each with an optional ``world``: with
  one world connected it may be left out; with several a call that does not name one is
  refused with the worlds listed (the ``WhichWorld`` rule: never a guess). Every call passes
  the guard (toolkit/guard.py, ``--policy FILE``) and is written to the audit log
  (``--audit PATH``: a folder of dated files, or a new file; a capture file, capture/audit.py;
  ``--replay-audit FILE`` replays one). Answers are the tools' own dicts, as
  structured content and as JSON text.
- **resources**: ``mcbews://status``, ``mcbews://worlds``, ``mcbews://capabilities``,
  ``mcbews://connect``, ``mcbews://policy``, ``mcbews://audit``.
- **prompts**: lessons an assistant can start from (:data:`PROMPTS`).

The official ``mcp`` SDK (the ``mcp`` extra) is imported only when the server runs, so the
package loads without it. Nothing but the protocol is written to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .exceptions import (
    CaptureError,
    McbewsError,
    NotConnected,
    PolicyError,
    WhichWorld,
)
from .gateway import Bridge, GameConnection, LogEntry, serve
from .optional import needs, require
from .toolkit import CATALOGUE, AuditEntry, ChatContexts, Guard, Policy, Tools, audit_arguments
from .version import __version__
from .vocabulary import Capability

if TYPE_CHECKING:
    from mcp.server.lowlevel import Server

__all__ = [
    "PROMPTS",
    "RESOURCES",
    "TOOL_TICKS",
    "McpSession",
    "mcp_main",
    "reference_markdown",
    "tool_definitions",
]

SERVER_NAME: Final = "mcbews-repl"
WORLD_NAME_MAX: Final = 64  # characters of a world argument: a player name is at most 16
AUDIT_SHOWN: Final = 50  # audit entries the audit resource lists (the file keeps them all)
CONNECT_TIMEOUT_SECONDS: Final = 60.0  # a simulated class connecting on a busy machine
DEFAULT_BRIDGE_PORT: Final = 19131  # the port %mc start uses too
# The students of a simulated class, in order (the same names %mc sim --worlds uses).
CLASS_NAMES: Final = ("Ana", "Ben", "Chloe", "Dev", "Emma", "Finn", "Grace", "Hugo", "Iris",
                      "Jack", "Kim", "Leo", "Maya", "Noah", "Olga", "Priya")  # fmt: skip
WORLDS_MAX: Final = len(CLASS_NAMES)  # simulated worlds one server starts

# What each tool costs the world in game ticks: the ticks the simulated world (the shipped
# addon, its fast clock) ran from the call to its answer, fewest-most of five runs of
# tools/measure_tool_ticks.py. region and objective_scores grow with their size (one command
# per position or holder), send_text with its text (the bridge paces its frames); the
# building tools with their box (these: 8x8x8, a sphere of radius 5, 4x1x4), the read that
# keeps what they replace included.
TOOL_TICKS: Final = {
    "status": "0", "capabilities": "4", "players": "2", "inventory": "4", "item_count": "2",
    "tags": "2", "scores": "2", "score": "2", "objectives": "2", "objective_scores": "4",
    "testfor": "2", "entities": "2", "block": "2-3", "region": "2-3", "blocks": "4", "events": "0",
    "game_events": "4-5",
    "chat_context": "0", "command": "2-3", "send_text": "16", "score_set": "2",
    "score_add": "2", "score_reset": "2-3", "score_operation": "2-3", "objective_add": "2",
    "objective_remove": "2", "objective_setdisplay": "2", "fill": "12", "shape": "14-15",
    Capability.SET_BLOCKS.value: "12", "undo": "8",
}  # fmt: skip

# The resources: uri -> (name, description, MIME type).
RESOURCES: Final = {
    "mcbews://status": ("status", "The bridge and every connected world: names, players, "
                        "pending requests, the /connect line", "application/json"),
    "mcbews://worlds": ("worlds", "The connected worlds: the names the world argument takes",
                        "application/json"),
    "mcbews://capabilities": ("capabilities", "What the shipped addon can do, and which of "
                              "it the policy allows", "application/json"),
    "mcbews://connect": ("connect", "What a player types in Minecraft to connect", "text/plain"),
    "mcbews://policy": ("policy", "The guard's policy in force (read-only by default)",
                        "application/json"),
    "mcbews://audit": ("audit", f"The latest {AUDIT_SHOWN} actions the guard judged",
                       "application/json"),
}  # fmt: skip
# With --sim only: what the simulated worlds received, to see what reached the game.
SIM_COMMANDS_URI: Final = "mcbews://sim/commands"
SIM_COMMANDS_RESOURCE: Final = ("sim commands", "With --sim: the latest command lines each "
                                "simulated world received", "application/json")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Lesson:
    """A prompt: its name, what it is for, its arguments and the text it becomes."""

    name: str
    description: str
    arguments: tuple[tuple[str, str], ...]  # (name, description), every one required
    text: str


PROMPTS: Final = (
    Lesson("look_around", "Find out who is online, where, and what they carry.",
           (("player", "the player to look at closely"),),
           "Read the status and players tools. Then, for {player}, read the inventory and tags "
           "tools and say where {player} is, what {player} carries and which tags {player} "
           "has. Only observe: change nothing."),
    Lesson("keep_score", "Set up a scoreboard objective and show it in the sidebar.",
           (("objective", "the objective's name (A-Z a-z 0-9 _ . -, at most 16)"),),
           "Create the objective {objective} with objective_add, show it with "
           "objective_setdisplay in the sidebar, then read objectives to check it is there. "
           "If the guard refuses an action, tell me its rule and the policy key it names."),
    Lesson("check_build", "Check whether a block is where a student built it.",
           (("block", "the block id, e.g. minecraft:glass"),
            ("where", "the lowest corner as x y z")),
           "Use the region tool to find {block} in a box of 4x4x4 from {where}. Report how "
           "many positions hold it, which could not be read, and never guess the rest."),
    Lesson("welcome", "Greet a student in the addon's chat panel.",
           (("player", "the student's exact name"),),
           "Check with the players tool that {player} is online, then send_text {player} a "
           "short, friendly welcome to today's lesson."),
)  # fmt: skip


_TOOL_NAMES: Final = frozenset(spec.name for spec in CATALOGUE)


def tool_definitions() -> list[dict[str, Any]]:
    """Every tool as MCP lists it: name, description, input schema (the catalogue's, plus
    ``world``) and hints (observe tools are read-only)."""
    out = []
    for spec in CATALOGUE:
        schema = spec.parameters_schema()
        schema["properties"]["world"] = {
            "type": ["string", "null"],
            "description": "the world's name (its host player's, see mcbews://worlds); "
            "needed when several worlds are connected",
            "maxLength": WORLD_NAME_MAX,
            "default": None,
        }
        out.append({
            "name": spec.name,
            "description": spec.function()["function"]["description"],
            "inputSchema": schema,
            "readOnly": spec.kind == "observe",
        })  # fmt: skip
    return out


def reference_markdown() -> str:
    """The tool list as docs/agents.md shows it (tests/test_mcpserver.py checks the page)."""
    rows = ["| tool | kind | what it does | parameters | game ticks |", "|---|---|---|---|---|"]
    for spec in CATALOGUE:
        params = ", ".join(p.name + ("" if p.required else "?") for p in spec.params) or "none"
        rows.append(f"| `{spec.name}` | {spec.kind} | {spec.summary} | {params}, world? | "
                    f"{TOOL_TICKS[spec.name]} |")  # fmt: skip
    return "\n".join(rows) + "\n"


class _OneWorld(Bridge):
    """The bridge seen by one tool call: its calls go to ``game`` (a view sharing the
    bridge's state, like the guard's)."""

    __slots__ = ("_game",)

    def __init__(self, bridge: Bridge, game: GameConnection) -> None:
        self.__dict__ = bridge.__dict__  # no Bridge.__init__: that would be a second server
        self._game = game

    def pick(self, connection: GameConnection | None = None) -> GameConnection:
        """``connection`` if given, else this call's world."""
        return connection if connection is not None else self._game

    def events(self, since: int = 0) -> list[LogEntry]:
        """This world's entries of the event log after ``since`` (the events tool's)."""
        return [e for e in self.log.since(since) if e.connection == self._game.id]


@dataclass
class McpSession:
    """What one server holds: the bridge, the policy, a guard per world, the audit sink."""

    bridge: Bridge
    policy: Policy
    audit: Callable[[AuditEntry], object] | None = None
    contexts: ChatContexts | None = None
    guards: dict[str, Guard] = field(default_factory=dict)
    recent: list[AuditEntry] = field(default_factory=list)
    sims: list[Any] = field(default_factory=list)  # the simulated worlds (--sim)
    # Each world's building history by connection id, for the undo tool (toolkit/undo.py).
    builders: dict[int, Any] = field(default_factory=dict)

    def resources(self) -> dict[str, tuple[str, str, str]]:
        """The resources this server offers: uri -> (name, description, MIME type)."""
        extra = {SIM_COMMANDS_URI: SIM_COMMANDS_RESOURCE} if self.sims else {}
        return {**RESOURCES, **extra}

    def worlds(self) -> list[dict[str, Any]]:
        """The connected worlds, oldest first: name, id, host, address."""
        return [
            {"name": c.local_player or f"world #{c.id}", "id": c.id, "host": c.local_player,
             "address": c.peer, "pending": c.pending}
            for c in self.bridge.connections if not c.closed
        ]  # fmt: skip

    def pick(self, world: object) -> tuple[GameConnection, str]:
        """The connection ``world`` names (None: the only one).

        Raises:
            NotConnected: no world is connected, or none is called so (the message lists them).
            WhichWorld: several are connected and none was named, or two share the name.
        """
        live = [c for c in self.bridge.connections if not c.closed]
        names = ", ".join(f"{w['name']} (id {w['id']})" for w in self.worlds()) or "none"
        if world is not None and (
            not isinstance(world, str) or not 0 < len(world) <= WORLD_NAME_MAX
        ):
            raise NotConnected(f"world must be a world's name (1-{WORLD_NAME_MAX} characters); "
                               f"connected: {names}")  # fmt: skip
        if not live:
            raise NotConnected(f"no world is connected; in Minecraft type: "
                               f"{self.bridge.connect_command}")  # fmt: skip
        if world is None:
            if len(live) > 1:
                raise WhichWorld(f"{len(live)} worlds are connected ({names}), so this call "
                                 "needs to be told which: pass world=<name>")  # fmt: skip
            return live[0], live[0].local_player or f"world #{live[0].id}"
        assert isinstance(world, str)
        found = [c for c in live if c.local_player == world] or [
            c for c in live if (c.local_player or "").lower() == world.lower()
        ]
        if not found and world.lstrip("#").isdigit():
            found = [c for c in live if c.id == int(world.lstrip("#"))]
        if not found:
            raise NotConnected(f"no world {world!r} is connected; connected: {names}")
        if len(found) > 1:
            raise WhichWorld(f"{len(found)} worlds are called {world!r} ("
                             f"{', '.join(f'id {c.id}' for c in found)}): name one by its "
                             "id, world='#<id>'")  # fmt: skip
        return found[0], found[0].local_player or f"world #{found[0].id}"

    def guard_of(self, name: str, game: GameConnection) -> Guard:
        """The guard of world ``name`` (its own block count; the host is its host)."""
        guard = self.guards.get(name)
        if guard is None:
            guard = Guard(self.policy, host=lambda: [game.local_player or ""],
                          on_action=self._judged)  # fmt: skip
            self.guards[name] = guard
        return guard

    def _judged(self, entry: AuditEntry) -> None:
        self.recent = [*self.recent[-(AUDIT_SHOWN - 1) :], entry]
        if self.audit is not None:
            self.audit(entry)

    async def call(self, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Run tool ``name`` on the world its ``world`` argument names; never raises."""
        args = dict(arguments or {}) if isinstance(arguments, dict) else {}
        world = args.pop("world", None)
        if name not in _TOOL_NAMES:  # "no such tool" first, whichever worlds are connected
            unknown = Tools(self.bridge, guard=Guard(self.policy, on_action=self._judged))
            return await unknown.call(name, **args)
        try:
            game, world_name = self.pick(world)
        except (NotConnected, WhichWorld) as exc:
            how = ("pass world=<name>, one of mcbews://worlds" if isinstance(exc, WhichWorld)
                   else "check mcbews://worlds for the names; a world connects with the "
                   "line of mcbews://connect")  # fmt: skip
            why = str(exc)
            result = {"tool": name, "ok": False, "why": why, "how_to": how,
                      "describe": f"failed: {why}"[:160], "worlds": self.worlds()}  # fmt: skip
            # The whole call, world included, and the worlds connected: a replay builds them.
            kept = {"ok": False, "describe": result["describe"],
                    "worlds": [w["name"] for w in self.worlds()]}  # fmt: skip
            self._judged(AuditEntry(at=_now(), tool=str(name)[:60],
                                    arguments=audit_arguments({**args, "world": world}),
                                    world=None, verdict="invalid", why=str(exc)[:300],
                                    result=kept))  # fmt: skip
            return result
        tools = Tools(_OneWorld(self.bridge, game), contexts=self.contexts,
                      guard=self.guard_of(world_name, game), world=world_name,
                      builders=self.builders)  # fmt: skip
        result = await tools.call(name, **args)
        return {**result, "world": world_name}

    def resource(self, uri: str) -> tuple[str, str]:
        """The text and MIME type of resource ``uri``.

        Raises:
            KeyError: there is no such resource.
        """
        mime = self.resources()[uri][2]
        if uri == "mcbews://connect":
            return self.bridge.connect_command, mime
        allowed = set(self.policy.capabilities_allow)
        data: Any
        if uri == "mcbews://status":
            data = {
                "connect_command": self.bridge.connect_command, "worlds": self.worlds(),
                "last_cursor": self.bridge.log.last_cursor, "guard": self.policy.source,
                "judged": {n: dict(g.counts) for n, g in self.guards.items()},
            }  # fmt: skip
        elif uri == "mcbews://worlds":
            data = self.worlds()
        elif uri == "mcbews://capabilities":
            data = [
                {"name": c.value, "description": c.meaning,
                 "allowed": "*" in allowed or c.value in allowed}
                for c in Capability
            ]  # fmt: skip
        elif uri == "mcbews://policy":
            data = self.policy.to_dict()
        elif uri == SIM_COMMANDS_URI:
            data = {
                sim.world.local_player: [line for _, line in sim.client.received]
                for sim in self.sims if sim.client is not None
            }  # fmt: skip
        else:
            data = [e.to_dict() for e in self.recent]
        return json.dumps(data, ensure_ascii=False, indent=1), mime


def _now() -> float:
    import time

    return time.time()


def instructions(bridge: Bridge) -> str:
    """What the server tells an assistant first: the conventions, the tips, the guard."""
    described = Tools(bridge).describe()
    lines = [f"- {k}: {v}" for k, v in described["conventions"].items()]
    lines += [f"- {tip}" for tip in described["tips"]]
    lines.append(
        "- A teacher's guard judges every call: a refusal names its rule "
        "(refused_by) and the policy key that changes it; read mcbews://policy."
    )
    lines.append("- With several worlds connected, name one: world=<name> (mcbews://worlds).")
    return "Minecraft worlds through mcbews-repl's tools.\n" + "\n".join(lines)  # fmt: skip


def build_server(session: McpSession) -> Server[Any]:
    """The MCP server over ``session`` (the SDK's low-level server: the tool schemas are
    the catalogue's, not made from Python signatures)."""
    with needs("mcbews-repl mcp"):
        from mcp import types
        from mcp.server.lowlevel import Server

    definitions = tool_definitions()

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(
                name=d["name"], description=d["description"], input_schema=d["inputSchema"],
                annotations=types.ToolAnnotations(read_only_hint=d["readOnly"],
                                                  destructive_hint=not d["readOnly"]),
            )
            for d in definitions
        ])  # fmt: skip

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await session.call(params.name, params.arguments)
        text = json.dumps(result, ensure_ascii=False, default=repr)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)],
            structured_content=json.loads(text), is_error=not result.get("ok"),
        )  # fmt: skip

    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[
            types.Resource(uri=uri, name=name, description=what, mime_type=mime)
            for uri, (name, what, mime) in session.resources().items()
        ])  # fmt: skip

    async def read_resource(
        ctx: Any, params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        uri = str(params.uri)
        offered = session.resources()
        if uri not in offered:
            raise ValueError(f"no resource {uri[:80]!r}; the resources: {', '.join(offered)}")
        text, mime = session.resource(uri)
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type=mime, text=text)]
        )

    async def list_prompts(ctx: Any, params: Any) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=[
            types.Prompt(name=p.name, description=p.description, arguments=[
                types.PromptArgument(name=a, description=d, required=True)
                for a, d in p.arguments
            ])
            for p in PROMPTS
        ])  # fmt: skip

    async def get_prompt(ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        lesson = next((p for p in PROMPTS if p.name == params.name), None)
        if lesson is None:
            raise ValueError(f"no prompt {params.name[:60]!r}; the prompts: "
                             f"{', '.join(p.name for p in PROMPTS)}")  # fmt: skip
        given = params.arguments or {}
        missing = [a for a, _ in lesson.arguments if not given.get(a)]
        if missing:
            raise ValueError(f"the prompt {lesson.name} needs {', '.join(missing)}")
        values = {a: str(given[a])[:200] for a, _ in lesson.arguments}
        return types.GetPromptResult(description=lesson.description, messages=[
            types.PromptMessage(role="user",
                                content=types.TextContent(type="text",
                                                          text=lesson.text.format(**values)))
        ])  # fmt: skip

    return Server(
        SERVER_NAME, version=__version__, instructions=instructions(session.bridge),
        on_list_tools=list_tools, on_call_tool=call_tool, on_list_resources=list_resources,
        on_read_resource=read_resource, on_list_prompts=list_prompts, on_get_prompt=get_prompt,
    )  # fmt: skip


# --- running it ---------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcbews-repl mcp",
        description="Serve the toolkit's tools to an AI assistant over the Model Context "
        "Protocol (stdio; --http for streamable HTTP on loopback), held to a guard's policy "
        "(read-only unless --policy says otherwise). docs/agents.md says how to set it up.",
    )
    parser.add_argument("--sim", action="store_true", help="serve a simulated world instead "
                        "of waiting for games")  # fmt: skip
    parser.add_argument("--worlds", type=int, default=1, help="with --sim: this many worlds, "
                        f"one per student (at most {WORLDS_MAX})")  # fmt: skip
    parser.add_argument("--policy", help="the guard's policy, a TOML file (docs/agents.md)")
    parser.add_argument("--init-policy", metavar="FILE", help="write the default policy, "
                        "every key explained, to FILE to edit, and exit")  # fmt: skip
    parser.add_argument("--audit", metavar="PATH", help="write every action to an audit log: "
                        "a folder (each launch writes a new file in it, named by its date and "
                        "time) or a file that does not exist yet")  # fmt: skip
    parser.add_argument("--replay-audit", metavar="FILE", help="replay a lesson: run every "
                        "action of the audit log FILE again through the guard (--policy, or "
                        "the defaults) over simulated worlds named as the lesson's, print "
                        "each whose verdict differs, and exit (0: all the same, 1: some "
                        "differ)")  # fmt: skip
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="where the bridge listens for "
        "games (0.0.0.0: every interface, for games on other computers)",
    )
    parser.add_argument("--port", type=int, default=None, help=f"the bridge's port (default "
                        f"{DEFAULT_BRIDGE_PORT}; with --sim a free one)")  # fmt: skip
    parser.add_argument("--http", action="store_true", help="streamable HTTP on 127.0.0.1 "
                        "instead of stdio")  # fmt: skip
    parser.add_argument("--http-port", type=int, default=8765, help="the HTTP port (--http)")
    return parser


def _class_world(host: str, seed: int) -> Any:
    from .sim import Vec3, default_world, make_player

    world = default_world(terrain_seed=seed)
    world.players = {}
    world.add_player(make_player(host, Vec3(0.5, 64.0, 0.5)))
    world.local_player = host
    return world


async def _connected(bridge: Bridge, count: int) -> None:
    """Wait until ``count`` games are connected and ready.

    Raises:
        RequestTimeout: they were not within :data:`CONNECT_TIMEOUT_SECONDS`.
    """
    from .exceptions import RequestTimeout

    loop = asyncio.get_running_loop()
    deadline = loop.time() + CONNECT_TIMEOUT_SECONDS
    while True:
        games = [c for c in bridge.connections if not c.closed]
        if len(games) >= count:
            try:
                async with asyncio.timeout(max(deadline - loop.time(), 0.0)):
                    for game in games:
                        await game.wait_ready()
            except TimeoutError as exc:
                raise RequestTimeout("the simulated worlds did not get ready in time") from exc
            return
        if loop.time() > deadline:
            raise RequestTimeout(f"{len(games)} of {count} simulated worlds connected in time")
        await asyncio.sleep(0.02)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)  # stdout carries the protocol


async def _simulate(
    stack: AsyncExitStack, bridge: Bridge, hosts: Sequence[str | None]
) -> list[Any]:
    """Connect one simulated world per host, in order (None: the default world, Steve's
    with Alex in it); a class's student has the seed of their place in :data:`CLASS_NAMES`."""
    from .sim import SimWorld

    sims = []
    for k, host in enumerate(hosts):
        seed = CLASS_NAMES.index(host) + 1 if host in CLASS_NAMES else k + 1
        world = None if host is None else _class_world(host, seed)
        sim = await stack.enter_async_context(SimWorld(world, fast=True, seed=seed))
        await sim.connect(bridge.url)
        sims.append(sim)
        await _connected(bridge, len(sims))  # in order: ids follow the class list
    return sims


async def _serve(args: argparse.Namespace, policy: Policy, audit: Any) -> int:
    port = args.port if args.port is not None else (0 if args.sim else DEFAULT_BRIDGE_PORT)
    async with AsyncExitStack() as stack:
        bridge = await stack.enter_async_context(serve(args.host, port))
        _say(f"mcbews-repl mcp: the bridge listens; in Minecraft type: {bridge.connect_command}")
        sims = []
        if args.sim:
            hosts = [None] if args.worlds == 1 else list(CLASS_NAMES[: args.worlds])
            sims = await _simulate(stack, bridge, hosts)
            names = ", ".join(c.local_player or "?" for c in bridge.connections)
            _say(f"mcbews-repl mcp: {args.worlds} simulated world(s) connected: {names}")
        if audit is not None:
            _say(f"mcbews-repl mcp: the audit log is {audit.path}")
        contexts = ChatContexts(bridge)
        contexts.start()
        stack.callback(contexts.stop)
        session = McpSession(bridge, policy, audit, contexts, sims=sims)
        server = build_server(session)
        _say(f"mcbews-repl mcp: guard policy from {policy.source}"
             f"{' (read-only)' if policy.read_only else ''}")  # fmt: skip
        if args.http:
            await _serve_http(server, args.http_port)
        else:
            with needs("mcbews-repl mcp"):
                from mcp.server.stdio import stdio_server

            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())
    return 0


async def _serve_http(server: Server[Any], port: int) -> None:
    with needs("mcbews-repl mcp --http"):
        import uvicorn

    app = server.streamable_http_app(host="127.0.0.1")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    web = uvicorn.Server(config)
    running = asyncio.ensure_future(web.serve())
    while not web.started and not running.done():
        await asyncio.sleep(0.02)
    if web.started:  # said once it listens: a client that reads this line can connect
        _say(f"mcbews-repl mcp: streamable HTTP at http://127.0.0.1:{port}/mcp")
    await running


def lesson_worlds(entries: Sequence[AuditEntry]) -> list[str | None]:
    """The hosts of the worlds an audit log's actions went to, in the order first seen
    (the worlds a refusal listed too); ``[None]`` for a lesson in the default simulated
    world (Steve's) or one that named none."""
    names: list[str] = []
    for entry in entries:
        listed = entry.result.get("worlds")
        for name in [entry.world, *(listed if isinstance(listed, list) else [])]:
            fresh = isinstance(name, str) and name and name not in names
            if fresh and isinstance(name, str) and not name.startswith("world #"):
                names.append(name)
    return [None] if names in ([], ["Steve"]) else list(names)


async def _replay(path: Path, policy: Policy) -> int:
    from .capture import audit_entries, replay_audit

    entries = audit_entries(path)
    hosts = lesson_worlds(entries)
    async with AsyncExitStack() as stack:
        bridge = await stack.enter_async_context(serve("127.0.0.1", 0))
        sims = await _simulate(stack, bridge, hosts)
        contexts = ChatContexts(bridge)
        contexts.start()
        stack.callback(contexts.stop)
        session = McpSession(bridge, policy, None, contexts, sims=sims)

        async def again(tool: str, world: str | None, arguments: dict[str, Any]) -> dict[str, Any]:
            given = dict(arguments)
            if world is not None:
                given.setdefault("world", world)
            return await session.call(tool, given)

        report = await replay_audit(path, again)
    worlds = ", ".join(h or "Steve" for h in hosts)
    print(f"Replayed {path} under the policy from {policy.source}, in simulated worlds "
          f"hosted by {worlds}:")  # fmt: skip
    for difference in report.differences:
        print(f"  {difference.describe()}")
    verdict = ("every verdict is the one recorded" if report.same
               else f"{len(report.differences)} differ")  # fmt: skip
    print(f"{report.actions} actions replayed: {verdict}")
    return 0 if report.same else 1


def mcp_main(argv: Sequence[str] | None = None) -> int:
    """``mcbews-repl mcp``: parse ``argv``, run the server until its client leaves (or,
    with ``--replay-audit``, replay a lesson); the exit status (2 for a bad option, policy
    or audit path, said on stderr; a replay: 0 when every verdict is the same, 1 if not).

    Raises:
        MissingDependency: the ``mcp`` extra is not installed (before anything starts).
    """
    args = _parser().parse_args(argv)
    if not args.init_policy and not args.replay_audit:
        require("mcp", "mcbews-repl mcp")
    if args.init_policy:
        target = Path(args.init_policy)
        try:
            with open(target, "x", encoding="utf-8") as out:
                out.write(Policy.default_toml())
        except OSError as exc:
            _say(f"mcbews-repl mcp: cannot write {target}: {exc.strerror or exc}")
            return 2
        print(f"Wrote {target}: the default policy (read-only). Edit it, then: "
              f"mcbews-repl mcp --policy {target}")  # fmt: skip
        return 0
    if not args.sim and args.worlds != 1:
        _say("mcbews-repl mcp: --worlds needs --sim (real games connect by themselves)")
        return 2
    if not 1 <= args.worlds <= WORLDS_MAX:
        _say(f"mcbews-repl mcp: --worlds takes 1..{WORLDS_MAX}, not {args.worlds}")
        return 2
    audit = None
    try:
        policy = Policy.from_toml(args.policy) if args.policy else Policy()
        if args.replay_audit:
            from .capture import read_capture

            read_capture(args.replay_audit)  # a bad file is said before worlds start
        elif args.audit:
            from .capture import AuditLog

            audit = AuditLog(Path(args.audit), notes=(f"policy: {policy.source}",))
    except (PolicyError, CaptureError) as exc:
        _say(f"mcbews-repl mcp: {exc}")
        return 2
    if args.replay_audit:
        try:
            return asyncio.run(_replay(Path(args.replay_audit), policy))
        except McbewsError as exc:
            _say(f"mcbews-repl mcp: the replay stopped: {exc}")
            return 2
    try:
        return asyncio.run(_serve(args, policy, audit))
    except KeyboardInterrupt:
        return 0
    except McbewsError as exc:
        _say(f"mcbews-repl mcp: {exc}")
        return 1
    finally:
        if audit is not None:
            audit.close()
