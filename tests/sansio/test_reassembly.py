"""The bounded reassembler: rules, TTL and caps, with the clock passed in."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mcbews_repl.limits import ANSWER_RESERVED_BUFFERS, ANSWER_RESERVED_BYTES
from mcbews_repl.sansio import Channel, Chunk, Reassembler
from mcbews_repl.sansio.jsonwire import utf8_len
from mcbews_repl.sansio.reassembly import Completed, Duplicate, Failed, Pending
from mcbews_repl.sansio.wire import MAX_MESSAGE_ID_CHARS


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


def test_an_id_too_long_to_keep_is_refused_and_never_kept() -> None:
    r = Reassembler()
    long_id = "i" * (MAX_MESSAGE_ID_CHARS + 1)
    for total in (1, 2):
        out = r.feed(Chunk(Channel.UI_CHAT, long_id, 1, total, "{}"), 0)
        assert isinstance(out, Failed) and out.reason == "bad_id"
        assert out.message_id == long_id[:MAX_MESSAGE_ID_CHARS]
    assert r.buffer_count == 0 and not r._recent
    out = r.feed(Chunk(Channel.UI_CHAT, long_id[1:], 1, 1, "{}"), 0)
    assert isinstance(out, Completed)


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
    st.sampled_from(["a", "b", "c" * 9]),  # the last longer than max_id_chars (8)
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
    answer_buffers=st.integers(0, 3),
    answer_bytes=st.integers(0, 16),
)
@settings(max_examples=1000)
def test_fast_paths_agree_with_the_general_path(
    steps: list[tuple[Any, ...]],
    max_buffers: int,
    max_chunks: int,
    max_message_bytes: int,
    max_total_bytes: int,
    answer_buffers: int,
    answer_bytes: int,
) -> None:
    """Any stream of chunks, in or out of order, duplicated, conflicting, over the caps,
    with expiry between: the fast paths answer and bound exactly as the general path,
    and unsolicited channels never use what is kept for answers."""
    limits = {
        "ttl_seconds": 30.0,
        "max_buffers": max_buffers,
        "max_chunks": max_chunks,
        "max_message_bytes": max_message_bytes,
        "max_total_bytes": max_total_bytes,
        "answer_buffers": min(answer_buffers, max_buffers),
        "answer_bytes": min(answer_bytes, max_total_bytes),
        "max_id_chars": 8,
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
        buffers, size = fast.unsolicited_usage
        assert buffers <= fast.unsolicited_max_buffers and size <= fast.unsolicited_max_bytes


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


def test_unsolicited_streams_stop_at_their_share_and_answers_use_the_rest() -> None:
    r = Reassembler(max_buffers=4, max_total_bytes=20, answer_buffers=2, answer_bytes=10)
    for k in range(3):
        r.feed(chunk(1, 2, "u", f"ui{k}"), 0)
    assert r.unsolicited_usage == (2, 2) and r.buffer_count == 2
    out = r.feed(chunk(1, 2, "u", "ui9"), 0)
    assert isinstance(out, Failed) and out.reason == "too_many_buffers"
    assert "kept for answers" in out.detail
    for k in range(2):  # answers take the kept buffers
        assert isinstance(r.feed(chunk(1, 2, "a", f"ans{k}", Channel.BRIDGE), 0), Pending)
    full = r.feed(chunk(1, 2, "a", "ans9", Channel.BRIDGE), 0)
    assert isinstance(full, Failed) and full.reason == "too_many_buffers"
    # Bytes: unsolicited input may hold 10 of the 20; its next byte fails that message.
    r.feed(chunk(2, 2, "b", "ui0"), 0)
    r.feed(chunk(1, 2, "x" * 9, "ui7"), 0)
    over = r.feed(chunk(2, 2, "x" * 2, "ui7"), 0)
    assert isinstance(over, Failed) and over.reason == "buffer_space_exhausted"
    assert r.unsolicited_usage == (1, 1)


def test_reservations_must_fit_the_caps() -> None:
    with pytest.raises(ValueError, match="within the caps"):
        Reassembler(max_buffers=4, answer_buffers=5)


RESERVE = {"answer_buffers": ANSWER_RESERVED_BUFFERS, "answer_bytes": ANSWER_RESERVED_BYTES}
_flood_chunk = st.tuples(
    st.integers(0, 300),  # message id
    st.integers(1, 128),  # index
    st.integers(1, 128),  # total
    st.integers(0, 256),  # content length
)


@given(
    streams=st.integers(0, 200),
    stream_bytes=st.integers(0, 256),
    noise=st.lists(_flood_chunk, max_size=100),
    answers=st.lists(st.text(min_size=257, max_size=3000), min_size=1, max_size=4),
    size=st.integers(20, 256),
    late=st.floats(0, 1),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=200, deadline=None)
def test_no_unsolicited_flood_blocks_an_answer(
    streams: int,
    stream_bytes: int,
    noise: list[tuple[int, int, int, int]],
    answers: list[str],
    size: int,
    late: float,
    seed: int,
) -> None:
    """Any flood of UI chat chunks (partial streams that never complete, and random
    chunks) interleaved with the chunks of up to four multi-chunk answers (within what is
    kept for answers): every answer completes, once, with its text."""
    r = Reassembler(**RESERVE)
    rng = random.Random(seed)
    stream = [chunk(1, 128, "f" * stream_bytes, f"partial{k}") for k in range(streams)]
    stream += [chunk(i, n, "f" * length, f"noise{m}") for m, i, n, length in noise]
    rng.shuffle(stream)
    start = int(late * len(stream))  # answers arrive once that much of the flood has
    for k, text in enumerate(answers):
        parts = [text[i : i + size] for i in range(0, len(text), size)]
        mine = [chunk(i, len(parts), p, f"ans{k}", Channel.BRIDGE) for i, p in enumerate(parts, 1)]
        rng.shuffle(mine)
        for piece in mine:  # each answer's chunks land at random places in the flood
            stream.insert(rng.randint(start, len(stream)), piece)
    done = {}
    for now, item in enumerate(stream):
        out = r.feed(item, now / 1000)
        if isinstance(out, Completed) and out.channel is Channel.BRIDGE:
            assert out.message_id not in done
            done[out.message_id] = out.text
    assert done == {f"ans{k}": text for k, text in enumerate(answers)}
