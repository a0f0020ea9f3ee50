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
from datetime import UTC, datetime
from pathlib import Path
from time import perf_counter
from typing import Any

import workload as w

from mcbews_repl.sansio import (
    BridgeProtocol,
    Reassembler,
    encode_command,
    encode_text_response,
    parse_chunk,
    parse_text_frame,
)
from mcbews_repl.sansio.bridge import interpret_bridge_answer
from mcbews_repl.sansio.events import CapabilityResult
from mcbews_repl.sansio.reassembly import Completed
from mcbews_repl.sansio.wire import BRIDGE_PLAYER, COMMAND_LINE_BUDGET_BYTES

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".bench-venv"
REFERENCE = "mcbe-ws-sdk==0.2.1"
RESPONSE_ID = "0123456789ab"  # what short_id() gives: 12 hex digits
NOW = 1000.0

# Targets of issue 2.
SPEEDUP_64K = 20.0
LINEAR_FACTOR = 20.0
COMMAND_RATIO = 0.85
DECODE_SPEEDUP = 3.0


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
                    "max_line_bytes": max(len(x.encode("utf-8")) for x in out),
                    "round_trip": "".join(f.content for f in frames) == text,
                }
            )
            log(f"  ours encode {kind:<13} {label:>6}: {min(times) * 1e3:9.3f} ms")
    return rows


def decode_ours(players: int, budget_s: float) -> dict[str, Any]:
    """parse_chunk + Reassembler.feed per line; each answer's JSON read as it completes."""
    count = w.messages_per_run(players)
    ids = w.make_ids(count, f"decode:{players}")
    lines = [line for message in w.answer_messages(players, ids) for line in message]
    expected = [json.loads(w.make_answer(players, k))["result"] for k in range(count)]

    def run(with_json: bool) -> float:
        reassembler = Reassembler()
        done: list[Any] = []
        start = perf_counter()
        for line in lines:
            outcome = reassembler.feed(parse_chunk(line), NOW)
            if type(outcome) is Completed:
                if with_json:
                    done.append(interpret_bridge_answer(outcome.message_id, "q", outcome.text))
                else:
                    done.append(outcome.text)
        elapsed = perf_counter() - start
        if with_json:
            assert [r.result for r in done] == expected
        else:
            assert len(done) == count
        return elapsed

    answers = [w.make_answer(players, k) for k in range(count)]

    def json_only() -> float:
        start = perf_counter()
        for answer in answers:
            json.loads(answer)
        return perf_counter() - start

    with_json = w.measure(lambda: run(True), budget_s=budget_s)
    text_only = w.measure(lambda: run(False), budget_s=budget_s)
    json_floor = w.measure(json_only, budget_s=budget_s / 2)
    return {
        "players": players,
        "messages": count,
        "chunks": len(lines),
        **w.summary(with_json),
        "text_only_best": min(text_only),
        "json_only_best": min(json_floor),
    }


def decode_ours_frames(players: int, budget_s: float) -> dict[str, Any]:
    """BridgeProtocol.receive_text on whole PlayerMessage frames (frame JSON included)."""
    count = w.messages_per_run(players)
    ids = w.make_ids(count, f"frames:{players}")
    frames = [
        json.dumps(
            {
                "header": {
                    "eventName": "PlayerMessage",
                    "messagePurpose": "event",
                    "version": 17039360,
                },
                "body": {
                    "message": line,
                    "receiver": BRIDGE_PLAYER,
                    "sender": BRIDGE_PLAYER,
                    "type": "tell",
                },
            },
            ensure_ascii=False,
        )
        for message in w.answer_messages(players, ids)
        for line in message
    ]

    def run() -> float:
        queue = iter(ids)
        proto = BridgeProtocol(new_id=lambda: next(queue))
        for _ in ids:
            proto.capability_request("get_players", now=NOW)
        events = []
        start = perf_counter()
        for frame in frames:
            events.extend(proto.receive_text(frame, NOW))
        elapsed = perf_counter() - start
        assert len(events) == count and all(type(e) is CapabilityResult for e in events)
        return elapsed

    times = w.measure(run, budget_s=budget_s)
    return {"players": players, "chunks": len(frames), **w.summary(times)}


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
    return [
        f"- Machine: {cpu}, {os.cpu_count()} logical CPUs, {platform.system()} "
        f"{platform.release()}",
        f"- Ours: Python {platform.python_version()} (`.venv`), mcbews_repl at {git_revision()}",
        f"- Reference: Python {reference['python']} (`.bench-venv`), {versions}",
        f"- Run: {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}",
    ]


