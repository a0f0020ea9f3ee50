"""The reference side of the benchmark: mcbe-ws-sdk 0.2.1, run under ``.bench-venv``.

Started by ``bench_sansio.py`` as ``.bench-venv/bin/python benchmarks/reference_side.py
'<json config>'``; prints one JSON document with its measurements on stdout. It calls the
reference's public functions with their default settings, as a user of that package would,
on the inputs of ``workload.py``. Nothing from mcbews_repl is imported here.
"""

from __future__ import annotations

import asyncio
import json
import platform
import sys
from importlib.metadata import version
from time import perf_counter
from typing import Any

import workload as w
from mcbe_ws_sdk.addon.session import AddonBridgeSession
from mcbe_ws_sdk.config import AddonBridgeSettings, FlowControlSettings
from mcbe_ws_sdk.flow.flow_control import FlowControlMiddleware
from mcbe_ws_sdk.profiles.mcbews_v1.codec import (
    decode_bridge_chat_chunk,
    encode_text_response_commands,
    reassemble_bridge_chunks,
)

_PREFIX = "scriptevent mcbews:text_resp "


def _command_lines(payloads: list[str]) -> list[str]:
    """The reference returns whole commandRequest JSON frames; the line is body.commandLine."""
    return [json.loads(p)["body"]["commandLine"] for p in payloads]


def encode(config: dict[str, Any]) -> list[dict[str, Any]]:
    flow = FlowControlMiddleware(FlowControlSettings())
    rows = []
    for kind in w.KINDS:
        for label, size in w.SIZES.items():
            text = w.make_text(kind, size)
            outputs: list[list[str]] = []

            def run(text: str = text, outputs: list[list[str]] = outputs) -> float:
                start = perf_counter()
                out = encode_text_response_commands(
                    player_name=w.PLAYER, role=w.ROLE, text=text, flow=flow
                )
                elapsed = perf_counter() - start
                if not outputs:
                    outputs.append(out)
                return elapsed

            times = w.measure(run, budget_s=config["encode_budget_s"], min_runs=1, max_runs=30)
            payloads = outputs[0]
            lines = _command_lines(payloads)
            frames = [json.loads(line.removeprefix(_PREFIX)) for line in lines]
            same_id = encode_text_response_commands(
                player_name=w.PLAYER, role=w.ROLE, text=text, flow=flow, response_id="0" * 12
            )
            rows.append(
                {
                    "kind": kind,
                    "size": label,
                    **w.summary(times),
                    "commands": len(payloads),
                    "commands_12char_id": len(same_id),
                    "max_line_bytes": max(len(x.encode("utf-8")) for x in lines),
                    "max_frame_bytes": max(len(p.encode("utf-8")) for p in payloads),
                    "round_trip": "".join(f["c"] for f in frames) == text,
                }
            )
            print(f"  reference encode {kind:<13} {label:>6}: {min(times) * 1e3:9.2f} ms",
                  file=sys.stderr, flush=True)  # fmt: skip
    return rows


def decode_codec(players: int, budget_s: float) -> dict[str, Any]:
    """decode_bridge_chat_chunk per line, reassemble_bridge_chunks per complete answer."""
    count = w.messages_per_run(players)
    messages = w.answer_messages(players, w.make_ids(count, f"decode:{players}"))
    lines = [line for message in messages for line in message]
    expected = [json.loads(w.make_answer(players, k)) for k in range(count)]

    def run() -> float:
        buffers: dict[str, list[Any]] = {}
        done = []
        start = perf_counter()
        for line in lines:
            chunk = decode_bridge_chat_chunk(line)
            buf = buffers.setdefault(chunk.request_id, [])
            buf.append(chunk)
            if len(buf) == chunk.total_chunks:
                done.append(reassemble_bridge_chunks(buffers.pop(chunk.request_id)))
        elapsed = perf_counter() - start
        assert [r.payload for r in done] == expected
        return elapsed

    times = w.measure(run, budget_s=budget_s)
    return {"players": players, "chunks": len(lines), **w.summary(times)}


def decode_session(players: int, budget_s: float) -> dict[str, Any]:
    """AddonBridgeSession.handle_chat_chunk: the reference's bounded, stateful reassembly."""
    count = w.messages_per_run(players)
    answers = [w.make_answer(players, k) for k in range(count)]
    batch = AddonBridgeSettings().max_pending_requests
    chunks_seen: list[int] = []

    async def run_async() -> float:
        session = AddonBridgeSession(AddonBridgeSettings())
        elapsed = 0.0
        chunks = 0
        for first in range(0, count, batch):
            requests = [
                session.create_request("get_players", {}) for _ in answers[first : first + batch]
            ]
            lines = [
                line
                for request, answer in zip(requests, answers[first : first + batch], strict=True)
                for line in w.split_answer(answer, request.request_id)
            ]
            start = perf_counter()
            for line in lines:
                session.handle_chat_chunk(line)
            elapsed += perf_counter() - start
            chunks += len(lines)
            assert all(r.future.done() and not r.future.exception() for r in requests)
        chunks_seen.append(chunks)
        return elapsed

    times = w.measure(lambda: asyncio.run(run_async()), budget_s=budget_s)
    return {"players": players, "chunks": chunks_seen[0], **w.summary(times)}


def main() -> None:
    config = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    config.setdefault("encode_budget_s", 1.5)
    config.setdefault("decode_budget_s", 1.0)
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "versions": {name: version(name) for name in ("mcbe-ws-sdk", "pydantic", "websockets")},
        "decode_codec": [decode_codec(p, config["decode_budget_s"]) for p in w.ANSWER_PLAYERS],
        "decode_session": [decode_session(p, config["decode_budget_s"]) for p in w.ANSWER_PLAYERS],
    }
    print("  reference decoding done", file=sys.stderr, flush=True)
    result["encode"] = encode(config)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
