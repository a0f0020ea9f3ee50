"""The bounded reassembler: rules, TTL and caps, with the clock passed in."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mcbews_repl.sansio import Channel, Chunk, Reassembler
from mcbews_repl.sansio.jsonwire import utf8_len
from mcbews_repl.sansio.reassembly import Completed, Duplicate, Failed, Pending


def chunk(
    i: int, n: int, content: str, mid: str = "m", channel: Channel = Channel.UI_CHAT
) -> Chunk:
    return Chunk(channel, mid, i, n, content)


def test_out_of_order_completes_once() -> None:
    r = Reassembler()
    assert isinstance(r.feed(chunk(2, 2, "b"), 0), Pending)
    done = r.feed(chunk(1, 2, "a"), 0)
    assert isinstance(done, Completed) and done.text == "ab"
    assert r.buffer_count == 0 and r.buffered_bytes == 0


def test_identical_duplicate_is_harmless_even_after_completion() -> None:
    r = Reassembler()
    r.feed(chunk(1, 2, "a"), 0)
    assert isinstance(r.feed(chunk(1, 2, "a"), 0), Duplicate)
    assert isinstance(r.feed(chunk(2, 2, "b"), 0), Completed)
    # A late copy must not deliver the message a second time.
    assert isinstance(r.feed(chunk(2, 2, "b"), 1), Duplicate)
    single = Reassembler()
    assert isinstance(single.feed(chunk(1, 1, "x", "s"), 0), Completed)
    assert isinstance(single.feed(chunk(1, 1, "x", "s"), 0), Duplicate)


def test_conflicting_duplicate_fails_and_frees_the_buffer() -> None:
    r = Reassembler()
    r.feed(chunk(1, 3, "a"), 0)
    out = r.feed(chunk(1, 3, "z"), 0)
    assert isinstance(out, Failed) and out.reason == "conflicting_duplicate"
    assert r.buffer_count == 0 and r.buffered_bytes == 0


def test_changed_total_and_meta_fail() -> None:
    r = Reassembler()
    r.feed(chunk(1, 3, "a"), 0)
    out = r.feed(chunk(2, 4, "b"), 0)
    assert isinstance(out, Failed) and out.reason == "total_changed"
    r.feed(Chunk(Channel.TEXT, "t", 1, 2, "a", ("Steve",)), 0)
    out = r.feed(Chunk(Channel.TEXT, "t", 2, 2, "b", ("Alex",)), 0)
    assert isinstance(out, Failed) and out.reason == "meta_changed"


def test_ttl_expires_partial_buffers() -> None:
    r = Reassembler(ttl_seconds=30)
    r.feed(chunk(1, 2, "a"), 100.0)
    assert r.expire(129.9) == []
    gone = r.expire(130.0)
    assert [(g.message_id, g.received, g.total) for g in gone] == [("m", 1, 2)]
    assert r.buffer_count == 0 and r.buffered_bytes == 0
    # The message starts afresh after expiry; the late half alone does not complete it.
    assert isinstance(r.feed(chunk(2, 2, "b"), 131.0), Pending)


def test_buffer_count_cap() -> None:
    r = Reassembler(max_buffers=3)
    for k in range(3):
        assert isinstance(r.feed(chunk(1, 2, "a", f"m{k}"), 0), Pending)
    out = r.feed(chunk(1, 2, "a", "m9"), 0)
    assert isinstance(out, Failed) and out.reason == "too_many_buffers"
    assert r.buffer_count == 3
    # Completing one frees a slot.
    r.feed(chunk(2, 2, "b", "m0"), 0)
    assert isinstance(r.feed(chunk(1, 2, "a", "m9"), 0), Pending)


def test_per_message_and_total_byte_caps() -> None:
    r = Reassembler(max_message_bytes=10, max_total_bytes=15)
    r.feed(chunk(1, 3, "x" * 6, "a"), 0)
    out = r.feed(chunk(2, 3, "x" * 6, "a"), 0)
    assert isinstance(out, Failed) and out.reason == "message_too_large"
    assert r.buffered_bytes == 0
    r.feed(chunk(1, 3, "x" * 8, "b"), 0)
    out = r.feed(chunk(1, 3, "x" * 8, "c"), 0)
    assert isinstance(out, Failed) and out.reason == "buffer_space_exhausted"
    assert r.buffered_bytes == 8
    big = r.feed(chunk(1, 1, "x" * 11, "d"), 0)
    assert isinstance(big, Failed) and big.reason == "message_too_large"


def test_chunk_count_cap_and_bad_position() -> None:
    r = Reassembler(max_chunks=4)
    out = r.feed(chunk(1, 5, "a"), 0)
    assert isinstance(out, Failed) and out.reason == "bad_position"
    out = r.feed(chunk(3, 2, "a"), 0)
    assert isinstance(out, Failed)


def test_flood_of_junk_stays_within_caps() -> None:
    r = Reassembler()
    for k in range(10_000):
        r.feed(chunk(1, 128, "y" * 256, f"junk{k}"), float(k) / 1000)
        assert r.buffer_count <= 64
        assert r.buffered_bytes <= 256 * 1024


class GeneralOnly(Reassembler):
    """The reassembler with its fast paths off: every chunk takes ``_feed_general``."""

    def feed_fields(
        self,
        channel: Channel,
        message_id: str,
        index: int,
        total: int,
        content: str,
        now: float,
        meta: tuple[str, ...] = (),
    ) -> str | Failed | Duplicate | None:
        key = (channel, message_id)
        buf, size = self._buffers.get(key), utf8_len(content)
        return self._feed_general(key, buf, index, total, content, size, now, meta)


# A feed step: None for the index, total or metadata means "as the addon would send it"
# (the key's next index, its first total, its first metadata), so that streams are mostly
# well-formed messages, in order, with the odd conflict, gap, duplicate or bad position.
_feeds = st.tuples(
    st.sampled_from([Channel.BRIDGE, Channel.UI_CHAT]),
    st.sampled_from(["a", "b"]),
    st.one_of(st.none(), st.integers(0, 4)),  # index
    st.one_of(st.none(), st.integers(0, 4)),  # total
    st.sampled_from(["", "x", "yy", "\u00e9", "\u4f60\u597d", "\ud800"]),
    st.one_of(st.none(), st.sampled_from([(), ("Steve",), ("Alex",)])),
    st.floats(0, 20),  # seconds since the previous step
)
_steps = st.one_of(_feeds, st.floats(0, 40).map(lambda dt: ("expire", dt)))


@given(
    steps=st.lists(_steps, min_size=5, max_size=60),
    max_buffers=st.integers(1, 3),
    max_chunks=st.one_of(st.just(4), st.integers(0, 4)),
    max_message_bytes=st.one_of(st.just(12), st.integers(0, 12)),
    max_total_bytes=st.one_of(st.just(16), st.integers(0, 16)),
)
@settings(max_examples=1000)
def test_fast_paths_agree_with_the_general_path(
    steps: list[tuple[Any, ...]],
    max_buffers: int,
    max_chunks: int,
    max_message_bytes: int,
    max_total_bytes: int,
) -> None:
    """Any stream of chunks, in or out of order, duplicated, conflicting, over the caps,
    with expiry between: the fast paths answer and bound exactly as the general path."""
    limits = {
        "ttl_seconds": 30.0,
        "max_buffers": max_buffers,
        "max_chunks": max_chunks,
        "max_message_bytes": max_message_bytes,
        "max_total_bytes": max_total_bytes,
    }
    fast, general = Reassembler(**limits), GeneralOnly(**limits)
    sent: dict[tuple[Channel, str], tuple[int, int, tuple[str, ...]]] = {}
    now = 0.0
    for step in steps:
        if step[0] == "expire":
            now += step[1]
            assert fast.expire(now) == general.expire(now)
            continue
        channel, mid, index, total, content, meta, dt = step
        count, usual_total, usual_meta = sent.get((channel, mid), (0, 3, ()))
        index = count % usual_total + 1 if index is None else index
        total = usual_total if total is None else total
        meta = usual_meta if meta is None else meta
        sent[(channel, mid)] = (count + 1, max(total, 1), meta)
        now += dt
        args = (channel, mid, index, total, content, now, meta)
        assert fast.feed_fields(*args) == general.feed_fields(*args)
        assert (fast.buffer_count, fast.buffered_bytes) == (
            general.buffer_count,
            general.buffered_bytes,
        )
        assert fast._recent == general._recent


@given(
    payload=st.text(min_size=1, max_size=600),
    size=st.integers(1, 40),
    seed=st.integers(0, 2**32),
    dup=st.integers(0, 4),
    shuffle=st.booleans(),
)
@settings(max_examples=300)
def test_any_order_and_duplication_completes_once_with_the_text(
    payload: str, size: int, seed: int, dup: int, shuffle: bool
) -> None:
    parts = [payload[i : i + size] for i in range(0, len(payload), size)]
    assume(len(parts) <= 128)  # past the per-message cap is refused (tested above)
    chunks = [chunk(i, len(parts), p) for i, p in enumerate(parts, start=1)]
    rng = random.Random(seed)
    stream = chunks + [rng.choice(chunks) for _ in range(dup)]
    if shuffle:  # otherwise in order, with the duplicates last: the in-order join
        rng.shuffle(stream)
    r = Reassembler()
    done = [o for o in (r.feed(c, 0) for c in stream) if isinstance(o, Completed)]
    assert [d.text for d in done] == [payload]
    assert r.buffer_count == 0 and r.buffered_bytes == 0
