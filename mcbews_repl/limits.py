"""Every bound of the bridge's own, in one place, each with its unit and its reason.

The wire's limits (what the game and the addon impose: the 461-byte command line, 100
commands in flight, the reassembler's 64 buffers and 256 KiB) live in ``wire.json``. This
module holds the numbers the bridge chooses for itself so that a broken or hostile peer
cannot make it grow without bound: how much of the event log one connection may hold, how
many UI chat callbacks may run at once, how often a source address may guess the path
token. :class:`~mcbews_repl.gateway.Settings` takes its defaults from here, and
docs/gateway.md ("Limits") lists the same table (a test keeps the two in step).

Standard library only: the sans-I/O core reads its reservation from here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeVar

__all__ = ["BOUNDS", "Bound"]

_N = TypeVar("_N", int, float)


@dataclass(frozen=True, slots=True)
class Bound:
    """One named bound: ``setting`` is its ``Settings`` field (None: fixed in code)."""

    name: str
    value: int | float
    unit: str
    reason: str
    setting: str | None = None


BOUNDS: Final[dict[str, Bound]] = {}


def _bound(name: str, value: _N, unit: str, reason: str, *, setting: bool = True) -> _N:
    BOUNDS[name] = Bound(name, value, unit, reason, name if setting else None)
    return value


KIB: Final = 1024
MIB: Final = 1024 * KIB

# --- commands --------------------------------------------------------------------------------
QUEUE_LIMIT: Final = _bound(
    "queue_limit",
    10_000,
    "commands",
    "commands waiting behind a full window, per connection; enough for any script, beyond "
    "it a caller is misbehaving (command() raises CommandQueueFull)",
)
COMMAND_TIMEOUT_SECONDS: Final = _bound(
    "command_timeout",
    10.0,
    "seconds",
    "a command the game has not answered in 10 s is lost (real answers take milliseconds)",
)
HANDSHAKE_TIMEOUT_SECONDS: Final = _bound(
    "handshake_timeout",
    5.0,
    "seconds",
    "the handshake's getlocalplayername must not hold wait_connected() for long",
)

CANCEL_NOTICE_TIMEOUT_SECONDS: Final = _bound(
    "cancel_notice_timeout",
    5.0,
    "seconds",
    "a `mcbews:cancel` notice the game has not taken in 5 s is given up (counted): the "
    "addon's 30 s TTL drops the work it names anyway",
    setting=False,
)
CANCEL_CONFIRM_SECONDS: Final = _bound(
    "cancel_confirm",
    2.0,
    "seconds",
    "how long an interrupted cell waits for the bridge's thread to confirm that the call "
    "stopped (normally a few milliseconds), so its message can say what was sent",
    setting=False,
)

# --- the event log ---------------------------------------------------------------------------
LOG_CAPACITY_ENTRIES: Final = _bound(
    "log_capacity",
    10_000,
    "entries",
    "a bounded ring buffer: a long session's history, never all of it",
)
LOG_MAX_BYTES: Final = _bound(
    "log_max_bytes",
    16 * MIB,
    "bytes",
    "the whole event log's estimated size; 150 chats of 1 MiB once kept 146 MiB alive "
    "when only entries were counted",
)
LOG_CONNECTION_MAX_BYTES: Final = _bound(
    "log_connection_max_bytes",
    4 * MIB,
    "bytes",
    "one connection's share of the event log: a flooding peer evicts its own oldest "
    "entries, not everyone else's",
)
LOG_TEXT_CHARS: Final = _bound(
    "log_text_chars",
    4096,
    "characters",
    "one text field of an entry (a chat message, a traceback); longer text keeps its head "
    "and tail around a visible marker and the full length is recorded. Game chat is far "
    "shorter; a 1 MiB chat is an attack or a bug",
)
LOG_ENTRY_OVERHEAD_BYTES: Final = _bound(
    "log_entry_overhead_bytes",
    240,
    "bytes",
    "what an entry costs beyond its summary, its data dict and the values in it (the entry "
    "object, its cursor and size in the log's own books): measured with tracemalloc over "
    "10,000 entries of each kind, an estimate of this plus sys.getsizeof of the rest is "
    "within 10% of what is held for game events (1,312 bytes each), chat and commands. "
    "It once counted strings only, and was 19% under for game events' many numbers",
    setting=False,
)

PAGE_PULLS_AT_ONCE: Final = _bound(
    "page_pulls_at_once",
    100,
    "pulls",
    "page pulls of one connection running side by side, each a task: no more than the "
    "command window lets be in flight (the game's 100); a message always gets one, so "
    "32 big answers read together cost 100 tasks, not one per page",
    setting=False,
)

# --- UI chat callbacks -----------------------------------------------------------------------
UI_CHAT_IN_FLIGHT: Final = _bound(
    "ui_chat_in_flight",
    4,
    "messages",
    "UI chat messages whose callbacks run at once, per connection: a few players typing "
    "at the same moment are served together, a flood is not",
)
UI_CHAT_BACKLOG: Final = _bound(
    "ui_chat_backlog",
    256,
    "messages",
    "UI chat messages waiting for a callback slot, per connection; beyond it a message is "
    "dropped, counted (ui_chat_dropped) and recorded",
)
UI_CHAT_BACKLOG_BYTES: Final = _bound(
    "ui_chat_backlog_bytes",
    1 * MIB,
    "bytes",
    "the same backlog's size (its messages' strings as held): 256 messages of the 2 MiB a "
    "pull message could once have took one notebook from 43 to 580 MB; now a message is at "
    "most 64 KiB, and a game's backlog at most this, whichever bound comes first",
)
CALLBACK_FAILURES_KEPT: Final = _bound(
    "callback_failures_kept",
    100,
    "failures",
    "the REPL's mc.callback_failures keeps the most recent ones; older ones are counted",
    setting=False,
)
CALLBACK_FAILURES_PRINTED: Final = _bound(
    "callback_failures_printed",
    10,
    "failures",
    "the REPL prints the first failures of UI chat callbacks with their tracebacks, then "
    "says it stops: 5,000 failing messages must not print 5,000 tracebacks into a cell",
    setting=False,
)

# --- the pull transport (and the probes of every transport) -----------------------------------
PROBE_TIMEOUT_SECONDS: Final = _bound(
    "probe_timeout",
    3.0,
    "seconds",
    "each transport probe (list_capabilities) on connect: a way that works answers within "
    "a few ticks; it is what a world without the addon adds to wait_connected()",
)
POLL_INTERVAL_SECONDS: Final = _bound(
    "poll_interval",
    0.25,
    "seconds",
    "a pulling connection asks for UI chat (mcbews:poll) this often while none waits: "
    "about 4 commands a second at idle, a message waiting at most a quarter second and a tick",
)
POLL_BACKOFF_FIRST_SECONDS: Final = _bound(
    "poll_backoff_first",
    1.0,
    "seconds",
    "after a refused or unanswered poll the poller waits this long, doubling, so a world "
    "that lost the pack is not asked four times a second",
    setting=False,
)
POLL_BACKOFF_MAX_SECONDS: Final = _bound(
    "poll_backoff_max",
    30.0,
    "seconds",
    "the longest wait between polls after failures",
    setting=False,
)

# --- the tags transport ----------------------------------------------------------------------
TAGS_HELLO_SECONDS: Final = _bound(
    "tags_hello",
    2.0,
    "seconds",
    "a connection that reads tags says so (scriptevent mcbews:tags_poll) this often: well "
    "within the 5 s the addon counts a reader live (wire.json pull_poll_live_seconds), so UI "
    "chat for it is written as tags on its player",
    setting=False,
)
TAGS_IDLE_READ_SECONDS: Final = _bound(
    "tags_idle_read",
    0.05,
    "seconds",
    "while a call waits and two reads in a row found no new page, the next waits this long: "
    "one game tick (commands run at ticks, so reading sooner shows nothing new), so a world "
    "where nothing answers is read 20 times a second, not as fast as frames can go",
    setting=False,
)
TAGS_UI_READING_MAX: Final = _bound(
    "tags_ui_reading_max",
    8,
    "messages",
    "UI chat messages read from tags at once, each at most 64 KiB; more stay on the player "
    "until these are read (the addon's TTL bounds them), so a flood holds little here",
    setting=False,
)
TRANSPORT_REPROBE_TIMEOUTS: Final = _bound(
    "transport_reprobe_timeouts",
    3,
    "timeouts",
    "calls in a row that time out on a connection's chosen transport before every way is "
    "probed again (a pack reloaded, an update that changed what the game reports): one slow "
    "call is not a broken way, three in a row likely are",
    setting=False,
)

# --- chunk reassembly ------------------------------------------------------------------------
ANSWER_RESERVED_BUFFERS: Final = _bound(
    "answer_reserved_buffers",
    32,
    "buffers",
    "of the reassembler's 64 buffers (wire.json), kept for answers to requests we sent: "
    "unsolicited streams (UI chat) may use only the rest, so a flood cannot block answers",
    setting=False,
)
ANSWER_RESERVED_BYTES: Final = _bound(
    "answer_reserved_bytes",
    128 * KIB,
    "bytes",
    "of the reassembler's 256 KiB (wire.json), kept for answers: two answers of the "
    "64 KiB maximum fit whatever unsolicited streams hold",
    setting=False,
)
PAGED_ANSWERS_MAX_BYTES: Final = _bound(
    "paged_answers_max_bytes",
    8 * MIB,
    "bytes",
    "completed pages of paged chat answers held per connection until each answer's last "
    "page (docs/protocol.md): four answers of the 2 MiB maximum, as the addon's pull store",
    setting=False,
)

# --- who may connect -------------------------------------------------------------------------
ACCEPT_BACKLOG: Final = _bound(
    "accept_backlog",
    64,
    "connections",
    "connections the kernel queues before the bridge accepts them, and so the most asyncio "
    "accepts in one turn of the loop (a task each): 100, asyncio's default, let 1,100 "
    "half-open sockets raise the live tasks to 367; a classroom of 32 games still fits",
    setting=False,
)
MAX_CONNECTIONS: Final = _bound(
    "max_connections",
    32,
    "connections",
    "simultaneous game connections: a classroom's games fit; each costs a reader task, "
    "up to 256 KiB of chunk buffers and its share of the log",
)
HANDSHAKE_FAILURE_BURST: Final = _bound(
    "handshake_failure_burst",
    10,
    "attempts",
    "failed handshakes (wrong path token) one source address may make at full speed; "
    "typos and a misconfigured game stay well inside it",
)
HANDSHAKE_FAILURES_PER_SECOND: Final = _bound(
    "handshake_failures_per_second",
    2.0,
    "attempts/s",
    "after the burst, an address's token checks are paced to this rate: 2,293 guesses a "
    "second were measured unthrottled on loopback; at 2/s the 32-bit token takes decades",
)
HANDSHAKE_MAX_DELAY_SECONDS: Final = _bound(
    "handshake_max_delay",
    5.0,
    "seconds",
    "the longest a throttled handshake is held before its answer; an attempt that would "
    "wait longer is refused at once (HTTP 429) without its token being checked",
)
HANDSHAKE_TRACKED_ADDRESSES: Final = _bound(
    "handshake_tracked_addresses",
    4096,
    "addresses",
    "source addresses whose failures are remembered; the least recently seen is "
    "forgotten first, so many addresses cannot grow the table",
    setting=False,
)
HANDSHAKES_DELAYED_MAX: Final = _bound(
    "handshakes_delayed_max",
    64,
    "handshakes",
    "throttled handshakes held open at once across all addresses (each holds a socket); "
    "beyond it attempts are refused at once",
    setting=False,
)
HANDSHAKE_FAILURE_BURST_ALL: Final = _bound(
    "handshake_failure_burst_all",
    40,
    "attempts",
    "wrong-token checks at full speed across every address that has not proved the token: "
    "a class typing /connect at once, typos included, stays inside it",
)
HANDSHAKE_FAILURES_PER_SECOND_ALL: Final = _bound(
    "handshake_failures_per_second_all",
    20.0,
    "attempts/s",
    "past that burst, token checks of all such addresses together; beyond it refused "
    "unchecked (429). 500 addresses were checked at 1,549/s with only the per-address "
    "pace; at 20/s finding the 32-bit token takes 3.4 years on average",
)
PROVEN_ADDRESS_TTL_SECONDS: Final = _bound(
    "proven_address_ttl",
    3600.0,
    "seconds",
    "an address whose game connected with the right token is checked in spite of any "
    "budget for this long after its last game left (a lesson); 0 remembers none",
)
PROVEN_ADDRESSES_MAX: Final = _bound(
    "proven_addresses_max",
    1024,
    "addresses",
    "addresses remembered as having proved the token; only the right token adds one, and "
    "the one proved longest ago is forgotten first",
    setting=False,
)
MAX_CONNECTIONS_PER_ADDRESS: Final = _bound(
    "max_connections_per_address",
    4,
    "connections",
    "game connections open at once from one source address (a classroom has a game per "
    "machine), so one token holder cannot take every slot; this machine's own address "
    "(127.0.0.1, ::1: the simulated class, tests) is not held to it",
)
MAX_HALF_OPEN: Final = _bound(
    "max_half_open",
    128,
    "connections",
    "sockets accepted whose opening handshake is not answered yet, in all; beyond it a "
    "new one is closed at once. 1,100 such sockets at a 1,024-descriptor limit made asyncio "
    "log 7,748 accept errors in 8 s",
)
HALF_OPEN_PROVEN_EXTRA: Final = _bound(
    "half_open_proven_extra",
    32,
    "connections",
    "room beyond max_half_open that only addresses that proved the token may use, so "
    "strangers holding sockets open cannot keep a known game out",
    setting=False,
)
MAX_HALF_OPEN_PER_ADDRESS: Final = _bound(
    "max_half_open_per_address",
    8,
    "connections",
    "the same, per source address: a game opens one at a time; this machine's own address "
    "is held only to max_half_open (a simulated class opens its worlds at once)",
)
REQUEST_TIMEOUT_SECONDS: Final = _bound(
    "request_timeout",
    3.0,
    "seconds",
    "a new socket must send its whole HTTP request within this, before its token is "
    "checked; the game sends it at once, a socket that sends nothing or half is closed",
)
REFUSAL_SUMMARY_SECONDS: Final = _bound(
    "refusal_summary_interval",
    10.0,
    "seconds",
    "the first refusal of a reason is recorded at once; while more follow, they are counted "
    "and recorded as one summary entry this often, so a flood cannot flood the event log",
    setting=False,
)
REFUSAL_ADDRESSES_COUNTED: Final = _bound(
    "refusal_addresses_counted",
    256,
    "addresses",
    "distinct source addresses one refusal summary counts by name; refusals from further "
    "addresses are counted together",
    setting=False,
)
READER_FRAMES_PER_TURN: Final = _bound(
    "reader_frames_per_turn",
    16,
    "frames",
    "frames one connection's reader handles before letting the event loop serve others: "
    "a single 256 KiB socket read can hold over a thousand small frames, and handling them "
    "in one go held another game's answer back 130 ms in the soak benchmark",
    setting=False,
)
READ_LIMIT_FACTOR: Final = _bound(
    "read_limit_factor",
    4,
    "x max_frame_bytes",
    "frames over max_frame_bytes are read and dropped; websockets closes the connection "
    "(1009) only past this multiple, so one oversized frame does not cost a player the "
    "connection yet a peer cannot make us buffer unbounded data",
    setting=False,
)

# --- captures (mcbews_repl.capture, docs/captures.md) ----------------------------------------
CAPTURE_MAX_BYTES: Final = _bound(
    "capture_max_bytes",
    16 * MIB,
    "bytes",
    "a recording stops, saying so, once its file reaches this size (mc.record(max_bytes=...) "
    "chooses another): a doctor session takes about 30 KiB and an hour of notebook work a "
    "few MiB, and finishing (redaction) reads the whole file into memory",
    setting=False,
)
CAPTURE_FRAME_MAX_BYTES: Final = _bound(
    "capture_frame_max_bytes",
    64 * KIB,
    "bytes",
    "a frame is recorded up to this size and marked as cut beyond it: the game's own frames "
    "are a few KiB at most, and one hostile 1 MiB frame must not end a recording",
    setting=False,
)
CAPTURE_LINE_MAX_BYTES: Final = _bound(
    "capture_line_max_bytes",
    CAPTURE_MAX_BYTES,
    "bytes",
    "reading a capture (replay, redact) refuses a longer line before parsing it, having read "
    "no more of it than this: no line of a recording within the default size is longer, and "
    "a 200 MB line was once read whole (685 MB resident)",
    setting=False,
)
CAPTURE_READ_MAX_BYTES: Final = _bound(
    "capture_read_max_bytes",
    4 * CAPTURE_MAX_BYTES,
    "bytes",
    "reading a capture keeps every record in memory (about three times the file's size), so "
    "a file past four default recordings is refused; read_capture(max_bytes=...) and "
    "mcbews-repl replay --max-mb read a larger one on purpose",
    setting=False,
)
CAPTURE_JSON_DEPTH_MAX: Final = _bound(
    "capture_json_depth_max",
    100,
    "levels",
    "a capture line nesting deeper is refused before it is parsed: the deepest record in "
    "tests/captures nests 9 levels (a capability result inside a call record), and Python's "
    "parser fails near 1,000 (a 100,000-deep line once ended replay with a RecursionError)",
    setting=False,
)
DOCTOR_CAPTURES_KEPT: Final = _bound(
    "doctor_captures_kept",
    50,
    "captures",
    "the doctor saves each session to the user's cache folder unless told where; past the 50 "
    "newest (a few KiB each), the oldest is deleted when a new one is saved, so a cache "
    "never fills a disk however often the doctor runs",
    setting=False,
)

# --- game events -----------------------------------------------------------------------------
EVENT_SUBSCRIPTIONS_MAX: Final = _bound(
    "event_subscriptions_max",
    128,
    "event names",
    "names subscribed to at once, everywhere or in one world: the game lists about 200 "
    "events and the corpus knows 23, so a loop subscribing to made-up names (unknown_ok) "
    "stops here instead of sending the game thousands of subscribe frames",
    setting=False,
)
EVENT_NAME_MAX_CHARS: Final = _bound(
    "event_name_max_chars",
    64,
    "characters",
    "the longest name an unknown_ok subscription takes: the game's longest listed event "
    "name (MultiplayerConnectionStateChanged) has 33",
    setting=False,
)
FORWARDED_EVENTS_PER_SECOND: Final = _bound(
    "forwarded_events_per_second",
    2000,
    "events a second",
    "events forwarded by the addon that one connection keeps in a second (a second's worth "
    "may come at once); the addon itself sends at most 1,280 (wire.json), so only a peer that "
    "is not the addon passes this; the rest are dropped, counted (forwarded_dropped) and "
    "recorded",
    setting=False,
)
FORWARDED_BYTES_PER_SECOND: Final = _bound(
    "forwarded_bytes_per_second",
    256 * 1024,
    "bytes a second",
    "forwarded batches' JSON one connection reads in a second: twice what the addon sends "
    "at most (128 KiB, wire.json); a batch past it is dropped whole and counted",
    setting=False,
)
UI_READS_AT_ONCE: Final = _bound(
    "ui_reads_at_once",
    8,
    "messages",
    "UI chat messages (forwarded batches among them) a pulling connection reads side by side: "
    "the next poll goes while a message's other pages are pulled, so a batch a tick keeps up "
    "(one at a time, a 6-page batch took 3 ticks and 1,000 forwarded events a second lost "
    "half; with 4, 1 to 5 percent; with 8, none); each is handed on in the order polled",
    setting=False,
)
STRAY_FORWARDED_RESYNC_SECONDS: Final = _bound(
    "stray_forwarded_resync",
    30.0,
    "seconds",
    "the addon keeps its subscriptions when a bridge goes away, so a new bridge may get "
    "events it never asked for: it asks the addon again for exactly what it wants, at most "
    "this often per connection (one capability call; the unasked events are counted meanwhile)",
    setting=False,
)
FORWARDED_POLL_INTERVAL_SECONDS: Final = _bound(
    "forwarded_poll_interval",
    0.025,
    "seconds",
    "while a pulling (or tag-reading) connection has the addon forward events, it waits this "
    "long between an empty read and the next (half a tick): each read waits for the game's "
    "tick, so about 20 a second (measured), and a batch reaches Python within 2 ticks (0.05 s "
    "measured 3)",
    setting=False,
)
GAME_EVENTS_PER_SECOND: Final = _bound(
    "game_events_per_second",
    2000,
    "events a second",
    "the game's own (WebSocket) events one connection keeps in a second (a second's worth may "
    "come at once): they are the connected client's own, a few a tick at most (PlayerTravelled "
    "once a tick), and the events benchmark floods 1,000 a second without a loss "
    "(docs/benchmarks.md); past it a peer is flooding: the rest are dropped, counted "
    "(game_events_dropped) and recorded once a second",
    setting=False,
)
RATED_PLAYERS_MAX: Final = _bound(
    "rated_players_max",
    256,
    "players",
    "(event kind, player) pairs whose last second one connection remembers for a subscription's "
    'rate (mc.subscribe("PlayerTravelled", rate=2)), at most 20 times each: a WebSocket '
    "event is the connected client's own, so one player a kind; past it (a peer forging names) "
    "the one heard from longest ago is forgotten first",
    setting=False,
)
SUBSCRIBE_ACKS_AWAITED: Final = _bound(
    "subscribe_acks_awaited",
    256,
    "request ids",
    "subscribe and unsubscribe frames whose acknowledgement is still expected, per "
    "connection: a game that never acknowledges them must not grow the set; past it the "
    "oldest is forgotten (its late answer is then counted as a late response)",
    setting=False,
)

# --- writing blocks (toolkit/undo.py) --------------------------------------------------------
UNDO_MAX_BYTES: Final = _bound(
    "undo_max_bytes",
    64 * MIB,
    "bytes",
    "what the writes of one world replaced, kept for mc.undo(): two bytes a block written, "
    "so a thousand 32x32x32 writes; past it the oldest is dropped first and the write that "
    "dropped it says so",
    setting=False,
)
CHECKPOINT_MAX_BYTES: Final = _bound(
    "checkpoint_max_bytes",
    64 * MIB,
    "bytes",
    "the regions mc.checkpoint(name) saved in one world, two bytes a block: a 256x128x256 "
    "box and more; past it the oldest checkpoint is dropped first and the new one says so",
    setting=False,
)
CONFIRM_ABOVE_BLOCKS: Final = _bound(
    "confirm_above_blocks",
    65_536,
    "blocks",
    "a write that would set more blocks than this asks for force=True (the message says how "
    "many): twice a 32x32x32 box, so a mistaken size or radius stops before it covers a "
    "landscape; %config McbewsRepl.confirm_above_blocks changes it",
    setting=False,
)
