"""A subscription's rate for the game's own events (rates.py), with the clock passed in, and
the book that keeps each subscription's rate per world (subscriptions.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.gateway.rates import PlayerRates
from mcbews_repl.gateway.subscriptions import SubscriptionBook, check_rate

ANA, BEN = "Ana@127.0.0.1", "Ben@127.0.0.1"


def test_at_most_the_rate_a_second_per_player_and_kind() -> None:
    keeper = PlayerRates()
    kept = [keeper.admit(0.1 * k, "PlayerTravelled", "Steve", 2) for k in range(10)]
    assert kept == [True, True] + [False] * 8  # 0.0 and 0.1 s, then nothing in that second
    assert keeper.admit(1.0, "PlayerTravelled", "Steve", 2)  # 0.0 is a second old
    assert not keeper.admit(1.05, "PlayerTravelled", "Steve", 2)  # 0.1 is not yet
    assert keeper.admit(0.5, "PlayerTravelled", "Alex", 2)  # each player has their own
    assert keeper.admit(0.5, "PlayerTransform", "Steve", 2)  # and each kind
    assert all(keeper.admit(0.0, "PlayerTravelled", "Steve", 0) for _ in range(50))  # none


def test_the_players_remembered_are_bounded_oldest_forgotten_first() -> None:
    keeper = PlayerRates(max_players=3)
    for k, name in enumerate(["A", "B", "C", "D"]):
        assert keeper.admit(0.01 * k, "PlayerTravelled", name, 1)
    assert len(keeper) == 3
    assert not keeper.admit(0.1, "PlayerTravelled", "D", 1)  # still remembered
    assert keeper.admit(0.1, "PlayerTravelled", "A", 1)  # forgotten: a fresh second
    assert len(keeper) == 3


events = st.lists(
    st.tuples(st.floats(0.0, 0.4), st.sampled_from(["Steve", "Alex", None])), max_size=200
)


@given(events, st.integers(1, 20))
def test_no_second_ever_holds_more_than_the_rate(steps: list[tuple[float, str | None]],
                                                 rate: int) -> None:  # fmt: skip
    """Over any second (a sliding one), at most ``rate`` of a player's events are kept, and
    an event is refused only when ``rate`` were kept in the second before it."""
    keeper = PlayerRates()
    now, kept = 0.0, {}
    for step, player in steps:
        now += step
        recent = [t for t in kept.get(player, []) if now - t < 1.0]
        admitted = keeper.admit(now, "PlayerTravelled", player, rate)
        assert admitted == (len(recent) < rate)
        if admitted:
            kept.setdefault(player, []).append(now)
    for times in kept.values():
        for k in range(len(times) - rate):
            assert times[k + rate] - times[k] >= 1.0


@given(st.lists(st.text(min_size=1, max_size=3), max_size=300), st.integers(1, 50))
def test_memory_stays_within_its_bound(names: list[str], bound: int) -> None:
    keeper = PlayerRates(max_players=bound)
    for k, name in enumerate(names):
        keeper.admit(k * 0.001, "PlayerTravelled", name, 20)
        assert len(keeper) <= bound


def test_a_rate_is_checked() -> None:
    assert check_rate("PlayerTravelled", 2) == 2 and check_rate("item_use", None) == 0
    with pytest.raises(ValueError, match="0 \\(none\\) to 20"):
        check_rate("PlayerTravelled", 21)
    with pytest.raises(ValueError, match="PlayerMessage has no rate"):
        check_rate("PlayerMessage", 1)
    with pytest.raises(TypeError):
        check_rate("PlayerTravelled", True)


def test_each_world_keeps_its_own_rate_and_again_without_one_is_none() -> None:
    book = SubscriptionBook()
    book.add("item_use", ANA, everywhere=False, unknown_ok=False, rate=5)
    book.add("item_use", BEN, everywhere=False, unknown_ok=False, rate=1)
    assert book.rates(ANA) == {"item_use": 5} and book.rates(BEN) == {"item_use": 1}
    book.add("item_use", BEN, everywhere=False, unknown_ok=False)
    assert book.rates(BEN) == {} and book.rates(ANA) == {"item_use": 5}
    assert "item_use" in book.wanted(BEN)


def test_a_worlds_own_rate_comes_before_the_one_everywhere() -> None:
    book = SubscriptionBook()
    book.add("PlayerTravelled", None, everywhere=True, unknown_ok=False, rate=2)
    book.add("PlayerTravelled", ANA, everywhere=False, unknown_ok=False, rate=10)
    assert book.rates(ANA) == {"PlayerTravelled": 10} and book.rates(BEN) == {"PlayerTravelled": 2}
    assert book.rates(None, {"PlayerTravelled": 4}) == {"PlayerTravelled": 4}
    book.remove("PlayerTravelled", ANA, everywhere=False)
    assert book.rates(ANA) == {"PlayerTravelled": 2}
    book.remove("PlayerTravelled", None, everywhere=True)
    assert book.rates(ANA) == {} and "PlayerTravelled" not in book.wanted(ANA)
