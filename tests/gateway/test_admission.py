"""Handshake pacing per source address, with the clock passed in."""

from __future__ import annotations

import pytest

from mcbews_repl.gateway.admission import HandshakeThrottle


def throttle(**options: float) -> HandshakeThrottle:
    defaults = {"burst": 3, "per_second": 2.0, "max_delay": 2.0}
    return HandshakeThrottle(**{**defaults, **options})  # type: ignore[arg-type]


def test_a_burst_at_full_speed_then_paced_then_refused() -> None:
    t = throttle()
    assert [t.admit("10.0.0.9", 0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    # Past the burst each failure waits its turn: half a second apart at 2 a second.
    assert [t.admit("10.0.0.9", 0.0) for _ in range(4)] == [0.5, 1.0, 1.5, 2.0]
    assert t.admit("10.0.0.9", 0.0) is None  # would wait longer than max_delay: refused
    assert t.admit("10.0.0.9", 0.0) is None  # refusals cost nothing, and change nothing
    # Time gives the budget back at the paced rate.
    assert t.admit("10.0.0.9", 0.5) == 2.0
    assert t.admit("10.0.0.9", 10.0) == 0.0


def test_addresses_are_paced_apart_and_a_right_token_gives_its_share_back() -> None:
    t = throttle(burst=1)
    assert t.admit("10.0.0.1", 0.0) == 0.0 and t.admit("10.0.0.1", 0.0) == 0.5
    assert t.admit("10.0.0.2", 0.0) == 0.0  # another address has its own budget
    t.succeeded("10.0.0.2", 0.0)
    assert len(t) == 1  # a full budget is forgotten
    paced = t.admit("10.0.0.1", 0.0)
    assert paced == 1.0
    t.succeeded("10.0.0.1", 0.0)
    assert t.admit("10.0.0.1", 0.0) == 1.0


def test_the_table_of_addresses_is_bounded() -> None:
    t = throttle(burst=1, tracked=100)
    for k in range(1000):
        t.admit(f"10.0.{k // 256}.{k % 256}", 0.0)
    assert len(t) == 100 and t.throttled(0.0) == 100
    assert t.admit("10.0.0.0", 0.0) == 0.0  # forgotten first: the least recently seen


def test_announce_says_once_per_episode() -> None:
    t = throttle(burst=1)
    t.admit("a", 0.0)
    t.admit("a", 0.0)
    assert t.announce("a") and not t.announce("a")
    t.admit("a", 100.0)  # the budget refilled: a new episode may be announced
    t.admit("a", 100.0)
    assert t.announce("a")


@pytest.mark.parametrize("rate", [0.5, 2.0, 10.0])
def test_sustained_guessing_is_held_to_the_rate(rate: float) -> None:
    """Any number of attempts, sent as fast as answers come back: the checked ones stay
    within burst + rate x elapsed."""
    t = throttle(burst=10, per_second=rate, max_delay=5.0)
    now, checked = 0.0, 0
    while now < 60.0:
        delay = t.admit("x", now)
        if delay is None:
            now += 0.001
            continue
        checked += 1
        now += delay + 0.001  # the answer comes after the delay; the next try at once
    assert checked <= 10 + rate * now + 1
