"""The status panel's rows about what the bridge's bounds did (limits.py, docs/gateway.md).

A row appears only once there is something to say: input a game sent that was dropped, UI
chat messages dropped because the callbacks were busy, long text cut in the event log,
forwarded events the addon or the connection's bound dropped in a flood, the game's own
events over a subscription's rate or past the connection's bound, handshakes refused,
callbacks that failed. Quiet sessions keep a short panel.
"""

from __future__ import annotations

from collections import Counter

from ...gateway import Bridge, GameConnection

__all__ = ["counter_rows"]

# Counters of a connection that mean "this input was dropped" (the rest are harmless,
# such as duplicate chunks, or said in their own words below).
_DROPPED = ("unknown_request_id", "bridge_prefix_not_matched", "late_response", "game_error")
_REFUSED = {
    "refused:wrong_token": "with a wrong /connect token",
    "refused:throttled": "refused unchecked (too many wrong tokens from one address)",
    "refused:throttled_all": "refused unchecked (too many wrong tokens from all addresses)",
    "refused:unencrypted": "that could not encrypt",
    "refused:max_connections": "beyond max_connections",
    "refused:max_connections_per_address": "beyond max_connections_per_address",
    "refused:max_half_open": "closed unread (max_half_open)",
    "refused:max_half_open_per_address": "closed unread (max_half_open_per_address)",
    "refused:request_timeout": "closed: no request within request_timeout",
    "refused:accept_error": "not accepted: out of file descriptors or memory",
}


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def _log_row(bridge: Bridge) -> tuple[str, str] | None:
    log = bridge.log
    cut = log.counters["truncated"]
    early = sum(n for k, n in log.counters.items() if k.startswith("dropped_"))
    if not (cut or early):
        return None
    size = f"{log.size_bytes / 2**20:.1f} of {log.max_bytes / 2**20:.0f} MiB"
    entries = _plural(len(log), "entry", "entries")
    dropped = _plural(early, "old entry", "old entries")
    return (
        "event log",
        f"{entries}, {size}; {_plural(cut, 'long text')} cut, {dropped} dropped early "
        "to stay within its bytes",
    )


def _game_row(c: GameConnection) -> tuple[str, str] | None:
    counters = c.counters
    reasons = Counter(
        {k.removeprefix("rejected:"): v for k, v in counters.items() if k.startswith("rejected:")}
    )
    reasons.update({k: counters[k] for k in _DROPPED if counters[k]})
    parts = []
    if dropped := sum(reasons.values()):
        top = ", ".join(f"{why} {n:,}" for why, n in reasons.most_common(3))
        parts.append(f"{_plural(dropped, 'input')} dropped ({top})")
    if busy := counters["ui_chat_dropped"]:
        parts.append(f"{_plural(busy, 'UI chat message')} dropped while the callbacks were busy")
    if cut := counters["log_truncated"]:
        parts.append(f"{_plural(cut, 'long text')} cut in the event log")
    if by_addon := counters["forwarded_dropped_by_addon"]:
        parts.append(f"{_plural(by_addon, 'forwarded event')} dropped by the addon (its bounds)")
    if over := counters["forwarded_dropped"]:
        parts.append(f"{_plural(over, 'forwarded event')} dropped past this connection's bound")
    if rated := counters["rate_dropped"]:
        parts.append(f"{_plural(rated, 'game event')} over their subscription's rate dropped")
    if flood := counters["game_events_dropped"]:
        parts.append(f"{_plural(flood, 'game event')} dropped past this connection's bound")
    return (f"game #{c.id} limits", "; ".join(parts)) if parts else None


def counter_rows(bridge: Bridge, failures: int, kept: int) -> list[tuple[str, str]]:
    """Rows for each game whose input hit a bound, refused handshakes, the log, callbacks."""
    rows = [row for c in bridge.connections if (row := _game_row(c)) is not None]
    refused = [
        f"{_plural(n, 'handshake')} {_REFUSED.get(k, k.replace('refused:', 'refused: '))}"
        for k, n in bridge.counters.items()
        if k.startswith("refused:") and n
    ]
    if refused:
        rows.append(("connections refused", "; ".join(refused)))
    if (log_row := _log_row(bridge)) is not None:
        rows.append(log_row)
    if failures:
        newest = min(failures, kept)
        text = f"failed {_plural(failures, 'time')}; mc.callback_failures keeps the newest {newest}"
        rows.append(("UI chat callbacks", text))
    return rows
