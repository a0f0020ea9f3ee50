"""mcpi's ``Minecraft`` on Bedrock: ``Minecraft.create()``, then the calls lessons make.

On the Raspberry Pi (and RaspberryJuice) Python dials the game; on Bedrock the game dials
Python (``/connect``). So ``create()`` joins the bridge a notebook already runs (its
``mc``), or starts one of its own on a thread, prints the ``/connect`` line and waits for
the world; ``create(sim=True)`` (or ``MCBEWS_MCPI_SIM=1``) connects a simulated world
instead, so a lesson runs with no game at all. Every call waits for its answer, as mcpi's
do, from a plain script or a notebook cell.

Coordinates count from the world spawn, as RaspberryJuice's do: (0, 0, 0) is the block a
player standing at the spawn is in, read from the game when ``create()`` runs (the addon's
``get_world_spawn``). A spawn whose height is not fixed (a new world's: the game answers y
32767 and finds the height from the blocks there) has its y found the same way: one above
the highest block that is not air at the spawn's x and z, found once per world in a program,
so what a lesson builds there does not move it while the program runs. ``/setworldspawn``
fixes the spawn, height and all. ``coordinates="absolute"`` (or ``MCBEWS_MCPI_COORDINATES=
absolute``) takes the world's own coordinates instead, and ``origin`` any other point.
``setBlock`` is gathered into few writes (``_batch.py``); every read and ``postToChat``
writes what waits first.
"""

from __future__ import annotations

import atexit
import json
import math
import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..exceptions import CapabilityError, NoBedrockEqual, NotConnected, UnknownBlockId
from ..game_events import event_kind
from ..gateway import GameConnection
from ..repl.handle import Minecraft as Handle
from ..repl.handle import start
from ..toolkit import KEEP, PlannedWrite, plan_write, read_blocks
from ._batch import Batch, Entry, Position
from ._checkpoint import Journal
from .block import Block, bedrock_block, mcpi_block
from .entity import Entity
from .event import BlockEvent, ChatEvent, ProjectileEvent
from .vec3 import Vec3

__all__ = [
    "BLOCK_HIT_EVENT",
    "COORDINATES",
    "COORDINATES_ENV",
    "SIM_ENV",
    "CmdCamera",
    "CmdEntity",
    "CmdEvents",
    "CmdPlayer",
    "CmdPositioner",
    "Minecraft",
    "intFloor",
]

# The environment variable that makes create() use a simulated world ("1", "true", "yes").
SIM_ENV = "MCBEWS_MCPI_SIM"
# What positions count from (create's ``coordinates``): the world spawn, as RaspberryJuice's
# default, or the world's own coordinates. The first is the default.
COORDINATES = ("spawn", "absolute")
# The environment variable that chooses it when create() is not told ("spawn", "absolute").
COORDINATES_ENV = "MCBEWS_MCPI_COORDINATES"
# The addon's every-player event a block hit arrives as (hit block and face).
BLOCK_HIT_EVENT = "entity_hit_block"
# The overworld's build limits (Bedrock 1.18 and later: y -64 to 319), for getHeight.
WORLD_BOTTOM_Y, WORLD_TOP_Y = -64, 319
# How long create() waits for the game to /connect before it says so again (seconds);
# None: as long as it takes, as mcpi's create() waits for its socket.
CONNECT_WAIT_SECONDS: float | None = None
# A chat post longer than this is sent as several lines (UTF-8 bytes of text in one
# tellraw: the command line budget is 461 bytes, limits.py, less the JSON around it).
CHAT_LINE_BYTES = 380
# Bedrock's block faces (the addon's Direction) as mcpi numbers them.
_FACES = {"Down": 0, "Up": 1, "North": 2, "South": 3, "West": 4, "East": 5}
_TRUE = {"1", "true", "yes", "on"}

# The port a bridge create() starts listens on: mcbews_repl's own default (start()).
DEFAULT_PORT = 19131
# The variables that move it, as for the notebook's bridge (repl/ipython/_config.py): a
# plain lesson's create() takes no port, so a class on one machine, or a test, sets these.
PORT_ENV, HOST_ENV = "MCBEWS_PORT", "MCBEWS_HOST"

_own: Handle | None = None  # the bridge create() started in this process, reused
_sim_connection: GameConnection | None = None  # the simulated world create() connected
_BATCHES: dict[tuple[int, int], Batch] = {}  # (handle, connection id): its waiting blocks
# (handle, connection id, spawn x, spawn z): the y found for a spawn whose height is not fixed
_SPAWN_HEIGHTS: dict[tuple[int, int, int, int], int] = {}
_JOURNALS: dict[tuple[int, int], Journal] = {}  # (handle, connection id): its checkpoint


