"""No failure is silent: every %mc sub-command and every mc method shows what went wrong.

Each one is made to fail in a real shell and the test reads what the shell printed. The
tables of failing calls must cover every sub-command of ipython/_usage.py and every public method
of ``Minecraft``: a new one without a failure case here fails the coverage tests.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from mcbews_repl.repl.handle import Minecraft
from mcbews_repl.repl.ipython._usage import BY_NAME
from mcbews_repl.repl.runtime import Pending

ANSI = re.compile(r"\x1b\[[0-9;]*m")
STOPPED = "BridgeStopped: the bridge that listened on"

# %mc lines that fail while the bridge runs, and what the shell must then show.
LIVE_MAGICS = {
    "serve": ("%mc serve --port 99999", "UsageError: %mc serve: argument --port: 99999"),
    "sim": ("%mc sim --addon /no/such/sim_bundle.js", "UsageError: --addon /no/such/sim_bundle"),
    "cmd": ("%mc cmd", "UsageError: write a command after the slash"),
    "player": ("%mc player Nobody", "no player named Nobody is online"),
    "inv": ("%mc inv Nobody", "no player named Nobody is online"),
    "events": ("%mc events --last many", "UsageError: %mc events: argument --last"),
    "call": ("%mc call no_such_cap", "no such capability: no_such_cap"),
    "tell": ("%mc tell Steve", "UsageError: usage: %mc tell <player> <text>"),
    "count": ("%mc count @a dirt", "UsageError: player='@a'"),
    "scores": ("%mc scores -o 'not valid'", "UsageError: objective='not valid'"),
    "entities": ("%mc entities --limit 0", "UsageError: limit=0"),
    "tools": ("%mc tools players five", "UsageError: 'five' is not key=value"),
    "blocks": ("%mc blocks 1 2 3", "UsageError: %mc blocks takes the two corners as six whole"),
    "doctor": ("%mc doctor --bogus", "UsageError: %mc doctor: unrecognized arguments: --bogus"),
    "record": ("%mc record /no/such/folder/x.jsonl", "CaptureError: cannot record to /no/such"),
    "map": ("%mc map --every 0.01", "UsageError: %mc map: every=0.01: the map looks at most"),
    "worlds": ("%mc worlds Ana", "UsageError: %mc worlds takes no words"),
    "help": ("%mc help bogus", "UsageError: %mc help: no sub-command 'bogus'"),
    "addon": ("%mc addon publish", "UsageError: %mc addon: unknown action 'publish'"),
}
# After %mc stop: the sub-commands that need a bridge say it is stopped.
STOPPED_MAGICS = {
    "status": ("%mc status", "stopped; %mc serve starts a new one"),
    "stop": ("%mc stop", "The bridge is already stopped; %mc serve starts a new one."),
    "connect": ("%mc connect", STOPPED),
    "players": ("%mc players", STOPPED),
    "caps": ("%mc caps", STOPPED),
    "player": ("%mc player", STOPPED),
    "sim": ("%mc sim", STOPPED),
    "map": ("%mc map", STOPPED),
}

# mc method calls that fail while the bridge runs. Ours (McbewsError) are one short message;
# a bad argument of another kind (ValueError, TypeError ...) keeps IPython's traceback.
OTHER_ERRORS = {"forward_events", "simulate", "events", "wait_connected", "map", "track",
                "explore", "unsubscribe"}  # fmt: skip
LIVE_CALLS = {
    "command": ("await mc.command('say ' + 'x' * 600)", "FrameTooLarge:"),
    "call": ("await mc.call('no_such_cap')", "no such capability: no_such_cap"),
    "send_text": ("await mc.send_text('Steve', 'hi', connection=99)", "no open game connection"),
    "player": ("await mc.player('Nobody')", "no player named Nobody is online"),
    "inventory": ("await mc.inventory('Nobody')", "no player named Nobody is online"),
    "count": ("await mc.count('@a', 'dirt')", "InvalidArgument: player='@a'"),
    "scores": ("await mc.scores('@e')", "InvalidArgument: holder='@e'"),
    "objective": ("await mc.objective('not valid')", "InvalidArgument: objective='not valid'"),
    "entities": ("await mc.entities(limit=0)", "InvalidArgument: limit=0"),
    "blocks": ("await mc.blocks((0, 0, 0), (0, 0.5, 0))", "InvalidArgument: corner2=(0, 0.5, 0)"),
    "set_blocks": (
        "await mc.set_blocks((0, 0, 0), [[['stone']]], palette=None, hole=None, dimension='moon')",
        "InvalidArgument: dimension='moon'",
    ),
    "fill": ("await mc.fill((0, 0, 0), (1, 1, 1), '')", "InvalidArgument: block=''"),
    "build": ("await mc.build(None)", "InvalidArgument: shape=None: is not a shape"),
    "save_structure": (
        "await mc.save_structure('/no/such/x.mcstructure', (0, 0, 0), (1, 1, 1))",
        "StructureError: /no/such/x.mcstructure: its folder /no/such does not",
    ),
    "load_structure": (
        "await mc.load_structure('/no/such.mcstructure', (0, 0, 0))",
        "StructureError: /no/such.mcstructure: cannot be read",
    ),
    "structure_command": (
        "await mc.structure_command('copy', 'h')",
        "InvalidArgument: action='copy': is not one /structure takes here",
    ),
    "doctor": ("await mc.doctor(connection=99)", "no open game connection #99"),
    "record": ("mc.record('/no/such/folder/x.jsonl')", "the folder /no/such/folder does not exist"),
    "forward_events": ("await mc.forward_events('ftp://x', 's')", "url must be http://"),
    "simulate": ("await mc.simulate(addon='/no/such.js')", "no simulator bundle or pack folder"),
    "events": ("mc.events(since='soon')", "TypeError"),
    "wait_connected": ("await mc.wait_connected(timeout='soon')", "TypeError"),
    "map": ("mc.map(every=0)", "ValueError: every=0: the map looks at most every 0.25 s"),
    "track": ("await mc.track(seconds=0)", "ValueError: seconds=0: give how long to track"),
    "explore": ("mc.explore('inventory')", "TypeError: mc.explore takes a DataFrame"),
    "world": ("mc.world('Nobody')", "NotConnected: no world 'Nobody'; connected: Steve (id"),
    "on": ("mc.on('BlockBroke', print)", "UnknownEvent: no game event is called 'BlockBroke'"),
    "subscribe": ("mc.subscribe('Nope')", "UnknownEvent: no game event is called 'Nope'"),
    "unsubscribe": ("await mc.unsubscribe('PlayerMessage')", "PlayerMessage stays subscribed"),
}
# After close(): every call that needs the bridge says it is stopped.
STOPPED_CALLS = {
    "wait_connected": "mc.wait_connected()",
    "command": "mc.command('say hi')",
    "call": "mc.call('list_capabilities')",
    "send_text": "mc.send_text('Steve', 'hi')",
    "player": "mc.player()",
    "players": "mc.players()",
    "inventory": "mc.inventory()",
    "caps": "mc.caps()",
    "count": "mc.count('Steve', 'dirt')",
    "scores": "mc.scores('Steve')",
    "objective": "mc.objective('kills')",
    "entities": "mc.entities()",
    "blocks": "mc.blocks((0, 0, 0), (1, 1, 1))",
    "set_blocks": "mc.set_blocks((0, 0, 0), [[['stone']]])",
    "fill": "mc.fill((0, 0, 0), (1, 1, 1), 'stone')",
    "save_structure": "mc.save_structure('never-written.mcstructure', (0, 0, 0), (1, 1, 1))",
    "structure_command": "mc.structure_command('delete', 'h')",
    "undo": "mc.undo()",
    "checkpoint": "mc.checkpoint('c', (0, 0, 0), (1, 1, 1))",
    "restore": "mc.restore('c')",
    "submit": "mc.submit(__import__('asyncio').sleep(0))",
    "build": "mc.build(__import__('mcbews_repl.toolkit').toolkit.line((0, 0, 0), (1, 1, 1), 'x'))",
    "forward_events": "mc.forward_events('http://127.0.0.1:9/', 's')",
    "simulate": "mc.simulate()",
    "on_ui_chat": "mc.on_ui_chat(print)",
    "doctor": "mc.doctor(save=False)",
    "record": "mc.record('never-written.jsonl')",
    "map": "mc.map()",
    "track": "mc.track(1)",
    "on_event": "mc.on_event(print)",
}
# Methods that cannot fail, with the reason.
NEVER_FAIL = {
    "status": "reads local state, also of a stopped bridge",
    "close": "stopping twice is allowed",
    "off_ui_chat": "removing an absent callback is allowed",
    "off_event": "removing an absent callback is allowed",
    "off": "removing an absent callback is allowed (it says how many went: 0)",
}


def public_methods() -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(Minecraft)
        if not name.startswith("_") and inspect.isfunction(member)
    }


def shown_by(shell: Any, capsys: pytest.CaptureFixture[str], code: str) -> str:
    shell.run_cell(code)
    out = capsys.readouterr()
    return ANSI.sub("", out.out + out.err)


def test_every_sub_command_has_a_failure_case() -> None:
    assert set(LIVE_MAGICS) | set(STOPPED_MAGICS) == set(BY_NAME)


def test_every_method_has_a_failure_case() -> None:
    assert set(LIVE_CALLS) | set(STOPPED_CALLS) | set(NEVER_FAIL) == public_methods()


def test_no_method_hands_out_a_coroutine(shell: Any) -> None:
    mc = shell.user_ns["mc"]
    for name in public_methods():
        assert not inspect.iscoroutinefunction(getattr(Minecraft, name)), name
    for name, code in STOPPED_CALLS.items():  # with the bridge running, each is a Pending
        if name in {"on_ui_chat", "on_event", "simulate", "map", "record", "save_structure"}:
            # a callback registry, a restart of the world other tests use, a picture, a
            # file handle (returned at once: a bad path must say so before anything is
            # recorded), and a file written (tests/repl/handle/test_structures.py: a Pending)
            continue
        pending = eval(code, {"mc": mc})
        assert isinstance(pending, Pending), code
        try:
            found = pending.result(20)
        except Exception:  # only the type of the handle matters here
            continue
        if name == "forward_events":
            assert isinstance(found.stop(), Pending)  # its methods, too, hop to the bridge
            assert found.url == "http://127.0.0.1:9/"


@pytest.mark.parametrize("name", sorted(LIVE_MAGICS))
def test_failing_sub_commands_say_so(
    shell: Any, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    line, expected = LIVE_MAGICS[name]
    assert expected in shown_by(shell, capsys, line)


@pytest.mark.parametrize("name", sorted(LIVE_CALLS))
def test_failing_methods_say_so(shell: Any, capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, expected = LIVE_CALLS[name]
    shown = shown_by(shell, capsys, code)
    assert expected in shown
    assert ("Traceback" in shown) == (name in OTHER_ERRORS)


def test_after_stop_every_sub_command_and_call_says_so(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Runs last in this module: it stops the bridge.
    shell.run_line_magic("mc", "stop")
    capsys.readouterr()
    for name, (line, expected) in STOPPED_MAGICS.items():
        assert expected in shown_by(shell, capsys, line), name
    for name, code in STOPPED_CALLS.items():
        shown = shown_by(shell, capsys, code)
        assert STOPPED in shown and "Start it again with %mc serve." in shown, name
