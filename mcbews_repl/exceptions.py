"""Every exception mcbews_repl raises, in one place.

::

    McbewsError
    ├── FrameTooLarge          (also ValueError) a command cannot fit the line and frame ceilings
    ├── InvalidArgument        (also ValueError) a toolkit argument broke a rule; nothing was sent
    ├── NotConnected           no game client is connected (or the chosen one is gone)
    │   └── BridgeStopped      the bridge itself was stopped (``%mc stop``, unload, ``close()``)
    ├── WhichWorld             (also LookupError) several worlds are connected: say which one
    ├── UnknownEvent           (also ValueError) no game event of that name is known; the
    │                          message lists the known ones and how to ask for it anyway
    ├── AddressInUse           (also OSError) another program already listens on the port
    ├── GameDisconnected       the game connection closed while a request was pending (the
    │                          websockets ConnectionClosed, if any, is its __cause__)
    ├── RequestTimeout         (also TimeoutError) no answer within the timeout
    ├── CommandQueueFull       the connection's command queue is full; nothing was sent
    ├── CommandFailed          raise_for_status() on a command the game reported as failed
    ├── CapabilityError        the addon answered ok:false (code, message)
    ├── NothingToUndo          (also LookupError) ``mc.undo()`` with no write of that world
    │                          kept; mcbews_repl.mcpi's ``restoreCheckpoint()`` with no checkpoint
    ├── CaptureError           (also ValueError) a capture file cannot be written or read
    ├── StructureError         (also ValueError) a .mcstructure file (little-endian NBT)
    │                          cannot be read or made: the message names the file and why
    ├── ChunkError             (also ValueError) parse_chunk/reassemble_chunks: a chunk breaks
    │                          the grammar (``reason`` is a stable short code)
    ├── EncryptionError        (also ValueError) the ws:encrypt handshake failed (bad key or
    │                          mode, refused, no answer); the connection is closed
    ├── Refused                the guard's policy refused a tool's action (``rule``, ``why``,
    │                          ``how_to``: the policy key that changes it); nothing was sent
    ├── PolicyError            (also ValueError) a guard policy file cannot be read or holds
    │                          an unknown key or a wrong value (the message names the key)
    ├── ArgumentProblem        (toolkit/schema.py) a tool argument breaks its schema; tools
    │                          turn it into an ``ok: false`` answer
    ├── PrototypeError         a prototype capability did not load (syntax error, its module threw)
    ├── PackError              (also ValueError) a behavior pack fails a check or has nowhere to go
    ├── MissingDependency      (also ModuleNotFoundError, an ImportError) an optional library
    │                          is not installed; the message names the extra that brings it
    ├── UnknownBlockId         (also ValueError) mcbews_repl.mcpi: an mcpi block id and data
    │                          value, or a Bedrock block, with no equal in the other numbering
    ├── NoBedrockEqual         (also NotImplementedError) mcbews_repl.mcpi: an mcpi call that
    │                          means nothing on Bedrock (the message says why and what to use)
    ├── CheckpointIncomplete   mcbews_repl.mcpi: ``restoreCheckpoint()`` put back what it
    │                          could, but the undo history no longer kept some of the writes
    │                          since the checkpoint (``restored``, ``lost``: how many)
    └── the simulated game's own, caught inside it and turned into game answers:
        CommandSyntaxError (sim/parse.py), CommandError (sim/cmdtypes.py),
        HandshakeRefused (sim/wsencrypt.py, also ValueError), ModuleSyntaxError
        (sim/modules.py, also ValueError; the script host raises it as a PrototypeError)

    CallInterrupted            (a KeyboardInterrupt, on purpose not a McbewsError) Ctrl-C or
                               Interrupt Kernel stopped a call a cell was waiting for; the
                               message says what had been sent. An interrupt must not be
                               caught by ``except Exception``, so it is the one exception
                               outside the tree.

Remote misbehaviour (malformed frames, junk chunks) is never raised: the sans-I/O core
reports it as events. Plain local misuse (a bad argument) raises ``ValueError`` or
``TypeError`` with a message that says what to fix (:func:`wrong_type` words a wrong type the
same way everywhere: what is accepted, then what was given). tests/test_exceptions.py checks that
every public exception class of the package derives from :class:`McbewsError`, but for
:class:`CallInterrupted`.
"""

from __future__ import annotations

__all__ = [
    "AddressInUse",
    "BridgeStopped",
    "CallInterrupted",
    "CapabilityError",
    "CaptureError",
    "CheckpointIncomplete",
    "ChunkError",
    "CommandFailed",
    "CommandQueueFull",
    "EncryptionError",
    "FrameTooLarge",
    "GameDisconnected",
    "InvalidArgument",
    "McbewsError",
    "MissingDependency",
    "NoBedrockEqual",
    "NotConnected",
    "NothingToUndo",
    "PackError",
    "PolicyError",
    "PrototypeError",
    "Refused",
    "RequestTimeout",
    "StructureError",
    "UnknownBlockId",
    "UnknownEvent",
    "WhichWorld",
    "wrong_type",
]