def flatten(items: Iterable[Any]) -> list[Any]:
    """mcpi's flattening of arguments: a Vec3 or Block gives its numbers."""
    out: list[Any] = []
    for item in items:
        if isinstance(item, str | bytes):
            out.append(item)
        elif isinstance(item, Iterable):
            out.extend(flatten(item))
        else:
            out.append(item)
    return out


def intFloor(*args: Any) -> list[int]:
    """Every number of the arguments, floored (mcpi's ``intFloor``)."""
    return [math.floor(x) for x in flatten(args)]


def _numbers(args: tuple[Any, ...], count: int, call: str, shape: str) -> list[int]:
    values = intFloor(*args)
    if len(values) < count:
        raise TypeError(f"{call} takes {shape}; got {len(values)} numbers")
    return values


def _env_port() -> int:
    """The port of :data:`PORT_ENV` (0: any free one), else :data:`DEFAULT_PORT`.

    Raises:
        ValueError: the variable is not a port number (the message names it).
    """
    raw = os.environ.get(PORT_ENV, "").strip()
    if not raw:
        return DEFAULT_PORT
    if not raw.isdigit() or int(raw) > 65535:
        raise ValueError(f"{PORT_ENV}={raw!r} is not a port: a whole number from 0 to 65535")
    return int(raw)


def _counting(coordinates: str | None, origin: Iterable[int] | None) -> str:
    """What create()'s positions count from: "spawn", "absolute" or "origin"."""
    if origin is not None:
        if coordinates is not None:
            raise ValueError(
                "give coordinates or origin, not both: origin is the world position "
                "(0, 0, 0) stands for, whatever coordinates says"
            )
        return "origin"
    chosen = coordinates
    if chosen is None:
        chosen = os.environ.get(COORDINATES_ENV, "").strip().lower() or COORDINATES[0]
    if chosen not in COORDINATES:
        where = f"{COORDINATES_ENV}={chosen!r}" if coordinates is None else repr(chosen)
        raise ValueError(
            f"coordinates must be 'spawn' (positions from the world spawn, as "
            f"RaspberryJuice's) or 'absolute' (the world's own); not {where}"
        )
    return chosen


