"""The budgets of token checks, with the clock passed in: per address, across all, proven."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.gateway.budgets import HandshakeThrottle, ProvenAddresses, SharedBudget


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


@given(
    steps=st.lists(st.tuples(st.floats(min_value=0.0, max_value=0.5), st.booleans()), max_size=400)
)
def test_the_shared_budget_holds_whatever_the_order(steps: list[tuple[float, bool]]) -> None:
    """Checks taken (less the right tokens given back) never pass burst + rate x elapsed."""
    budget = SharedBudget(burst=40, per_second=20.0)
    now, taken = 0.0, 0
    for pause, right in steps:
        now += pause
        if budget.take(now):
            taken += 1
            if right:
                budget.give_back(now)
                taken -= 1
        assert taken <= 40 + 20.0 * now + 1e-9


def test_the_shared_budget_refuses_when_spent_and_refills() -> None:
    budget = SharedBudget(burst=2, per_second=4.0)
    assert [budget.take(0.0) for _ in range(3)] == [True, True, False]
    assert not budget.take(0.2) and budget.take(0.25)  # a quarter second: one more
    budget.give_back(0.25)
    assert budget.left(0.25) == pytest.approx(1.0)
    assert budget.left(100.0) == 2.0  # never above the burst


def test_proven_addresses_expire_and_the_table_is_bounded() -> None:
    proven = ProvenAddresses(ttl=60.0, capacity=3)
    proven.prove("10.0.0.1", 0.0)
    assert proven.holds("10.0.0.1", 59.0) and not proven.holds("10.0.0.1", 60.0)
    assert len(proven) == 0  # an expired address is forgotten
    for k in range(5):
        proven.prove(f"10.0.0.{k}", 100.0 + k)
    assert len(proven) == 3 and not proven.holds("10.0.0.0", 105.0)
    assert proven.holds("10.0.0.4", 105.0)
    proven.prove("10.0.0.4", 150.0)  # its game left: the TTL runs from then
    assert proven.holds("10.0.0.4", 209.0)


def test_a_zero_ttl_remembers_no_address() -> None:
    proven = ProvenAddresses(ttl=0.0)
    proven.prove("10.0.0.1", 0.0)
    assert not proven.holds("10.0.0.1", 0.0) and len(proven) == 0