class McbewsError(Exception):
    """Base class of every error mcbews_repl raises on purpose."""


class FrameTooLarge(McbewsError, ValueError):
    """A command would not fit the game's two ceilings; nothing was sent.

    Every commandRequest must fit both: its command line (``line_bytes`` of at most
    ``line_budget_bytes`` UTF-8 bytes) and the whole frame as sent, JSON escapes counted
    (``frame_bytes`` of at most ``frame_budget_bytes``). ``over_by_bytes`` is the larger
    excess of the two. ``size_bytes`` and ``budget_bytes`` are the line's, as before.
    """

    def __init__(
        self,
        what: str,
        line_bytes: int,
        line_budget_bytes: int,
        frame_bytes: int,
        frame_budget_bytes: int,
    ) -> None:
        self.what = what
        self.line_bytes = self.size_bytes = line_bytes
        self.line_budget_bytes = self.budget_bytes = line_budget_bytes
        self.frame_bytes = frame_bytes
        self.frame_budget_bytes = frame_budget_bytes
        self.over_by_bytes = max(line_bytes - line_budget_bytes, frame_bytes - frame_budget_bytes)
        super().__init__(
            f"{what} does not fit: its command line is {line_bytes} UTF-8 bytes (the limit is "
            f"{line_budget_bytes}) and its commandRequest frame {frame_bytes} bytes as sent "
            f"(the limit is {frame_budget_bytes}, JSON escapes counted: a quote or backslash "
            "takes two); shorten it or move data into a capability"
        )


class InvalidArgument(McbewsError, ValueError):
    """A toolkit argument failed its local check, so no command was sent.

    ``argument`` names the parameter, ``problem`` says which rule it broke and ``how_to``
    what a valid value looks like (agent tools pass both on as ``why`` and ``how_to``).
    """

    def __init__(self, argument: str, value: object, problem: str, how_to: str) -> None:
        self.argument = argument
        self.value = value
        self.problem = problem
        self.how_to = how_to
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        super().__init__(f"{argument}={shown}: {problem}; {how_to}")


class NotConnected(McbewsError):
    """No game client is connected; type the /connect line in Minecraft first."""


class BridgeStopped(NotConnected):
    """The bridge was stopped, so nothing can reach a game until it is started again."""


class WhichWorld(McbewsError, LookupError):
    """Several worlds are connected and a call that needs one was not told which.

    The message lists them and says how to choose: ``mc.world("Ana")``, ``mc.each``, or
    ``%mc --world`` / ``%mc --all``. Nothing was sent (never to the newest by chance).
    """


class UnknownEvent(McbewsError, ValueError):
    """No game event of that name is known (mcbews_repl/game_events.py); nothing was
    subscribed. The message lists the known names and says how to subscribe to a name the
    game may know and the bridge does not (``unknown_ok=True``)."""


class AddressInUse(McbewsError, OSError):
    """The bridge could not listen: another program (often another notebook) holds the port."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        self.host = host
        self.port = port
        self.reason = reason
        super().__init__(self.advice("port=0"))

    def advice(self, free_port: str) -> str:
        """The message, with ``free_port`` as the way to ask for a free port where the
        reader is (``port=0`` in Python, ``--port 0`` in ``%mc serve``)."""
        return (
            f"cannot listen on {self.host}:{self.port}: {self.reason}; another bridge or "
            f"notebook may hold it: stop that one, or choose another port ({free_port} picks "
            "a free one)"
        )


class GameDisconnected(McbewsError):
    """The game connection closed before the request was answered."""


class RequestTimeout(McbewsError, TimeoutError):
    """The game or the addon did not answer in time."""


class CommandQueueFull(McbewsError):
    """The command window is full and ``limit`` commands already wait behind it.

    The command was not sent. It is backpressure, not a broken connection: await earlier
    commands before sending more, or raise the ``queue_limit`` setting.
    """

    def __init__(self, limit: int, in_flight: int) -> None:
        self.limit = limit
        self.in_flight = in_flight
        super().__init__(
            f"the command queue is full ({limit} waiting behind {in_flight} in flight); "
            "await earlier commands before sending more, or raise queue_limit"
        )


class CommandFailed(McbewsError):
    """A command the game executed and reported as failed (negative status code)."""

    def __init__(self, status_code: int, message: str, command: str = "") -> None:
        self.status_code = status_code
        self.message = message
        self.command = command
        where = f" ({command!r})" if command else ""
        super().__init__(f"command failed{where}: {message} [status {status_code}]")


class CapabilityError(McbewsError):
    """The addon answered a capability request with ``ok: false``."""

    def __init__(self, code: str, message: str, capability: str = "") -> None:
        self.code = code
        self.message = message
        self.capability = capability
        where = f" {capability}" if capability else ""
        super().__init__(f"capability{where} failed: {code}: {message}")


class NothingToUndo(McbewsError, LookupError):
    """``mc.undo()`` found no write of that world kept (toolkit/undo.py), or mcpi's
    ``restoreCheckpoint()`` no checkpoint saved; nothing was sent."""


class ChunkError(McbewsError, ValueError):
    """A chunk or a set of chunks breaks the grammar; ``reason`` is a stable short code."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason}: {detail}")


