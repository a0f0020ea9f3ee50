"""Small builders for game frames, written independently of the codec under test."""

from __future__ import annotations

import json


def chat_frame(sender: str, message: str, *, type_: str = "tell", legacy: bool = False) -> str:
    if legacy:
        props = {"Message": message, "MessageType": type_, "Sender": sender, "Receiver": sender}
        return json.dumps(
            {
                "header": {"messagePurpose": "event", "version": 1},
                "body": {"eventName": "PlayerMessage", "properties": props},
            }
        )
    return json.dumps(
        {
            "header": {
                "eventName": "PlayerMessage",
                "messagePurpose": "event",
                "version": 17039360,
            },
            "body": {"message": message, "receiver": sender, "sender": sender, "type": type_},
        }
    )


def bridge_chunks(channel: str, message_id: str, payload: str, size: int) -> list[str]:
    """Cut ``payload`` every ``size`` code points into chunk lines (the addon's job)."""
    parts = [payload[i : i + size] for i in range(0, len(payload), size)] or [""]
    n = len(parts)
    return [f"MCBEWS|{channel}|{message_id}|{i}/{n}|{p}" for i, p in enumerate(parts, start=1)]
