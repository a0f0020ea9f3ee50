"""The bounded reassembler: rules, TTL and caps, with the clock passed in."""

from __future__ import annotations

from mcbews_repl.sansio import Channel, Chunk, Reassembler
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