def _notebook_handle() -> Handle | None:
    """The ``mc`` of a notebook or IPython session that loaded mcbews_repl, if running."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    mc = getattr(shell, "user_ns", {}).get("mc") if shell is not None else None
    return mc if isinstance(mc, Handle) and not mc.stopped else None


class Minecraft:
    """The world, as mcpi's ``Minecraft`` is: make it with :meth:`create`."""

    def __init__(
        self,
        handle: Handle,
        connection: GameConnection,
        *,
        origin: Iterable[int] | None = None,
        owns: bool = False,
    ) -> None:
        self._mc = handle
        self._conn = connection
        self._owns = owns
        ox, oy, oz = (int(v) for v in (origin or (0, 0, 0)))
        self._origin = (ox, oy, oz)
        # One batch per world: what one Minecraft of a program holds, another's read sees.
        self._batch = _BATCHES.setdefault((id(handle), connection.id), Batch(self._write_box))
        self._journal = _JOURNALS.setdefault((id(handle), connection.id), Journal())
        self._cursor = handle.bridge.log.last_cursor
        self._hits = event_kind(BLOCK_HIT_EVENT) is not None
        if self._hits:
            self._run(handle.bridge.subscribe(BLOCK_HIT_EVENT, connection=connection))
        self._ids: dict[str, int] = {}  # player name -> entity id, as seen
        self._hits_seen: list[BlockEvent] = []
        self._chats_seen: list[ChatEvent] = []
        self.camera = CmdCamera()
        self.entity = CmdEntity(self)
        self.player = CmdPlayer(self)
        self.events = CmdEvents(self)
        atexit.register(self._at_exit)

    # --- making one ------------------------------------------------------------------------

    @staticmethod
    def create(
        address: str | None = None,
        port: int | None = None,
        *,
        sim: bool | None = None,
        coordinates: str | None = None,
        origin: Iterable[int] | None = None,
        timeout: float | None = CONNECT_WAIT_SECONDS,
    ) -> Minecraft:
        """The world: the notebook's bridge when one runs (``%load_ext mcbews_repl``), else
        a bridge of this program's own on ``address`` (default ``MCBEWS_HOST``, else
        127.0.0.1; 0.0.0.0 for a game on another device) and ``port`` (default
        ``MCBEWS_PORT``, else 19131; 0: any free one). It prints the ``/connect`` line to
        type in Minecraft and waits for the game; ``sim=True`` (or ``MCBEWS_MCPI_SIM=1``)
        connects a simulated world instead (the same one again on a second create()).
        ``coordinates``: ``"spawn"`` (the default, or ``MCBEWS_MCPI_COORDINATES``) counts
        positions from the world spawn, as RaspberryJuice does; ``"absolute"`` takes the
        world's own. ``origin``: the world position (0, 0, 0) stands for, instead of either.

        Raises:
            ValueError: ``coordinates`` is neither of :data:`COORDINATES`, or is given with
                ``origin``.
            UnknownBlockId: the spawn's height is not fixed and no player is near it (its
                blocks are not loaded), so its height cannot be found.
            CapabilityError: the world's addon is older than ``get_world_spawn``.
        """
        global _own, _sim_connection
        if sim is None:
            sim = os.environ.get(SIM_ENV, "").strip().lower() in _TRUE
        counting = _counting(coordinates, origin)
        handle, owns = _notebook_handle(), False
        if handle is None:
            if _own is None or _own.stopped:
                # A simulated world needs no port a player types: any free one (0).
                chosen = (0 if sim else _env_port()) if port is None else port
                _own = start(address or os.environ.get(HOST_ENV) or "127.0.0.1", chosen)
                owns = True
            handle = _own
        if sim:
            known = _sim_connection
            if known is None or known.closed or known not in handle.bridge.connections:
                handle.simulate().result()
                known = _sim_connection = handle.bridge.connections[-1]  # the newest: the sim's
            connection = known
        else:
            if not handle.bridge.connections:
                print(f"In Minecraft (cheats on), type: {handle.connect_command}", flush=True)
            handle.wait_connected(timeout).result()
            connection = handle.bridge.pick()  # several worlds: WhichWorld says so
        world = Minecraft(handle, connection, origin=origin, owns=owns)
        if counting == "spawn":
            try:
                world._origin = world._spawn()
            except BaseException:
                world.close()  # nothing of it stays registered; an own bridge stops
                raise
        return world

    def _spawn(self) -> Position:
        """The world position of the block a player standing at the spawn is in."""
        try:
            answer = self._run(self._mc.bridge.call("get_world_spawn", connection=self._conn))
        except CapabilityError as exc:
            if exc.code != "UNSUPPORTED_CAPABILITY":
                raise
            raise CapabilityError(
                exc.code,
                "this world's addon does not tell the world spawn (get_world_spawn): add the "
                "addon of this mcbews_repl to the world again, or count from the world's own "
                'coordinates: Minecraft.create(coordinates="absolute")',
                exc.capability,
            ) from exc
        spawn = answer["spawn"]
        x, z = math.floor(spawn["x"]), math.floor(spawn["z"])
        if answer.get("fixedHeight", True):
            return x, math.floor(spawn["y"]), z
        key = (id(self._mc), self._conn.id, x, z)
        if key not in _SPAWN_HEIGHTS:
            top = self._top(x, z)
            if top is None:
                raise UnknownBlockId(
                    f"the world spawn (x {x}, z {z}) has no fixed height and no player is near "
                    "it, so the height there is unknown (its blocks are not loaded): go near "
                    "the spawn, fix it with /setworldspawn, or count from the world's own "
                    'coordinates: Minecraft.create(coordinates="absolute")'
                )
            _SPAWN_HEIGHTS[key] = top + 1
        return x, _SPAWN_HEIGHTS[key], z

    # --- plumbing --------------------------------------------------------------------------

    def _run(self, coro: Any) -> Any:
        return self._mc.submit(coro, "mcpi").result()

    def _absolute(self, x: int, y: int, z: int) -> Position:
        ox, oy, oz = self._origin
        return x + ox, y + oy, z + oz

    def _relative(self, x: float, y: float, z: float) -> tuple[float, float, float]:
        ox, oy, oz = self._origin
        return x - ox, y - oy, z - oz

    def _command(self, line: str) -> None:
        """Run a command in this world; the game's refusal raises CommandFailed."""
        self._run(self._mc.bridge.command(line, connection=self._conn)).raise_for_status()

    def _write_box(self, origin: Position, size: Position, blocks: dict[Position, Entry]) -> None:
        palette: list[Any] = [KEEP]
        index: dict[str, int] = {}
        ids = np.zeros(size, dtype=np.int64)
        for (x, y, z), (name, states) in blocks.items():
            key = json.dumps([name, states], sort_keys=True)
            if key not in index:
                index[key] = len(palette)
                palette.append((name, states))
            ids[x - origin[0], y - origin[1], z - origin[2]] = index[key]
        self._send(plan_write(origin, ids, palette=palette), "mcpi setBlock")

    def _send(self, planned: PlannedWrite, what: str) -> None:
        """Write, through this world's undo history while a checkpoint is saved."""

        async def run() -> None:
            builder = self._mc._builder(self._conn)
            await self._journal.write(builder, self._mc.bridge, planned, what, self._conn)

        self._run(run())

    def _read(self, corner1: Position, corner2: Position) -> Any:
        """The blocks between two absolute corners (with states), after pending writes."""
        self._batch.flush()
        return self._run(
            read_blocks(self._mc.bridge, corner1, corner2, states=True, connection=self._conn)
        )

    def _number(self, region: Any, index: int) -> tuple[int, int]:
        name, states = region.state_palette[index]
        if name.startswith("<"):
            raise UnknownBlockId(
                f"a position read is {name}: the game answered no block there (unloaded: "
                "no player is near it; out of world: above or below the build limits)"
            )
        return mcpi_block(name, states)

    def _entry(self, args: list[int], call: str) -> Entry:
        block_id = args[0]
        data = args[1] if len(args) > 1 else 0
        name, states = bedrock_block(block_id, data)
        return name, (states or None)

    def flush(self) -> None:
        """Write every setBlock still waiting (reads and postToChat do it by themselves)."""
        self._batch.flush()

    def _at_exit(self) -> None:
        try:
            self._batch.flush()
        except Exception as exc:  # said, not raised, as the program ends
            print(f"mcpi: the last blocks could not be written: {exc}")
        finally:
            self._batch.cancel()
            if self._owns and not self._mc.stopped:
                self._mc.close()

    def close(self) -> None:
        """Write what waits, and stop the bridge if ``create()`` started it."""
        atexit.unregister(self._at_exit)
        self._at_exit()

    # --- the world -------------------------------------------------------------------------

    def getBlock(self, *args: Any) -> int:
        """The id of the block at (x, y, z)."""
        return self.getBlockWithData(*args).id

    def getBlockWithData(self, *args: Any) -> Block:
        """The block at (x, y, z), with its data value."""
        x, y, z = _numbers(args, 3, "getBlock", "x, y, z")[:3]
        at = self._absolute(x, y, z)
        region = self._read(at, at)
        return Block(*self._number(region, int(region.state_ids[0, 0, 0])))

    def getBlocks(self, *args: Any) -> list[int]:
        """The ids of a box's blocks (x0, y0, z0, x1, y1, z1), in RaspberryJuice's order:
        y, then x, then z, each from its lowest."""
        v = _numbers(args, 6, "getBlocks", "x0, y0, z0, x1, y1, z1")
        region = self._read(self._absolute(*v[0:3]), self._absolute(*v[3:6]))
        cache: dict[int, int] = {}
        out: list[int] = []
        ids = region.state_ids
        sx, sy, sz = ids.shape
        for y in range(sy):
            for x in range(sx):
                for z in range(sz):
                    i = int(ids[x, y, z])
                    if i not in cache:
                        cache[i] = self._number(region, i)[0]
                    out.append(cache[i])
        return out

    def setBlock(self, *args: Any) -> None:
        """Set the block at (x, y, z) to an id and data (``block.WOOL.withData(14)``)."""
        v = _numbers(args, 4, "setBlock", "x, y, z, id[, data]")
        self._batch.add(self._absolute(*v[0:3]), self._entry(v[3:], "setBlock"))

    def setBlocks(self, *args: Any) -> None:
        """Fill a box (x0, y0, z0, x1, y1, z1) with one id and data."""
        v = _numbers(args, 7, "setBlocks", "x0, y0, z0, x1, y1, z1, id[, data]")
        entry = self._entry(v[6:], "setBlocks")
        a, b = self._absolute(*v[0:3]), self._absolute(*v[3:6])
        low = (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]))
        size = (abs(a[0] - b[0]) + 1, abs(a[1] - b[1]) + 1, abs(a[2] - b[2]) + 1)
        self._batch.flush()
        planned = plan_write(low, np.zeros(size, dtype=np.int64), palette=[entry])
        self._send(planned, "mcpi setBlocks")

    def getHeight(self, *args: Any) -> int:
        """The y of the highest block at (x, z) that is not air."""
        x, z = _numbers(args, 2, "getHeight", "x, z")[:2]
        ax, _, az = self._absolute(x, 0, z)
        top = self._top(ax, az)
        return (WORLD_BOTTOM_Y if top is None else top) - self._origin[1]

    def _top(self, x: int, z: int) -> int | None:
        """The world y of the highest block at world (x, z) that is not air; the bottom
        of the world for a column of air, None for one the game answers no block of."""
        region = self._read((x, WORLD_BOTTOM_Y, z), (x, WORLD_TOP_Y, z))
        answered = False
        for y in range(WORLD_TOP_Y - WORLD_BOTTOM_Y, -1, -1):
            name = region.state_palette[int(region.state_ids[0, y, 0])][0]
            if name.startswith("<"):
                continue
            if name != "minecraft:air":
                return y + WORLD_BOTTOM_Y
            answered = True
        return WORLD_BOTTOM_Y if answered else None

    # --- players ---------------------------------------------------------------------------

    def _players(self) -> list[dict[str, Any]]:
        answer = self._run(
            self._mc.bridge.call("get_player_snapshot", target="@a", connection=self._conn)
        )
        players = [p for p in answer.get("players") or [] if isinstance(p, dict)]
        for p in players:
            self._ids[str(p.get("name"))] = int(p.get("id", 0))
        return players

    def _player(self, entity_id: int | None) -> dict[str, Any]:
        players = self._players()
        if entity_id is None:
            host = self._conn.local_player
            found = [p for p in players if p.get("name") == host] or players[:1]
        else:
            found = [p for p in players if int(p.get("id", 0)) == int(entity_id)]
        if not found:
            if entity_id is None:
                raise NotConnected("no player is in the world")
            raise NoBedrockEqual(
                f"entity {entity_id} is not a player in the world; Bedrock reports the "
                "positions of players only (getPlayerEntityIds lists them)"
            )
        return found[0]

    def getPlayerEntityIds(self) -> list[int]:
        """The entity ids of every player in the world."""
        return [int(p.get("id", 0)) for p in self._players()]

    def getPlayerEntityId(self, name: str) -> int:
        """The entity id of the player called ``name``."""
        for p in self._players():
            if p.get("name") == name:
                return int(p.get("id", 0))
        raise LookupError(f"no player {name!r} in the world; getPlayerEntityIds() lists them")

    def _position(self, entity_id: int | None) -> Vec3:
        loc = self._player(entity_id).get("location") or {}
        x, y, z = self._relative(float(loc["x"]), float(loc["y"]), float(loc["z"]))
        return Vec3(x, y, z)

    def _teleport(self, entity_id: int | None, args: tuple[Any, ...], tile: bool) -> None:
        values = [float(v) for v in flatten(args)]
        if len(values) < 3:
            raise TypeError(f"setPos takes x, y, z; got {len(values)} numbers")
        x, y, z = values[:3]
        if tile:
            x, y, z = math.floor(x) + 0.5, math.floor(y), math.floor(z) + 0.5
        ox, oy, oz = self._origin
        name = str(self._player(entity_id).get("name"))
        self._batch.flush()
        # With a decimal point: the game centres a whole number's x and z on its block.
        line = f"tp {json.dumps(name)} {x + ox:.4f} {y + oy:.4f} {z + oz:.4f}"
        self._command(line)

    def _face(self, entity_id: int | None, yaw: float | None, pitch: float | None) -> None:
        """Turn the player (``None``: keep that angle); ``tp`` takes yaw, then pitch."""
        found = self._player(entity_id)
        rot = found.get("rotation") or {}
        yaw = float(rot.get("yaw", 0.0)) if yaw is None else float(yaw)
        pitch = float(rot.get("pitch", 0.0)) if pitch is None else float(pitch)
        loc = found.get("location") or {}
        x, y, z = (float(loc[k]) for k in ("x", "y", "z"))
        self._batch.flush()
        # Where it stands, with a decimal point (not centred); ~ would be the sender's place.
        name = json.dumps(str(found.get("name")))
        self._command(f"tp {name} {x:.4f} {y:.4f} {z:.4f} {yaw:.4f} {pitch:.4f}")

    def _face_along(self, entity_id: int | None, args: tuple[Any, ...]) -> None:
        values = [float(v) for v in flatten(args)]
        if len(values) < 3:
            raise TypeError(f"setDirection takes x, y, z; got {len(values)} numbers")
        x, y, z = values[:3]
        if x == y == z == 0:
            raise ValueError("setDirection needs a direction: x, y and z are all 0")
        yaw = math.degrees(math.atan2(-x, z))
        pitch = math.degrees(math.atan2(-y, math.hypot(x, z)))
        self._face(entity_id, yaw, pitch)

    def _name_of(self, entity_id: int) -> str:
        return str(self._player(entity_id).get("name"))

    def _take(self, seen: list[Any], entity_id: int | None) -> list[Any]:
        """The events of ``seen`` (all, or one entity's: the others stay), after a collect."""
        self._batch.flush()
        self._collect()
        if entity_id is None:
            taken, seen[:] = list(seen), []
            return taken
        if entity_id == -1:  # the connected player
            entity_id = int(self._player(None).get("id", 0))
        taken = [e for e in seen if e.entityId == entity_id]
        seen[:] = [e for e in seen if e.entityId != entity_id]
        return taken

    def _need_hits(self) -> None:
        if not self._hits:
            raise NoBedrockEqual(
                "pollBlockHits needs the addon's entity_hit_block event, which this version "
                "of mcbews_repl does not have; the WebSocket's events carry no hit block"
            )

    def _rotation(self, entity_id: int | None) -> tuple[float, float]:
        rot = self._player(entity_id).get("rotation") or {}
        return float(rot.get("yaw", 0.0)), float(rot.get("pitch", 0.0))

    # --- chat, settings, checkpoints -------------------------------------------------------

    def postToChat(self, msg: Any) -> None:
        """Say ``msg`` to every player (as the game's own line, with no name before it)."""
        self._batch.flush()
        text = str(msg)
        for line in _chat_lines(text):
            raw = json.dumps({"rawtext": [{"text": line}]}, ensure_ascii=False)
            self._command(f"tellraw @a {raw}")

    def setting(self, setting: str, status: Any) -> None:
        """A world setting. ``world_immutable`` is Bedrock's ``/immutableworld``;
        ``nametags_visible`` has no Bedrock equal."""
        if setting == "world_immutable":
            self._batch.flush()
            self._command(f"immutableworld {'true' if status else 'false'}")
            return
        raise NoBedrockEqual(
            f"setting({setting!r}, ...) has no Bedrock equal; world_immutable has (/immutableworld)"
        )

    def setSign(self, *args: Any) -> None:
        """RaspberryJuice's sign with text: no Bedrock command writes a sign's text."""
        raise NoBedrockEqual(
            "setSign has no Bedrock equal: no command writes a sign's text (place the sign "
            "with setBlock; a player writes on it)"
        )

    def spawnEntity(self, *args: Any) -> int:
        """RaspberryJuice's entity by Java Edition number: not mapped to Bedrock's yet."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="spawnEntity"))

    def getEntityTypes(self) -> list[Entity]:
        """RaspberryJuice's entity types by Java Edition number: not mapped yet."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="getEntityTypes"))

    def getEntities(self, typeId: int = -1) -> list[list[Any]]:
        """RaspberryJuice's entities by Java Edition number: not mapped yet."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="getEntities"))

    def removeEntity(self, id: int) -> int:
        """RaspberryJuice's removal by entity id: Bedrock's commands name no entity by id."""
        raise NoBedrockEqual(
            "removeEntity has no Bedrock equal: no command selects an entity by its id "
            "(use /kill with a selector through mcbews_repl's mc.command(...))"
        )

    def removeEntities(self, typeId: int = -1) -> int:
        """RaspberryJuice's removal by Java Edition number: not mapped yet."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="removeEntities"))

    def saveCheckpoint(self) -> None:
        """Mark this point: ``restoreCheckpoint`` puts back every block this program
        changes from now on (a second save replaces the first). Bedrock keeps no snapshot
        of a world, so what players or commands change is not put back (docs/mcpi.md)."""
        self._batch.flush()  # the blocks asked for before the mark belong before it

        async def run() -> None:
            self._journal.mark()

        self._run(run())

    def restoreCheckpoint(self) -> None:
        """Put back every block this program changed since ``saveCheckpoint``, newest write
        first, as each was before it; the checkpoint stays, to go back to again.

        Raises:
            NothingToUndo: no checkpoint was saved (a LookupError).
            CheckpointIncomplete: the undo history no longer kept some of the writes (its
                bound, undo_max_bytes): the message says how many; the rest were put back.
        """
        self._batch.flush()

        async def run() -> None:
            builder = self._mc._builder(self._conn)
            await self._journal.restore(builder, self._mc.bridge, self._conn)

        self._run(run())

    # --- events ----------------------------------------------------------------------------

    def _collect(self) -> None:
        """Move the log's new chat lines and block hits of this world to their queues."""
        log = self._mc.bridge.events(self._cursor)
        if log:
            self._cursor = log[-1].cursor
        for entry in log:
            if entry.connection != self._conn.id:
                continue
            data = entry.data
            if entry.kind == "chat":
                if data.get("is_echo") or data.get("type") not in (None, "chat"):
                    continue
                sender = str(data.get("sender") or "")
                self._chats_seen.append(
                    ChatEvent.Post(self._entity_of(sender), str(data.get("message") or ""))
                )
            elif entry.kind == "game_event" and data.get("event") == BLOCK_HIT_EVENT:
                if data.get("x") is None:
                    continue
                x, y, z = self._relative(float(data["x"]), float(data["y"]), float(data["z"]))
                face = _FACES.get(str(data.get("face")), 1)
                who = str(data.get("player") or data.get("entity") or "")
                self._hits_seen.append(
                    BlockEvent.Hit(int(x), int(y), int(z), face, self._entity_of(who))
                )

    def _entity_of(self, name: str) -> int:
        if name and name not in self._ids:
            self._players()
        return self._ids.get(name, 0)


