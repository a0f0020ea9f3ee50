"""Benchmark the sans-I/O core against the reference, mcbe-ws-sdk 0.2.1, side by side.

    make bench          # or: .venv/bin/python benchmarks/bench_sansio.py [--no-write]

Our side runs in this process. The reference runs in ``.bench-venv`` (created here on first
use: it pins websockets<17, so it cannot share our environment) through
``reference_side.py``, which prints its measurements as JSON. Both sides take their inputs
from ``workload.py``. The tables go to stdout and to ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter
from typing import Any

import docs_page
import workload as w

from mcbews_repl.sansio import (
    BridgeProtocol,
    Reassembler,
    command_frame_bytes,
    encode_command,
    encode_text_response,
    parse_chunk,
    parse_text_frame,
)
from mcbews_repl.sansio.bridge import interpret_bridge_answer
from mcbews_repl.sansio.chunks import parse_chunk_fields
from mcbews_repl.sansio.events import CapabilityResult, ChatMessage
from mcbews_repl.sansio.reassembly import Completed
from mcbews_repl.sansio.wire import (
    BRIDGE_PLAYER,
    COMMAND_FRAME_BUDGET_BYTES,
    COMMAND_LINE_BUDGET_BYTES,
)

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".bench-venv"
REFERENCE = "mcbe-ws-sdk==0.2.1"
RESPONSE_ID = "0123456789ab"  # what short_id() gives: 12 hex digits
NOW = 1000.0

# The targets (docs/benchmarks.md), the command count's now that every frame also
# fits the 661-byte frame ceiling: at most 0.95x the reference's commands on prose.
SPEEDUP_64K = 20.0
LINEAR_FACTOR = 20.0
PROSE_COMMAND_RATIO = 0.95
PROSE = "ASCII prose"
DECODE_SPEEDUP = 3.0
LINE_ONLY = 10**9  # a frame ceiling that never binds: the packing before the frame budget


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- the reference's environment -------------------------------------------------------


def reference_python() -> Path:
    python = BENCH_VENV / "bin" / "python"
    check = [str(python), "-c", "import mcbe_ws_sdk, pydantic"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    log(f"creating {BENCH_VENV.name} with {REFERENCE} (first run only)")
    subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", REFERENCE], check=True)
    return python


def run_reference(config: dict[str, float]) -> dict[str, Any]:
    python = reference_python()
    log("reference side (mcbe-ws-sdk) ...")
    done = subprocess.run(
        [str(python), str(ROOT / "benchmarks" / "reference_side.py"), json.dumps(config)],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --- our side ---------------------------------------------------------------------------


def encode_ours(budget_s: float) -> list[dict[str, Any]]:
    rows = []
    for kind in w.KINDS:
        for label, size in w.SIZES.items():
            text = w.make_text(kind, size)

            def lines(text: str = text) -> list[str]:
                return encode_text_response(
                    w.PLAYER, text, response_id=RESPONSE_ID, max_frames=None
                )

            def framed(text: str = text) -> list[str]:
                return [encode_command(RESPONSE_ID, line) for line in lines(text)]

            out = lines()
            line_only = encode_text_response(
                w.PLAYER, text, response_id=RESPONSE_ID, max_frames=None,
                frame_budget_bytes=LINE_ONLY,
            )  # fmt: skip
            times = w.measure(w.timed(lines), budget_s=budget_s, min_runs=5)
            framed_times = w.measure(w.timed(framed), budget_s=budget_s / 2, min_runs=3)
            frames = [parse_text_frame(line) for line in out]
            rows.append(
                {
                    "kind": kind,
                    "size": label,
                    **w.summary(times),
                    "framed_best": min(framed_times),
                    "commands": len(out),
                    "commands_line_only": len(line_only),
                    "max_line_bytes": max(len(x.encode("utf-8")) for x in out),
                    "max_frame_bytes": max(command_frame_bytes(x) for x in out),
                    "line_only_max_frame_bytes": max(command_frame_bytes(x) for x in line_only),
                    "round_trip": "".join(f.content for f in frames) == text,
                }
            )
            log(f"  ours encode {kind:<13} {label:>6}: {min(times) * 1e3:9.3f} ms")
    return rows


def decode_ours(players: int, budget_s: float) -> dict[str, Any]:
    """Decode every line, reassemble, read each answer's JSON as it completes.

    The timed path is the one ``BridgeProtocol.receive_chat`` takes (``parse_chunk_fields``,
    ``Reassembler.feed_fields``, ``interpret_bridge_answer``); the public ``Chunk`` API
    (``parse_chunk``, ``Reassembler.feed`` and its outcome objects) is timed beside it.
    """
    count = w.messages_per_run(players)
    ids = w.make_ids(count, f"decode:{players}")
    lines = [line for message in w.answer_messages(players, ids) for line in message]
    expected = [json.loads(w.make_answer(players, k))["result"] for k in range(count)]

    def run(with_json: bool) -> float:
        feed = Reassembler().feed_fields
        done: list[Any] = []
        start = perf_counter()
        for line in lines:
            channel, message_id, index, total, content = parse_chunk_fields(line)
            text = feed(channel, message_id, index, total, content, NOW)
            if type(text) is str:
                done.append(interpret_bridge_answer(message_id, "q", text) if with_json else text)
        elapsed = perf_counter() - start
        if with_json:
            assert [r.result for r in done] == expected
        else:
            assert len(done) == count
        return elapsed

    def run_public() -> float:
        reassembler = Reassembler()
        done: list[Any] = []
        start = perf_counter()
        for line in lines:
            outcome = reassembler.feed(parse_chunk(line), NOW)
            if type(outcome) is Completed:
                done.append(interpret_bridge_answer(outcome.message_id, "q", outcome.text))
        elapsed = perf_counter() - start
        assert [r.result for r in done] == expected
        return elapsed

    answers = [w.make_answer(players, k) for k in range(count)]
    scan = json.JSONDecoder().scan_once  # the C scanner json.loads calls

    def json_only(read: Callable[[str], Any]) -> Callable[[], float]:
        def timed() -> float:
            start = perf_counter()
            for answer in answers:
                read(answer)
            return perf_counter() - start

        return timed

    with_json = w.measure(lambda: run(True), budget_s=budget_s)
    text_only = w.measure(lambda: run(False), budget_s=budget_s)
    public = w.measure(run_public, budget_s=budget_s / 2)
    loads = w.measure(json_only(json.loads), budget_s=budget_s / 2)
    scanned = w.measure(json_only(lambda answer: scan(answer, 0)), budget_s=budget_s / 2)
    return {
        "players": players,
        "messages": count,
        "chunks": len(lines),
        **w.summary(with_json),
        "text_only_best": min(text_only),
        "public_best": min(public),
        "json_loads_best": min(loads),
        "json_scan_best": min(scanned),
    }


def chat_events(players: int, ids: list[str]) -> list[ChatMessage]:
    """Every chunk line as the frame decoder hands it to ``BridgeProtocol.receive_chat``."""
    return [
        ChatMessage(BRIDGE_PLAYER, line, "tell", BRIDGE_PLAYER, False, False, 17039360)
        for message in w.answer_messages(players, ids)
        for line in message
    ]


def decode_ours_session(players: int, budget_s: float) -> dict[str, Any]:
    """The bounded, stateful path: ``BridgeProtocol`` on chat text, and on whole frames."""
    count = w.messages_per_run(players)
    ids = w.make_ids(count, f"frames:{players}")
    chats = chat_events(players, ids)
    frames = [
        json.dumps(
            {
                "header": {
                    "eventName": "PlayerMessage",
                    "messagePurpose": "event",
                    "version": 17039360,
                },
                "body": {
                    "message": chat.message,
                    "receiver": BRIDGE_PLAYER,
                    "sender": BRIDGE_PLAYER,
                    "type": "tell",
                },
            },
            ensure_ascii=False,
        )
        for chat in chats
    ]

    def run(whole_frames: bool) -> float:
        queue = iter(ids)
        proto = BridgeProtocol(new_id=lambda: next(queue))
        for _ in ids:
            proto.capability_request("get_players", now=NOW)
        events: list[Any] = []
        start = perf_counter()
        if whole_frames:
            for frame in frames:
                events.extend(proto.receive_text(frame, NOW))
        else:
            for chat in chats:
                events.extend(proto.receive_chat(chat, NOW))
        elapsed = perf_counter() - start
        assert len(events) == count and all(type(e) is CapabilityResult for e in events)
        return elapsed

    chat_times = w.measure(lambda: run(False), budget_s=budget_s)
    frame_times = w.measure(lambda: run(True), budget_s=budget_s / 2)
    return {
        "players": players,
        "chunks": len(chats),
        **w.summary(chat_times),
        "frames_best": min(frame_times),
    }


# --- the report -------------------------------------------------------------------------


def machine(reference: dict[str, Any]) -> list[str]:
    cpu = "unknown CPU"
    try:
        for row in Path("/proc/cpuinfo").read_text().splitlines():
            if row.startswith("model name"):
                cpu = row.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = ", ".join(f"{k} {v}" for k, v in reference["versions"].items())
    revision = docs_page.git_revision("mcbews_repl/sansio")
    return [
        f"- Machine: {cpu}, {os.cpu_count()} logical CPUs, {platform.system()} "
        f"{platform.release()}",
        f"- Ours: Python {platform.python_version()} (`.venv`), mcbews_repl at {revision}",
        f"- Reference: Python {reference['python']} (`.bench-venv`), {versions}",
        f"- Run: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
    ]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


def verdict(ok: bool) -> str:
    return "**pass**" if ok else "**FAIL**"


def report(ours: dict[str, Any], ref: dict[str, Any]) -> tuple[str, dict[str, bool]]:
    out: list[str] = []
    verdicts: dict[str, bool] = {}
    ref_enc = {(r["kind"], r["size"]): r for r in ref["encode"]}
    our_enc = {(r["kind"], r["size"]): r for r in ours["encode"]}

    out += [
        "### Text response encoding (time per encode, ms)",
        "",
        "| text | size | reference best / median (runs) | ours best / median (runs) "
        "| reference ÷ ours | ours incl. commandRequest frames | target |",
        "|---|---|---|---|---|---|---|",
    ]
    speed_ok = True
    for (kind, size), o in our_enc.items():
        r = ref_enc[(kind, size)]
        ratio = r["best"] / o["best"]
        framed = r["best"] / o["framed_best"]
        if size == "64 KiB":
            ok = ratio >= SPEEDUP_64K
            speed_ok &= ok
            target = f"≥ {SPEEDUP_64K:.0f}x {verdict(ok)}"
        else:
            target = "—"
        out.append(
            f"| {kind} | {size} | {ms(r['best'])} / {ms(r['median'])} ({r['runs']}) "
            f"| {ms(o['best'])} / {ms(o['median'])} ({o['runs']}) | {ratio:,.0f}x "
            f"| {ms(o['framed_best'])} ({framed:,.0f}x) | {target} |"
        )
    verdicts[f"encoding ≥ {SPEEDUP_64K:.0f}x faster than the reference on 64 KiB"] = speed_ok

    out += [
        "",
        "### Linearity (best 1 MiB time ÷ best 64 KiB time; 16x the text)",
        "",
        "| text | ours | reference | target (ours) |",
        "|---|---|---|---|",
    ]
    linear_ok = True
    for kind in w.KINDS:
        mine = our_enc[(kind, "1 MiB")]["best"] / our_enc[(kind, "64 KiB")]["best"]
        theirs = ref_enc[(kind, "1 MiB")]["best"] / ref_enc[(kind, "64 KiB")]["best"]
        ok = mine <= LINEAR_FACTOR
        linear_ok &= ok
        out.append(
            f"| {kind} | {mine:.1f}x | {theirs:.1f}x | ≤ {LINEAR_FACTOR:.0f}x {verdict(ok)} |"
        )
    verdicts[f"linear: 1 MiB ≤ {LINEAR_FACTOR:.0f}x the 64 KiB time"] = linear_ok

    out += packing_report(our_enc, ref_enc, verdicts)

    decode_rows, decode_ok = decode_report(ours, ref)
    out += decode_rows
    verdicts[f"chunk decoding + reassembly ≥ {DECODE_SPEEDUP:.0f}x the reference"] = decode_ok

    out += ["", "### Targets", ""]
    out += [f"- {name}: {verdict(ok)}" for name, ok in verdicts.items()]
    return "\n".join(out), verdicts


def packing_report(
    our_enc: dict[tuple[str, str], Any], ref_enc: dict[tuple[str, str], Any], verdicts: Any
) -> list[str]:
    """Commands per text against the reference, and what the frame ceiling costs."""
    out = [
        "",
        "### Packing cost: commands per 64 KiB, both ceilings, side by side",
        "",
        "| text | reference commands (max frame B) | ours (max line B, max frame B) "
        "| ours ÷ reference | ours with the 461-byte line ceiling only (max frame B) "
        "| the frame ceiling costs | target |",
        "|---|---|---|---|---|---|---|",
    ]
    for kind in w.KINDS:
        o, r = our_enc[(kind, "64 KiB")], ref_enc[(kind, "64 KiB")]
        share = o["commands"] / r["commands"]
        target = f"≤ {PROSE_COMMAND_RATIO} {verdict(share <= PROSE_COMMAND_RATIO)}"
        out.append(
            f"| {kind} | {r['commands']} ({r['max_frame_bytes']}) "
            f"| {o['commands']} ({o['max_line_bytes']}, {o['max_frame_bytes']}) | {share:.2f} "
            f"| {o['commands_line_only']} ({o['line_only_max_frame_bytes']}) "
            f"| +{o['commands'] / o['commands_line_only'] - 1:.1%} "
            f"| {target if kind == PROSE else 'info'} |"
        )
    out += [
        "",
        "### Commands per text and frame sizes, every size",
        "",
        "| text | size | reference commands | ours | ours ÷ reference "
        "| reference with a 12-char id | ours max line B / max frame B "
        "| reference max line B / max frame B | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    count_ok = fits_ok = True
    for (kind, size), o in our_enc.items():
        r = ref_enc[(kind, size)]
        share = o["commands"] / r["commands"]
        fits = (
            o["max_line_bytes"] <= COMMAND_LINE_BUDGET_BYTES
            and o["max_frame_bytes"] <= COMMAND_FRAME_BUDGET_BYTES
            and o["round_trip"]
        )
        fits_ok &= fits
        ceilings = f"≤ {COMMAND_LINE_BUDGET_BYTES} / {COMMAND_FRAME_BUDGET_BYTES} B"
        if kind == PROSE:
            count_ok &= share <= PROSE_COMMAND_RATIO
            target = f"≤ {PROSE_COMMAND_RATIO}, {ceilings}"
            ok = fits and share <= PROSE_COMMAND_RATIO
        else:
            target, ok = ceilings, fits
        out.append(
            f"| {kind} | {size} | {r['commands']} | {o['commands']} | {share:.2f} "
            f"| {r['commands_12char_id']} ({o['commands'] / r['commands_12char_id']:.2f}) "
            f"| {o['max_line_bytes']} / {o['max_frame_bytes']} "
            f"| {r['max_line_bytes']} / {r['max_frame_bytes']} | {target} {verdict(ok)} |"
        )
    verdicts[f"commands on prose ≤ {PROSE_COMMAND_RATIO}x the reference's"] = count_ok
    verdicts[
        f"every line ≤ {COMMAND_LINE_BUDGET_BYTES} bytes and every frame ≤ "
        f"{COMMAND_FRAME_BUDGET_BYTES} bytes (and round-trips)"
    ] = fits_ok
    return out


def decode_report(ours: dict[str, Any], ref: dict[str, Any]) -> tuple[list[str], bool]:
    """The chunk tables: rates against the reference's row A, then the cost per chunk."""
    out = [
        "",
        "### Chunk decoding plus reassembly (chunks per second)",
        "",
        "| path | answers | chunks per run | reference | ours | ours ÷ reference | target |",
        "|---|---|---|---|---|---|---|",
    ]
    decode_ok = True
    sizes = [round(o["chunks"] / o["messages"]) for o in ours["decode"]]
    labels = [f"~{n} chunk{'s' if n > 1 else ''} each" for n in sizes]

    def row(path: str, label: str, chunks: int, ref_rate: float, seconds: float) -> str:
        rate = chunks / seconds
        return (
            f"| {path} | {label} | {chunks} | {ref_rate:,.0f} (A) | {rate:,.0f} "
            f"| {rate / ref_rate:.2f}x | info |"
        )

    for r, o, label in zip(ref["decode_codec"], ours["decode"], labels, strict=True):
        ref_rate, our_rate = r["chunks"] / r["best"], o["chunks"] / o["best"]
        ok = our_rate / ref_rate >= DECODE_SPEEDUP
        decode_ok &= ok
        n = o["chunks"]
        out += [
            f"| A. decode + reassemble + read the answer's JSON | {label} | {r['chunks']} "
            f"| {ref_rate:,.0f} | {our_rate:,.0f} | {our_rate / ref_rate:.2f}x "
            f"| ≥ {DECODE_SPEEDUP:.0f}x {verdict(ok)} |",
            row("A2. A through the public `parse_chunk` + `feed`", label, n, ref_rate,
                o["public_best"]),
            row("B. ours up to the reassembled text (no JSON)", label, n, ref_rate,
                o["text_only_best"]),
            row("D. the stdlib JSON scanner alone (A's JSON): the ceiling for A", label, n,
                ref_rate, o["json_scan_best"]),
            row("D2. `json.loads` alone (the reference's JSON)", label, n, ref_rate,
                o["json_loads_best"]),
        ]  # fmt: skip
    for r, o, label in zip(ref["decode_session"], ours["decode_session"], labels, strict=True):
        ref_rate, our_rate = r["chunks"] / r["best"], o["chunks"] / o["best"]
        out += [
            f"| C. bounded, stateful, on chat text: `BridgeProtocol.receive_chat` vs "
            f"`AddonBridgeSession.handle_chat_chunk` | {label} | {r['chunks']} | {ref_rate:,.0f} "
            f"| {our_rate:,.0f} | {our_rate / ref_rate:.2f}x | info |",
            f"| E. ours from whole PlayerMessage frames (`receive_text`, frame JSON included) "
            f"| {label} | {o['chunks']} | {ref_rate:,.0f} (C) "
            f"| {o['chunks'] / o['frames_best']:,.0f} "
            f"| {o['chunks'] / o['frames_best'] / ref_rate:.2f}x | info |",
        ]
    out += [
        "",
        "Per chunk (us, best run; 1e6 ÷ the rates above):",
        "",
        "| answers | reference A | ours A | ours B (decode + reassemble) "
        "| JSON scanner | `json.loads` | A target (reference ÷ 3) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r, o, label in zip(ref["decode_codec"], ours["decode"], labels, strict=True):
        us = [1e6 * o[k] / o["chunks"] for k in ("best", "text_only_best", "json_scan_best",
                                                  "json_loads_best")]  # fmt: skip
        ref_us = 1e6 * r["best"] / r["chunks"]
        out.append(
            f"| {label} | {ref_us:.2f} | {us[0]:.2f} | {us[1]:.2f} | {us[2]:.2f} | {us[3]:.2f} "
            f"| {ref_us / DECODE_SPEEDUP:.2f} |"
        )
    return out, decode_ok


INTRO = """# Benchmarks: the sans-I/O core against mcbe-ws-sdk 0.2.1

`make bench` runs `benchmarks/bench_sansio.py`. It measures our `mcbews_repl.sansio` in its
own process and the reference implementation, [mcbe-ws-sdk 0.2.1](https://pypi.org/project/mcbe-ws-sdk/0.2.1/)
from PyPI, in a subprocess under `.bench-venv` (created on the first run; the reference pins
`websockets<17`, so it gets its own environment and none of its code is copied here). Both
sides encode and decode the same inputs (`benchmarks/workload.py`) and the reference is called
through its public functions with its default settings. A full run takes about two minutes,
most of it the reference encoding 1 MiB without sentence delimiters.

What is measured (speed, and the packing cost of the frame budget):

- **Text response encoding** of 4 KiB, 64 KiB and 1 MiB texts (UTF-8 bytes): English-like
  prose (sentences of 6-30 words, paragraphs), Chinese prose (sentences of 10-45 characters
  ending in \u3002\uff1f\uff01), words with no sentence delimiters at all (the
  reference splits on `\u3002\uff01\uff1f.!?\\n`), and JSON-heavy text (pretty-printed
  records with quoted names, escaped quotes, Windows paths and `\\n` escapes: each quote or
  backslash is two bytes of command line and four of frame). Every line we produce fits both
  ceilings of [gateway.md](gateway.md#the-frame-budget): 461 bytes of command line and 661
  bytes of `commandRequest` frame as sent; the packing table also shows our count with the
  line ceiling alone, which is what the frame ceiling costs. Ours: `encode_text_response(player,
  text, response_id=<12 hex>, max_frames=None)`, which returns command lines; "incl.
  commandRequest frames" adds `encode_command` per line, since the reference returns whole
  `commandRequest` JSON frames.
  Reference: `encode_text_response_commands(player_name=, role=, text=,
  flow=FlowControlMiddleware(FlowControlSettings()))`, with its default response id
  `resp-<32 hex>`; the "with a 12-char id" column passes an id as short as ours. Its line
  size is the frame's `body.commandLine`. Times are the best and the median of the runs shown;
  the ratio uses the best times.
- **Chunk decoding plus reassembly** of capability answers of about 1, 8 and 48 chunks
  (`MCBEWS|BRIDGE|<id>|<i>/<n>|<content>`, at most 256 code points each, as the addon cuts
  them), about 2,400 chunks per run, in order. Both sides do the same work on the same
  lines: decode every line, reassemble each answer, parse its JSON into a dict and keep the
  result (garbage collection on, as in a server). Row A is the like-for-like comparison: the
  reference's `decode_bridge_chat_chunk` per line, a dict of lists as its buffer (the least
  a caller of its codec must write) and `reassemble_bridge_chunks` per answer (join, then
  `json.loads`, then a pydantic `AddonBridgeResponse`), against the path our
  `BridgeProtocol.receive_chat` takes: `parse_chunk_fields`, `Reassembler.feed_fields` (every
  bound and rule checked) and `interpret_bridge_answer` (JSON, then a `CapabilityResult`).
  Row A2 is the same through our public `Chunk` API (`parse_chunk`, `Reassembler.feed` and
  its outcome objects); row B stops ours at the reassembled text. Rows D and D2 time only
  the JSON of the same answers: D the stdlib's C scanner, as our A calls it, D2 `json.loads`,
  as the reference calls it. Any decoder that still reads the answer with the stdlib pays
  at least row D, so D's ratio is the ceiling for A. Row C is each side's bounded, stateful
  session on the chat text: our `BridgeProtocol.receive_chat` (pending-request lookup,
  counters, events) against the reference's `AddonBridgeSession.handle_chat_chunk` (which
  resolves a future). Row E is ours from whole PlayerMessage frames, the frame's JSON
  included, against the reference's row C, which starts from the chat text.
"""


NOTES = """### Notes

- The reference's median can sit well above its best on this shared 2-core machine; ratios
  use best times. The reference is run once at 1 MiB without delimiters (about 19 s a call).
- The frame ceiling is what packing pays for now: about 212 bytes of
  `commandRequest` envelope around every line, plus one byte for each quote or backslash of
  the line, must stay within 661 bytes, so plain text fills 429 bytes of line instead of 461
  and needs about 10 % more commands than with the line ceiling alone; JSON-heavy text,
  where each quote costs four bytes of frame, about 38 % more. The reference packs against
  the 461-byte line only: its frames reach 693 bytes on prose and 787 on JSON-heavy text,
  over the ceiling. Even so ours needs 0.80x its commands on prose (target 0.95x), 0.83x on
  CJK, 0.52x without delimiters, and 0.91-1.12x on JSON-heavy text, the one kind where
  the ceiling the reference does not keep costs more than our tighter packing saves.
- Encoding is slower than before the frame ceiling (64 KiB of prose took 0.46 ms, now
  about 0.6 ms): about 10 % more frames, and a second size (the frame's) checked per piece,
  counted with one scan when the piece holds no backslash. It stays 32-63x faster than the
  reference on 64 KiB (target 20x).
- Chunk decoding misses its 3x target, and cannot reach it while the answer's JSON is read
  with the standard library, which the target's comparison requires: the reference's own
  figure includes its `json.loads`, and ours must produce the same dict. For answers of 8
  and 48 chunks, the C JSON scanner alone (row D, 1.6-1.8 us per chunk) costs more than a
  third of the reference's whole path (1.4-1.6 us), so even a free decoder and reassembler
  would stay under 3x: the measured ceiling is row D, about 2.3-2.9x. For single-chunk
  answers the ceiling is higher (row D, 6-7x, since the reference pays `json.loads`'
  fixed cost once per chunk), but the event object (0.3 us), the answer checks and the
  garbage collector of the kept results (0.2-0.3 us) leave under 0.5 us per chunk for
  decoding and reassembly if A is to reach 3x; ours takes about 0.9 us (row B) and every
  bound check the reference's codec does not do. Measured over four runs: 2.2-2.5x for
  single chunks, 1.3-1.5x for 8 and 48 chunks.
- Where our time goes, per chunk: `parse_chunk_fields` about 0.4 us (one precompiled regex
  gives every field; indexes are read from a table instead of `int()`), `feed_fields`
  0.4-0.6 us (fast paths for a single-chunk message and for the next chunk in order, no
  outcome object while a message is pending, no UTF-8 count for ASCII content), and the
  answer's JSON 1.0-1.8 us (the C scanner that `json.loads` wraps, called directly: the
  same value and the same errors without the two whitespace regex matches, which cost a
  single-chunk answer about 0.8 us). Before this work: `parse_chunk` 1.2 us (half of it the
  frozen `Chunk`), `feed` 0.9-1.1 us (a `Pending` object per chunk), `json.loads` 1.8 us;
  row A was 1.31x, 0.86x and 0.86x. A property test holds each fast path to the general
  one (tests/sansio: test_chunks, test_reassembly, test_bridge).
- Row E shows that decoding the game's PlayerMessage frame (its JSON, 2-3 us) now costs
  more than everything after it; the reference's session is timed from the chat text, so
  C, not E, is its like-for-like row.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="do not write the docs page")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = parser.parse_args()

    log("our side (mcbews_repl.sansio) ...")
    ours = {
        "encode": encode_ours(budget_s=0.5),
        "decode": [decode_ours(p, budget_s=0.5) for p in w.ANSWER_PLAYERS],
        "decode_session": [decode_ours_session(p, budget_s=0.5) for p in w.ANSWER_PLAYERS],
    }
    ref = run_reference({"encode_budget_s": 1.5, "decode_budget_s": 1.0})
    tables, verdicts = report(ours, ref)
    page = "\n".join([INTRO, "## Results", "", *machine(ref), "", tables, "", NOTES])
    print(page)
    if not args.no_write:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        # Other benchmarks' sections of the page (docs_page markers) stay as they are.
        old = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        kept = docs_page.blocks(old)
        args.output.write_text("\n\n".join([page.rstrip("\n"), *kept]) + "\n", encoding="utf-8")
        log(f"wrote {args.output.relative_to(ROOT)}")
    if not all(verdicts.values()):
        log("some targets were missed; see the Targets list")


if __name__ == "__main__":
    main()
