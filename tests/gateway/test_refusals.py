"""Refusals in the event log: the first of a reason at once, a flood as a few summaries."""

from __future__ import annotations

from collections import Counter

from mcbews_repl.gateway import EventLog
from mcbews_repl.gateway.refusals import Refusals
from mcbews_repl.limits import REFUSAL_ADDRESSES_COUNTED


def refused_entries(log: EventLog) -> list[tuple[str, dict[str, object]]]:
    return [(e.summary, dict(e.data)) for e in log.since(0) if e.kind == "refused"]


def test_the_first_refusal_is_written_at_once_and_a_flood_is_summarized() -> None:
    log, counters = EventLog(), Counter[str]()
    refusals = Refusals(log, counters, interval=10.0)
    refusals.refused("wrong_token", "10.0.0.1", "wrong /connect path from 10.0.0.1", 0.0)
    for k in range(5000):
        refusals.refused("wrong_token", f"10.0.{k % 7}.9", "wrong", 0.001 * k)
    refusals.flush(5.0)  # not due yet
    assert len(refused_entries(log)) == 1
    refusals.flush(10.0)
    (first, first_data), (summary, data) = refused_entries(log)
    assert first == "wrong /connect path from 10.0.0.1" and first_data["reason"] == "wrong_token"
    assert first_data["peer"] == "10.0.0.1"
    assert summary.startswith("5,000 more refused (wrong_token) in 10.0 s from 7 addresses")
    assert data["count"] == 5000 and data["addresses"] == 7 and data["reason"] == "wrong_token"
    assert counters["refused:wrong_token"] == 5001  # every refusal is counted


def test_reasons_are_paced_apart_and_a_quiet_reason_is_written_at_once_again() -> None:
    log = EventLog()
    refusals = Refusals(log, Counter(), interval=10.0)
    refusals.refused("throttled", "a", "a is throttled", 0.0)
    refusals.refused("max_half_open", "b", "b closed", 0.5)  # another reason: at once
    refusals.flush(20.0)  # nothing more came: forgotten
    refusals.refused("throttled", "a", "a is throttled again", 21.0)
    assert [s for s, _ in refused_entries(log)] == [
        "a is throttled",
        "b closed",
        "a is throttled again",
    ]


def test_the_addresses_counted_by_name_are_bounded() -> None:
    log = EventLog()
    refusals = Refusals(log, Counter(), interval=10.0)
    refusals.refused("throttled_all", "first", "first", 0.0)
    for k in range(REFUSAL_ADDRESSES_COUNTED + 100):
        refusals.refused("throttled_all", f"10.1.{k // 256}.{k % 256}", "x", 1.0)
    refusals.flush(0.5, every=True)  # as the bridge stops: everything owed
    summary, data = refused_entries(log)[-1]
    assert f"from {REFUSAL_ADDRESSES_COUNTED}+ addresses" in summary
    assert data["count"] == REFUSAL_ADDRESSES_COUNTED + 100


def test_a_refusal_without_an_address_says_so() -> None:
    log = EventLog()
    refusals = Refusals(log, Counter(), interval=1.0)
    refusals.refused("accept_error", None, "could not accept", 0.0)
    refusals.refused("accept_error", None, "could not accept", 0.1)
    refusals.flush(2.0)
    (_, first), (summary, data) = refused_entries(log)
    assert first["peer"] is None and data["peer"] is None
    assert summary == "1 more refused (accept_error) in 2.0 s"