_ENTITY_NUMBERS = (
    "{call} takes RaspberryJuice's entity types (Java Edition numbers, entity.py), which "
    "this facade does not map to Bedrock's named entities yet; summon and list entities "
    "with mcbews_repl's own calls (mc.command('summon ...'), mc.entities(...))"
)
_PROJECTILES = (
    "pollProjectileHits has no Bedrock event here yet: the addon forwards no projectile "
    "hit; block hits (pollBlockHits) and chat posts (pollChatPosts) are polled"
)


def _entity_id(args: tuple[Any, ...]) -> int:
    values = intFloor(*args)
    if not values:
        raise TypeError("an entity's events take its entity id")
    return values[0]


def _chat_lines(text: str) -> list[str]:
    """``text`` in lines of at most :data:`CHAT_LINE_BYTES` (each a whole character)."""
    lines: list[str] = []
    for part in text.split("\n") or [""]:
        line = ""
        for ch in part:
            if len((line + ch).encode("utf-8")) > CHAT_LINE_BYTES:
                lines.append(line)
                line = ""
            line += ch
        lines.append(line)
    return lines


class CmdPositioner:
    """Positions and facing of an entity (a player, on Bedrock) by its entity id."""

    def __init__(self, mc: Minecraft) -> None:
        self._mc = mc

    def getPos(self, id: int) -> Vec3:
        """Where the entity is (floats)."""
        return self._mc._position(id)

    def setPos(self, id: int, *args: Any) -> None:
        """Move the entity to (x, y, z)."""
        self._mc._teleport(id, args, tile=False)

    def getTilePos(self, id: int) -> Vec3:
        """The block the entity stands in (whole numbers)."""
        p = self._mc._position(id)
        return Vec3(math.floor(p.x), math.floor(p.y), math.floor(p.z))

    def setTilePos(self, id: int, *args: Any) -> None:
        """Move the entity to the block (x, y, z): its centre."""
        self._mc._teleport(id, args, tile=True)

    def getDirection(self, id: int) -> Vec3:
        """The unit vector the entity looks along."""
        return _direction(*self._mc._rotation(id))

    def setDirection(self, id: int, *args: Any) -> None:
        """Turn the entity to look along (x, y, z)."""
        self._mc._face_along(id, args)

    def setRotation(self, id: int, yaw: float) -> None:
        """Turn the entity to ``yaw`` degrees (0 south, 90 west)."""
        self._mc._face(id, yaw, None)

    def setPitch(self, id: int, pitch: float) -> None:
        """Tilt the entity's view to ``pitch`` degrees (90 looking down)."""
        self._mc._face(id, None, pitch)

    def getRotation(self, id: int) -> float:
        """The entity's yaw in degrees (0 south, 90 west, as Java's and Bedrock's)."""
        return self._mc._rotation(id)[0]

    def getPitch(self, id: int) -> float:
        """The entity's pitch in degrees (90 looking down)."""
        return self._mc._rotation(id)[1]

    def setting(self, setting: str, status: Any) -> None:
        """mcpi's player setting ``autojump``: Bedrock's is the player's own option."""
        raise NoBedrockEqual(
            f"player setting {setting!r} has no Bedrock equal: auto-jump is a setting of "
            "each player's own game (Settings > Controls)"
        )


