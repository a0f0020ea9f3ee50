"""The ``mcbews-repl`` command: ``demo`` and the sub-commands later layers add."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from . import __version__
from .sansio import (
    BridgeProtocol,
    Channel,
    encode_text_response,
    format_chunk,
    split_payload,
)
from .sansio.wire import BRIDGE_PLAYER

__all__ = ["main"]


def _chat_frame(sender: str, message: str) -> str:
    body = {"message": message, "receiver": sender, "sender": sender, "type": "tell"}
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360}
    return json.dumps({"header": header, "body": body}, ensure_ascii=False)


def demo() -> int:
    """Walk one capability call and one text response through the sans-I/O core."""
    proto = BridgeProtocol()
    request = proto.capability_request("get_player_snapshot", {"target": "@a"}, now=0.0)
    print("1. Python asks the addon (this command line goes to the game):")
    print("  ", request.command_line)
    answer = json.dumps({"ok": True, "result": {"players": [{"name": "Steve", "health": 20}]}})
    chunks = split_payload(Channel.BRIDGE, request.request_id, answer, max_code_points=24)
    print(f"\n2. The addon answers in {len(chunks)} chat chunks from {BRIDGE_PLAYER}:")
    for chunk in reversed(chunks):  # out of order on purpose: reassembly sorts them
        print("  ", format_chunk(chunk))
    print("\n3. The core reassembles them into events:")
    for chunk in reversed(chunks):
        for event in proto.receive_text(_chat_frame(BRIDGE_PLAYER, format_chunk(chunk)), 0.1):
            print("  ", event)
    lines = encode_text_response("Steve", "你好, Steve! " * 30, response_id="r1")
    print(f"\n4. A text response to Steve travels as {len(lines)} full command lines:")
    for line in lines:
        print(f"   [{len(line.encode())} bytes] {line[:90]}...")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mcbews-repl", description=__doc__)
    parser.add_argument("--version", action="version", version=f"mcbews-repl {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("demo", help="show one capability call through the protocol core")
    args = parser.parse_args(argv)
    if args.command == "demo":
        return demo()
    parser.error(f"unknown command {args.command!r}")
    return 2  # pragma: no cover - parser.error exits