def git_revision() -> str:
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "mcbews_repl/sansio"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown revision"
    return f"`{head}`" + (" (sansio modified)" if dirty else "")


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

    out += [
        "",
        "### Commands per text and line sizes",
        "",
        "| text | size | reference commands | ours | ours ÷ reference "
        "| reference with a 12-char id | ours max line B | reference max line B "
        "(max commandRequest B) | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    count_ok = lines_ok = True
    for (kind, size), o in our_enc.items():
        r = ref_enc[(kind, size)]
        share = o["commands"] / r["commands"]
        ok = share <= COMMAND_RATIO
        fits = o["max_line_bytes"] <= COMMAND_LINE_BUDGET_BYTES and o["round_trip"]
        count_ok &= ok
        lines_ok &= fits
        out.append(
            f"| {kind} | {size} | {r['commands']} | {o['commands']} | {share:.2f} "
            f"| {r['commands_12char_id']} ({o['commands'] / r['commands_12char_id']:.2f}) "
            f"| {o['max_line_bytes']} | {r['max_line_bytes']} ({r['max_frame_bytes']}) "
            f"| ≤ {COMMAND_RATIO}, ≤ {COMMAND_LINE_BUDGET_BYTES} B {verdict(ok and fits)} |"
        )
    verdicts[f"commands ≤ {COMMAND_RATIO}x the reference's"] = count_ok
    verdicts[f"every line ≤ {COMMAND_LINE_BUDGET_BYTES} bytes (and round-trips)"] = lines_ok

    out += [
        "",
        "### Chunk decoding plus reassembly (chunks per second)",
        "",
        "| path | answers | chunks per run | reference | ours | ours ÷ reference | target |",
        "|---|---|---|---|---|---|---|",
    ]
    decode_ok = True
    sizes = [round(o["chunks"] / o["messages"]) for o in ours["decode"]]
    labels = [f"~{n} chunk{'s' if n > 1 else ''} each" for n in sizes]
    for r, o, label in zip(ref["decode_codec"], ours["decode"], labels, strict=True):
        ref_rate, our_rate = r["chunks"] / r["best"], o["chunks"] / o["best"]
        ok = our_rate / ref_rate >= DECODE_SPEEDUP
        decode_ok &= ok
        text_rate = o["chunks"] / o["text_only_best"]
        out.append(
            f"| A. decode + reassemble + read the answer's JSON | {label} | {r['chunks']} "
            f"| {ref_rate:,.0f} | {our_rate:,.0f} | {our_rate / ref_rate:.2f}x "
            f"| ≥ {DECODE_SPEEDUP:.0f}x {verdict(ok)} |"
        )
        out.append(
            f"| B. ours up to the reassembled text (no JSON) | {label} | {r['chunks']} "
            f"| {ref_rate:,.0f} (A) | {text_rate:,.0f} | {text_rate / ref_rate:.2f}x | info |"
        )
        floor_rate = o["chunks"] / o["json_only_best"]
        out.append(
            f"| D. `json.loads` of the same answers alone: the ceiling for A | {label} "
            f"| {r['chunks']} | {ref_rate:,.0f} (A) | {floor_rate:,.0f} "
            f"| {floor_rate / ref_rate:.2f}x | info |"
        )
    for r, o, label in zip(ref["decode_session"], ours["decode_frames"], labels, strict=True):
        ref_rate, our_rate = r["chunks"] / r["best"], o["chunks"] / o["best"]
        out.append(
            f"| C. bounded, stateful: whole frames (ours) vs chat text (reference) | {label} "
            f"| {r['chunks']} | {ref_rate:,.0f} | {our_rate:,.0f} "
            f"| {our_rate / ref_rate:.2f}x | info |"
        )
    verdicts[f"chunk decoding + reassembly ≥ {DECODE_SPEEDUP:.0f}x the reference"] = decode_ok

    out += ["", "### Targets", ""]
    out += [f"- {name}: {verdict(ok)}" for name, ok in verdicts.items()]
    return "\n".join(out), verdicts


INTRO = """# Benchmarks: the sans-I/O core against mcbe-ws-sdk 0.2.1

`make bench` runs `benchmarks/bench_sansio.py`. It measures our `mcbews_repl.sansio` in its
own process and the reference implementation, [mcbe-ws-sdk 0.2.1](https://pypi.org/project/mcbe-ws-sdk/0.2.1/)
from PyPI, in a subprocess under `.bench-venv` (created on the first run; the reference pins
`websockets<17`, so it gets its own environment and none of its code is copied here). Both
sides encode and decode the same inputs (`benchmarks/workload.py`) and the reference is called
through its public functions with its default settings. A full run takes about two minutes,
most of it the reference encoding 1 MiB without sentence delimiters.

What is measured (issue 2, "Performance"):

- **Text response encoding** of 4 KiB, 64 KiB and 1 MiB texts (UTF-8 bytes): English-like
  prose (sentences of 6-30 words, paragraphs), Chinese prose (sentences of 10-45 characters
  ending in \u3002\uff1f\uff01), and words with no sentence delimiters at all (the
  reference splits on `\u3002\uff01\uff1f.!?\\n`). Ours: `encode_text_response(player,
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
  them), about 2,400 chunks per run, in order. Row A is the like-for-like comparison: the
  reference's `decode_bridge_chat_chunk` per line and `reassemble_bridge_chunks` per answer
  (which parses the answer's JSON), against our `parse_chunk` + `Reassembler.feed` +
  `interpret_bridge_answer` (which parses it too). Row B stops ours at the reassembled text.
  Row D times only the stdlib `json.loads` of the same answers, which both A rows include:
  no decoder that still reads the answer can beat the reference by more than that row's
  ratio. Row C is each side's bounded, stateful path: our `BridgeProtocol.receive_text` on
  whole PlayerMessage frames (frame JSON included) against the reference's
  `AddonBridgeSession.handle_chat_chunk` on the chat text alone.
"""


NOTES = """### Notes

- The reference's median can sit well above its best on this shared 2-core machine; ratios
  use best times. The reference is run once at 1 MiB without delimiters (about 19 s a call).
- Chunk decoding misses its 3x target, and cannot reach it with the answer's JSON read on
  both sides: row D shows that `json.loads` alone (the same stdlib call in both) caps the
  ratio at about 2.2-3.9x. Per chunk, ours spends about 1.2 us in `parse_chunk` (half of it
  constructing the frozen `Chunk` dataclass), 0.9-1.1 us in `Reassembler.feed` (bounds,
  duplicate and metadata checks, the `Pending`/`Completed` result objects) and 1.7-1.8 us
  in `json.loads`. The reference's per-chunk cost besides JSON is a pydantic-core model
  construction and a split, which is no slower than ours; its bounded session path (row C)
  is what pays for bounds, and ours there also decodes the whole game frame.
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
        "decode_frames": [decode_ours_frames(p, budget_s=0.5) for p in w.ANSWER_PLAYERS],
    }
    ref = run_reference({"encode_budget_s": 1.5, "decode_budget_s": 1.0})
    tables, verdicts = report(ours, ref)
    page = "\n".join([INTRO, "## Results", "", *machine(ref), "", tables, "", NOTES])
    print(page)
    if not args.no_write:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(page, encoding="utf-8")
        log(f"wrote {args.output.relative_to(ROOT)}")
    if not all(verdicts.values()):
        log("some targets were missed; see the Targets list")


if __name__ == "__main__":
    main()