def _direction(yaw: float, pitch: float) -> Vec3:
    ry, rp = math.radians(yaw), math.radians(pitch)
    return Vec3(-math.sin(ry) * math.cos(rp), -math.sin(rp), math.cos(ry) * math.cos(rp))


class CmdEntity(CmdPositioner):
    """``mc.entity``: the same calls as ``mc.player``, for any player by entity id."""

    def getName(self, id: int) -> str:
        """The name of the player with this entity id."""
        return self._mc._name_of(id)

    def getEntities(self, id: int, distance: int = 10, typeId: int = -1) -> list[list[Any]]:
        """RaspberryJuice's entities near one, by Java Edition number: not mapped yet."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="entity.getEntities"))

    def removeEntities(self, id: int, distance: int = 10, typeId: int = -1) -> int:
        """RaspberryJuice's removal near one, by Java Edition number: not mapped yet."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="entity.removeEntities"))

    def pollBlockHits(self, *args: Any) -> list[BlockEvent]:
        """The blocks this player hit since the last poll (the other players' stay)."""
        self._mc._need_hits()
        return self._mc._take(self._mc._hits_seen, _entity_id(args))

    def pollChatPosts(self, *args: Any) -> list[ChatEvent]:
        """The chat lines this player wrote since the last poll (the others' stay)."""
        return self._mc._take(self._mc._chats_seen, _entity_id(args))

    def pollProjectileHits(self, *args: Any) -> list[ProjectileEvent]:
        """RaspberryJuice's projectile hits: no Bedrock event reaches the facade yet."""
        raise NoBedrockEqual(_PROJECTILES)

    def clearEvents(self, *args: Any) -> None:
        """Forget this player's events not yet polled."""
        entity = _entity_id(args)
        self._mc._take(self._mc._hits_seen, entity)
        self._mc._take(self._mc._chats_seen, entity)