class EncryptionError(McbewsError, ValueError):
    """The peer's half of the handshake is unusable (bad key, bad mode), or the game refused
    or did not answer it; says what and why."""


class CaptureError(McbewsError, ValueError):
    """A capture (a recorded session, docs/captures.md) cannot be written or read.

    The message names the file and, for a bad line, its number, and says what to do.
    """


class StructureError(McbewsError, ValueError):
    """A ``.mcstructure`` file (toolkit/structures.py, little-endian NBT) cannot be read or
    made: cut short, over a size bound, a tag of the wrong type or a value out of range.

    The message names the file (when there is one) and what is wrong; nothing was written.
    """


class Refused(McbewsError):
    """The guard's policy refused a tool's action (toolkit/guard.py); nothing was sent.

    ``rule`` names the rule (docs/agents.md lists them), ``why`` says what it refused and
    ``how_to`` which policy key changes it; ``more`` holds details (the command ...).
    """

    def __init__(self, rule: str, why: str, how_to: str, **more: object) -> None:
        super().__init__(f"refused by {rule}: {why}; {how_to}")
        self.rule = rule
        self.why = why
        self.how_to = how_to
        self.more = more


class PolicyError(McbewsError, ValueError):
    """A guard policy (a TOML file) cannot be read, or a key is unknown or has a wrong
    value; the message names the file and the key."""


class PrototypeError(McbewsError):
    """A prototype capability was not registered: its module has a syntax error, threw while
    loading, or does not export a capability. ``line`` is the line of the cell (1-based) when
    the error has one; the message says it too."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class PackError(McbewsError, ValueError):
    """A behavior pack fails a check (manifest, module graph), or cannot be written or loaded
    where it was asked to go; the message says what to fix."""


class MissingDependency(McbewsError, ModuleNotFoundError):
    """A feature needs a library the installation left out (``module``); the message names
    the extra of the package that brings it (``extra``) and the command that installs it.

    It is a ``ModuleNotFoundError`` too, so code that falls back when an import fails keeps
    doing so. Raised through :func:`mcbews_repl.optional.needs`.
    """

    def __init__(self, module: str, extra: str, needed_for: str | None = None) -> None:
        self.module = module
        self.extra = extra
        what = f"{needed_for} needs {module}" if needed_for else f"{module} is needed here"
        super().__init__(
            f"{what}, which is not installed; it comes with the {extra} extra: "
            f'python -m pip install "mcbews-repl[{extra}]"',
            name=module,
        )


class UnknownBlockId(McbewsError, ValueError):
    """An mcpi block id and data value with no Bedrock block (or a Bedrock block with no
    mcpi number); the message names it and says what is known."""


class NoBedrockEqual(McbewsError, NotImplementedError):
    """An mcpi call whose meaning Bedrock has not (the message says why and what to use)."""


class CheckpointIncomplete(McbewsError):
    """``restoreCheckpoint()`` took back every write since the checkpoint that the undo
    history still kept, but ``lost`` of them it no longer kept (dropped to stay within
    ``undo_max_bytes``, or taken back by ``mc.undo()``): the blocks those changed stay as
    they are. ``restored`` writes were put back."""

    def __init__(self, message: str, *, restored: int, lost: int) -> None:
        super().__init__(message)
        self.restored = restored
        self.lost = lost


class CallInterrupted(KeyboardInterrupt):
    """Ctrl-C or Interrupt Kernel stopped a call while a cell waited for it.

    The call was cancelled at the source: nothing more is sent for it, what it had queued
    was withdrawn, and the addon was told to drop its work. The message says what had
    been sent. It is a ``KeyboardInterrupt`` (not a :class:`McbewsError`) so that
    ``except Exception`` around a call does not swallow the user's interrupt.
    """


def wrong_type(accepted: str, given: object) -> TypeError:
    """The ``TypeError`` for an argument of the wrong type: ``accepted`` says what the
    argument takes (``"port must be a whole number 0..65535"``), then what it was given."""
    if given is None:
        return TypeError(f"{accepted}, not None")
    shown = repr(given)
    shown = shown if len(shown) <= _SHOWN_CHARS else shown[: _SHOWN_CHARS - 1] + "…"
    kind = type(given).__name__
    return TypeError(f"{accepted}, not {shown} ({'an' if kind[0] in 'aeiou' else 'a'} {kind})")


_SHOWN_CHARS = 60  # of a wrong value in the message: enough to recognise it