class CmdPlayer(CmdPositioner):
    """``mc.player``: the player whose game is connected (the host, as on the Pi)."""

    def getPos(self) -> Vec3:  # type: ignore[override]
        return self._mc._position(None)

    def setPos(self, *args: Any) -> None:
        self._mc._teleport(None, args, tile=False)

    def getTilePos(self) -> Vec3:  # type: ignore[override]
        p = self._mc._position(None)
        return Vec3(math.floor(p.x), math.floor(p.y), math.floor(p.z))

    def setTilePos(self, *args: Any) -> None:
        self._mc._teleport(None, args, tile=True)

    def getDirection(self) -> Vec3:  # type: ignore[override]
        return _direction(*self._mc._rotation(None))

    def getRotation(self) -> float:  # type: ignore[override]
        return self._mc._rotation(None)[0]

    def getPitch(self) -> float:  # type: ignore[override]
        return self._mc._rotation(None)[1]

    def setDirection(self, *args: Any) -> None:
        self._mc._face_along(None, args)

    def setRotation(self, yaw: float) -> None:  # type: ignore[override]
        self._mc._face(None, yaw, None)

    def setPitch(self, pitch: float) -> None:  # type: ignore[override]
        self._mc._face(None, None, pitch)

    def getEntities(self, distance: int = 10, typeId: int = -1) -> list[list[Any]]:
        """RaspberryJuice's entities near the player, by Java Edition number: not mapped."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="player.getEntities"))

    def removeEntities(self, distance: int = 10, typeId: int = -1) -> int:
        """RaspberryJuice's removal near the player, by Java Edition number: not mapped."""
        raise NoBedrockEqual(_ENTITY_NUMBERS.format(call="player.removeEntities"))

    def pollBlockHits(self) -> list[BlockEvent]:
        """The blocks this player hit since the last poll (the other players' stay)."""
        self._mc._need_hits()
        return self._mc._take(self._mc._hits_seen, -1)

    def pollChatPosts(self) -> list[ChatEvent]:
        """The chat lines this player wrote since the last poll (the others' stay)."""
        return self._mc._take(self._mc._chats_seen, -1)

    def pollProjectileHits(self) -> list[ProjectileEvent]:
        """RaspberryJuice's projectile hits: no Bedrock event reaches the facade yet."""
        raise NoBedrockEqual(_PROJECTILES)

    def clearEvents(self) -> None:
        """Forget this player's events not yet polled."""
        self._mc._take(self._mc._hits_seen, -1)
        self._mc._take(self._mc._chats_seen, -1)


class CmdCamera:
    """``mc.camera``: the Pi's camera modes. Bedrock's camera is each player's own, so these
    do nothing, and a lesson that sets them still runs."""

    def setNormal(self, *args: Any) -> None:
        """Does nothing on Bedrock (the player's own camera)."""

    def setFixed(self) -> None:
        """Does nothing on Bedrock (the player's own camera)."""

    def setFollow(self, *args: Any) -> None:
        """Does nothing on Bedrock (the player's own camera)."""

    def setPos(self, *args: Any) -> None:
        """Does nothing on Bedrock (the player's own camera)."""


class CmdEvents:
    """``mc.events``: block hits and chat posts since the last poll."""

    def __init__(self, mc: Minecraft) -> None:
        self._mc = mc

    def clearAll(self) -> None:
        """Forget every event not yet polled."""
        mc = self._mc
        mc._collect()
        mc._hits_seen.clear()
        mc._chats_seen.clear()

    def pollBlockHits(self) -> list[BlockEvent]:
        """The blocks players hit since the last poll (any player, any item: Bedrock's
        ``entityHitBlock``, forwarded by the addon)."""
        self._mc._need_hits()
        hits: list[BlockEvent] = self._mc._take(self._mc._hits_seen, None)
        return hits

    def pollChatPosts(self) -> list[ChatEvent]:
        """The chat lines players wrote since the last poll."""
        posts: list[ChatEvent] = self._mc._take(self._mc._chats_seen, None)
        return posts

    def pollProjectileHits(self) -> list[ProjectileEvent]:
        """RaspberryJuice's projectile hits: no Bedrock event reaches the facade yet."""
        raise NoBedrockEqual(_PROJECTILES)
